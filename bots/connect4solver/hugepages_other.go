// Other systems back the transposition table with ordinary pages.
//go:build !linux

package connect4solver

// adviseHugePages does nothing outside Linux.
func adviseHugePages([]uint64) {}
