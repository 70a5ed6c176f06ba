// Tables mapped outside the Go heap on Unix systems.
//go:build unix

package tablemem

import (
	"runtime"
	"syscall"
	"unsafe"
)

// mapWords maps n zeroed words from the system and arranges for them to be unmapped once the Table is
// unreachable; it returns nil when the system refuses the mapping.
func mapWords(n int) *Table {
	mem, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	t := &Table{Words: unsafe.Slice((*uint64)(unsafe.Pointer(&mem[0])), n), Mapped: true}
	runtime.AddCleanup(t, func(mem []byte) { _ = syscall.Munmap(mem) }, mem)
	return t
}
