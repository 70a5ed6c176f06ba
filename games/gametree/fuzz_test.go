// Fuzz tests of the game tree text format and of reading moves and positions by node name.

package gametree

import (
	"strings"
	"testing"

	"dossier/games"
)

// FuzzParse checks that any accepted text writes a tree that reads back to the same text, and that
// errors come from this package.
func FuzzParse(f *testing.F) {
	for _, s := range []string{example, "r", "a[1](b[2] c)", "a( # c\n b [ 3 , 5 ] ,\n\tc[0,4])", "x[0.5,-1e3]",
		"a(b c(b))", "a[1e999]", "a(b,)", "a(", "a[", "(", "a'(b.c d_e)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tree, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "gametree: ") {
				t.Errorf("Parse(%q) error %q lacks the package prefix", s, err)
			}
			return
		}
		text := tree.String()
		again, err := Parse(text)
		if err != nil {
			t.Fatalf("%q was accepted but its written form %q is not: %v", s, text, err)
		}
		if again.String() != text || again.NumFunctions() != tree.NumFunctions() || again.Height() != tree.Height() {
			t.Fatalf("%q: written as %q, which reads back as %q", s, text, again.String())
		}
	})
}

// FuzzParseMove checks that reading positions and moves by name accepts exactly the tree's names.
func FuzzParseMove(f *testing.F) {
	tree := MustParse(example)
	for _, s := range []string{"a", "b", "c", "d", "g", "", "x", "a b"} {
		f.Add("a", s)
		f.Add("b", s)
	}
	f.Fuzz(func(t *testing.T, at, move string) {
		p, err := tree.ParsePosition(at)
		if err != nil {
			if tree.Node(at) != nil || !strings.HasPrefix(err.Error(), "gametree: ") {
				t.Fatalf("ParsePosition(%q): %v", at, err)
			}
			return
		}
		m, err := p.ParseMove(move)
		if err != nil {
			if m != games.NoMove || !strings.HasPrefix(err.Error(), "gametree: move ") {
				t.Fatalf("ParseMove(%q) = %v, %v", move, m, err)
			}
			return
		}
		if p.FormatMove(m) != move {
			t.Fatalf("at %s, %q parses to %v, which formats as %q", at, move, m, p.FormatMove(m))
		}
	})
}
