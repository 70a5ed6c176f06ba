// Without a prefetch instruction wired up, prefetching does nothing.
//go:build !amd64 && !arm64

package prefetch

// Line does nothing on this architecture.
func Line(*uint64) {}
