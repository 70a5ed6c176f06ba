// Package openingbook reads, writes and chooses from opening books in polyglot's layout: entries of 16 bytes,
// a position's key (8 bytes), a move's code (2), a weight (2) and a learn field (4), all big-endian, sorted
// by key. Chess books are polyglot's own (games/chess codes positions and moves as the format defines them),
// so books made by polyglot make-book, cutechess or a GUI read as they are; the other games keep the layout
// with keys and codes of their own (games.BookCoder).
//
// A Book reads its entries where they lie, by a binary search of the file for each position, so that a book
// of any size opens at once and a lookup costs a few reads: nothing on the clock.
package openingbook

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"dossier/games"
)

// EntrySize is the size of one entry in bytes.
const EntrySize = 16

// Entry is one entry of a book: a move (its code) in a position (its key) with its weight. Learn is
// polyglot's learn field, kept as read and written as given.
type Entry struct {
	Key    uint64
	Move   uint16
	Weight uint16
	Learn  uint32
}

// EntryOf returns the entry of the legal move m in p with weight: the position's key and the move's code in
// the game's book format.
func EntryOf(p games.Position, m games.Move, weight uint16) (Entry, error) {
	coder, ok := p.(games.BookCoder)
	if !ok {
		return Entry{}, ErrNoBookFormat
	}
	return Entry{Key: coder.BookKey(), Move: coder.BookMove(m), Weight: weight}, nil
}

// ErrNoBookFormat says that a game's positions give no book key (the game implements no games.BookCoder).
var ErrNoBookFormat = errors.New("the game has no opening-book format")

// Book is an opening book, read from a file or from memory. Its methods may be called concurrently.
type Book struct {
	name    string
	src     io.ReaderAt
	entries int64
	closer  io.Closer
	mu      sync.Mutex // serialises Close against lookups on a file
	closed  bool
}

// Open opens the book file at path and checks it: a size that is a multiple of EntrySize and entries sorted
// by key, which is what a file of another kind, a truncated copy or a corrupt one fails. The check reads the
// file once, when it is opened: never during a game's moves.
func Open(path string) (*Book, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening book: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening book %s: %w", path, err)
	}
	if info.IsDir() {
		f.Close()
		return nil, fmt.Errorf("opening book %s is a directory, not a book file", path)
	}
	b, err := newBook(filepath.Base(path), f, info.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening book %s: %w", path, err)
	}
	b.closer = f
	return b, nil
}

// FromBytes reads a book held in memory (an embedded one), checked as Open checks a file.
func FromBytes(name string, data []byte) (*Book, error) {
	b, err := newBook(name, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("opening book %s: %w", name, err)
	}
	return b, nil
}

// newBook checks the size and the order of a book's entries.
func newBook(name string, src io.ReaderAt, size int64) (*Book, error) {
	if size == 0 {
		return nil, errors.New("the file is empty")
	}
	if size%EntrySize != 0 {
		return nil, fmt.Errorf("not a polyglot book: its size, %d bytes, is not a multiple of %d", size, EntrySize)
	}
	r := bufio.NewReaderSize(io.NewSectionReader(src, 0, size), 1<<16)
	var buf [EntrySize]byte
	var previous uint64
	for i := int64(0); i < size/EntrySize; i++ {
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return nil, fmt.Errorf("reading entry %d: %w", i, err)
		}
		key := binary.BigEndian.Uint64(buf[:8])
		if i > 0 && key < previous {
			return nil, fmt.Errorf("not a polyglot book: entry %d is out of order (its entries are not sorted by key)", i)
		}
		previous = key
	}
	return &Book{name: name, src: src, entries: size / EntrySize}, nil
}

// Name returns the book's name: its file's base name, or the name it was read under.
func (b *Book) Name() string { return b.name }

// Len returns the number of entries.
func (b *Book) Len() int { return int(b.entries) }

// Close closes the book's file; lookups after it fail.
func (b *Book) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	if b.closer != nil {
		return b.closer.Close()
	}
	return nil
}

// entryAt reads entry i.
func (b *Book) entryAt(i int64) (Entry, error) {
	var buf [EntrySize]byte
	if _, err := b.src.ReadAt(buf[:], i*EntrySize); err != nil {
		return Entry{}, fmt.Errorf("opening book %s: reading entry %d: %w", b.name, i, err)
	}
	return decode(buf[:]), nil
}

// Lookup returns the entries of the position with key, in the book's order.
func (b *Book) Lookup(key uint64) ([]Entry, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, fmt.Errorf("opening book %s is closed", b.name)
	}
	var readErr error
	first := sort.Search(int(b.entries), func(i int) bool {
		e, err := b.entryAt(int64(i))
		if err != nil {
			readErr = err
			return true
		}
		return e.Key >= key
	})
	if readErr != nil {
		return nil, readErr
	}
	var found []Entry
	for i := int64(first); i < b.entries; i++ {
		e, err := b.entryAt(i)
		if err != nil {
			return nil, err
		}
		if e.Key != key {
			break
		}
		found = append(found, e)
	}
	return found, nil
}

// Move is a book move that is legal in the position it was looked up in.
type Move struct {
	Move   games.Move
	Weight int
	Learn  uint32
}

// Moves returns the book's legal moves in p, the heaviest first (ties in the order of the game's moves). An
// entry whose code is no legal move (a key that two positions share, a corrupt entry) is left out; entries of
// one move are added up.
func (b *Book) Moves(p games.Position) ([]Move, error) {
	coder, ok := p.(games.BookCoder)
	if !ok {
		return nil, ErrNoBookFormat
	}
	entries, err := b.Lookup(coder.BookKey())
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	var moves []Move
	for _, m := range p.AppendMoves(nil) {
		code := coder.BookMove(m)
		found := false
		var book Move
		for _, e := range entries {
			if e.Move == code {
				if !found {
					book = Move{Move: m, Learn: e.Learn}
					found = true
				}
				book.Weight += int(e.Weight)
			}
		}
		if found {
			moves = append(moves, book)
		}
	}
	slices.SortStableFunc(moves, func(x, y Move) int { return y.Weight - x.Weight })
	return moves, nil
}

// PastDepth reports whether p is past a book depth as BookDepth sets it: depth the last ply of the game a book
// move is played at (0: as deep as the book goes).
func PastDepth(p games.Position, depth int) bool { return depth > 0 && p.Ply() >= depth }

// Plays reports whether the book plays a move in p within depth (see PastDepth): a legal move of weight above 0.
// A book that does not read plays nothing.
func (b *Book) Plays(p games.Position, depth int) bool {
	if PastDepth(p, depth) {
		return false
	}
	moves, err := b.Moves(p)
	if err != nil {
		return false
	}
	_, ok := Choose(moves, 0)
	return ok
}

// Choose draws one of moves with probability proportional to its weight, as polyglot and most GUIs play a
// book; moves of weight 0 are never drawn (a book keeps them to say "known, do not play"). It reports false
// when no move has a weight. u is a number drawn uniformly in [0, 1).
func Choose(moves []Move, u float64) (Move, bool) {
	total := 0
	for _, m := range moves {
		total += m.Weight
	}
	if total <= 0 {
		return Move{}, false
	}
	target := u * float64(total)
	sum := 0
	for _, m := range moves {
		sum += m.Weight
		if m.Weight > 0 && target < float64(sum) {
			return m, true
		}
	}
	for i := len(moves) - 1; i >= 0; i-- { // u rounding up to 1
		if moves[i].Weight > 0 {
			return moves[i], true
		}
	}
	return Move{}, false
}

// decode reads one entry from its 16 bytes.
func decode(buf []byte) Entry {
	return Entry{
		Key:    binary.BigEndian.Uint64(buf[0:8]),
		Move:   binary.BigEndian.Uint16(buf[8:10]),
		Weight: binary.BigEndian.Uint16(buf[10:12]),
		Learn:  binary.BigEndian.Uint32(buf[12:16]),
	}
}

// Write writes entries as a book: sorted by key, the heaviest move of a position first (polyglot's order).
// The entries are sorted in place.
func Write(w io.Writer, entries []Entry) error {
	slices.SortStableFunc(entries, func(x, y Entry) int {
		switch {
		case x.Key != y.Key:
			if x.Key < y.Key {
				return -1
			}
			return 1
		case x.Weight != y.Weight:
			return int(y.Weight) - int(x.Weight)
		}
		return int(x.Move) - int(y.Move)
	})
	bw := bufio.NewWriter(w)
	var buf [EntrySize]byte
	for _, e := range entries {
		binary.BigEndian.PutUint64(buf[0:8], e.Key)
		binary.BigEndian.PutUint16(buf[8:10], e.Move)
		binary.BigEndian.PutUint16(buf[10:12], e.Weight)
		binary.BigEndian.PutUint32(buf[12:16], e.Learn)
		if _, err := bw.Write(buf[:]); err != nil {
			return err
		}
	}
	return bw.Flush()
}
