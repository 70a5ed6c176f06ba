// Asking Linux to back the transposition table with huge pages.
package connect4solver

import (
	"syscall"
	"unsafe"
)

// hugePageSize is the size of a transparent huge page on amd64 and arm64 Linux.
const hugePageSize = 2 << 20

// adviseHugePages asks the kernel to back the 2 MB-aligned part of entries with transparent huge pages:
// a probe then misses the TLB far less often, and the table is probed at random at every node. It is
// only advice: when huge pages are disabled the call fails or is ignored, and nothing changes.
func adviseHugePages(entries []uint64) {
	if len(entries) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(&entries[0]))
	end := start + uintptr(len(entries))*8
	alignedStart := (start + hugePageSize - 1) &^ (hugePageSize - 1)
	alignedEnd := end &^ (hugePageSize - 1)
	if alignedEnd <= alignedStart {
		return
	}
	first, last := (alignedStart-start)/8, (alignedEnd-start)/8
	region := unsafe.Slice((*byte)(unsafe.Pointer(&entries[first])), (last-first)*8)
	_ = syscall.Madvise(region, syscall.MADV_HUGEPAGE)
}
