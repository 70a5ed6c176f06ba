// Tests of the shared drop-game notation: each reader's accepted forms and error messages, and the FEN writer.

package dropnotation

import (
	"strings"
	"testing"

	"dossier/games"
)

// boardOf returns a StoneAt over rows written top first, P and p for stones and . for empty cells.
func boardOf(rows ...string) func(file, rank int) (games.Side, bool) {
	return func(file, rank int) (games.Side, bool) {
		switch rows[len(rows)-1-rank][file] {
		case 'P':
			return games.First, true
		case 'p':
			return games.Second, true
		}
		return games.First, false
	}
}

func TestFormatFEN(t *testing.T) {
	tests := []struct {
		name   string
		layout Layout
		want   string
	}{
		{"empty cfour board", Layout{Width: 7, Height: 6, StoneAt: boardOf(".......", ".......", ".......", ".......", ".......", "......."),
			InHand: [2]int{21, 21}, ToMove: games.First, Fullmove: 1},
			"7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1"},
		{"tic-tac-toe after two drops", Layout{Width: 3, Height: 3, StoneAt: boardOf("...", ".P.", "p.."),
			InHand: [2]int{4, 3}, ToMove: games.First, Fullmove: 2},
			"3/1P1/p2[PPPPppp] w - - 0 2"},
		{"full board, nothing in hand", Layout{Width: 2, Height: 2, StoneAt: boardOf("pP", "Pp"),
			ToMove: games.First, Fullmove: 3},
			"pP/Pp[-] w - - 0 3"},
		{"second to move, runs on both sides", Layout{Width: 5, Height: 1, StoneAt: boardOf("..P.."),
			InHand: [2]int{2, 2}, ToMove: games.Second, Fullmove: 1},
			"2P2[PPpp] b - - 0 1"},
		{"run of ten", Layout{Width: 10, Height: 1, StoneAt: boardOf(".........."),
			InHand: [2]int{5, 5}, ToMove: games.First, Fullmove: 1},
			"10[PPPPPppppp] w - - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatFEN(tt.layout); got != tt.want {
				t.Errorf("FormatFEN = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSplitBoardField(t *testing.T) {
	tests := []struct {
		in, board, hand string
		hasHand         bool
		err             string
	}{
		{"3/3/3", "3/3/3", "", false, ""},
		{"3/3/3[PPPPPpppp]", "3/3/3", "PPPPPpppp", true, ""},
		{"3/3/3[-]", "3/3/3", "-", true, ""},
		{"3/3/3[]", "3/3/3", "", true, ""},
		{"[]", "", "", true, ""},
		{"3/3/3[PP", "", "", false, `stones in hand "[PP" do not end with ]`},
		{"3/3/3[", "", "", false, `stones in hand "[" do not end with ]`},
		{"3/3/3]", "3/3/3]", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			board, hand, hasHand, err := SplitBoardField(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("SplitBoardField(%q) error %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil || board != tt.board || hand != tt.hand || hasHand != tt.hasHand {
				t.Errorf("SplitBoardField(%q) = %q, %q, %v, %v; want %q, %q, %v", tt.in, board, hand, hasHand, err,
					tt.board, tt.hand, tt.hasHand)
			}
		})
	}
}

func TestParseHand(t *testing.T) {
	tests := []struct {
		in                   string
		maxCount             int
		wantFirst, wantSecnd int
		err                  string
	}{
		{"", 9, 0, 0, ""},
		{"-", 9, 0, 0, ""},
		{"PPPPPpppp", 9, 5, 4, ""},
		{"5P4p", 9, 5, 4, ""},
		{"p2PP", 9, 3, 1, ""},
		{"21P21p", 99, 21, 21, ""},
		{"9P", 9, 9, 0, ""},
		{"10P", 9, 0, 0, `count "10": want 1-9`},
		{"0P", 9, 0, 0, `count "0": want 1-9`},
		{"05P", 99, 0, 0, `count "05": want 1-99`},
		{"123P", 99, 0, 0, `count "123": want 1-99`},
		{"99999999999999999999P", 99, 0, 0, `count "99999999999999999999": want 1-99`},
		{"21", 99, 0, 0, `count "21" is not followed by P or p`},
		{"PPX", 9, 0, 0, `unexpected character 'X' (want P, p, a count or -)`},
		{"--", 9, 0, 0, `unexpected character '-' (want P, p, a count or -)`},
		{"60P5P", 99, 0, 0, "more stones than any board holds"},
		{"64p", 99, 0, 64, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			first, second, err := ParseHand(tt.in, tt.maxCount)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("ParseHand(%q, %d) error %v, want %q", tt.in, tt.maxCount, err, tt.err)
				}
				return
			}
			if err != nil || first != tt.wantFirst || second != tt.wantSecnd {
				t.Errorf("ParseHand(%q, %d) = %d, %d, %v; want %d, %d", tt.in, tt.maxCount, first, second, err,
					tt.wantFirst, tt.wantSecnd)
			}
		})
	}
}

func TestCheckHand(t *testing.T) {
	quota := [2]int{5, 4}
	tests := []struct {
		name, hand string
		onBoard    [2]int
		err        string
	}{
		{"start", "PPPPPpppp", [2]int{0, 0}, ""},
		{"after three drops", "3P2p", [2]int{2, 2}, ""},
		{"all dropped", "-", [2]int{5, 4}, ""},
		{"first short", "PPPPpppp", [2]int{0, 0}, "stones in hand: 4 P in hand and 0 on the board make 4, want 5"},
		{"second over", "PPPPPppppp", [2]int{0, 0}, "stones in hand: 5 p in hand and 0 on the board make 5, want 4"},
		{"bad text", "PPPPPpppX", [2]int{0, 0}, "stones in hand [PPPPPpppX]: unexpected character 'X' (want P, p, a count or -)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckHand(tt.hand, 9, tt.onBoard, quota)
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Errorf("CheckHand(%q, %v) = %v, want %q", tt.hand, tt.onBoard, err, tt.err)
			}
		})
	}
}

func TestParseSide(t *testing.T) {
	tests := []struct {
		name            string
		fields          []string
		nFirst, nSecond int
		want            games.Side
		err             string
	}{
		{"first to move", []string{"3/3/3", "w"}, 0, 0, games.First, ""},
		{"second to move", []string{"3/3/3", "b", "-"}, 3, 2, games.Second, ""},
		{"first after equal drops", []string{"3/3/3", "w"}, 2, 2, games.First, ""},
		{"missing", []string{"3/3/3"}, 0, 0, 0, "missing the side to move (w or b) after the board"},
		{"unknown letter", []string{"3/3/3", "x"}, 0, 0, 0, `side to move "x": want w or b`},
		{"capital", []string{"3/3/3", "W"}, 0, 0, 0, `side to move "W": want w or b`},
		{"wrong side", []string{"3/3/3", "w"}, 1, 0, 0, "side to move is w, but with 1 P and 0 p on the board b is to move"},
		{"wrong side b", []string{"3/3/3", "b"}, 2, 2, 0, "side to move is b, but with 2 P and 2 p on the board w is to move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseSide(tt.fields, tt.nFirst, tt.nSecond)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("ParseSide(%q) error %v, want %q", tt.fields, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseSide(%q) = %v, %v; want %v", tt.fields, got, err, tt.want)
			}
		})
	}
}

func TestSideLetter(t *testing.T) {
	if SideLetter(games.First) != "w" || SideLetter(games.Second) != "b" {
		t.Errorf("SideLetter = %q, %q; want w, b", SideLetter(games.First), SideLetter(games.Second))
	}
}

func TestCheckClocks(t *testing.T) {
	tests := []struct {
		name string
		fen  string
		err  string
	}{
		{"board and side only", "3/3/3 w", ""},
		{"dashes only", "3/3/3 w - -", ""},
		{"full", "3/3/3 w - - 0 1", ""},
		{"large clocks", "3/3/3 b - - 7 99", ""},
		{"castling", "3/3/3 w KQ - 0 1", `castling field "KQ": cfour has no castling, want -`},
		{"en passant", "3/3/3 w - e3", `en passant field "e3": cfour has no en passant, want -`},
		{"negative halfmove", "3/3/3 w - - -1", `halfmove clock "-1" is not a non-negative integer`},
		{"word halfmove", "3/3/3 w - - x 1", `halfmove clock "x" is not a non-negative integer`},
		{"zero fullmove", "3/3/3 w - - 0 0", `fullmove number "0" is not a positive integer`},
		{"extra field", "3/3/3 w - - 0 1 z", `unexpected field "z" after the fullmove number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckClocks(strings.Fields(tt.fen), "cfour")
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Errorf("CheckClocks(%q) = %v, want %q", tt.fen, err, tt.err)
			}
		})
	}
}

func TestParseDrop(t *testing.T) {
	tests := []struct {
		in, square string
		isDrop     bool
		err        string
	}{
		{"P@d1", "d1", true, ""},
		{"p@b2", "b2", true, ""},
		{"P@", "", true, ""},
		{"P@a10", "a10", true, ""},
		{"N@d1", "", true, `piece 'N': tic-tac-toe drops only P`},
		{"@@", "", true, `piece '@': tic-tac-toe drops only P`},
		{"d1", "", false, ""},
		{"4", "", false, ""},
		{"", "", false, ""},
		{"@", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			square, isDrop, err := ParseDrop(tt.in, "tic-tac-toe")
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Fatalf("ParseDrop(%q) error %v, want %q", tt.in, err, tt.err)
			}
			if square != tt.square || isDrop != tt.isDrop {
				t.Errorf("ParseDrop(%q) = %q, %v; want %q, %v", tt.in, square, isDrop, tt.square, tt.isDrop)
			}
		})
	}
}

func TestFormatDrop(t *testing.T) {
	tests := []struct {
		file, rank int
		want       string
	}{
		{0, 0, "P@a1"},
		{3, 0, "P@d1"},
		{2, 2, "P@c3"},
		{9, 9, "P@j10"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := FormatDrop(tt.file, tt.rank); got != tt.want {
				t.Errorf("FormatDrop(%d, %d) = %q, want %q", tt.file, tt.rank, got, tt.want)
			}
			if square, isDrop, err := ParseDrop(tt.want, "cfour"); err != nil || !isDrop || "P@"+square != tt.want {
				t.Errorf("ParseDrop(%q) = %q, %v, %v", tt.want, square, isDrop, err)
			}
		})
	}
}

func TestRulesParseFields(t *testing.T) {
	cfour := Rules{Game: "cfour", Quota: [2]int{21, 21}, MaxHandCount: 99}
	tests := []struct {
		name    string
		fen     string
		onBoard [2]int
		want    games.Side
		err     string
	}{
		{"start", "7/7/7/7/7/7[21P21p] w - - 0 1", [2]int{0, 0}, games.First, ""},
		{"no hand, no clocks", "7/7/7/7/7/3P3 b", [2]int{1, 0}, games.Second, ""},
		{"hand first", "7/7/7/7/7/3P3[PPP] x", [2]int{1, 0}, 0,
			"stones in hand: 3 P in hand and 1 on the board make 4, want 21"},
		{"side before clocks", "7/7/7/7/7/7 x KQ", [2]int{0, 0}, 0, `side to move "x": want w or b`},
		{"clocks last", "7/7/7/7/7/7[21P21p] w KQ", [2]int{0, 0}, 0, `castling field "KQ": cfour has no castling, want -`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields := strings.Fields(tt.fen)
			_, hand, hasHand, err := SplitBoardField(fields[0])
			if err != nil {
				t.Fatal(err)
			}
			got, err := cfour.ParseFields(fields, hand, hasHand, tt.onBoard)
			if (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
				t.Fatalf("ParseFields(%q) error %v, want %q", tt.fen, err, tt.err)
			}
			if err == nil && got != tt.want {
				t.Errorf("ParseFields(%q) = %v, want %v", tt.fen, got, tt.want)
			}
		})
	}
}
