// Background population of a mapped table's pages on Linux.

package tablemem

import "golang.org/x/sys/unix"

// populateChunk is how much memory one system call populates, so that dropping the table stops the
// population soon.
const populateChunk = 16 << 20

// populate asks the kernel to map every page of m writable, chunk by chunk, without touching its contents
// (MADV_POPULATE_WRITE, Linux 5.14): the searches, which may already be writing to the table, then find
// their pages mapped instead of faulting on each first write (random writes to a fresh 768 MB table made
// the Connect-Four solver's first 2 million nodes take 18 s). It stops when the table is dropped or the
// kernel does not know the call.
func populate(m mapping) {
	for start := 0; start < len(m.mem) && !m.gone.Load(); start += populateChunk {
		if unix.Madvise(m.mem[start:min(start+populateChunk, len(m.mem))], unix.MADV_POPULATE_WRITE) != nil {
			return
		}
	}
}
