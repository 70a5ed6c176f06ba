// The solver's transposition table: score bounds under exact position keys, one word per entry.
package connect4solver

import "math/bits"

// keyMixer is odd, so multiplying by it is a bijection on 64-bit words; its high bits depend on
// all the bits of Pons's key, which makes them a good table index.
const keyMixer = 0x9e3779b97f4a7c15

// tableEntryBits is the number of bits an entry keeps for its value (a score bound, see solver.go).
const tableEntryBits = 8

// minTableBits is the smallest table (in log2 of entries) for which keys are exact: the index gives the
// top bits of the mixed key and the entry its low 64-tableEntryBits bits, so the two together give
// the whole mixed key, and so the position, when the index has at least tableEntryBits bits.
const minTableBits = tableEntryBits

// table maps positions to a bound on their score. Every slot is one uint64: the low 56 bits of the
// mixed key above an 8-bit value, 0 meaning empty. A new entry always replaces the old one.
type table struct {
	entries []uint64
	shift   uint // 64 - log2(len(entries)): the index is the mixed key's top bits
}

// newTable returns a table of the largest power-of-two number of entries that fits in megabytes
// (at least 1<<minTableBits entries).
func newTable(megabytes int) table {
	entries := uint64(max(megabytes, 0)) << 20 / 8
	log := max(bits.Len64(entries)-1, minTableBits)
	t := table{entries: make([]uint64, 1<<uint(log)), shift: uint(64 - log)}
	adviseHugePages(t.entries)
	return t
}

// get returns the value stored for key, or 0 when there is none.
func (t *table) get(key uint64) uint8 {
	mixed := key * keyMixer
	entry := t.entries[mixed>>t.shift]
	if entry>>tableEntryBits == mixed<<tableEntryBits>>tableEntryBits {
		return uint8(entry)
	}
	return 0
}

// put stores value (non-zero) for key, replacing whatever the slot held.
func (t *table) put(key uint64, value uint8) {
	mixed := key * keyMixer
	t.entries[mixed>>t.shift] = mixed<<tableEntryBits | uint64(value)
}

// clear empties the table.
func (t *table) clear() { clear(t.entries) }
