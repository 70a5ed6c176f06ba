// Preparing against a stored opponent: the repertoire read from a real memory, searched, and filed as
// experience that reads back.

package prepare

import (
	"context"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
	"dossier/play/opponent"
)

// recordGame files a finished game of chess from the start against o.
func recordGame(t *testing.T, mem *memory.Memory, o opponent.Opponent, id string, ours games.Side, moves []string, end time.Time) {
	t.Helper()
	g := chess.Game{}
	mem.Record(memory.Event{Start: &memory.GameStart{GameID: id, OpponentKey: o.Key(), Opponent: o, Game: g.Name(),
		OurSide: int(ours), StartFEN: g.Start().FEN(), At: end.Add(-time.Second)}})
	if err := mem.Record(memory.Event{End: &memory.GameEnd{GameID: id, Result: "1/2-1/2", Reason: "test", OurScore: 0.5,
		Moves: moves, At: end}}).Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestForOpponentFilesItsRepertoireAsExperience(t *testing.T) {
	mem, err := memory.Open(memory.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	rival := opponent.Opponent{Name: "Repeater", Kind: opponent.Computer, Source: "match"}
	end := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	// Twice 1.e4 e5 2.Nf3 with us as Black: two positions of ours repeat (after 1.e4, after 2.Nf3).
	recordGame(t, mem, rival, "g1", games.Side(1), []string{"e2e4", "e7e5", "g1f3", "b8c6"}, end)
	recordGame(t, mem, rival, "g2", games.Side(1), []string{"e2e4", "e7e5", "g1f3", "g8f6"}, end.Add(time.Minute))
	g := chess.Game{}
	var steps []Progress
	sum, err := ForOpponent(context.Background(), mem, "Repeater", g,
		OpponentOptions{Options: Options{Budget: 600 * time.Millisecond}, HashMB: 8}, func(p Progress) { steps = append(steps, p) })
	if err != nil {
		t.Fatal(err)
	}
	if sum.Opponent != rival.Key() || sum.Repertoire != 2 || sum.Prepared != 2 || len(steps) != 2 {
		t.Fatalf("summary %+v after %d progress reports, want 2 positions prepared", sum, len(steps))
	}
	entries, err := mem.Experience(rival.Key(), g.Name())
	if err != nil {
		t.Fatal(err)
	}
	byFEN := map[string]memory.Experience{}
	for _, e := range entries {
		if e.OpponentKey == rival.Key() {
			byFEN[e.FEN] = e
		}
	}
	for _, f := range sum.Findings {
		e, ok := byFEN[f.FEN]
		if !ok {
			t.Errorf("%s: no experience entry filed", f.FEN)
			continue
		}
		p, _ := g.ParsePosition(f.FEN)
		if e.Move != f.Move || e.Depth != f.Depth || e.Value != f.Score || e.Hash != p.Hash() || e.Bound != memory.BoundLower {
			t.Errorf("%s: entry %+v, finding %+v", f.FEN, e, f)
		}
	}
	if _, err := ForOpponent(context.Background(), mem, "Nobody", g, OpponentOptions{Options: Options{Budget: time.Second}}, nil); err == nil {
		t.Error("an unknown opponent prepared without an error")
	}
}

func TestTheBooksPositionsAreLeftOutAndTheLikelyOnesMergedByChance(t *testing.T) {
	g := chess.Game{}
	afterE4, afterNf3 := fenAfter(t, "e2e4"), fenAfter(t, "e2e4", "e7e5", "g1f3")
	repertoire := []Position{
		{FEN: afterE4, Count: 4, Ply: 1, Chance: 0.6},
		{FEN: startFEN, Count: 3, Ply: 0, Chance: 0.5},
		{FEN: afterNf3, Count: 2, Ply: 3, Chance: 0.3},
	}
	// Our book plays at the start: the start is left out.
	inBook := func(p games.Position) bool { return p.Ply() == 0 }
	kept := inBookLeftOut(g, repertoire, inBook)
	if len(kept) != 2 || kept[0].FEN != afterE4 || kept[1].FEN != afterNf3 {
		t.Fatalf("kept %+v: want the positions after 1.e4 and 2.Nf3", kept)
	}
	if got := inBookLeftOut(g, repertoire, nil); len(got) != 3 {
		t.Fatalf("without a book %d positions, want all 3", len(got))
	}
	// A likely position new to the repertoire comes by its chance; one already in it takes the higher chance.
	afterD4 := fenAfter(t, "d2d4", "d7d5", "c2c4")
	merged := withLikely(kept, []Position{{FEN: afterD4, Ply: 3, Chance: 0.45}, {FEN: afterNf3, Ply: 3, Chance: 0.7}})
	want := []string{afterNf3, afterE4, afterD4}
	if len(merged) != len(want) {
		t.Fatalf("merged %+v, want %d positions", merged, len(want))
	}
	for i, fen := range want {
		if merged[i].FEN != fen {
			t.Fatalf("merged %+v: position %d is %s, want %s", merged, i, merged[i].FEN, fen)
		}
	}
	if merged[0].Count != 2 || merged[0].Chance != 0.7 {
		t.Fatalf("the position in both: %+v, want its count 2 and the higher chance 0.7", merged[0])
	}
}
