package memorycost

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// pinToOneCPU binds every thread of the process to one processor of those it may run on, as taskset or a
// one-CPU container does: GOMAXPROCS(1) alone is not one core, since the Player keeps Ps for the memory's
// threads beside the search's (bots/player/lowpriority.go) and the runtime's own threads (the collector's
// workers, the sweeper) would run on the machine's other cores, beside our search instead of in its place.
// Threads made later inherit the binding from the thread that makes them. It returns the function that gives
// every thread back the processors it had.
func pinToOneCPU() (restore func()) {
	var was unix.CPUSet
	if err := unix.SchedGetaffinity(0, &was); err != nil {
		return func() {}
	}
	cpu := -1
	for c := range 1024 {
		if was.IsSet(c) {
			cpu = c
			break
		}
	}
	if cpu < 0 || was.Count() == 1 {
		return func() {}
	}
	var one unix.CPUSet
	one.Set(cpu)
	setAll := func(set *unix.CPUSet) {
		// Twice: a thread made while the first pass ran may have copied its maker's binding before the change.
		for range 2 {
			for _, tid := range threads() {
				_ = unix.SchedSetaffinity(tid, set)
			}
		}
	}
	setAll(&one)
	return func() { setAll(&was) }
}

// threads lists the ids of the process's threads.
func threads() []int {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return []int{0}
	}
	var ids []int
	for _, e := range entries {
		if id, err := strconv.Atoi(e.Name()); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}
