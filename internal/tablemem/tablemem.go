// Package tablemem allocates the large tables of the searches (transposition tables) so that neither
// allocating nor replacing one takes time in proportion to its size.
//
// The Go heap zeroes memory it hands out again, and on a busy machine the page faults of that first touch
// cost seconds a gigabyte (a 4 GB table reallocated after a resize: 68 s before readyok). A large table is
// therefore mapped from the system outside the Go heap, where the kernel supplies zeroed pages only as
// they are first written, and unmapped once the Table that owns it is unreachable.
package tablemem

// mappedBytes is the size from which a table is mapped outside the Go heap: smaller ones are cheap to
// zero, and tests build many of them.
const mappedBytes = 64 << 20

// mappedHugeBytes is that size for a table that wants huge pages: a mapped table goes without them, which
// made the Connect-Four solver's 64 MB table 2.2 times slower (0.45 to 1.0 CPU-ms a position of Pons's
// L1_R1 set), so such a table stays in the heap, zeroed once, up to this size.
const mappedHugeBytes = 512 << 20

// Table owns a slice of words; the words stay valid while the Table is reachable, so whoever keeps Words
// must keep the Table too.
type Table struct {
	// Words are the table's memory, zeroed at first.
	Words []uint64
	// Mapped reports that Words are mapped outside the Go heap, page by page as they are first written.
	Mapped bool
}

// New returns a table of n zeroed words. With hugePages a table in the Go heap is backed by transparent
// huge pages where the system allows (Linux), so that probes rarely miss the TLB. A mapped table is not:
// it is mapped as the search first writes to it, and the kernel's assembling of huge pages then stalled a
// search seconds past its time limit (Connect-Four, Hash 4096, movetime 3000: bestmove after 4.5-11 s).
func New(n int, hugePages bool) *Table {
	threshold := mappedBytes
	if hugePages {
		threshold = mappedHugeBytes
	}
	if n*8 >= threshold {
		if t := mapWords(n); t != nil {
			return t
		}
	}
	return &Table{Words: heapWords(n, hugePages)}
}
