// Chess960 tests: the published perft suites, X-FEN and Shredder-FEN, the start positions, castling notation.

package chess

import (
	"bufio"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/gametest"
	"dossier/internal/testdeep"
)

// perftCase is one position of a .perft file with its counts by depth (counts[d-1] at depth d).
type perftCase struct {
	id     string
	fen    string
	counts []uint64
}

// readPerftFile reads the id/epd/perft format of testdata/*.perft (see testdata/README.md).
func readPerftFile(t *testing.T, path string) []perftCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []perftCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		key, value, _ := strings.Cut(text, " ")
		switch key {
		case "id":
			out = append(out, perftCase{id: value})
		case "epd":
			out[len(out)-1].fen = value
		case "perft":
			c := &out[len(out)-1]
			fs := strings.Fields(value)
			depth, err1 := strconv.Atoi(fs[0])
			nodes, err2 := strconv.ParseUint(fs[len(fs)-1], 10, 64)
			if len(fs) != 2 || err1 != nil || err2 != nil || depth != len(c.counts)+1 {
				t.Fatalf("%s line %d: bad perft line %q", path, line, text)
			}
			c.counts = append(c.counts, nodes)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestChess960PerftSuite checks the published counts of the 960 positions of testdata/chess960.perft: every
// 8th position to depth 4 under -short (all 960 otherwise), every 96th to depth 5 outside -short, and two to
// depth 6 in the deep run (DOSSIER_DEEP_TESTS=1). Depths up to 4 are also compared with the interface perft.
func TestChess960PerftSuite(t *testing.T) {
	cases := readPerftFile(t, "testdata/chess960.perft")
	if len(cases) != 960 {
		t.Fatalf("%d positions in the suite, want 960", len(cases))
	}
	for i, c := range cases {
		depth := 4
		switch {
		case testing.Short() && i%8 != 0:
			continue
		case !testdeep.Quick() && (i == 0 || i == 517):
			depth = 6
		case !testing.Short() && i%96 == 0:
			depth = 5
		}
		t.Run(c.id, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			gametest.CheckPerft(t, p, c.counts, depth)
		})
	}
}

// TestXFENPerft checks the X-FEN positions whose castling is the easiest to get wrong (a rook beside the
// king, a b1 rook shielding c1 from a queen on a1, an h-side rook between the king and the a-side rook's
// destination) to depth 5, depth 6 outside -short.
func TestXFENPerft(t *testing.T) {
	depth := 5
	if !testing.Short() {
		depth = 6
	}
	for _, c := range readPerftFile(t, "testdata/x-fen.perft") {
		t.Run(c.id, func(t *testing.T) {
			gametest.CheckPerft(t, mustFEN(t, c.fen), c.counts, depth)
		})
	}
}

// TestChess960BackRank checks Scharnagl's numbering at the published numbers and that the 960 back ranks
// are distinct and legal: bishops on squares of both colours, the king between the rooks.
func TestChess960BackRank(t *testing.T) {
	known := []struct {
		n    int
		want string
	}{
		{0, "BBQNNRKR"},
		{1, "BQNBNRKR"},
		{518, "RNBQKBNR"},
		{959, "RKRNNQBB"},
	}
	for _, tc := range known {
		t.Run(strconv.Itoa(tc.n), func(t *testing.T) {
			got, err := Chess960BackRank(tc.n)
			if err != nil || got != tc.want {
				t.Fatalf("Chess960BackRank(%d) = %q, %v; want %q", tc.n, got, err, tc.want)
			}
		})
	}
	seen := map[string]int{}
	for n := 0; n < Chess960Positions; n++ {
		back, err := Chess960BackRank(n)
		if err != nil {
			t.Fatal(err)
		}
		if prev, dup := seen[back]; dup {
			t.Fatalf("positions %d and %d are both %s", prev, n, back)
		}
		seen[back] = n
		b1, b2 := strings.IndexByte(back, 'B'), strings.LastIndexByte(back, 'B')
		r1, k, r2 := strings.IndexByte(back, 'R'), strings.IndexByte(back, 'K'), strings.LastIndexByte(back, 'R')
		if (b1+b2)%2 == 0 || !(r1 < k && k < r2) || strings.Count(back, "N") != 2 || strings.Count(back, "Q") != 1 {
			t.Fatalf("position %d: %s is not a Chess960 back rank", n, back)
		}
		p, err := Chess960Start(n)
		if err != nil {
			t.Fatalf("position %d: %v", n, err)
		}
		want := 16 + knightMovesOfStart(back)
		if back[5:7] == "KR" || back[2:4] == "RK" {
			want++ // a king on f1 and a rook on g1 (or the rook on c1 and the king on d1) castle at once: they swap
		}
		if got := p.CountMoves(); got != want {
			t.Fatalf("position %d (%s): %d moves", n, back, got)
		}
	}
	for _, n := range []int{-1, 960} {
		if _, err := Chess960BackRank(n); err == nil || !strings.Contains(err.Error(), "0 to 959") {
			t.Errorf("Chess960BackRank(%d): error %v, want one naming 0 to 959", n, err)
		}
	}
	if fen, _ := Chess960FEN(Chess960StandardNumber); fen != StartFEN {
		t.Errorf("Chess960FEN(518) = %q, want the standard start", fen)
	}
}

// knightMovesOfStart returns the knights' moves in a start position: each reaches the third rank one file
// to either side (two files away is its own second rank, full of pawns). With the 16 pawn moves that is
// every legal move but castling, as nothing else can move.
func knightMovesOfStart(back string) int {
	n := 0
	for f := 0; f < 8; f++ {
		if back[f] == 'N' {
			n += 2
			if f == 0 || f == 7 {
				n--
			}
		}
	}
	return n
}

// TestChess960FEN checks X-FEN and Shredder-FEN: reading either, writing both, the hash not depending on
// the form read, and KQ naming inner rooks only when they are the outermost.
func TestChess960FEN(t *testing.T) {
	tests := []struct {
		in, xfen, shredder string
	}{
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
			"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
			"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"},
		{StartFEN, StartFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
		// Two rooks on the h-side: the inner one castles, so X-FEN names its file.
		{"4k3/8/8/8/8/8/8/R3KR1R w FA - 0 1", "4k3/8/8/8/8/8/8/R3KR1R w FQ - 0 1", "4k3/8/8/8/8/8/8/R3KR1R w FA - 0 1"},
		{"4k3/8/8/8/8/8/8/R3KR1R w KQ - 0 1", "4k3/8/8/8/8/8/8/R3KR1R w KQ - 0 1", "4k3/8/8/8/8/8/8/R3KR1R w HA - 0 1"},
		{"2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1", "2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1", "2r5/8/8/8/8/8/6PP/k2KR3 w E - 0 1"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			p := mustFEN(t, tc.in)
			if p.FEN() != tc.xfen || p.ShredderFEN() != tc.shredder {
				t.Fatalf("FEN %q Shredder %q, want %q and %q", p.FEN(), p.ShredderFEN(), tc.xfen, tc.shredder)
			}
			for _, again := range []string{tc.xfen, tc.shredder} {
				if q := mustFEN(t, again); q.Hash() != p.Hash() || q.FEN() != p.FEN() {
					t.Fatalf("%q reads as %q hash %x, want hash %x", again, q.FEN(), q.Hash(), p.Hash())
				}
			}
		})
	}
	// Rights on different rooks are different positions.
	a := mustFEN(t, "4k3/8/8/8/8/8/8/R3KR1R w F - 0 1")
	b := mustFEN(t, "4k3/8/8/8/8/8/8/R3KR1R w H - 0 1")
	if a.Hash() == b.Hash() {
		t.Error("castling with the f1 rook and with the h1 rook hash alike")
	}
}

// TestChess960Castling plays each castling of positions where the pieces cross, and checks the board after
// it, the UCI notation in both modes (read as king takes rook, which both accept), SAN, and that Undo
// restores the position.
func TestChess960Castling(t *testing.T) {
	tests := []struct {
		name, fen, uci960, uci, san, after string
	}{
		{"king and rook swap", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1", "f1g1", "O-O", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
		{"king stays on g1", "4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "g1g1", "O-O", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
		{"long from b1", "4k3/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1", "b1c1", "O-O-O", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
		{"long with the rook on the king's destination", "4k3/8/8/8/8/8/8/2R1K3 w C - 0 1", "e1c1", "e1c1", "O-O-O", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
		{"black long, king on d8", "1r1k4/8/8/8/8/8/8/4K3 b b - 0 1", "d8b8", "d8c8", "O-O-O", "2kr4/8/8/8/8/8/8/4K3 w - - 1 2"},
		{"standard", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "e1g1", "O-O", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, chess960 := range []bool{true, false} {
				pos, err := Game{Chess960: chess960}.ParsePosition(tc.fen)
				if err != nil {
					t.Fatal(err)
				}
				p := pos.(*Position)
				want := tc.uci
				if chess960 {
					want = tc.uci960
				}
				m, err := p.ParseMove(tc.uci960)
				if err != nil {
					t.Fatalf("Chess960 %v: %v", chess960, err)
				}
				if !IsCastling(m) || p.FormatMove(m) != want || p.SAN(m) != tc.san {
					t.Fatalf("Chess960 %v: %s reads as %s (SAN %s), castling %v", chess960, want, p.FormatMove(m), p.SAN(m), IsCastling(m))
				}
				if back, err := p.ParseSAN(tc.san); err != nil || back != m {
					t.Fatalf("%s reads back as %v, %v", tc.san, back, err)
				}
				before, hash := p.FEN(), p.Hash()
				p.Play(m)
				if p.FEN() != tc.after || p.Hash() != mustFEN(t, tc.after).Hash() {
					t.Fatalf("after %s: %s, want %s (or the hash differs from the FEN's)", want, p.FEN(), tc.after)
				}
				p.Undo()
				if p.FEN() != before || p.Hash() != hash {
					t.Fatalf("Undo gives %s", p.FEN())
				}
			}
		})
	}
}

// TestChess960KingMoveOrCastling checks a position where the king can step to g1 or castle there: f1g1 is
// the step, f1h1 castling; a king taking a rook that cannot castle is an error naming castling.
func TestChess960KingMoveOrCastling(t *testing.T) {
	p := mustFEN(t, "4k3/8/8/8/8/8/8/R4K1R w H - 0 1")
	p.chess960 = true
	step, err := p.ParseMove("f1g1")
	if err != nil || IsCastling(step) {
		t.Fatalf("f1g1: %v, castling %v", err, IsCastling(step))
	}
	castle, err := p.ParseMove("f1h1")
	if err != nil || !IsCastling(castle) || MoveTo(castle) != sqG1 || CastlingRook(castle) != sqH1 {
		t.Fatalf("f1h1: %v", err)
	}
	if _, err := p.ParseMove("f1a1"); err == nil || !strings.Contains(err.Error(), "castling with the rook on a1 is not legal") {
		t.Fatalf("f1a1 (no right on a1): error %v", err)
	}
}

// TestChess960Playouts runs the interface's conformance checks over random games from random Chess960
// start positions in both notations.
func TestChess960Playouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(960, 1))
	games960 := 40
	if testing.Short() {
		games960 = 10
	}
	var buf [games.MaxMoves]games.Move
	castlings := 0
	for i := 0; i < games960; i++ {
		g := Game{Chess960: i%2 == 0}
		fen, err := Chess960FEN(rng.IntN(Chess960Positions))
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 120 && p.Status().Result == games.Ongoing; ply++ {
			if !gametest.CheckPosition(t, g, p) {
				return
			}
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			for _, c := range moves { // castle whenever possible, to exercise it
				if IsCastling(c) {
					m = c
				}
			}
			if IsCastling(m) {
				castlings++
			}
			p.Play(m)
		}
	}
	if castlings == 0 {
		t.Error("no castling was played")
	}
	t.Logf("%d castlings played", castlings)
}

// BenchmarkPerftChess960 times perft 5 of the first position of the Chess960 suite (8,146,062 leaves).
func BenchmarkPerftChess960(b *testing.B) {
	benchmarkPerft(b, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 5)
}
