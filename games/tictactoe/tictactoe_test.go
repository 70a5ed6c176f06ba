// Tests of tic-tac-toe rules, notation and features: the game tree's published counts, cross-checked
// against a plain-array implementation written here.

package tictactoe

import (
	"math"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/gametest"
)

const startFEN = "3/3/3[PPPPPpppp] w - - 0 1"

// play returns the position after a space-separated list of squares, failing the test on an illegal one.
func play(t testing.TB, squares string) *Position {
	t.Helper()
	p := &Position{}
	for _, sq := range strings.Fields(squares) {
		m, err := p.ParseMove(sq)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	return p
}

// refBoard is tic-tac-toe on an array with a naive line check, independent of the bitboards.
type refBoard struct {
	cells [3][3]int8 // cells[file][rank]: 0 empty, 1 X, 2 O
	n     int
}

func (b *refBoard) toMove() int8 { return int8(b.n%2 + 1) }

// winner returns 1 or 2 for a player with three in a row, 0 for none.
func (b *refBoard) winner() int8 {
	for i := 0; i < 3; i++ {
		if c := b.cells[i][0]; c != 0 && c == b.cells[i][1] && c == b.cells[i][2] {
			return c
		}
		if c := b.cells[0][i]; c != 0 && c == b.cells[1][i] && c == b.cells[2][i] {
			return c
		}
	}
	if c := b.cells[1][1]; c != 0 && (c == b.cells[0][0] && c == b.cells[2][2] || c == b.cells[2][0] && c == b.cells[0][2]) {
		return c
	}
	return 0
}

// features recomputes the feature vector cell by cell.
func (b *refBoard) features() []float64 {
	me, them := b.toMove(), 3-b.toMove()
	var lines [][3][2]int
	for i := 0; i < 3; i++ {
		lines = append(lines, [3][2]int{{i, 0}, {i, 1}, {i, 2}}, [3][2]int{{0, i}, {1, i}, {2, i}})
	}
	lines = append(lines, [3][2]int{{0, 0}, {1, 1}, {2, 2}}, [3][2]int{{2, 0}, {1, 1}, {0, 2}})
	f := make([]float64, NumFeatures)
	for _, l := range lines {
		mine, theirs := 0, 0
		for _, c := range l {
			switch b.cells[c[0]][c[1]] {
			case me:
				mine++
			case them:
				theirs++
			}
		}
		if theirs == 0 {
			f[OpenLines]++
		}
		if mine == 0 {
			f[OpenLines]--
		}
		if mine == 2 && theirs == 0 {
			f[TwosMine]++
		}
		if theirs == 2 && mine == 0 {
			f[TwosTheirs]++
		}
	}
	score := func(c int8) float64 {
		switch c {
		case me:
			return 1
		case them:
			return -1
		}
		return 0
	}
	f[Centre] = score(b.cells[1][1])
	f[Corners] = score(b.cells[0][0]) + score(b.cells[2][0]) + score(b.cells[0][2]) + score(b.cells[2][2])
	return f
}

// key encodes the board in base 3, for counting distinct positions without the bitboards' hash.
func (b *refBoard) key() int {
	k := 0
	for f := 0; f < 3; f++ {
		for r := 0; r < 3; r++ {
			k = 3*k + int(b.cells[f][r])
		}
	}
	return k
}

// canonicalKey is the smallest key among the board's eight rotations and reflections.
func (b *refBoard) canonicalKey() int {
	best := math.MaxInt
	for sym := 0; sym < 8; sym++ {
		var t refBoard
		for f := 0; f < 3; f++ {
			for r := 0; r < 3; r++ {
				x, y := f, r
				if sym&1 != 0 {
					x = 2 - x
				}
				if sym&2 != 0 {
					y = 2 - y
				}
				if sym&4 != 0 {
					x, y = y, x
				}
				t.cells[x][y] = b.cells[f][r]
			}
		}
		best = min(best, t.key())
	}
	return best
}

// treeCounts are the figures of the whole game tree.
type treeCounts struct {
	nodes                     uint64 // positions in the tree, counted once per path from the root (root included)
	games                     uint64 // complete games: paths from the root to a finished position
	xWins, oWins, draws       uint64
	distinct, terminal, canon int // distinct positions, distinct finished ones, distinct up to symmetry
}

// refTreeCounts walks the game tree on the reference board.
func refTreeCounts() treeCounts {
	var c treeCounts
	seen, canon := map[int]bool{}, map[int]bool{}
	var b refBoard
	var walk func()
	walk = func() {
		c.nodes++
		w := b.winner()
		if !seen[b.key()] {
			seen[b.key()] = true
			canon[b.canonicalKey()] = true
			if w != 0 || b.n == 9 {
				c.terminal++
			}
		}
		if w != 0 || b.n == 9 {
			c.games++
			switch w {
			case 1:
				c.xWins++
			case 2:
				c.oWins++
			default:
				c.draws++
			}
			return
		}
		for f := 0; f < 3; f++ {
			for r := 0; r < 3; r++ {
				if b.cells[f][r] == 0 {
					b.cells[f][r] = b.toMove()
					b.n++
					walk()
					b.n--
					b.cells[f][r] = 0
				}
			}
		}
	}
	walk()
	c.distinct, c.canon = len(seen), len(canon)
	return c
}

// TestGameTree checks the published figures of the tic-tac-toe game tree (255,168 games: 131,184 won by X,
// 77,904 by O, 46,080 drawn; 549,946 nodes; 5,478 legal positions, 958 of them final, 765 up to symmetry)
// on the bitboards, and the same figures computed on the plain-array board, so that each is checked twice.
func TestGameTree(t *testing.T) {
	want := treeCounts{nodes: 549946, games: 255168, xWins: 131184, oWins: 77904, draws: 46080,
		distinct: 5478, terminal: 958, canon: 765}
	if ref := refTreeCounts(); ref != want {
		t.Errorf("reference board: %+v, want %+v", ref, want)
	}
	var got treeCounts
	seen := map[uint64]bool{}
	feats := make([]float64, NumFeatures)
	p := &Position{}
	var walk func(ref *refBoard)
	walk = func(ref *refBoard) {
		got.nodes++
		o := p.Status()
		if !seen[p.Hash()] {
			seen[p.Hash()] = true
			if o.Result.Over() {
				got.terminal++
			}
			p.Features(feats)
			for i, f := range ref.features() {
				if feats[i] != f {
					t.Fatalf("%s: %s = %v, reference %v", p.FEN(), featureNames[i], feats[i], f)
				}
			}
		}
		if (ref.winner() != 0 || ref.n == 9) != o.Result.Over() {
			t.Fatalf("%s: status %v, reference winner %d with %d stones", p.FEN(), o, ref.winner(), ref.n)
		}
		var buf [games.MaxMoves]games.Move
		moves := p.AppendMoves(buf[:0])
		if o.Result.Over() {
			if len(moves) != 0 {
				t.Fatalf("%s: moves after the end: %v", p.FEN(), moves)
			}
			got.games++
			switch o.Result {
			case games.FirstWins:
				got.xWins++
			case games.SecondWins:
				got.oWins++
			default:
				got.draws++
			}
			return
		}
		for _, m := range moves {
			sq := int(m - 1)
			ref.cells[sq%3][sq/3] = ref.toMove()
			ref.n++
			p.Play(m)
			walk(ref)
			p.Undo()
			ref.n--
			ref.cells[sq%3][sq/3] = 0
		}
	}
	walk(&refBoard{})
	got.distinct, got.canon = len(seen), want.canon
	if got != want {
		t.Errorf("bitboards: %+v, want %+v", got, want)
	}
}

func TestPerft(t *testing.T) {
	// Nodes at each depth of the game tree; they add up to 549,946 with the root.
	want := []uint64{9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872}
	gametest.CheckPerft(t, Game{}.Start(), want, 9)
	for d := 10; d <= 12; d++ {
		if n := games.Perft(Game{}.Start(), d); n != 0 {
			t.Errorf("perft(%d) = %d beyond the full board", d, n)
		}
	}
	// After a1 b2 c1 X threatens b1. O has 6 moves and X 5 replies to each; then O has 4 moves, except
	// after X's b1, which ends the game unless O took b1: 1*5*4 + 5*(4*4 + 1*0).
	gametest.CheckPerft(t, play(t, "a1 b2 c1"), []uint64{6, 30, 100}, 3)
}

func TestConnections(t *testing.T) {
	tests := []struct {
		name, moves string
		want        games.Result
	}{
		{"rank 1", "a1 a2 b1 b2 c1", games.FirstWins},
		{"rank 3 by O", "a1 a3 b1 b3 c2 c3", games.SecondWins},
		{"file b", "b1 a1 b2 c1 b3", games.FirstWins},
		{"diagonal a1-c3", "a1 a2 b2 a3 c3", games.FirstWins},
		{"diagonal c1-a3 by O", "a1 c1 a2 b2 c3 a3", games.SecondWins},
		{"two lines at once", "a1 b1 c3 a2 a3 c2 c1 b3 b2", games.FirstWins},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sq := strings.Fields(tt.moves)
			if o := play(t, strings.Join(sq[:len(sq)-1], " ")).Status(); o.Result.Over() {
				t.Fatalf("over before the last move: %v", o)
			}
			p := play(t, tt.moves)
			want := games.Outcome{Result: tt.want, Reason: games.Connection}
			if o := p.Status(); o != want {
				t.Errorf("status %v, want %v\n%s", o, want, p)
			}
			var buf [games.MaxMoves]games.Move
			if moves := p.AppendMoves(buf[:0]); len(moves) != 0 {
				t.Errorf("moves after the end: %v", moves)
			}
			if _, err := p.ParseMove(firstEmpty(p)); err == nil || !strings.Contains(err.Error(), "game is over") {
				t.Errorf("ParseMove after the end: %v", err)
			}
			q, err := Parse(p.FEN())
			if err != nil {
				t.Fatal(err)
			}
			if q.Status() != want {
				t.Errorf("%s read back: status %v", p.FEN(), q.Status())
			}
		})
	}
}

// firstEmpty names the first empty square of p (a1 if the board is full).
func firstEmpty(p *Position) string {
	for sq := 0; sq < numSquares; sq++ {
		if (p.stones[0]|p.stones[1])&(1<<sq) == 0 {
			return squareName(sq)
		}
	}
	return "a1"
}

func TestBoardFullIsDraw(t *testing.T) {
	p := play(t, "a1 b2 c3 b1 b3 a3 c1 c2 a2")
	want := games.Outcome{Result: games.Draw, Reason: games.BoardFull}
	if o := p.Status(); o != want {
		t.Errorf("status %v, want %v\n%s", o, want, p)
	}
	if fen := p.FEN(); fen != "pPP/Ppp/PpP[-] b - - 0 5" {
		t.Errorf("FEN %q", fen)
	}
	gametest.CheckPosition(t, Game{}, p)
}

func TestFEN(t *testing.T) {
	tests := []struct{ moves, fen string }{
		{"", startFEN},
		{"b2", "3/1P1/3[PPPPpppp] b - - 0 1"},
		{"b2 a1", "3/1P1/p2[PPPPppp] w - - 0 2"},
		{"b2 a1 c3 a3", "p1P/1P1/p2[PPPpp] w - - 0 3"},
	}
	for _, tt := range tests {
		t.Run(tt.fen, func(t *testing.T) {
			p := play(t, tt.moves)
			if got := p.FEN(); got != tt.fen {
				t.Errorf("FEN = %q, want %q", got, tt.fen)
			}
			q, err := Parse(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			if q.Hash() != p.Hash() || q.Ply() != p.Ply() || q.ToMove() != p.ToMove() {
				t.Errorf("read back: hash %x ply %d", q.Hash(), q.Ply())
			}
		})
	}
	if p, err := Parse("3/1P1/3 b"); err != nil || p.FEN() != "3/1P1/3[PPPPpppp] b - - 0 1" {
		t.Errorf("short FEN without stones in hand: %v, %v", p, err)
	}
	if p, err := Parse("3/1P1/3[4P4p] b - - 7 9"); err != nil || p.FEN() != "3/1P1/3[PPPPpppp] b - - 0 1" {
		t.Errorf("counted stones in hand and clocks: %v, %v", p, err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", "empty position string"},
		{"two ranks", "3/3 w", "has 2 ranks, want 3"},
		{"short rank", "3/3/2 w", `rank 1 "2" has 2 squares, want 3`},
		{"long rank", "3/3/PPPp w", "more than 3 squares"},
		{"bad character", "3/3/x2 w", `unexpected character 'x'`},
		{"four run", "3/3/4 w", `unexpected character '4'`},
		{"counts", "3/3/PP1 b", "2 P and 0 p on the board"},
		{"side", "3/3/P2 w", "side to move is w, but with 1 P and 0 p on the board b is to move"},
		{"bad side", "3/3/3 z", `side to move "z"`},
		{"no side", "3/3/3[PPPPPpppp]", "missing the side to move"},
		{"hand", "3/3/3[PPPPPppppp] w", "5 p in hand and 0 on the board make 5, want 4"},
		{"hand first", "3/3/3[PPPPpppp] w", "4 P in hand and 0 on the board make 4, want 5"},
		{"hand char", "3/3/3[PPPPPpppX] w", `unexpected character 'X'`},
		{"hand count", "3/3/3[5] w", `count "5" is not followed`},
		{"hand unclosed", "3/3/3[PPPPPpppp w", "do not end with ]"},
		{"castling", "3/3/3 w K", `castling field "K"`},
		{"clock", "3/3/3 w - - -1", `halfmove clock "-1"`},
		{"fullmove", "3/3/3 w - - 0 x", `fullmove number "x"`},
		{"extra", "3/3/3 w - - 0 1 2", `unexpected field "2"`},
		{"both won", "ppp/PPP/3 w", "both P and p have three in a row"},
		{"mover has line", "PPP/pp1/p2 w", "w is to move but already has three in a row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Game{}.ParsePosition(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParsePosition(%q) = %v, want an error containing %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestParseMove(t *testing.T) {
	p := play(t, "b2")
	tests := []struct {
		in, want string // want is the formatted move, or the error text
		ok       bool
	}{
		{"P@a1", "P@a1", true},
		{"p@c3", "P@c3", true},
		{"a3", "P@a3", true},
		{"c1", "P@c1", true},
		{"P@b2", "square b2 is taken", false},
		{"b2", "square b2 is taken", false},
		{"d1", "square d1 is off the 3x3 board", false},
		{"a4", "square a4 is off the 3x3 board", false},
		{"a0", "square a0 is off the 3x3 board", false},
		{"N@a1", "drops only P", false},
		{"P@", "want a square a1-c3", false},
		{"", "want a square a1-c3", false},
		{"a11", "want a square a1-c3", false},
		{"B2", "want a square a1-c3", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := p.ParseMove(tt.in)
			if tt.ok {
				if err != nil || p.FormatMove(m) != tt.want {
					t.Errorf("ParseMove(%q) = %s, %v; want %s", tt.in, p.FormatMove(m), err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseMove(%q) = %v, %v; want an error containing %q", tt.in, m, err, tt.want)
			}
		})
	}
}

func TestFeatures(t *testing.T) {
	tests := []struct {
		moves string
		want  [NumFeatures]float64
	}{
		{"", [NumFeatures]float64{0, 0, 0, 0, 0}},
		// O to move: 4 lines avoid X's centre stone, all 8 avoid O.
		{"b2", [NumFeatures]float64{4 - 8, 0, 0, -1, 0}},
		// O to move: 3 lines free of X, 4 free of O; X's a1 and c1 make a two on rank 1.
		{"a1 b2 c1", [NumFeatures]float64{3 - 4, 0, 1, 1, -2}},
	}
	for _, tt := range tests {
		t.Run(tt.moves, func(t *testing.T) {
			got := make([]float64, NumFeatures)
			play(t, tt.moves).Features(got)
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("%s = %v, want %v", featureNames[i], got[i], tt.want[i])
				}
			}
		})
	}
	if names := (Game{}).FeatureNames(); len(names) != NumFeatures || names[OpenLines] != "open_lines" {
		t.Errorf("feature names %v", names)
	}
}

func TestStart(t *testing.T) {
	p := Game{}.Start()
	if p.FEN() != startFEN || p.ToMove() != games.First || p.Ply() != 0 {
		t.Errorf("start: %q to move %v ply %d", p.FEN(), p.ToMove(), p.Ply())
	}
	if (Game{}).Name() != "tictactoe" {
		t.Error("name")
	}
}

func TestRandomPlayouts(t *testing.T) {
	gametest.RandomPlayouts(t, Game{}, 300, 10, 1)
}
