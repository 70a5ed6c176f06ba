package openingbook

import (
	"testing"

	"dossier/games/chess"
)

// FuzzFromBytes reads any bytes as a book: an error or a book whose lookups answer, never a panic.
func FuzzFromBytes(f *testing.F) {
	start := chess.Game{}.Start()
	f.Add([]byte{})
	f.Add(make([]byte, 16))
	f.Add(written(f, entry(f, "", "e2e4", 3), entry(f, "", "d2d4", 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := FromBytes("fuzz", data)
		if err != nil {
			return
		}
		moves, err := b.Moves(start)
		if err != nil {
			t.Fatalf("a book that opened fails a lookup: %v", err)
		}
		Choose(moves, 0.5)
	})
}
