// Package booktest writes small polyglot chess books for tests.
package booktest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dossier/bots/openingbook"
	"dossier/games/chess"
)

// Line is one book entry: the moves played from the start before it (UCI, space-separated), its move and weight.
type Line struct {
	Before, Move string
	Weight       uint16
}

// File writes a chess book of the lines to a file in t's temporary directory and returns its path.
func File(t testing.TB, lines ...Line) string {
	t.Helper()
	var book []openingbook.Entry
	for _, l := range lines {
		p := chess.Game{}.Start()
		for _, tok := range strings.Fields(l.Before) {
			m, err := p.ParseMove(tok)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
		m, err := p.ParseMove(l.Move)
		if err != nil {
			t.Fatal(err)
		}
		e, err := openingbook.EntryOf(p, m, l.Weight)
		if err != nil {
			t.Fatal(err)
		}
		book = append(book, e)
	}
	var buf bytes.Buffer
	if err := openingbook.Write(&buf, book); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.bin")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
