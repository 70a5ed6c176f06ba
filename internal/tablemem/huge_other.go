// Outside Linux: ordinary pages.
//go:build !linux

package tablemem

// heapWords returns n zeroed words from the Go heap.
func heapWords(n int, _ bool) []uint64 { return make([]uint64, n) }
