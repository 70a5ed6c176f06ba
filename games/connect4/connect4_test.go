// Tests of Connect-Four rules, notation and features against known positions and the plain-array reference.

package connect4

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/gametest"
)

const startFEN = "7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1"

// hand writes the stones in hand of a cfour FEN.
func hand(first, second int) string {
	return "[" + strings.Repeat("P", first) + strings.Repeat("p", second) + "]"
}

// play returns the 7x6 position after a Pons digit sequence, failing the test if it is not legal.
func play(t testing.TB, seq string) *Position {
	t.Helper()
	p, err := Game{}.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	if err := PlayMoveString(p, seq); err != nil {
		t.Fatal(err)
	}
	return p
}

// refPlay returns the reference board after a Pons digit sequence.
func refPlay(width, height int, seq string) *refBoard {
	b := newRefBoard(width, height)
	for _, ch := range seq {
		b.play(int(ch - '1'))
	}
	return b
}

func TestStartPosition(t *testing.T) {
	p := Game{}.Start()
	if got := p.FEN(); got != startFEN {
		t.Errorf("start FEN = %q, want cutechess's %q", got, startFEN)
	}
	if p.ToMove() != games.First || p.Ply() != 0 || p.Status() != (games.Outcome{}) {
		t.Errorf("start: to move %v, ply %d, status %v", p.ToMove(), p.Ply(), p.Status())
	}
	var buf [games.MaxMoves]games.Move
	moves := p.AppendMoves(buf[:0])
	var names []string
	for _, m := range moves {
		names = append(names, p.FormatMove(m))
	}
	if got := strings.Join(names, " "); got != "P@d1 P@c1 P@e1 P@b1 P@f1 P@a1 P@g1" {
		t.Errorf("start moves = %s, want the centre first", got)
	}
}

func TestPerft(t *testing.T) {
	maxDepth := 10
	if testing.Short() {
		maxDepth = 8
	}
	tests := []struct {
		name string
		game Game
		seq  string
		want []uint64
	}{
		// Up to 6 plies no column fills and nobody can win: 7^n. At 7 plies the 7 games that filled one
		// column have 6 moves. Deeper counts agree with the plain-array reference (TestPerftMatchesReference).
		{"7x6 start", Game{}, "", []uint64{7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572, 268031646}},
		// The first player threatens d1: that drop ends the game, so perft(2) = 6*7 and perft(3) = 6*7*7.
		{"7x6 after 112233", Game{}, "112233", []uint64{7, 42, 294, 1806}},
		// 4x4: 4^n until a column can fill at 5 plies (4 games fill one column, each leaving 3 moves);
		// perft(6) is the 4^6 sequences less the 4*(6*3+1) that put five or six stones in one column.
		{"4x4 start", Game{Width: 4, Height: 4}, "", []uint64{4, 16, 64, 256, 1020, 4020, 15540, 57504}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.game.StartPosition()
			if err != nil {
				t.Fatal(err)
			}
			if err := PlayMoveString(p, tt.seq); err != nil {
				t.Fatal(err)
			}
			gametest.CheckPerft(t, p, tt.want, maxDepth)
		})
	}
}

// TestPerftMatchesReference compares the bitboard perft with the plain-array one on several board sizes,
// from the empty board and from random positions.
func TestPerftMatchesReference(t *testing.T) {
	depth := 6
	if testing.Short() {
		depth = 4
	}
	sizes := [][2]int{{7, 6}, {6, 6}, {6, 7}, {4, 4}, {5, 4}, {8, 7}, {9, 5}, {4, 9}, {1, 31}, {12, 4}}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, size := range sizes {
		t.Run(strconv.Itoa(size[0])+"x"+strconv.Itoa(size[1]), func(t *testing.T) {
			for trial := 0; trial < 8; trial++ {
				p, err := Game{Width: size[0], Height: size[1]}.StartPosition()
				if err != nil {
					t.Fatal(err)
				}
				ref := newRefBoard(size[0], size[1])
				for n := rng.IntN(size[0] * size[1] / 2); n > 0; n-- {
					cols := ref.legal()
					if len(cols) == 0 {
						break
					}
					c := cols[rng.IntN(len(cols))]
					ref.play(c)
					p.Play(ColumnMove(c))
				}
				for d := 1; d <= depth; d++ {
					if got, want := p.Perft(d), ref.perft(d); got != want {
						t.Fatalf("%s: perft(%d) = %d, reference %d", p.FEN(), d, got, want)
					}
				}
				if got, want := games.InterfacePerft(p, 3), ref.perft(3); got != want {
					t.Fatalf("%s: interface perft(3) = %d, reference %d", p.FEN(), got, want)
				}
			}
		})
	}
}

func TestConnections(t *testing.T) {
	tests := []struct {
		name string
		seq  string // the last move completes the line
		want games.Result
	}{
		{"horizontal a1-d1", "1122334", games.FirstWins},
		{"vertical d1-d4", "4545454", games.FirstWins},
		{"diagonal up a1-d4", "12234334744", games.FirstWins},
		{"diagonal down d4-g1", "76654554144", games.FirstWins},
		{"second player vertical b1-b4", "12123232", games.SecondWins},
		{"second player horizontal a2-d2", "1122437354", games.SecondWins},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := play(t, tt.seq[:len(tt.seq)-1])
			if o := before.Status(); o.Result != games.Ongoing {
				t.Fatalf("before the last move the game is already over: %v", o)
			}
			p := play(t, tt.seq)
			want := games.Outcome{Result: tt.want, Reason: games.Connection}
			if o := p.Status(); o != want {
				t.Errorf("%s: status %v, want %v\n%s", tt.seq, o, want, p)
			}
			if ref := refPlay(7, 6, tt.seq); ref.winner() != int8(tt.want-games.FirstWins+1) {
				t.Errorf("reference board: winner %d", ref.winner())
			}
			var buf [games.MaxMoves]games.Move
			if moves := p.AppendMoves(buf[:0]); len(moves) != 0 {
				t.Errorf("moves after the game ended: %v", moves)
			}
			if n := p.Perft(1); n != 0 {
				t.Errorf("perft(1) after the game ended = %d", n)
			}
			if _, err := p.ParseMove("1"); err == nil || !strings.Contains(err.Error(), "game is over") {
				t.Errorf("ParseMove after the game ended: %v", err)
			}
			if err := PlayMoveString(p, "7"); err == nil || !strings.Contains(err.Error(), "after the game ended") {
				t.Errorf("PlayMoveString after the game ended: %v", err)
			}
			// The position string of a finished game reads back finished.
			q, err := Game{}.Parse(p.FEN())
			if err != nil {
				t.Fatal(err)
			}
			if q.Status() != want {
				t.Errorf("%s read back has status %v", p.FEN(), q.Status())
			}
		})
	}
}

func TestBoardFullIsDraw(t *testing.T) {
	const seq = "766672453451746161341732754254633115232527"
	p := play(t, seq[:len(seq)-1])
	if o := p.Status(); o.Result != games.Ongoing {
		t.Fatalf("one stone before the end the game is over: %v", o)
	}
	p.Play(ColumnMove(int(seq[len(seq)-1] - '1')))
	want := games.Outcome{Result: games.Draw, Reason: games.BoardFull}
	if o := p.Status(); o != want {
		t.Errorf("full board: status %v, want %v\n%s", o, want, p)
	}
	if ref := refPlay(7, 6, seq); ref.winner() != 0 || !ref.full() {
		t.Errorf("reference board: winner %d, full %v", ref.winner(), ref.full())
	}
	var buf [games.MaxMoves]games.Move
	if moves := p.AppendMoves(buf[:0]); len(moves) != 0 {
		t.Errorf("moves on a full board: %v", moves)
	}
	const wantFEN = "XXOOOXO/OXXXOXX/XXOOXXO/OOXOOOX/OOXOXXX/OOXXOOX[-] w - - 0 22"
	if got := p.FEN(); got != strings.NewReplacer("X", "P", "O", "p").Replace(wantFEN) {
		t.Errorf("full board FEN = %q", got)
	}
	if _, err := p.ParseMove("4"); err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("ParseMove on a full board: %v", err)
	}
	gametest.CheckPosition(t, Game{}, p)
}

func TestFEN(t *testing.T) {
	tests := []struct{ seq, fen string }{
		{"4", "7/7/7/7/7/3P3" + hand(20, 21) + " b - - 0 1"},
		{"44", "7/7/7/7/3p3/3P3" + hand(20, 20) + " w - - 0 2"},
		{"4453", "7/7/7/7/3p3/2pPP2" + hand(19, 19) + " w - - 0 3"},
		{"1777777", "6P/6p/6P/6p/6P/P5p" + hand(17, 18) + " b - - 0 4"},
	}
	for _, tt := range tests {
		t.Run(tt.seq, func(t *testing.T) {
			p := play(t, tt.seq)
			if got := p.FEN(); got != tt.fen {
				t.Errorf("FEN = %q, want %q", got, tt.fen)
			}
			q, err := Game{}.Parse(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			if q.Key() != p.Key() || q.Hash() != p.Hash() || q.Ply() != len(tt.seq) {
				t.Errorf("read back: key %x hash %x ply %d, want %x %x %d", q.Key(), q.Hash(), q.Ply(), p.Key(), p.Hash(), len(tt.seq))
			}
		})
	}
}

func TestParsePositionAccepts(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"short form without clocks", "7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w", startFEN},
		{"no stones in hand given", "7/7/7/7/7/7 w - - 0 1", startFEN},
		{"counted stones in hand", "7/7/7/7/7/3P3[20P21p] b - - 0 1", "7/7/7/7/7/3P3" + hand(20, 21) + " b - - 0 1"},
		{"stones in hand in any order", "7/7/7/7/7/3P3[ppppppppppppppppppppp20P] b", "7/7/7/7/7/3P3" + hand(20, 21) + " b - - 0 1"},
		{"clocks are normalised", "7/7/7/7/7/7 w - - 5 9", startFEN},
		{"Pons digits", "4453", "7/7/7/7/3p3/2pPP2" + hand(19, 19) + " w - - 0 3"},
		{"surrounding spaces", "  4453 ", "7/7/7/7/3p3/2pPP2" + hand(19, 19) + " w - - 0 3"},
		{"winner's last stone", "7/7/7/7/ppp4/PPPP3 b", "7/7/7/7/ppp4/PPPP3" + hand(17, 18) + " b - - 0 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Game{}.ParsePosition(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FEN(); got != tt.want {
				t.Errorf("FEN = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParsePositionOtherSize(t *testing.T) {
	p, err := Game{Width: 6, Height: 6}.ParsePosition("6/6/6/6/6/2P3 b")
	if err != nil {
		t.Fatal(err)
	}
	if want := "6/6/6/6/6/2P3" + hand(17, 18) + " b - - 0 1"; p.FEN() != want {
		t.Errorf("6x6 FEN = %q, want %q", p.FEN(), want)
	}
	if _, err := (Game{Width: 6, Height: 6}).ParsePosition(startFEN); err == nil || !strings.Contains(err.Error(), "has more than 6 cells") {
		t.Errorf("a 7x6 FEN on the 6x6 board: %v", err)
	}
}

func TestParsePositionErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "   ", "empty position string"},
		{"too few ranks", "7/7/7/7/7 w", "has 5 ranks, want 6"},
		{"short rank", "7/7/7/7/7/6 w", `rank 1 "6" has 6 cells, want 7`},
		{"long rank", "7/7/7/7/7/7P w", "more than 7 cells"},
		{"bad piece", "7/7/7/7/7/3X3 w", `unexpected character 'X'`},
		{"zero run", "7/7/7/7/7/07 w", `unexpected character '0'`},
		{"floating stone", "7/7/7/7/3P3/7 b", "the stone on d2 floats above the empty d1"},
		{"too many first", "7/7/7/7/7/PP5 b", "2 P and 0 p on the board"},
		{"second ahead", "7/7/7/7/7/p6 w", "0 P and 1 p on the board"},
		{"wrong side to move", "7/7/7/7/7/3P3 w", "side to move is w, but with 1 P and 0 p on the board b is to move"},
		{"bad side", "7/7/7/7/7/7 x", `side to move "x": want w or b`},
		{"missing side after board", "7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp]", "missing the side to move"},
		{"hand count", "7/7/7/7/7/3P3[PPP] b", "3 P in hand and 1 on the board make 4, want 21"},
		{"hand second count", "7/7/7/7/7/3P3[20P] b", "0 p in hand and 0 on the board make 0, want 21"},
		{"hand first count", "7/7/7/7/7/3P3[21P21p] b", "21 P in hand and 1 on the board make 22, want 21"},
		{"hand bad char", "7/7/7/7/7/7[Q] w", `unexpected character 'Q'`},
		{"hand unterminated", "7/7/7/7/7/7[PP w", "do not end with ]"},
		{"hand dangling count", "7/7/7/7/7/7[21] w", `count "21" is not followed by P or p`},
		{"castling", "7/7/7/7/7/7 w KQ - 0 1", `castling field "KQ"`},
		{"en passant", "7/7/7/7/7/7 w - e3 0 1", `en passant field "e3"`},
		{"halfmove", "7/7/7/7/7/7 w - - x 1", `halfmove clock "x"`},
		{"fullmove", "7/7/7/7/7/7 w - - 0 0", `fullmove number "0"`},
		{"extra field", "7/7/7/7/7/7 w - - 0 1 z", `unexpected field "z"`},
		{"two winners", "7/7/7/7/pppp3/PPPP3 w", "both P and p have four in a row"},
		{"mover already won", "7/7/7/p6/p6/PPPPpp1 w", "w is to move but already has four in a row"},
		{"two separate fours", "7/7/7/PPPP3/pppPpp1/PPPPppp b", "without w's four in a row ending the game"},
		{"unreachable colours", "7/7/7/7/PP5/pp5 w", "no order of alternate drops"},
		{"digit 0", "4405", `character '0' at position 3 is not a column digit`},
		{"digit off board", "48", "column 8 at position 2 is off the 7-column board"},
		{"full column", "4444444", "column 4 at position 7 is full"},
		{"after the end", "45454545", "move 5 at position 8 comes after the game ended"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Game{}.ParsePosition(tt.in)
			if err == nil {
				t.Fatalf("ParsePosition(%q) succeeded, want an error containing %q", tt.in, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParsePosition(%q) error %q, want it to contain %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestParseMove(t *testing.T) {
	p := play(t, "44")
	tests := []struct {
		in      string
		want    games.Move
		wantErr string
	}{
		{"P@d3", ColumnMove(3), ""},
		{"P@a1", ColumnMove(0), ""},
		{"p@g1", ColumnMove(6), ""},
		{"4", ColumnMove(3), ""},
		{"1", ColumnMove(0), ""},
		{"d", ColumnMove(3), ""},
		{"g", ColumnMove(6), ""},
		{"P@d1", 0, "lands on rank 3, not 1"},
		{"P@h1", 0, "file h is off the 7-column board"},
		{"h", 0, "file h is off the 7-column board"},
		{"8", 0, "column number 8 is not in 1-7"},
		{"0", 0, "column number 0 is not in 1-7"},
		{"N@d3", 0, "cfour drops only P"},
		{"P@d", 0, "want a file letter and a rank"},
		{"P@d0", 0, `rank "0" is not a number`},
		{"P@dx", 0, `rank "x" is not a number`},
		{"P@d99999999999999999999", 0, "is not a number"},
		{"", 0, "want a drop such as P@d1"},
		{"d3", 0, "want a drop such as P@d1"},
		{"D", 0, "want a drop such as P@d1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := p.ParseMove(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParseMove(%q) = %v, %v; want an error containing %q", tt.in, m, err, tt.wantErr)
				}
				return
			}
			if err != nil || m != tt.want {
				t.Errorf("ParseMove(%q) = %v, %v; want %v", tt.in, m, err, tt.want)
			}
		})
	}
	full := play(t, "444444")
	if _, err := full.ParseMove("P@d7"); err == nil || !strings.Contains(err.Error(), "column d is full") {
		t.Errorf("drop in a full column: %v", err)
	}
}

func TestPlayMoveStringLeavesPositionOnError(t *testing.T) {
	p := play(t, "44")
	before := p.FEN()
	if err := PlayMoveString(p, "5558"); err == nil {
		t.Fatal("column 8 accepted")
	}
	if p.FEN() != before {
		t.Errorf("after a failed move string the position is %q, want %q", p.FEN(), before)
	}
}

func TestAccessors(t *testing.T) {
	// 4453: P d1 (bit 21), p d2 (22), P e1 (28), p c1 (14); P to move.
	p := play(t, "4453")
	current := uint64(1)<<21 | 1<<28
	mask := current | 1<<22 | 1<<14
	if p.Current() != current || p.Mask() != mask || p.Key() != current+mask {
		t.Errorf("current %x mask %x key %x, want %x %x %x", p.Current(), p.Mask(), p.Key(), current, mask, current+mask)
	}
	if p.Width() != 7 || p.Height() != 6 || p.Moves() != 4 || p.Ply() != 4 {
		t.Errorf("width %d height %d moves %d ply %d", p.Width(), p.Height(), p.Moves(), p.Ply())
	}
	if p.BottomMask() != 0x40810204081 || p.BoardMask() != 0xfdfbf7efdfbf {
		t.Errorf("bottom mask %x board mask %x", p.BottomMask(), p.BoardMask())
	}
	if !p.CanPlay(3) || p.CanPlay(7) || p.CanPlay(-1) {
		t.Error("CanPlay")
	}
	if play(t, "444444").CanPlay(3) {
		t.Error("CanPlay on a full column")
	}
}

func TestHashTranspositions(t *testing.T) {
	if play(t, "1234").Hash() != play(t, "3214").Hash() {
		t.Error("the same position reached in two orders hashes differently")
	}
	// Every position up to 5 plies hashes to its own value and the same key means the same FEN.
	seen := map[uint64]string{}
	var walk func(p *Position, depth int)
	walk = func(p *Position, depth int) {
		fen := p.FEN()
		if other, ok := seen[p.Hash()]; ok && other != fen {
			t.Fatalf("%q and %q share hash %x", fen, other, p.Hash())
		}
		seen[p.Hash()] = fen
		if depth == 0 {
			return
		}
		var buf [games.MaxMoves]games.Move
		for _, m := range p.AppendMoves(buf[:0]) {
			p.Play(m)
			walk(p, depth-1)
			p.Undo()
		}
	}
	walk(play(t, ""), 5)
	// Distinct positions after n plies (OEIS A212693): 1, 7, 49, 238, 1120, 4263 up to 5 plies.
	if len(seen) != 1+7+49+238+1120+4263 {
		t.Errorf("%d distinct positions up to 5 plies, want %d", len(seen), 1+7+49+238+1120+4263)
	}
}

func TestFeatures(t *testing.T) {
	t.Run("one stone in the centre", func(t *testing.T) {
		p := play(t, "4")
		got := make([]float64, NumFeatures)
		p.Features(got)
		want := make([]float64, NumFeatures)
		// The second player is to move; the first player's d1 stone is in 4 horizontal windows,
		// 1 vertical one and 1 on each diagonal.
		want[H1Theirs], want[V1Theirs], want[D1Theirs], want[Centre] = 4, 1, 2, -1
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s = %v, want %v", featureNames[i], got[i], want[i])
			}
		}
	})
	t.Run("three in a column", func(t *testing.T) {
		p := play(t, "41414") // P d1 d2 d3, p a1 a2; p to move
		got := make([]float64, NumFeatures)
		p.Features(got)
		if got[V3Theirs] != 1 || got[V2Mine] != 1 || got[Centre] != -3 {
			t.Errorf("v3_theirs %v v2_mine %v centre %v, want 1 1 -3", got[V3Theirs], got[V2Mine], got[Centre])
		}
	})
	t.Run("random positions match the reference", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 5))
		for _, size := range [][2]int{{7, 6}, {6, 6}, {8, 7}, {4, 4}, {10, 5}, {3, 3}} {
			for game := 0; game < 40; game++ {
				p, _ := Game{Width: size[0], Height: size[1]}.StartPosition()
				ref := newRefBoard(size[0], size[1])
				got := make([]float64, NumFeatures)
				for {
					p.Features(got)
					want := ref.features()
					for i := range want {
						if got[i] != want[i] {
							t.Fatalf("%s: %s = %v, reference %v", p.FEN(), featureNames[i], got[i], want[i])
						}
					}
					cols := ref.legal()
					if len(cols) == 0 {
						break
					}
					c := cols[rng.IntN(len(cols))]
					ref.play(c)
					p.Play(ColumnMove(c))
				}
			}
		}
	})
	names := Game{}.FeatureNames()
	if len(names) != NumFeatures || names[D3Theirs] != "d3_theirs" || names[Centre] != "centre" {
		t.Errorf("feature names %v", names)
	}
}

func TestRandomPlayouts(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 10
	}
	for _, g := range []Game{{}, {Width: 6, Height: 6}, {Width: 4, Height: 4}, {Width: 9, Height: 6}, {Width: 5, Height: 3}} {
		t.Run(strconv.Itoa(g.Width)+"x"+strconv.Itoa(g.Height), func(t *testing.T) {
			gametest.RandomPlayouts(t, g, n, 100, 42)
		})
	}
}

func TestBoardSizes(t *testing.T) {
	tests := []struct {
		game Game
		want string // "" when valid
	}{
		{Game{}, ""},
		{Game{Width: 7, Height: 6}, ""},
		{Game{Width: 8, Height: 7}, ""},
		{Game{Width: 1, Height: 63}, ""},
		{Game{Width: 26, Height: 1}, ""},
		{Game{Width: 8, Height: 8}, "exceeds the 64 of a bitboard"},
		{Game{Width: 27, Height: 1}, "at most 26 columns"},
		{Game{Width: 7, Height: 0}, "at least 1"},
		{Game{Width: -1, Height: 6}, "at least 1"},
	}
	for _, tt := range tests {
		err := tt.game.Validate()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: Validate() = %v, want %q", tt.game, err, tt.want)
		}
		if _, err := tt.game.ParsePosition("1"); (err == nil) != (tt.want == "") {
			t.Errorf("%+v: ParsePosition = %v", tt.game, err)
		}
	}
}

// TestPonsBenchmarkSets replays every line of Pons's test sets: each is a legal game that has not ended,
// and none is won with the next stone (which would score (43 - moves)/2). The exact scores of the late R1
// sets (games decided within 14 more moves) are recomputed by a plain negamax on the bitboards, which checks
// moves, wins and draws deep into the game.
func TestPonsBenchmarkSets(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(gametest.TestData(t, "connect4"), "Test_L*_R*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Test_L*_R* files under testdata/connect4 (%v)", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			// The R1 sets are decided within 14 more moves. The test's plain negamax solves all of L3_R1
			// (more than 28 moves played) at once, every 50th line of L2_R1 in about 2 s, and not L1_R1.
			every := map[string]int{"Test_L3_R1": 1, "Test_L2_R1": 50}[filepath.Base(file)]
			if testing.Short() {
				every = map[string]int{"Test_L3_R1": 10}[filepath.Base(file)]
			}
			solved := 0
			lines := 0
			scanner := bufio.NewScanner(f)
			for scanner.Scan() {
				lines++
				seq, scoreText, ok := strings.Cut(scanner.Text(), " ")
				score, err := strconv.Atoi(scoreText)
				if !ok || err != nil {
					t.Fatalf("line %d %q: want <moves> <score>", lines, scanner.Text())
				}
				p, _ := Game{}.StartPosition()
				for i := range len(seq) {
					if err := PlayMoveString(p, seq[i:i+1]); err != nil {
						t.Fatalf("line %d %q: %v", lines, seq, err)
					}
					if o := p.Status(); o.Result != games.Ongoing {
						t.Fatalf("line %d %q: game over after %d moves: %v", lines, seq, i+1, o)
					}
				}
				if p.Ply() != len(seq) {
					t.Fatalf("line %d: ply %d after %d moves", lines, p.Ply(), len(seq))
				}
				if winsNow := canWinNow(p); winsNow != (score == (43-len(seq))/2) {
					t.Errorf("line %d %q: immediate win %v but score %d", lines, seq, winsNow, score)
				}
				if every > 0 && lines%every == 0 {
					solved++
					if got := solveExactly(p); got != score {
						t.Errorf("line %d %q: the test's solver scores %d, Pons %d", lines, seq, got, score)
					}
				}
			}
			if err := scanner.Err(); err != nil {
				t.Fatal(err)
			}
			if lines != 1000 {
				t.Errorf("%d lines, want 1000", lines)
			}
			if solved > 0 {
				t.Logf("%d lines, %d solved exactly", lines, solved)
			}
		})
	}
}

// canWinNow reports whether some move ends the game with a win for the side to move.
func canWinNow(p *Position) bool {
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		p.Play(m)
		won := p.Status().Reason == games.Connection
		p.Undo()
		if won {
			return true
		}
	}
	return false
}

// solveExactly returns Pons's score of a 7x6 position by plain negamax with alpha-beta: for the side to
// move, (43 - stones)/2 for a win with its next stone, one less per stone of its own it needs beyond it,
// 0 for a draw, and negative for a loss.
func solveExactly(p *Position) int {
	return negamax(p.geo, p.current, p.mask, p.stones, -21, 21)
}

func negamax(g *geometry, current, mask uint64, stones, alpha, beta int) int {
	cells := g.width * g.height
	if stones == cells {
		return 0
	}
	possible := g.possible(mask)
	for c := 0; c < g.width; c++ {
		if cell := possible & g.column(c); cell != 0 && g.aligned(current|cell) {
			return (cells + 1 - stones) / 2
		}
	}
	if most := (cells - 1 - stones) / 2; beta > most {
		beta = most
		if alpha >= beta {
			return beta
		}
	}
	for _, c := range g.order[:g.width] {
		cell := possible & g.column(int(c))
		if cell == 0 {
			continue
		}
		score := -negamax(g, current^mask, mask|cell, stones+1, -beta, -alpha)
		if score >= beta {
			return score
		}
		alpha = max(alpha, score)
	}
	return alpha
}
