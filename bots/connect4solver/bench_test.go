// Benchmarks on Pascal Pons's sets, measured as he measured his solver: every 5th line, an empty table
// for each position, strong solve.

package connect4solver

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// benchTableMB gives the table 2^24 entries, as many as Pons's solver has.
const benchTableMB = 128

// benchmarkSet solves every 5th position of a set (strong or weak) from an empty table and reports the
// mean, median and maximum wall time per position (ns/op also counts emptying the table) and the search
// speed. On Linux it also reports the CPU time per position, less the clock's own cost, which other
// processes on a busy machine inflate much less than the wall time.
func benchmarkSet(b *testing.B, name string, weak bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var sample []testCase
	for i, c := range loadSet(b, name) {
		if i%5 == 0 {
			sample = append(sample, c)
		}
	}
	s := New(benchTableMB)
	var elapsed, slowest, cpu, slowestCPU time.Duration
	_, haveCPU := threadCPUTime()
	clockCost := cpuClockCost()
	var nodes uint64
	var times []time.Duration
	for b.Loop() {
		for _, c := range sample {
			s.Reset()
			cpuStart, _ := threadCPUTime()
			start := time.Now()
			var score int
			if weak {
				score = s.WeakSolve(c.position)
			} else {
				score = s.Solve(c.position)
			}
			took := time.Since(start)
			cpuEnd, _ := threadCPUTime()
			used := cpuEnd - cpuStart - clockCost
			cpu += used
			slowestCPU = max(slowestCPU, used)
			elapsed += took
			slowest = max(slowest, took)
			times = append(times, took)
			nodes += s.Nodes()
			want := c.score
			if weak {
				want = sign(want)
			}
			if score != want {
				b.Fatalf("%s:%d %s: score %d, want %d", name, c.line, c.moves, score, want)
			}
		}
	}
	positions := len(times)
	slices.Sort(times)
	b.ReportMetric(elapsed.Seconds()*1e3/float64(positions), "ms/position")
	b.ReportMetric(times[positions/2].Seconds()*1e3, "median-ms")
	b.ReportMetric(slowest.Seconds()*1e3, "max-ms")
	b.ReportMetric(float64(nodes)/float64(positions), "nodes/position")
	b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
	if haveCPU {
		b.ReportMetric(cpu.Seconds()*1e3/float64(positions), "cpu-ms/position")
		b.ReportMetric(slowestCPU.Seconds()*1e3, "max-cpu-ms")
		b.ReportMetric(float64(nodes)/cpu.Seconds(), "cpu-nodes/s")
	}
}

// Pons: 0.012 ms a position.
func BenchmarkSolveL3R1(b *testing.B) { benchmarkSet(b, "Test_L3_R1", false) }

// Pons: 0.056 ms a position.
func BenchmarkSolveL2R1(b *testing.B) { benchmarkSet(b, "Test_L2_R1", false) }

// Pons: 4.7 ms a position.
func BenchmarkSolveL2R2(b *testing.B) { benchmarkSet(b, "Test_L2_R2", false) }

// Pons: 0.38 ms a position.
func BenchmarkSolveL1R1(b *testing.B) { benchmarkSet(b, "Test_L1_R1", false) }

// Pons: 153 ms a position, at most 3.9 s.
func BenchmarkSolveL1R2(b *testing.B) { benchmarkSet(b, "Test_L1_R2", false) }

// Pons: 59 ms a position.
func BenchmarkWeakSolveL1R2(b *testing.B) { benchmarkSet(b, "Test_L1_R2", true) }

// cpuClockCost returns the median CPU time two back-to-back readings of the thread's CPU clock measure
// between them: what the clock adds to every measurement.
func cpuClockCost() time.Duration {
	costs := make([]time.Duration, 101)
	for i := range costs {
		start, _ := threadCPUTime()
		end, _ := threadCPUTime()
		costs[i] = end - start
	}
	slices.Sort(costs)
	return costs[len(costs)/2]
}
