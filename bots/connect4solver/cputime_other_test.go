// Without Linux's thread clock, benchmarks report wall time only.
//go:build !linux

package connect4solver

import "time"

// threadCPUTime reports that the thread's CPU time is unavailable.
func threadCPUTime() (time.Duration, bool) { return 0, false }
