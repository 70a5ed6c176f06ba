package openingbook

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"dossier/games"
)

// likelyBook is a small book: 1.e4 or 1.d4 for White; after 1.e4 Black's c5 or e5, then 2.Nf3 each; after 1.d4
// d5 2.c4. Black's replies after 2.Nf3 are not in it: the book ends there for White.
func likelyBook(t *testing.T) *Book {
	t.Helper()
	b, err := FromBytes("likely", written(t,
		entry(t, "", "e2e4", 10), entry(t, "", "d2d4", 10),
		entry(t, "e2e4", "c7c5", 5), entry(t, "e2e4", "e7e5", 5),
		entry(t, "e2e4 c7c5", "g1f3", 1), entry(t, "e2e4 e7e5", "g1f3", 1),
		entry(t, "d2d4", "d7d5", 1), entry(t, "d2d4 d7d5", "c2c4", 1)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exitsByFEN returns the exits' chances by FEN.
func exitsByFEN(exits []Exit) map[string]float64 {
	out := map[string]float64{}
	for _, e := range exits {
		out[e.FEN] = e.Chance
	}
	return out
}

func TestLikelyExitsFollowTheWonLineAndTheOpponentsReplies(t *testing.T) {
	b := likelyBook(t)
	start := play(t, "")
	lines, replies := Lines{}, Replies{}
	// Three games, all won with 1.e4: the line is kept. The opponent answered c5 twice and e5 once, and after
	// 2.Nf3 played d6 and Nc6.
	for _, g := range []string{"e2e4 c7c5 g1f3 d7d6", "e2e4 c7c5 g1f3 d7d6", "e2e4 e7e5 g1f3 b8c6"} {
		p := start.Clone()
		for i, text := range strings.Fields(g) {
			if i%2 == 0 {
				lines.Add(p.Hash(), text, 1)
			} else {
				replies.Add(p.Hash(), text)
			}
			m, err := p.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
	}
	exits, err := LikelyExits(start, games.First, b, rand.New(rand.NewPCG(1, 2)),
		LikelyExitsOptions{Lines: lines, Prior: Prior(3, 3), Replies: replies})
	if err != nil {
		t.Fatal(err)
	}
	got := exitsByFEN(exits)
	sicilian, open := play(t, "e2e4 c7c5 g1f3 d7d6").FEN(), play(t, "e2e4 e7e5 g1f3 b8c6").FEN()
	if len(got) != 2 || math.Abs(got[sicilian]-2.0/3) > 1e-9 || math.Abs(got[open]-1.0/3) > 1e-9 {
		t.Fatalf("exits %v: want the two positions after the opponent's replies to 2.Nf3, at 2/3 and 1/3", exits)
	}
	if exits[0].FEN != sicilian || exits[0].Ply != 4 {
		t.Fatalf("first exit %+v: want the likeliest first, at ply 4", exits[0])
	}
}

func TestLikelyExitsTakeUnknownRepliesFromTheBookAndStopWhereNothingKnowsThem(t *testing.T) {
	b := likelyBook(t)
	// No games: our first move is drawn among e4 and d4 alike, the opponent's replies by the book's weights.
	// After 1.d4 d5 2.c4 the book has no reply, and the opponent never played there: no exit is known.
	// After 1.e4 e5 2.Nf3 and 1.e4 c5 2.Nf3 likewise. So nothing.
	exits, err := LikelyExits(play(t, ""), games.First, b, rand.New(rand.NewPCG(1, 2)), LikelyExitsOptions{Prior: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if len(exits) != 0 {
		t.Fatalf("exits %v: want none (every line ends on the opponent's move in an unknown position)", exits)
	}
	// As Black the book ends for us after 1.e4 c5 2.Nf3 and 1.e4 e5 2.Nf3, and after 1.d4 d5 2.c4: the
	// opponent's (White's) moves by the book's weights, ours drawn alike among c5 and e5 (no games), d5 alone.
	exits, err = LikelyExits(play(t, ""), games.Second, b, rand.New(rand.NewPCG(1, 2)), LikelyExitsOptions{Prior: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	got := exitsByFEN(exits)
	d4 := play(t, "d2d4 d7d5 c2c4").FEN()
	wantAt := map[string]float64{d4: 0.5, play(t, "e2e4 c7c5 g1f3").FEN(): 0.25, play(t, "e2e4 e7e5 g1f3").FEN(): 0.25}
	for fen, want := range wantAt {
		if math.Abs(got[fen]-want) > 0.06 { // our choice of c5 or e5 is drawn: 200 draws
			t.Fatalf("exits as Black %v: want %s at about %.2f", exits, fen, want)
		}
	}
	if len(got) != len(wantAt) {
		t.Fatalf("exits as Black %v: want exactly %d", exits, len(wantAt))
	}
}

func TestLikelyExitsStopAtTheBookDepthAndBelowTheLeastChance(t *testing.T) {
	b := likelyBook(t)
	exits, err := LikelyExits(play(t, ""), games.First, b, rand.New(rand.NewPCG(1, 2)),
		LikelyExitsOptions{Depth: 2, Prior: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	got := exitsByFEN(exits)
	// BookDepth 2: our book moves at plies 0 only; after the opponent's book reply we are out at ply 2.
	want := map[string]float64{play(t, "e2e4 c7c5").FEN(): 0.25, play(t, "e2e4 e7e5").FEN(): 0.25,
		play(t, "d2d4 d7d5").FEN(): 0.5}
	if len(got) != len(want) {
		t.Fatalf("exits %v: want %d", exits, len(want))
	}
	for fen, c := range want {
		if math.Abs(got[fen]-c) > 0.06 {
			t.Fatalf("exits %v: want %s at about %.2f", exits, fen, c)
		}
	}
	exits, err = LikelyExits(play(t, ""), games.First, b, rand.New(rand.NewPCG(1, 2)),
		LikelyExitsOptions{Depth: 2, Prior: 0.5, MinChance: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exits {
		if e.Chance < 0.4 {
			t.Fatalf("exit %+v below the least chance 0.4", e)
		}
	}
}
