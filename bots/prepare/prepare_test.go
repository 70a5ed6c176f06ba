// The repertoire of stored games and the preparation's bounds: counts by position, our side only, time
// shares, cancellation.

package prepare

import (
	"context"
	"errors"
	"testing"
	"time"

	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
)

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// storedGame is a chess game from the start with us on side ours.
func storedGame(id string, ours games.Side, moves ...string) memory.Game {
	return memory.Game{GameSummary: memory.GameSummary{ID: id, Game: "chess", OurSide: int(ours)}, StartFEN: startFEN,
		Moves: moves}
}

// fenAfter is the position after moves from the start.
func fenAfter(t *testing.T, moves ...string) string {
	t.Helper()
	p, err := chess.Game{}.ParsePosition(startFEN)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	return p.FEN()
}

func TestRepertoire(t *testing.T) {
	g := chess.Game{}
	black := games.Side(1)
	stored := []memory.Game{
		// We are Black three times after 1.e4, and twice after 1.e4 e5 2.Nf3.
		storedGame("a", black, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5"),
		storedGame("b", black, "e2e4", "e7e5", "g1f3", "g8f6"),
		storedGame("c", black, "e2e4", "c7c5", "g1f3"),
		// As White the start position comes up twice, and 1.d4 d5 once.
		storedGame("d", games.First, "d2d4", "d7d5", "c2c4"),
		storedGame("e", games.First, "e2e4", "e7e5"),
		// Another game's record, and a game whose moves stop reading after 1.e4: its first position counts.
		{GameSummary: memory.GameSummary{ID: "f", Game: "checkers", OurSide: 1}, StartFEN: startFEN, Moves: []string{"e2e4"}},
		storedGame("g", black, "e2e4", "zz99", "g1f3"),
	}
	got := Repertoire(g, stored, 2)
	want := []Position{
		// Each with the share of the six chess games that reached it as its chance.
		{FEN: fenAfter(t, "e2e4"), Count: 4, Ply: 1, Chance: 4.0 / 6},
		{FEN: startFEN, Count: 2, Ply: 0, Chance: 2.0 / 6},
		{FEN: fenAfter(t, "e2e4", "e7e5", "g1f3"), Count: 2, Ply: 3, Chance: 2.0 / 6},
	}
	if len(got) != len(want) {
		t.Fatalf("repertoire %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("position %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := len(Repertoire(g, stored, 1)); n != 7 {
		t.Errorf("%d positions reached at least once, want 7", n)
	}
}

func TestRunFindsTheBestMovesWithinItsBudget(t *testing.T) {
	g := chess.Game{}
	s, err := searchers.New(g, searchers.Config{HashMB: 8, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	// White mates at once (Qxf7#) in the first position; the second is the start.
	mate := "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
	positions := []Position{{FEN: mate, Count: 3, Ply: 6}, {FEN: startFEN, Count: 1}}
	var reports []Progress
	var filed []Finding
	start := time.Now()
	out, err := Run(context.Background(), g, s, positions, Options{Budget: 800 * time.Millisecond},
		func(p Progress) { reports = append(reports, p) }, func(f Finding) error { filed = append(filed, f); return nil })
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || len(filed) != 2 || len(reports) != 2 || reports[1].Done != 2 || reports[1].Total != 2 {
		t.Fatalf("findings %+v, filed %d, progress %+v", out, len(filed), reports)
	}
	if out[0].Move != "h5f7" || out[0].Score < 10000 || out[0].Depth < 1 {
		t.Errorf("mate position: %+v, want h5f7 with a mate score", out[0])
	}
	if elapsed > 3*time.Second {
		t.Errorf("took %v with a budget of 800 ms", elapsed)
	}
}

func TestRunStopsWhenItsContextEnds(t *testing.T) {
	g := chess.Game{}
	s, err := searchers.New(g, searchers.Config{HashMB: 8, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	positions := []Position{{FEN: startFEN, Count: 2}, {FEN: fenAfter(t, "e2e4"), Count: 2}}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	out, err := Run(ctx, g, s, positions, Options{Budget: time.Minute}, nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's", err)
	}
	if len(out) != 0 {
		t.Errorf("findings %+v from interrupted searches", out)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("stopped after %v", took)
	}
	if _, err := Run(context.Background(), g, s, positions, Options{}, nil, nil); !errors.Is(err, ErrNoBudget) {
		t.Errorf("no budget: error %v", err)
	}
}

// cuttingGate lets every search run for at most cut before the engine "searches itself" and cuts it short,
// counting the searches it let in and the time they ran.
type cuttingGate struct {
	cut     time.Duration
	entered int
	ran     time.Duration
}

func (g *cuttingGate) Enter(ctx context.Context) (context.Context, func()) {
	g.entered++
	run, cancel := context.WithTimeout(ctx, g.cut)
	begun := time.Now()
	return run, func() { cancel(); g.ran += time.Since(begun) }
}

// TestRunThroughAGateThatCutsItsSearches: a search cut short by the engine's own is searched again for the
// rest of its share, the budget counts only the time searched, and the findings are those of whole shares.
func TestRunThroughAGateThatCutsItsSearches(t *testing.T) {
	g := chess.Game{}
	s, err := searchers.New(g, searchers.Config{HashMB: 8, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	positions := []Position{{FEN: startFEN, Count: 1}, {FEN: fenAfter(t, "e2e4"), Count: 1, Ply: 1}}
	gate := &cuttingGate{cut: 50 * time.Millisecond}
	budget := 600 * time.Millisecond
	out, err := Run(context.Background(), g, s, positions, Options{Budget: budget, Gate: gate}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Depth < 4 || out[1].Depth < 4 {
		t.Fatalf("findings %+v, want both positions searched at least 4 plies", out)
	}
	// Each 300 ms share takes about six cut searches (fewer where the searches see the cut late, under the race
	// detector); at least two each show that a cut one is searched again.
	if gate.entered < 2*len(positions) {
		t.Errorf("%d searches entered the gate, want the cut ones searched again", gate.entered)
	}
	if gate.ran < budget*8/10 || gate.ran > budget+300*time.Millisecond {
		t.Errorf("the searches ran %v of a %v budget", gate.ran, budget)
	}
}
