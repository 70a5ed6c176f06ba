// Tests of PGN reading: the movetext's clutter skipped, games split, openings replayed, errors named.

package chess

import (
	"strings"
	"testing"
)

func TestParsePGN(t *testing.T) {
	cases := []struct {
		name    string
		text    string
		moves   [][]string // each game's moves
		results []string
		lines   []int
		fen     string // the last game's FEN tag, if any
	}{
		{"one game", "[Event \"e\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n",
			[][]string{{"e4", "e5", "Nf3"}}, []string{"1-0"}, []int{1}, ""},
		{"clutter", "[Event \"e\"]\n1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3!? $1 ; a comment\n2... Nc6 *\n",
			[][]string{{"e4", "e5", "Nf3!?", "Nc6"}}, []string{"*"}, []int{1}, ""}, // ParseSAN drops the !?
		{"glued numbers and a comment over lines", "[Event \"e\"]\n1.e4 {a\nlong (comment} 1...e5 2.Nf3 1/2-1/2",
			[][]string{{"e4", "e5", "Nf3"}}, []string{"1/2-1/2"}, []int{1}, ""},
		{"two games, the second without a result", "[Event \"a\"]\n1. d4 d5 0-1\n\n% escaped line\n[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n1. O-O\n",
			[][]string{{"d4", "d5"}, {"O-O"}}, []string{"0-1", ""}, []int{1, 5}, "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},
		{"a tag after moves starts a game", "[Event \"a\"]\n1. c4\n[Event \"b\"]\n1. g3\n",
			[][]string{{"c4"}, {"g3"}}, []string{"", ""}, []int{1, 3}, ""},
		{"escaped quotes", "[Event \"say \\\"hi\\\"\"]\n1. e4 *\n", [][]string{{"e4"}}, []string{"*"}, []int{1}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParsePGN(c.text)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.moves) {
				t.Fatalf("%d games, want %d: %+v", len(got), len(c.moves), got)
			}
			for i, g := range got {
				if strings.Join(g.Moves, " ") != strings.Join(c.moves[i], " ") || g.Result != c.results[i] || g.Line != c.lines[i] {
					t.Errorf("game %d: moves %q result %q line %d; want %q %q %d", i+1, g.Moves, g.Result, g.Line,
						c.moves[i], c.results[i], c.lines[i])
				}
			}
			if c.fen != "" && got[len(got)-1].Tags["FEN"] != c.fen {
				t.Errorf("FEN tag %q, want %q", got[len(got)-1].Tags["FEN"], c.fen)
			}
		})
	}
	if got, _ := ParsePGN("[Event \"say \\\"hi\\\"\"]\n1. e4 *\n"); got[0].Tags["Event"] != `say "hi"` {
		t.Errorf("escaped tag value %q", got[0].Tags["Event"])
	}
}

func TestParsePGNErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"unclosed comment", "[Event \"e\"]\n1. e4 {oops\n", "not closed"},
		{"unclosed variation", "[Event \"e\"]\n1. e4 (1. d4\n", "not closed"},
		{"stray parenthesis", "[Event \"e\"]\n1. e4 )\n", "PGN line 2: ')' closes no variation"},
		{"bad tag", "[Event e]\n1. e4\n", "PGN line 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ParsePGN(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestReadRecordOpenings(t *testing.T) {
	text := "[Event \"a\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n1. O-O Kd7 *\n"
	cases := []struct {
		name     string
		maxPlies int
		want     []string
	}{
		{"whole games", 0, []string{"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
			"8/3k4/8/8/8/8/8/5RK1 w - - 2 2"}},
		{"two plies", 2, []string{"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
			"8/3k4/8/8/8/8/8/5RK1 w - - 2 2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			openings, lines, isRecords, err := Game{}.ReadRecordOpenings(text, c.maxPlies)
			if err != nil || !isRecords || len(openings) != 2 || lines[0] != 1 || lines[1] != 4 {
				t.Fatalf("%d openings at %v, records %v, error %v", len(openings), lines, isRecords, err)
			}
			for i, p := range openings {
				if p.FEN() != c.want[i] {
					t.Errorf("opening %d is %s, want %s", i+1, p.FEN(), c.want[i])
				}
			}
		})
	}
	if _, _, isRecords, _ := (Game{}).ReadRecordOpenings(StartFEN+"\n"+kiwipeteFEN+"\n", 0); isRecords {
		t.Error("a FEN file is taken for PGN")
	}
	_, _, _, err := Game{}.ReadRecordOpenings("[Event \"a\"]\n1. e4 e5\n[Event \"b\"]\n1. e4 e5 2. Ke3\n", 0)
	if err == nil || !strings.Contains(err.Error(), "game at line 3, move 3") {
		t.Errorf("an illegal move gave %v, want an error naming game at line 3, move 3", err)
	}
}

// FuzzParsePGN checks that any text either fails or gives games whose replay either fails or gives a
// position that reads back from its FEN.
func FuzzParsePGN(f *testing.F) {
	f.Add("[Event \"e\"]\n1. e4 {c} e5 (1... c5) 2. Nf3 $1 1-0\n")
	f.Add("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n1. O-O *")
	f.Add("1.d4 d5 2.c4 ; x\n[Event \"b\"]\n%\n1. e4")
	f.Add("[Event \"\\\"\"]\n(((\n{")
	f.Fuzz(func(t *testing.T, text string) {
		parsed, err := ParsePGN(text)
		if err != nil {
			return
		}
		for _, pg := range parsed {
			p, err := pg.Replay(Game{}, 0)
			if err != nil {
				continue
			}
			if q, err := ParseFEN(p.FEN()); err != nil || q.FEN() != p.FEN() {
				t.Fatalf("%q: the replayed position %s does not read back: %v", text, p.FEN(), err)
			}
		}
	})
}
