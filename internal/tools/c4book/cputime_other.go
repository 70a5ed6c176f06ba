// Where the thread's CPU time is not available, the checks report no CPU time.

//go:build !linux

package main

import "time"

// threadCPUTime returns 0: the calling thread's CPU time is not available on this system.
func threadCPUTime() time.Duration { return 0 }
