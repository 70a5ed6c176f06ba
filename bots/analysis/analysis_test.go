// Finding our mistake in a finished game: the queen left to be taken is blamed with a better move, a sound
// game blames nothing, an illegal game is an error, and a context that ends stops the analysis.

package analysis

import (
	"context"
	"slices"
	"testing"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
)

// gameOf reads a game in the protocol notation from the start.
func gameOf(t *testing.T, g games.Game, moves ...string) []games.Move {
	t.Helper()
	p := g.Start()
	var out []games.Move
	for _, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
		p.Play(m)
	}
	return out
}

// materialist is a fixed-depth searcher counting material in centipawns.
func materialist(t *testing.T, g games.Game) engine.Searcher {
	t.Helper()
	s, err := searchers.New(g, searchers.Config{Preset: "materialist", HashMB: 8})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var chessOptions = Options{Depth: 4, Threshold: 150, Losing: 200}

func TestFindBlamesTheMoveThatLostTheGame(t *testing.T) {
	g := chess.Game{}
	// White (us) attacks f7 with the queen, then takes it although the king guards it: 3.Qxf7+?? Kxf7.
	moves := gameOf(t, g, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	rep, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, chessOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || len(rep.Moves) != 4 {
		t.Fatalf("complete %v, %d of our moves analysed, want all 4", rep.Complete, len(rep.Moves))
	}
	m, ok := rep.Blamed()
	if !ok || m.Played != "h5f7" || m.Ply != 4 {
		t.Fatalf("blamed %+v (%v), want 3.Qxf7+ at ply 4", m, ok)
	}
	if m.Best == m.Played || m.Drop() < 600 || m.Value > -chessOptions.Losing || m.Depth != 4 {
		t.Errorf("Qxf7+ valued %v against %s's %v at depth %d: want a queen lost for a pawn", m.Value, m.Best,
			m.BestValue, m.Depth)
	}
}

func TestFindBlamesNothingInASoundGame(t *testing.T) {
	g := chess.Game{}
	moves := gameOf(t, g, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6")
	rep, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, chessOptions)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := rep.Blamed(); ok || !rep.Complete || len(rep.Moves) != 3 {
		t.Fatalf("blamed %+v (%v) over %d moves, want nothing over 3", m, ok, len(rep.Moves))
	}
	// Black's moves are analysed when Black is us.
	rep, err = Find(context.Background(), materialist(t, g), g.Start(), moves, games.Second, chessOptions)
	if err != nil || len(rep.Moves) != 3 || rep.Moves[0].Played != "e7e5" {
		t.Fatalf("as Black: %+v, %v", rep.Moves, err)
	}
}

func TestFindRefusesAnIllegalGameAndStopsWithItsContext(t *testing.T) {
	g := chess.Game{}
	moves := gameOf(t, g, "e2e4", "e7e5")
	if _, err := Find(context.Background(), materialist(t, g), g.Start(), append(moves, moves[0]), games.First, chessOptions); err == nil {
		t.Error("an illegal move was analysed")
	}
	if _, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, Options{}); err == nil {
		t.Error("depth 0 was accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Find(ctx, materialist(t, g), g.Start(), moves, games.First, chessOptions)
	if err != nil || rep.Complete || len(rep.Moves) != 0 || rep.Mistake != -1 {
		t.Errorf("with an ended context: %+v, %v; want an incomplete, empty report", rep, err)
	}
}

// cuttingGate lets each search begin, and cuts the first cuts of them short after a moment, as our own
// searches would.
type cuttingGate struct {
	cuts, entered int
}

func (g *cuttingGate) Enter(ctx context.Context) (context.Context, func()) {
	g.entered++
	run, cancel := context.WithCancel(ctx)
	if g.cuts > 0 {
		g.cuts--
		cancel()
	}
	return run, cancel
}

func TestFindSearchesAgainWhatTheGateCutShort(t *testing.T) {
	g := chess.Game{}
	moves := gameOf(t, g, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	want, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, chessOptions)
	if err != nil {
		t.Fatal(err)
	}
	opts := chessOptions
	gate := &cuttingGate{cuts: 3}
	opts.Gate = gate
	got, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || len(got.Moves) != len(want.Moves) || got.Mistake != want.Mistake {
		t.Fatalf("with searches cut short: %+v, want %+v", got, want)
	}
	for i := range want.Moves {
		if got.Moves[i] != want.Moves[i] {
			t.Errorf("move %d: %v, want %v", i, got.Moves[i], want.Moves[i])
		}
	}
	// A search for each of our moves, a second for each not best, and the 3 searched again.
	searches := len(want.Moves) + 3
	for _, m := range want.Moves {
		if m.Played != m.Best {
			searches++
		}
	}
	if gate.entered != searches {
		t.Errorf("the gate was entered %d times, want %d", gate.entered, searches)
	}
}

func TestFindStopsAtTheMoveThatLostTheGame(t *testing.T) {
	g := chess.Game{}
	moves := gameOf(t, g, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	opts := chessOptions
	opts.StopAtLoss = true
	rep, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, opts)
	if err != nil {
		t.Fatal(err)
	}
	// 3.Qxf7+?? lost the queen: the analysis ends there, blaming it, without 4.Bc4.
	if m, ok := rep.Blamed(); !ok || m.Played != "h5f7" || len(rep.Moves) != 3 || rep.Complete {
		t.Errorf("blamed %+v (%v) after %d moves (complete %v), want 3.Qxf7+ as the third and last", m, ok,
			len(rep.Moves), rep.Complete)
	}
}

func TestFindLooksFromItsFirstPlyFirst(t *testing.T) {
	g := chess.Game{}
	moves := gameOf(t, g, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	cases := []struct {
		name     string
		from     int
		analysed []string // in the game's order
	}{
		// From ply 3: 3.Qxf7+ is blamed first, and 1.e4 and 2.Qh5 are left out.
		{"the mistake in the later moves", 3, []string{"h5f7"}},
		// From ply 5: 4.Bc4 blames nothing, so the earlier moves are analysed, up to 3.Qxf7+.
		{"the mistake before them", 5, []string{"e2e4", "d1h5", "h5f7", "f1c4"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := chessOptions
			opts.FromPly, opts.StopAtLoss = c.from, true
			rep, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, opts)
			if err != nil {
				t.Fatal(err)
			}
			var analysed []string
			for _, m := range rep.Moves {
				analysed = append(analysed, m.Played)
			}
			m, ok := rep.Blamed()
			if !slices.Equal(analysed, c.analysed) || !ok || m.Played != "h5f7" {
				t.Errorf("analysed %v, blamed %+v (%v); want %v with 3.Qxf7+ blamed", analysed, m, ok, c.analysed)
			}
		})
	}
}

// TestBlameRule picks the mistake from analysed moves: the first move that turned a position that was not lost
// into a lost one, else the first that fell by the threshold, even in a position already lost.
func TestBlameRule(t *testing.T) {
	opts := Options{Threshold: 100, Losing: 300}
	move := func(best, value float64) Move { return Move{BestValue: best, Value: value} }
	tests := []struct {
		name  string
		moves []Move
		want  int
	}{
		{"no move fell by the threshold", []Move{move(20, 0), move(-50, -120)}, -1},
		{"the move that turned the game lost, not the earlier slip", []Move{move(50, -100), move(-100, -400)}, 1},
		{"a slide that never crossed at once: the first fall", []Move{move(50, -100), move(-100, -250)}, 0},
		{"a drawn game's lead given away", []Move{move(400, 0)}, 0},
		{"falls only where the game was already lost: the first", []Move{move(-350, -600), move(-700, -900)}, 0},
		{"the move that turned the game lost, after a fall in a lost position", []Move{move(-400, -600), move(0, -400)}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := blame(tc.moves, opts); got != tc.want {
				t.Errorf("blame = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestFindGoesOnFromWhatAnEarlierRunFound cuts an analysis short after its first moves (a process that quit),
// then runs it again with what the first run found: the second searches only the moves left, and the report is
// the one an uncut analysis makes. A Done that is not this game's is searched anew.
func TestFindGoesOnFromWhatAnEarlierRunFound(t *testing.T) {
	g := chess.Game{}
	moves := gameOf(t, g, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	whole, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, chessOptions)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var found []Move
	opts := chessOptions
	opts.Found = func(m Move) {
		found = append(found, m)
		if len(found) == 2 {
			cancel()
		}
	}
	cut, err := Find(ctx, materialist(t, g), g.Start(), moves, games.First, opts)
	if err != nil || cut.Complete || len(found) != 2 {
		t.Fatalf("the cut run: complete %v, %d found (%v), want 2 found and incomplete", cut.Complete, len(found), err)
	}
	opts = chessOptions
	opts.Done = found
	var again []Move
	opts.Found = func(m Move) { again = append(again, m) }
	rest, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, opts)
	if err != nil {
		t.Fatal(err)
	}
	// The values, not the best moves' names: where several moves are worth the same, which one a search names
	// depends on what its table held from the searches before.
	sameValues := func(a, b []Move) bool {
		return slices.EqualFunc(a, b, func(x, y Move) bool {
			return x.Ply == y.Ply && x.Played == y.Played && x.Value == y.Value && x.BestValue == y.BestValue && x.Depth == y.Depth
		})
	}
	if !rest.Complete || rest.Mistake != whole.Mistake || !sameValues(rest.Moves, whole.Moves) {
		t.Errorf("resumed: %+v\nwant the uncut report %+v", rest, whole)
	}
	if len(again) != len(whole.Moves)-2 {
		t.Errorf("the resumed run analysed %d moves, want the %d left", len(again), len(whole.Moves)-2)
	}
	for _, m := range again {
		for _, f := range found {
			if m.Ply == f.Ply {
				t.Errorf("ply %d analysed again", m.Ply)
			}
		}
	}
	// Moves of another game (another move at the ply, a ply of the opponent's) are not believed.
	opts = chessOptions
	opts.Done = []Move{{Ply: 0, Played: "d2d4", Best: "d2d4"}, {Ply: 1, Played: "e7e5", Best: "e7e5"}}
	other, err := Find(context.Background(), materialist(t, g), g.Start(), moves, games.First, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sameValues(other.Moves, whole.Moves) || other.Mistake != whole.Mistake {
		t.Errorf("with another game's moves as done: %+v, want %+v", other, whole)
	}
}
