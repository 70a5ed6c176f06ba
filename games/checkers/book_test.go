package checkers

import (
	"testing"

	"dossier/games"
)

// TestBookCodingIsStable pins the book key of the start and of a position after two moves, and checks that
// the codes of every legal move differ in positions of random games: a book made today reads the same
// tomorrow, and a code names one move.
func TestBookCodingIsStable(t *testing.T) {
	p := StartPosition()
	keys := []uint64{p.BookKey()}
	for _, tok := range []string{"11-15", "23-19"} {
		m, err := p.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
		keys = append(keys, p.BookKey())
	}
	want := []uint64{0x7447502100547955, 0xfe33a3131b138346, 0x62035cf517821418} // the keys books were made with
	for i := range keys {
		if keys[i] != want[i] {
			t.Errorf("key %d is %#x, books made before hold %#x", i, keys[i], want[i])
		}
	}
	var buf [games.MaxMoves]games.Move
	p = StartPosition()
	for ply := 0; ply < 2000; ply++ {
		moves := p.AppendMoves(buf[:0])
		if len(moves) == 0 || p.Status().Result.Over() {
			p = StartPosition()
			continue
		}
		seen := map[uint16]games.Move{}
		for _, m := range moves {
			code := p.BookMove(m)
			if other, ok := seen[code]; ok {
				t.Fatalf("%s: %s and %s share the code %#x", p.FEN(), p.FormatMove(m), p.FormatMove(other), code)
			}
			seen[code] = m
		}
		p.Play(moves[(ply*7919)%len(moves)])
	}
}
