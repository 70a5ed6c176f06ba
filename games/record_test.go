// Tests of the movetext line wrapper every record writer shares.

package games_test

import (
	"strings"
	"testing"

	"dossier/games"
)

func TestMovetextWriter(t *testing.T) {
	long := strings.Repeat("x", games.RecordLineWidth)
	tests := []struct {
		name  string
		words []string
		want  string
	}{
		{"no words", nil, ""},
		{"one line", []string{"1.", "e4", "e5", "1-0"}, "1. e4 e5 1-0"},
		{"a word that fills the line exactly stays", []string{strings.Repeat("a", 77), "b"}, strings.Repeat("a", 77) + " b"},
		{"a word one past the width wraps", []string{strings.Repeat("a", 78), "b"}, strings.Repeat("a", 78) + "\nb"},
		{"a word longer than the width gets a line of its own", []string{"1.", long + "y", "2."}, "1.\n" + long + "y\n2."},
		{"a comment wraps as one word", []string{"1.", "e4", "{a comment}"}, "1. e4 {a comment}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sb strings.Builder
			w := games.NewMovetextWriter(&sb)
			for _, word := range tc.words {
				w.Word(word)
			}
			if sb.String() != tc.want {
				t.Errorf("got %q, want %q", sb.String(), tc.want)
			}
		})
	}
}
