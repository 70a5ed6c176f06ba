// Polyglot's book coding checked against the format's published keys, against a second computation from
// notnil/chess's FEN in random games, and its random numbers against Debian's polyglot program.

package chess

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	notnil "github.com/notnil/chess"

	"dossier/games"
)

// TestPolyglotKeysOfTheFormat plays the lines of the format's own examples and compares each position's key
// with the one the format gives (among them an en-passant file that counts, one that does not, castling
// rights lost by a king's move, and an en-passant capture).
func TestPolyglotKeysOfTheFormat(t *testing.T) {
	lines := []struct {
		moves string
		key   uint64
	}{
		{"", 0x463b96181691fc9c},
		{"e2e4", 0x823c9b50fd114196},
		{"e2e4 d7d5", 0x0756b94461c50fb0},
		{"e2e4 d7d5 e4e5", 0x662fafb965db29d4},
		{"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78},
		{"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1},
		{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9},
		{"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637},
		{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560},
	}
	for _, line := range lines {
		p := Game{}.Start().(*Position)
		for _, tok := range strings.Fields(line.moves) {
			m, err := p.ParseMove(tok)
			if err != nil {
				t.Fatalf("%q: %v", line.moves, err)
			}
			p.Play(m)
		}
		if got := p.BookKey(); got != line.key {
			t.Errorf("after %q: key %016x, the format says %016x", line.moves, got, line.key)
		}
	}
}

// TestPolyglotMoveCodes checks the move codes the format defines: origin and destination, promotions, and
// castling as the king taking its own rook.
func TestPolyglotMoveCodes(t *testing.T) {
	code := func(from, to string, promotion int) uint16 {
		sq := func(s string) uint16 { return uint16(s[0]-'a') + 8*uint16(s[1]-'1') }
		return sq(to) | sq(from)<<6 | uint16(promotion)<<12
	}
	cases := []struct {
		fen, move string
		want      uint16
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", code("g1", "f3", 0)},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", code("e1", "h1", 0)},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", code("e1", "a1", 0)},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", code("e8", "h8", 0)},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", code("e8", "a8", 0)},
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8n", code("a7", "a8", 1)},
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8b", code("a7", "a8", 2)},
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8r", code("a7", "a8", 3)},
		{"8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q", code("a7", "a8", 4)},
	}
	for _, c := range cases {
		p, err := Game{}.ParsePosition(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(c.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.(*Position).BookMove(m); got != c.want {
			t.Errorf("%s in %s: code %#04x, want %#04x", c.move, c.fen, got, c.want)
		}
	}
}

// polyglotKeyFromFEN computes a key from a FEN as the format describes it, independently of BookKey: the
// en-passant file counts when the FEN names a square (notnil/chess does after every double push) and a pawn
// of the side to move stands beside the pawn that moved.
func polyglotKeyFromFEN(t *testing.T, fen string) uint64 {
	fields := strings.Fields(fen)
	board := map[[2]int]rune{} // by rank and file
	rank, file := 7, 0
	for _, c := range fields[0] {
		switch {
		case c == '/':
			rank, file = rank-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
		default:
			board[[2]int{rank, file}] = c
			file++
		}
	}
	var key uint64
	for square, c := range board {
		kind := 2 * strings.IndexRune("pnbrqk", c)
		if kind < 0 {
			kind = 2*strings.IndexRune("PNBRQK", c) + 1
		}
		key ^= polyglotRandom[64*kind+8*square[0]+square[1]]
	}
	for i, c := range "KQkq" {
		if strings.ContainsRune(fields[2], c) {
			key ^= polyglotRandom[768+i]
		}
	}
	if ep := fields[3]; ep != "-" {
		epFile := int(ep[0] - 'a')
		pawnRank, pawn := 4, 'P' // White to move: the black pawn stands on the fifth rank
		if fields[1] == "b" {
			pawnRank, pawn = 3, 'p'
		}
		if board[[2]int{pawnRank, epFile - 1}] == pawn || board[[2]int{pawnRank, epFile + 1}] == pawn {
			key ^= polyglotRandom[772+epFile]
		}
	}
	if fields[1] == "w" {
		key ^= polyglotRandom[780]
	}
	return key
}

// TestPolyglotKeysAgreeWithAFENComputation plays seeded random games and compares BookKey at every ply with
// the key computed from notnil/chess's FEN of the same position: pinned en-passant pawns, castling rights
// lost and kept, promotions, all as random games reach them.
func TestPolyglotKeysAgreeWithAFENComputation(t *testing.T) {
	nGames := 300
	if testing.Short() {
		nGames = 40
	}
	rng := rand.New(rand.NewPCG(7, 77))
	var buf [games.MaxMoves]games.Move
	plies, epKeys := 0, 0
	for g := 0; g < nGames; g++ {
		p := Game{}.Start().(*Position)
		ref := notnil.StartingPosition()
		for ply := 0; ply < 160; ply++ {
			want := polyglotKeyFromFEN(t, ref.String())
			if got := p.BookKey(); got != want {
				t.Fatalf("game %d ply %d, %s: key %016x, from the FEN %016x", g, ply, ref.String(), got, want)
			}
			if _, ok := p.polyglotEnPassantFile(); ok {
				epKeys++
			}
			plies++
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 || p.Status().Result.Over() {
				break
			}
			m := moves[rng.IntN(len(moves))]
			var refMove *notnil.Move
			for _, rm := range ref.ValidMoves() {
				if rm.String() == p.FormatMove(m) {
					refMove = rm
				}
			}
			if refMove == nil {
				t.Fatalf("notnil has no move %s in %s", p.FormatMove(m), ref.String())
			}
			ref = ref.Update(refMove)
			p.Play(m)
		}
	}
	if epKeys == 0 {
		t.Fatal("no position with an en-passant key: the test showed nothing of them")
	}
	t.Logf("%d positions, %d with an en-passant key", plies, epKeys)
}

// TestPolyglotRandomsMatchDebianPolyglot finds polyglot's table of random numbers in Debian's polyglot
// program and compares it with ours, number by number.
func TestPolyglotRandomsMatchDebianPolyglot(t *testing.T) {
	program, err := os.ReadFile("/usr/games/polyglot")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("polyglot is missing in CI: .ci/run should have installed it: %v", err)
		}
		t.Skipf("Debian's polyglot is not installed: %v", err)
	}
	var table [781 * 8]byte
	for i, r := range polyglotRandom {
		binary.LittleEndian.PutUint64(table[8*i:], r)
	}
	if !bytes.Contains(program, table[:]) {
		t.Fatal("polyglot's program does not hold our table of 781 random numbers")
	}
}
