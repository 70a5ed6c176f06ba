// Tables mapped outside the Go heap on Unix systems.
//go:build unix

package tablemem

import (
	"runtime"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// mapping is a mapped table's memory and the flag that ends its background population (see populate).
type mapping struct {
	mem  []byte
	gone *atomic.Bool
}

// mapWords maps n zeroed words from the system, has the system fill in their pages in the background where
// it can (populate), and arranges for them to be unmapped once the Table is unreachable; it returns nil when
// the system refuses the mapping.
func mapWords(n int) *Table {
	mem, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	m := mapping{mem: mem, gone: new(atomic.Bool)}
	go populate(m)
	t := &Table{Words: unsafe.Slice((*uint64)(unsafe.Pointer(&mem[0])), n), Mapped: true}
	runtime.AddCleanup(t, func(m mapping) {
		m.gone.Store(true)
		_ = syscall.Munmap(m.mem)
	}, m)
	return t
}
