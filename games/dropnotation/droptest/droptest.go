// Package droptest holds the checks the drop games' move-parser fuzz tests share.
package droptest

import (
	"strings"
	"testing"

	"dossier/games"
)

// CheckParseMove parses move on p and fails t unless the answer is consistent: a rejected move comes
// back as NoMove with an error starting with errPrefix, and an accepted one is legal and formats to a
// string that parses back to it.
func CheckParseMove(t *testing.T, p games.Position, move, errPrefix string) {
	t.Helper()
	m, err := p.ParseMove(move)
	if err != nil {
		if m != games.NoMove || !strings.HasPrefix(err.Error(), errPrefix) {
			t.Errorf("ParseMove(%q) = %v, %q", move, m, err)
		}
		return
	}
	var buf [games.MaxMoves]games.Move
	legal := false
	for _, l := range p.AppendMoves(buf[:0]) {
		legal = legal || l == m
	}
	if !legal {
		t.Fatalf("%s: ParseMove(%q) = %v, which is not a legal move", p.FEN(), move, m)
	}
	if back, err := p.ParseMove(p.FormatMove(m)); err != nil || back != m {
		t.Fatalf("%s: %q formats as %q, which parses to %v, %v", p.FEN(), move, p.FormatMove(m), back, err)
	}
}
