//go:build unix

// CPU time of the test process, for benchmarks on a loaded machine and for tests that a waiting search
// sleeps.
package enginetest

import (
	"syscall"
	"time"
)

// CPUTime returns the user and system CPU time the process has used.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
