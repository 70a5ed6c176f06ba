// The first player's opening book on the 7x6 board: its file format, lookup, and the embedded book.

package connect4solver

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sort"

	"dossier/games/connect4"
)

// The book file: a header, then one little-endian uint64 record per position, in strictly increasing
// order. A record is key<<recordKeyShift | score<<recordScoreShift | column, where key is the smaller of
// the position's key and its mirror image's (the book stores one of each mirror pair), column the
// winning move in that orientation (0 = leftmost) and score the exact Pons score the move keeps.
//
// The header is bookMagic; one byte each for the board's width and height and the book's ply limit
// (every entry has fewer stones); the record count as a little-endian uint32; then how the positions the
// book leads to but leaves out were checked: the node limit within which a solver solved each of them
// (uint32) from an empty table of how many MiB (uint16).
const (
	bookMagic        = "C4BK"
	bookHeaderSize   = len(bookMagic) + 3 + 4 + 4 + 2
	bookRecordSize   = 8
	recordScoreShift = 3
	recordKeyShift   = 8
	bookWidth        = 7
	bookHeight       = 6
)

// bookFile is the book built by internal/tools/c4book (see the go:generate line) and embedded in the binary.
//
//go:generate go run ../../internal/tools/c4book --leaf-nodes 50000 --out book7x6.bin
//go:embed book7x6.bin
var bookFile []byte

// defaultBook is bookFile parsed once; a broken file leaves it nil and DefaultBook reports the error.
var defaultBook, defaultBookErr = ParseBook(bookFile)

// Book is an opening book for the first player on the 7x6 board: for positions where the first player
// is to move, a move that wins (the fastest win the solver found). It holds the positions that the
// first player reaches by its moves, whatever the second player plays, and that a solver with an empty
// table of LeafTableMB MiB cannot solve within LeafNodes nodes; where the book has no entry, the game
// is already that easy to solve. It is read-only and safe for concurrent use.
type Book struct {
	records     []byte // the records, bookRecordSize bytes each
	plies       int
	leafNodes   int
	leafTableMB int
}

// BookEntry is one position of a book: its key (the smaller of the two mirror images'), the winning
// column in that orientation and the exact Pons score the move keeps.
type BookEntry struct {
	Key    uint64
	Column int
	Score  int
}

// DefaultBook returns the book embedded in the binary, or an error if its file does not parse.
func DefaultBook() (*Book, error) { return defaultBook, defaultBookErr }

// ParseBook reads a book file, checking its header and every record: increasing keys, each a key of a
// 7x6 position with the first player to move and fewer stones than the book's ply limit, and a move
// into a column that is not full.
func ParseBook(data []byte) (*Book, error) {
	if len(data) < bookHeaderSize {
		return nil, fmt.Errorf("book: %d bytes, shorter than the %d-byte header", len(data), bookHeaderSize)
	}
	if magic := string(data[:len(bookMagic)]); magic != bookMagic {
		return nil, fmt.Errorf("book: magic %q, want %q", magic, bookMagic)
	}
	header := data[len(bookMagic):bookHeaderSize]
	width, height, plies := int(header[0]), int(header[1]), int(header[2])
	if width != bookWidth || height != bookHeight {
		return nil, fmt.Errorf("book: board %dx%d, want %dx%d", width, height, bookWidth, bookHeight)
	}
	if plies > bookWidth*bookHeight {
		return nil, fmt.Errorf("book: ply limit %d beyond the %d cells of the board", plies, bookWidth*bookHeight)
	}
	count := binary.LittleEndian.Uint32(header[3:])
	records := data[bookHeaderSize:]
	if uint64(len(records)) != uint64(count)*bookRecordSize {
		return nil, fmt.Errorf("book: record count %d needs %d bytes after the header, found %d",
			count, uint64(count)*bookRecordSize, len(records))
	}
	b := &Book{records: records, plies: plies, leafNodes: int(binary.LittleEndian.Uint32(header[7:])),
		leafTableMB: int(binary.LittleEndian.Uint16(header[11:]))}
	var previous uint64
	for i := range b.Len() {
		e := b.Entry(i)
		if i > 0 && e.Key <= previous {
			return nil, fmt.Errorf("book: record %d: key %#x is not after the previous record's %#x", i, e.Key, previous)
		}
		previous = e.Key
		if err := b.checkEntry(e); err != nil {
			return nil, fmt.Errorf("book: record %d: %w", i, err)
		}
	}
	return b, nil
}

// checkEntry reports what is wrong with an entry of a 7x6 book, if anything.
func (b *Book) checkEntry(e BookEntry) error {
	const stride = bookHeight + 1
	if e.Key>>(bookWidth*stride) != 0 {
		return fmt.Errorf("key %#x has bits above the board", e.Key)
	}
	stones := 0
	for c := range bookWidth {
		// A column of h stones holds 2^h - 1 + (the side to move's stones in it), from 2^h - 1 to
		// 2^(h+1) - 2: the ranges of the heights do not overlap.
		group := e.Key >> (c * stride) & (1<<stride - 1)
		height := bits.Len64(group+1) - 1
		if height > bookHeight {
			return fmt.Errorf("key %#x: column %d holds %d stones", e.Key, c, height)
		}
		if c == e.Column && height == bookHeight {
			return fmt.Errorf("key %#x: move into full column %d", e.Key, c)
		}
		stones += height
	}
	switch {
	case stones%2 != 0:
		return fmt.Errorf("key %#x: %d stones, so the second player is to move", e.Key, stones)
	case stones >= b.plies:
		return fmt.Errorf("key %#x: %d stones, not below the ply limit %d", e.Key, stones, b.plies)
	case mirrorKey(e.Key, bookWidth, bookHeight) < e.Key:
		return fmt.Errorf("key %#x: its mirror image's key is smaller", e.Key)
	case e.Column >= bookWidth:
		return fmt.Errorf("key %#x: column %d is off the board", e.Key, e.Column)
	case e.Score <= 0 || e.Score > (bookWidth*bookHeight+1-stones)/2:
		return fmt.Errorf("key %#x: score %d is not a possible win with %d stones on the board", e.Key, e.Score, stones)
	}
	return nil
}

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.records) / bookRecordSize }

// Plies returns the book's ply limit: it holds positions with fewer stones only.
func (b *Book) Plies() int { return b.plies }

// LeafNodes returns the node limit within which a solver with an empty table of LeafTableMB MiB
// solved every position the book leads to without holding it.
func (b *Book) LeafNodes() int { return b.leafNodes }

// LeafTableMB returns the size of that solver's table in MiB.
func (b *Book) LeafTableMB() int { return b.leafTableMB }

// Entry returns the i-th entry in key order.
func (b *Book) Entry(i int) BookEntry {
	record := b.record(i)
	return BookEntry{
		Key:    record >> recordKeyShift,
		Column: int(record & (1<<recordScoreShift - 1)),
		Score:  int(record >> recordScoreShift & (1<<(recordKeyShift-recordScoreShift) - 1)),
	}
}

// record returns the i-th record.
func (b *Book) record(i int) uint64 {
	return binary.LittleEndian.Uint64(b.records[i*bookRecordSize:])
}

// Lookup returns the book's winning move for p with the exact score it keeps, and false when p is not
// in the book or the book's move is not legal in p.
func (b *Book) Lookup(p *connect4.Position) (MoveScore, bool) {
	if b == nil || p.Width() != bookWidth || p.Height() != bookHeight || p.Moves() >= b.plies {
		return MoveScore{}, false
	}
	key, mirrored := CanonicalKey(p)
	i := sort.Search(b.Len(), func(i int) bool { return b.record(i)>>recordKeyShift >= key })
	if i == b.Len() {
		return MoveScore{}, false
	}
	e := b.Entry(i)
	if e.Key != key {
		return MoveScore{}, false
	}
	column := e.Column
	if mirrored {
		column = bookWidth - 1 - column
	}
	if !p.CanPlay(column) {
		return MoveScore{}, false
	}
	return MoveScore{Move: connect4.ColumnMove(column), Score: e.Score}, true
}

// CanonicalKey returns the smaller of the keys of p and of its mirror image, and whether that is the
// mirror image's (a book's column must then be mirrored for p).
func CanonicalKey(p *connect4.Position) (key uint64, mirrored bool) {
	key = p.Key()
	if m := mirrorKey(key, p.Width(), p.Height()); m < key {
		return m, true
	}
	return key, false
}

// mirrorKey returns the key of the mirror image of the position with key: a column's stones add up
// within the column's own height+1 bits (see checkEntry), so mirroring the key reverses the order of
// its columns' bit groups.
func mirrorKey(key uint64, width, height int) uint64 {
	stride := height + 1
	var mirrored uint64
	for c := range width {
		group := key >> (c * stride) & (1<<stride - 1)
		mirrored |= group << ((width - 1 - c) * stride)
	}
	return mirrored
}

// BookCheck says how the positions a book leads to but leaves out were checked: each solved within
// LeafNodes nodes by a solver with an empty table of LeafTableMB MiB.
type BookCheck struct {
	LeafNodes   int
	LeafTableMB int
}

// EncodeBook returns the book file of 7x6 entries (in any order; keys already canonical) whose left-out
// positions were checked as check says; the ply limit is two above the most stones of an entry.
func EncodeBook(entries []BookEntry, check BookCheck) ([]byte, error) {
	if check.LeafNodes < 0 || check.LeafNodes > math.MaxUint32 || check.LeafTableMB < 0 || check.LeafTableMB > math.MaxUint16 {
		return nil, fmt.Errorf("book: check %+v out of range", check)
	}
	records := make([]uint64, 0, len(entries))
	plies := 0
	for _, e := range entries {
		if e.Column < 0 || e.Column >= bookWidth || e.Score <= 0 || e.Score >= 1<<(recordKeyShift-recordScoreShift) {
			return nil, fmt.Errorf("book: entry %+v has a column or score out of range", e)
		}
		records = append(records, e.Key<<recordKeyShift|uint64(e.Score)<<recordScoreShift|uint64(e.Column))
		plies = max(plies, keyStones(e.Key)+2)
	}
	sort.Slice(records, func(i, j int) bool { return records[i] < records[j] })
	data := make([]byte, 0, bookHeaderSize+len(records)*bookRecordSize)
	data = append(data, bookMagic...)
	data = append(data, bookWidth, bookHeight, byte(min(plies, bookWidth*bookHeight)))
	data = binary.LittleEndian.AppendUint32(data, uint32(len(records)))
	data = binary.LittleEndian.AppendUint32(data, uint32(check.LeafNodes))
	data = binary.LittleEndian.AppendUint16(data, uint16(check.LeafTableMB))
	for _, r := range records {
		data = binary.LittleEndian.AppendUint64(data, r)
	}
	if _, err := ParseBook(data); err != nil {
		return nil, err
	}
	return data, nil
}

// keyStones returns the number of stones of the 7x6 position with key (see checkEntry).
func keyStones(key uint64) int {
	const stride = bookHeight + 1
	stones := 0
	for c := range bookWidth {
		stones += bits.Len64(key>>(c*stride)&(1<<stride-1)+1) - 1
	}
	return stones
}
