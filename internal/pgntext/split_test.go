// Tests of the PGN split: move numbers, comments, variations and NAGs left out, games told apart.

package pgntext

import (
	"slices"
	"testing"
)

func TestSplitPGN(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		tags   []string // White of each game
		tokens [][]string
	}{
		{"numbers, comments, variations, NAGs", "[White \"a\"]\n[Black \"b\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3) 2.Nf3 $1 Nc6+ 1-0\n",
			[]string{"a"}, [][]string{{"e4", "e5", "Nf3", "Nc6"}}},
		{"two games, the second black to move", "[White \"a\"]\n1. P@d1 P@d2 *\n[White \"c\"]\n[FEN \"x\"]\n5... P@a1 6. P@b1 0-1\n",
			[]string{"a", "c"}, [][]string{{"P@d1", "P@d2"}, {"P@a1", "P@b1"}}},
		{"no result marker", "[White \"a\"]\n1. e4 e5", []string{"a"}, [][]string{{"e4", "e5"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Split(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.tags) {
				t.Fatalf("%d games, want %d: %+v", len(got), len(tc.tags), got)
			}
			for i, g := range got {
				if g.Tags["White"] != tc.tags[i] || !slices.Equal(g.Tokens, tc.tokens[i]) {
					t.Errorf("game %d: White %q tokens %q, want %q %q", i+1, g.Tags["White"], g.Tokens, tc.tags[i], tc.tokens[i])
				}
			}
		})
	}
}
