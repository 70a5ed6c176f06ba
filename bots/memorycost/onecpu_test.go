package memorycost

import (
	"testing"

	"golang.org/x/sys/unix"
)

func TestPinToOneCPUBindsEveryThreadAndGivesThemBack(t *testing.T) {
	var was unix.CPUSet
	if err := unix.SchedGetaffinity(0, &was); err != nil {
		t.Skip("no affinity here:", err)
	}
	if was.Count() < 2 {
		t.Skip("one processor only")
	}
	restore := pinToOneCPU()
	for _, tid := range threads() {
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(tid, &set); err == nil && set.Count() != 1 {
			t.Errorf("thread %d may run on %d processors while pinned", tid, set.Count())
		}
	}
	restore()
	for _, tid := range threads() {
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(tid, &set); err == nil && set != was {
			t.Errorf("thread %d may run on %d processors after the measurement, %d before", tid, set.Count(), was.Count())
		}
	}
}
