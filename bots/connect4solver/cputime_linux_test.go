// The CPU time of the calling thread on Linux, so that benchmarks on a shared machine can report the
// time the solver actually ran rather than the wall time it waited for a core.

package connect4solver

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// threadCPUTime returns the CPU time used by the calling OS thread, and false if it is unavailable.
// The caller locks its goroutine to its thread (runtime.LockOSThread) for differences to mean anything.
func threadCPUTime() (time.Duration, bool) {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
