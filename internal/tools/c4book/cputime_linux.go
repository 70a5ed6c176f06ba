// The CPU time of the calling thread on Linux, so that checks on a shared machine measure the time the
// solver ran rather than the time it waited for a core.

package main

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// threadCPUTime returns the CPU time used by the calling OS thread (0 if unavailable); the caller locks
// its goroutine to its thread for differences to mean anything.
func threadCPUTime() time.Duration {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
