// The solver's transposition table: score bounds under exact position keys, one word per entry.

package connect4solver

import (
	"math/bits"

	"dossier/internal/tablemem"
)

// keyMixer is odd, so multiplying by it is a bijection on 64-bit words; its high bits depend on
// all the bits of Pons's key, which makes them a good table index.
const keyMixer = 0x9e3779b97f4a7c15

// An entry is one uint64: the low keyBits bits of the mixed key, the table's epoch when it was stored
// (epochBits bits), and the value (valueBits bits, 0 meaning empty).
const (
	valueBits = 8
	epochBits = 8
	keyBits   = 64 - epochBits - valueBits
)

// minTableBits is the smallest table (in log2 of entries) for which keys are exact: the index gives the
// top bits of the mixed key and the entry its low keyBits bits, so the two together give the whole
// mixed key, and so the position, when the index has at least 64-keyBits bits.
const minTableBits = 64 - keyBits

// table maps positions to a bound on their score. A new entry always replaces the old one. Emptying the
// table only advances its epoch, which makes every older entry stale; the entries are zeroed only
// when the epoch wraps around.
type table struct {
	memory  *tablemem.Table // owns entries, which live while the table does
	entries []uint64
	shift   uint   // 64 - log2(len(entries)): the index is the mixed key's top bits
	epoch   uint64 // the current epoch, already shifted into place
}

// newTable returns a table of the largest power-of-two number of entries that fits in megabytes
// (at least 1<<minTableBits entries). A table small enough for the Go heap is backed by huge pages and
// mapped here, since the kernel may take a second or two to assemble them, better spent here than in the
// first search; a larger one is mapped page by page as the searches first write to it, since mapping it
// here took about 4 s a gigabyte on a busy machine (Hash 4096 gave the solver 3 GB and ucinewgame 13 s
// before readyok), longer than a GUI waits.
func newTable(megabytes int) table {
	entries := uint64(max(megabytes, 0)) << 20 / 8
	log := max(bits.Len64(entries)-1, minTableBits)
	memory := tablemem.New(1<<uint(log), true)
	t := table{memory: memory, entries: memory.Words, shift: uint(64 - log)}
	if !memory.Mapped {
		clear(t.entries) // the first write to each page maps it
	}
	return t
}

// tag returns what an entry for key holds apart from the value: its low key bits and the epoch.
func (t *table) tag(key uint64) uint64 {
	return key*keyMixer<<(64-keyBits) | t.epoch
}

// index returns the slot of key.
func (t *table) index(key uint64) uint64 { return key * keyMixer >> t.shift }

// get returns the value stored for key, or 0 when there is none.
func (t *table) get(key uint64) uint8 {
	entry := t.entries[t.index(key)]
	if entry&^(1<<valueBits-1) == t.tag(key) {
		return uint8(entry)
	}
	return 0
}

// put stores value (non-zero) for key, replacing whatever the slot held.
func (t *table) put(key uint64, value uint8) {
	t.entries[t.index(key)] = t.tag(key) | uint64(value)
}

// slot returns the address of key's slot, for prefetching.
func (t *table) slot(key uint64) *uint64 { return &t.entries[t.index(key)] }

// clear empties the table: a new epoch, or zeroed entries once every 1<<epochBits clears.
func (t *table) clear() {
	t.epoch += 1 << valueBits
	if t.epoch == 1<<(epochBits+valueBits) {
		t.epoch = 0
		clear(t.entries)
	}
}
