// Table memory outside Linux: ordinary pages.
//go:build !linux

package connect4solver

// allocateEntries returns n zeroed entries.
func allocateEntries(n int) []uint64 { return make([]uint64, n) }
