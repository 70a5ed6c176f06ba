//go:build unix

// CPU time of the test process, for benchmarks on a loaded machine.
package engine_test

import (
	"syscall"
	"time"
)

// promCPUTime returns the user and system CPU time the process has used.
func promCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
