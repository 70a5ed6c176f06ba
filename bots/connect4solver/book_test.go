// Tests of the opening book: the file format, mirror images, the embedded book's closure and wins.

package connect4solver

import (
	"encoding/binary"
	"flag"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/connect4"
	"dossier/internal/testdeep"
)

// checkWholeBook makes the tests of the embedded book solve every leaf and confirm every entry's
// exact score, which takes about two minutes; without it the full run confirms samples.
var checkWholeBook = flag.Bool("book.all", false, "check every leaf and every entry's exact score of the embedded book")

// mustPlay returns the position after Pons's digit sequence moves.
func mustPlay(t testing.TB, moves string) *connect4.Position {
	t.Helper()
	p, err := connect4.Game{}.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	if err := connect4.PlayMoveString(p, moves); err != nil {
		t.Fatal(err)
	}
	return p
}

// mirrorMoves mirrors a digit sequence: column 1 becomes 7 and so on.
func mirrorMoves(moves string) string {
	m := []byte(moves)
	for i, d := range m {
		m[i] = '1' + '7' - d
	}
	return string(m)
}

func TestMirrorKey(t *testing.T) {
	for _, moves := range []string{"", "4", "1", "12", "7711", "4455667", "1234567", "112233", "7654321765"} {
		t.Run(moves, func(t *testing.T) {
			p, q := mustPlay(t, moves), mustPlay(t, mirrorMoves(moves))
			if got := mirrorKey(p.Key(), 7, 6); got != q.Key() {
				t.Errorf("mirrorKey(%#x) = %#x, want the mirrored line's key %#x", p.Key(), got, q.Key())
			}
			kp, mp := CanonicalKey(p)
			kq, mq := CanonicalKey(q)
			if kp != kq || kp != min(p.Key(), q.Key()) {
				t.Errorf("canonical keys %#x and %#x, want both %#x", kp, kq, min(p.Key(), q.Key()))
			}
			if p.Key() != q.Key() && mp == mq {
				t.Errorf("both images say mirrored=%v", mp)
			}
		})
	}
}

// bookOf encodes entries (built from lines and columns in the line's orientation) or fails the test.
func bookOf(t *testing.T, lines map[string]int) *Book {
	t.Helper()
	var entries []BookEntry
	for moves, column := range lines {
		key, mirrored := CanonicalKey(mustPlay(t, moves))
		if mirrored {
			column = 6 - column
		}
		entries = append(entries, BookEntry{Key: key, Column: column, Score: 1})
	}
	data, err := EncodeBook(entries, BookCheck{LeafNodes: 1000, LeafTableMB: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseBook(data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBookLookup(t *testing.T) {
	b := bookOf(t, map[string]int{"": 3, "41": 4})
	if b.Plies() != 4 || b.LeafNodes() != 1000 || b.LeafTableMB() != 1 {
		t.Errorf("ply limit %d, leaf check %d nodes with %d MiB; want 4, 1000, 1", b.Plies(), b.LeafNodes(), b.LeafTableMB())
	}
	tests := []struct {
		moves  string
		column int // -1: not in the book
	}{
		{"", 3},
		{"41", 4},
		{"47", 2},    // the mirror image of 41
		{"4466", -1}, // at the ply limit
		{"42", -1},
		{"4", -1}, // the second player to move
	}
	for _, tc := range tests {
		t.Run(tc.moves, func(t *testing.T) {
			got, ok := b.Lookup(mustPlay(t, tc.moves))
			switch {
			case tc.column < 0 && ok:
				t.Errorf("Lookup found %v, want nothing", got)
			case tc.column >= 0 && (!ok || got.Move != connect4.ColumnMove(tc.column) || got.Score != 1):
				t.Errorf("Lookup = %v, %v; want column %d with score 1", got, ok, tc.column)
			}
		})
	}
	var none *Book
	if _, ok := none.Lookup(mustPlay(t, "")); ok {
		t.Error("a nil book found a move")
	}
	if _, ok := b.Lookup(mustPositionOf(t, connect4.Game{Width: 6, Height: 6}, "")); ok {
		t.Error("a 7x6 book found a move on a 6x6 board")
	}
}

// mustPositionOf returns the position after moves on the board of g.
func mustPositionOf(t *testing.T, g connect4.Game, moves string) *connect4.Position {
	t.Helper()
	p, err := g.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	if err := connect4.PlayMoveString(p, moves); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBookLookupChecksLegality(t *testing.T) {
	// A book entry for a column that the position has filled: ParseBook refuses such files, so the record
	// is written by hand, and Lookup must refuse it too.
	key, _ := CanonicalKey(mustPlay(t, "444444"))
	data := []byte(bookMagic + "\x07\x06\x08\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	data = binary.LittleEndian.AppendUint64(data, key<<recordKeyShift|1<<recordScoreShift|3)
	b := &Book{records: data[bookHeaderSize:], plies: 8}
	if got, ok := b.Lookup(mustPlay(t, "444444")); ok {
		t.Errorf("Lookup returned %v into a full column", got)
	}
	if _, err := ParseBook(data); err == nil || !strings.Contains(err.Error(), "full column") {
		t.Errorf("ParseBook error %v, want one about the full column", err)
	}
}

func TestParseBookErrors(t *testing.T) {
	header := func(plies byte, count uint32) []byte {
		data := binary.LittleEndian.AppendUint32([]byte(bookMagic+"\x07\x06"+string(plies)), count)
		return append(data, 0, 0, 0, 0, 0, 0)
	}
	record := func(moves string, column, score uint64) uint64 {
		key, _ := CanonicalKey(mustPlay(t, moves))
		return key<<recordKeyShift | score<<recordScoreShift | column
	}
	withRecords := func(plies byte, records ...uint64) []byte {
		data := header(plies, uint32(len(records)))
		for _, r := range records {
			data = binary.LittleEndian.AppendUint64(data, r)
		}
		return data
	}
	empty, _ := CanonicalKey(mustPlay(t, ""))
	// One of the two mirror images has the larger key.
	notCanonical := max(mustPlay(t, "17").Key(), mustPlay(t, "71").Key())
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"short", []byte("C4BK"), "shorter than"},
		{"magic", append([]byte("XXXX"), header(2, 0)[4:]...), "magic"},
		{"board", append([]byte(bookMagic+"\x06\x06\x02"), make([]byte, 10)...), "board 6x6"},
		{"ply limit", header(43, 0), "ply limit 43"},
		{"count", header(2, 2), "record count 2"},
		{"order", withRecords(4, record("41", 3, 1), record("", 3, 1)), "not after"},
		{"duplicate", withRecords(4, record("", 3, 1), record("", 2, 1)), "not after"},
		{"odd stones", withRecords(4, record("4", 3, 1)), "second player is to move"},
		{"stones", withRecords(2, record("41", 3, 1)), "ply limit 2"},
		{"not canonical", withRecords(4, notCanonical<<recordKeyShift|1<<recordScoreShift|3), "mirror image"},
		{"column", withRecords(2, record("", 7, 1)), "off the board"},
		{"score zero", withRecords(2, record("", 3, 0)), "score 0"},
		{"score too high", withRecords(2, record("", 3, 22)), "score 22"},
		{"column overflow", withRecords(2, (empty|127)<<recordKeyShift|1<<recordScoreShift|3), "holds 7 stones"},
		{"above the board", withRecords(2, (empty|1<<49)<<recordKeyShift|1<<recordScoreShift|3), "above the board"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseBook(tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseBook error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestEncodeBookRefusesBadEntries(t *testing.T) {
	key, _ := CanonicalKey(mustPlay(t, ""))
	for _, e := range []BookEntry{{key, 7, 1}, {key, -1, 1}, {key, 3, 0}, {key, 3, 32}} {
		if _, err := EncodeBook([]BookEntry{e}, BookCheck{}); err == nil {
			t.Errorf("EncodeBook accepted %+v", e)
		}
	}
	for _, check := range []BookCheck{{-1, 1}, {1, -1}, {1 << 32, 1}, {1, 1 << 16}} {
		if _, err := EncodeBook([]BookEntry{{key, 3, 1}}, check); err == nil {
			t.Errorf("EncodeBook accepted the check %+v", check)
		}
	}
}

func FuzzParseBook(f *testing.F) {
	// The embedded book's first records, its count left as it is (the whole book makes fuzzing crawl).
	f.Add(bookFile[:min(len(bookFile), bookHeaderSize+3*bookRecordSize)])
	if data, err := EncodeBook([]BookEntry{{Key: 0, Column: 3, Score: 1}}, BookCheck{LeafNodes: 10, LeafTableMB: 1}); err == nil {
		f.Add(data)
	}
	f.Add([]byte(bookMagic + "\x07\x06\x02\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00" + "\x00\x01\x02\x03\x04\x05\x06\x07"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseBook(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "book: ") {
				t.Errorf("error %q does not say it is about the book", err)
			}
			return
		}
		// Whatever parses looks up without panicking, on the empty board and on each entry's key.
		b.Lookup(mustPlay(t, ""))
		for i := range min(b.Len(), 100) {
			if e := b.Entry(i); e.Column < 0 || e.Column >= bookWidth {
				t.Errorf("entry %d column %d", i, e.Column)
			}
		}
	})
}

// walkBook plays the embedded book from the empty board, the second player trying every legal move,
// and calls entry once per position (mirror images counted once) where the first player is to move and
// the book has a move, and leaf once per such position where it has none, with the moves that reached
// it (Pons's digits). It returns the number of positions per ply.
func walkBook(t *testing.T, b *Book, entry func(p *connect4.Position, best MoveScore), leaf func(p *connect4.Position, moves string)) map[int]int {
	t.Helper()
	seen := map[uint64]bool{}
	perPly := map[int]int{}
	var moves []byte
	var walk func(p *connect4.Position)
	walk = func(p *connect4.Position) {
		key, _ := CanonicalKey(p)
		if seen[key] {
			return
		}
		seen[key] = true
		perPly[p.Moves()]++
		best, ok := b.Lookup(p)
		if !ok {
			leaf(p, string(moves))
			return
		}
		entry(p, best)
		p.Play(best.Move)
		moves = append(moves, '1'+byte(connect4.MoveColumn(best.Move)))
		defer func() {
			p.Undo()
			moves = moves[:len(moves)-1]
		}()
		if p.Status().Result != games.Ongoing {
			return
		}
		var buf [games.MaxMoves]games.Move
		for _, reply := range p.AppendMoves(buf[:0]) {
			p.Play(reply)
			moves = append(moves, '1'+byte(connect4.MoveColumn(reply)))
			if p.Status().Result == games.Ongoing {
				walk(p)
			}
			moves = moves[:len(moves)-1]
			p.Undo()
		}
	}
	walk(mustPlay(t, ""))
	return perPly
}

func TestDefaultBookIsClosed(t *testing.T) {
	// Every position the book leads to is in the book or, in both mirror images (the solver's move order
	// is not symmetric), solved within the book's leaf node limit from an empty table, as the strongest
	// player solves it after leaving the book. The deep run (DOSSIER_DEEP_TESTS=1) solves every 2nd leaf,
	// the plain and the short run every 50th, -book.all every one.
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() == 0 || b.LeafNodes() <= 0 || b.LeafTableMB() <= 0 {
		t.Fatalf("%d entries, leaves solved within %d nodes with %d MiB: not a built book", b.Len(), b.LeafNodes(), b.LeafTableMB())
	}
	every := 2
	switch {
	case *checkWholeBook:
		every = 1
	case testdeep.Quick():
		every = 50
	}
	s := New(b.LeafTableMB())
	used := map[uint64]bool{}
	leaves, solved := 0, 0
	var worst uint64
	perPly := walkBook(t, b, func(p *connect4.Position, best MoveScore) {
		key, _ := CanonicalKey(p)
		used[key] = true
	}, func(_ *connect4.Position, moves string) {
		leaves++
		if leaves%every != 0 {
			return
		}
		for _, image := range []string{moves, mirrorMoves(moves)} {
			solved++
			s.Reset()
			p := mustPlay(t, image)
			best, ok := s.BestMoveWithin(p, Limits{MaxNodes: uint64(b.LeafNodes())})
			switch {
			case !ok:
				t.Errorf("%s (%s): not solved within %d nodes", image, p.FEN(), b.LeafNodes())
			case best.Score <= 0:
				t.Errorf("%s (%s): the first player does not win (score %d)", image, p.FEN(), best.Score)
			}
			worst = max(worst, s.Nodes())
		}
	})
	// Every entry is on the walk: the book holds no position that the first player's own moves avoid.
	if len(used) != b.Len() {
		t.Errorf("the walk used %d of the book's %d entries", len(used), b.Len())
	}
	t.Logf("%d entries, %d leaves (%d solves, the costliest %d nodes); positions per ply %v", b.Len(), leaves, solved, worst, perPly)
}

// firstVerifiedPly is the smallest number of stones of the positions whose book moves the tests confirm
// with the solver: a position with fewer stones takes the solver minutes (internal/tools/c4book solved
// every one of them when it built the book).
const firstVerifiedPly = 6

func TestDefaultBookMovesWin(t *testing.T) {
	// The solver confirms that each book move wins (the second player loses after it) and, for a
	// sample, that it keeps the book's exact score. The deep run (DOSSIER_DEEP_TESTS=1) confirms every 2nd
	// win and every 8th score, the plain and the short run every 200th position's score, -book.all every
	// score.
	b, err := DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	every, scoreEvery := 2, 4
	switch {
	case *checkWholeBook:
		every, scoreEvery = 1, 1
	case testdeep.Quick():
		every, scoreEvery = 200, 1
	}
	s := New(64)
	wins, scores, visited := 0, 0, 0
	walkBook(t, b, func(p *connect4.Position, best MoveScore) {
		if p.Moves() < firstVerifiedPly {
			return
		}
		visited++
		if visited%every != 0 {
			return
		}
		wins++
		fen := p.FEN()
		p.Play(best.Move)
		defer p.Undo()
		if o := p.Status(); o.Result != games.Ongoing {
			if o.Result != games.LossFor(games.Second) {
				t.Errorf("%s: the book's move ends the game with %v", fen, o)
			}
			return
		}
		if wins%scoreEvery != 0 {
			if s.WeakSolve(p) != -1 {
				t.Errorf("%s: the second player does not lose after the book's column %d", fen, connect4.MoveColumn(best.Move)+1)
			}
			return
		}
		// The move keeps the book's exact score: the second player's score after it is its negative.
		scores++
		if score := s.Solve(p); score != -best.Score {
			t.Errorf("%s: after the book's column %d the second player scores %d, want %d", fen,
				connect4.MoveColumn(best.Move)+1, score, -best.Score)
		}
	}, func(*connect4.Position, string) {})
	t.Logf("of %d positions from ply %d, confirmed %d wins, %d of them with the exact score", visited, firstVerifiedPly, wins, scores)
}
