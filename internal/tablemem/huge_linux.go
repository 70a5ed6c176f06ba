// Transparent huge pages on Linux.

package tablemem

import (
	"syscall"
	"unsafe"
)

// hugePageSize is the size of a transparent huge page on amd64 and arm64 Linux.
const hugePageSize = 2 << 20

// heapWords returns n zeroed words from the Go heap; with hugePages and at least one huge page of them,
// aligned on a huge page and advised to be backed by huge pages (a Pons-style solver searched a 128 MB
// table 2.4 times slower with 4 KB pages, its time going to TLB misses).
func heapWords(n int, hugePages bool) []uint64 {
	const perPage = hugePageSize / 8
	if !hugePages || n < perPage {
		return make([]uint64, n)
	}
	raw := make([]uint64, n+perPage)
	misalignment := int(uintptr(unsafe.Pointer(&raw[0])) % hugePageSize / 8)
	words := raw[(perPage-misalignment)%perPage:][:n:n]
	// Only advice: where huge pages are disabled the call fails or is ignored, and nothing else changes.
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n*8), syscall.MADV_HUGEPAGE)
	return words
}
