//go:build !unix

// Wall time in place of CPU time where the process's CPU time is not available.
package enginetest

import "time"

var cpuStart = time.Now()

// CPUTime returns the wall time since the tests started.
func CPUTime() time.Duration { return time.Since(cpuStart) }
