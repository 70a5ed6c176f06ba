// Prefetching a cache line on amd64 (prefetch_amd64.s).

package prefetch

// Line asks the processor to bring the cache line at addr into its caches without waiting for it.
//
//go:noescape
func Line(addr *uint64)
