// Tests of the chess games read from PGN: tags, comments, variations, FEN starts, and every error named.

package pgntext

import (
	"os"
	"strings"
	"testing"
)

// scholarsMate is a miniature with one blunder, 3...Nf6?? allowing the mate 4.Qxf7#; review's tests and the
// command's read it too.
var scholarsMate = func() string {
	data, err := os.ReadFile("testdata/scholars-mate.pgn")
	if err != nil {
		panic(err)
	}
	return string(data)
}()

func TestReadChessGames(t *testing.T) {
	tests := []struct {
		name         string
		pgn          string
		games        int
		plies        []int
		white, black string
		err          string
	}{
		{"one game", scholarsMate, 1, []int{7}, "Alice", "Bob", ""},
		{"comments, variations, NAGs and glued numbers", `[White "A"]
[Black "B"]
1.e4 {best by test} e5 (1...c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6?! ; a line comment
3... ` + "\n%escaped line\n" + `3. Bb5 a6 *`, 1, []int{6}, "A", "B", ""},
		{"two games and a FEN start", scholarsMate + `
[White "C"]
[Black "D"]
[SetUp "1"]
[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]

1. Ra8# 1-0`, 2, []int{7, 1}, "Alice", "Bob", ""},
		{"no tags", "1. d4 d5 2. c4 1/2-1/2", 1, []int{3}, "White", "Black", ""},
		{"empty", "", 0, nil, "", "", ""},
		{"illegal move", "1. e4 e5 2. Ke3", 0, nil, "", "", "game 1: ply 3"},
		{"bad FEN", `[FEN "8/8/8 w"]` + "\n1. e4", 0, nil, "", "", "game 1: FEN"},
		{"another variant", `[Variant "Crazyhouse"]` + "\n1. e4", 0, nil, "", "", "only standard chess"},
		{"an unclosed tag", `[White "A"`, 0, nil, "", "", "never closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := ReadChessGames(strings.NewReader(tc.pgn))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != tc.games {
				t.Fatalf("%d games, want %d", len(list), tc.games)
			}
			for i, g := range list {
				if len(g.Moves) != tc.plies[i] {
					t.Errorf("game %d: %d plies, want %d", i+1, len(g.Moves), tc.plies[i])
				}
			}
			if tc.games > 0 && (list[0].White != tc.white || list[0].Black != tc.black) {
				t.Errorf("players %q and %q", list[0].White, list[0].Black)
			}
		})
	}
}

func FuzzReadChessGames(f *testing.F) {
	f.Add(scholarsMate)
	f.Add("1. e4 (1. d4 {x} (1. c4)) e5 $2 2. Nf3 *")
	f.Add(`[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"] 1. Ra8#`)
	f.Add("[[[ {{ (( ;;")
	f.Fuzz(func(t *testing.T, text string) {
		list, err := ReadChessGames(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, g := range list {
			p := g.Start.Clone()
			for _, m := range g.Moves {
				legal := p.AppendMoves(nil)
				found := false
				for _, l := range legal {
					found = found || l == m
				}
				if !found {
					t.Fatalf("an illegal move was read from %q", text)
				}
				p.Play(m)
			}
		}
	})
}
