//go:build !unix

// Wall time in place of CPU time where the process's CPU time is not available.
package engine_test

import "time"

var promStart = time.Now()

// promCPUTime returns the wall time since the tests started.
func promCPUTime() time.Duration { return time.Since(promStart) }
