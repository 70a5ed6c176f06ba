// What a book holds in a position, as `dossier book show` prints it.

package openingbook

import (
	"fmt"
	"io"

	"dossier/games"
)

// WriteMoves writes the book's moves in p, one a line with its weight and share: "e2e4 weight 120 (30.0%)".
func WriteMoves(w io.Writer, b *Book, p games.Position) error {
	moves, err := b.Moves(p)
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		_, err := fmt.Fprintf(w, "no book move in %s\n", p.FEN())
		return err
	}
	total := 0
	for _, m := range moves {
		total += m.Weight
	}
	for _, m := range moves {
		share := 0.0
		if total > 0 {
			share = 100 * float64(m.Weight) / float64(total)
		}
		if _, err := fmt.Fprintf(w, "%s weight %d (%.1f%%)\n", p.FormatMove(m.Move), m.Weight, share); err != nil {
			return err
		}
	}
	return nil
}
