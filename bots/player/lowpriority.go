// The memory's work beside our search runs on threads of its own at the lowest priority, and the Go runtime
// keeps processors (Ps) for it beside the search's: the memory is free on our clock only if nothing it does can
// keep our search from a CPU.
//
// Why both. Under taskset, a one-CPU container or an arena that gives each engine one core, Go runs with
// GOMAXPROCS 1: a single P that every goroutine shares, whatever the niceness of its thread. A niced background
// thread that holds that P (the analysis, the learners) keeps the search from running until the operating system
// gives the niced thread its turn to see the stop, which on a core shared with the opponent can take many
// milliseconds (priority inversion). With Ps beyond the search threads' (backgroundPs), the search's thread and
// the background's each have a P, and the operating system's scheduler decides: a thread at niceness 19 gets
// about 1.5% of a core that a normal thread wants, so it takes next to nothing from our search nor from the
// opponent's on a shared core; and the spare P runs what a starved background thread's P holds (session 19's
// measurements: docs/memory.md, The memory on our clock).
//
// Why not SCHED_IDLE, which the engine used until session 22. A SCHED_IDLE thread runs only in the scraps of time
// the scheduler gives it while another thread wants the core (a weight of 3 against 1,024): on a core that another
// game's engine keeps busy it may not run for a second or more. Whatever waits for it waits that long, and the Go
// runtime does: a collection stops the world, which waits for every running goroutine to stop, our search
// included (a stack dump in session 22 caught our search in gcStart while the analysis's thread, at SCHED_IDLE,
// had not run). Session 22's stall test (a busy loop on the engine's core, go movetime 60): 2-5 searches in 300
// over 100 ms and up to 2 s at SCHED_IDLE, none over 54 ms at niceness 19.

package player

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lowerThreadPriority locks the calling goroutine to its thread and lowers that thread's priority to the
// niceness nice. The thread ends with the goroutine (a locked goroutine that returns takes its thread with it), so
// the change never reaches another goroutine. It makes sure a P is free for it (see reserveBackgroundP).
func lowerThreadPriority(nice int) {
	reserveBackgroundP(0)
	runtime.LockOSThread()
	setThreadPriority(nice)
}

// setThreadPriority sets the calling thread's niceness (the goroutine is locked to it), under the normal policy
// (see the file's comment for why not SCHED_IDLE). A thread that a study put at SCHED_IDLE stays there: an
// unprivileged thread cannot raise its priority back.
func setThreadPriority(nice int) {
	tid := syscall.Gettid()
	backgroundThreads.mark(tid, nice > 0)
	_ = unix.SchedSetAttr(tid, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_NORMAL}, 0)
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice)
}

// setStudyPriority sets the priority of a study's thread (a process of its own, with no search of ours to keep
// waiting): SCHED_IDLE at nice 19, so that on a machine that plays games it takes only the CPU they leave;
// the normal policy at the niceness given below it.
func setStudyPriority(nice int) {
	if nice < 19 {
		setThreadPriority(nice)
		return
	}
	tid := syscall.Gettid()
	backgroundThreads.mark(tid, true)
	_ = unix.SchedSetAttr(tid, &unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_IDLE}, 0)
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice)
}

// runAtLowPriority runs work on a goroutine of its own at the priority lowerThreadPriority gives, on a thread
// named role (what top -H and ps -L show; at most 15 bytes are kept).
func runAtLowPriority(role string, nice int, work func()) {
	go func() {
		lowerThreadPriority(nice)
		nameThread(role)
		defer unmarkBackgroundThread() // the thread ends with the goroutine; its id may be reused
		work()
	}()
}

// backgroundThreads are the threads the memory's work beside our search runs on (a niceness above 0 set by
// setThreadPriority): a read of the memory made on one of them pauses while a search of ours runs (see
// Engine.pauseReading); one made on any other thread (the front end's, the search's) never waits.
var backgroundThreads threadSet

// threadSet is a set of thread ids.
type threadSet struct {
	mu  sync.Mutex
	ids map[int]bool
}

// mark adds the thread tid to the set (in true) or removes it.
func (s *threadSet) mark(tid int, in bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !in {
		delete(s.ids, tid)
		return
	}
	if s.ids == nil {
		s.ids = map[int]bool{}
	}
	s.ids[tid] = true
}

// holdsCaller reports whether the calling goroutine runs on a thread of the set (a goroutine not locked to its
// thread is never on one: only locked goroutines set their thread's priority).
func (s *threadSet) holdsCaller() bool {
	tid := syscall.Gettid()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[tid]
}

// backgroundCPU is the CPU time the memory's background threads spent, in nanoseconds, for the per-game log.
var backgroundCPU atomic.Int64

// ThreadCPU returns the CPU time of the calling thread (the goroutine must be locked to it): what the memory's
// threads spent (countBackgroundCPU), and what our search's thread had in bots/memorycost.
func ThreadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// countBackgroundCPU starts counting the calling locked thread's CPU time into backgroundCPU; the returned
// function stops it.
func countBackgroundCPU() (stop func()) {
	began := ThreadCPU()
	return func() { backgroundCPU.Add(int64(ThreadCPU() - began)) }
}

// backgroundPs is how many Ps the runtime keeps beyond the search threads': one for each of the memory's threads
// that may run at once (the reading for the next game, the learner, the fold after a game, the analysis) and one
// more. A P held by a thread of the lowest priority on a busy core runs nothing else (the goroutines queued on it,
// its timers) until that thread gets the CPU; a P left idle takes them over (Go's work stealing), so the search's
// own needs (the memory's commits it waits for at its end, the front end's stop) are never queued behind it.
// Idle Ps cost nothing.
const backgroundPs = 5

var processors struct {
	mu      sync.Mutex
	search  int  // the most search threads asked for
	checked bool // whether GOMAXPROCS was read from the environment
	fixed   bool // GOMAXPROCS set by the user: left as it is
	// ownP is backgroundHasOwnP's answer as reserveBackgroundP last left it (0: not yet), read without mu so
	// that a search of ours asks it without a lock (see backgroundHasOwnP).
	ownP atomic.Int32
}

// The values of processors.ownP.
const (
	ownPUnknown int32 = iota
	ownPNo
	ownPYes
)

// reserveBackgroundP makes sure the runtime has Ps for the background beside searchThreads search threads
// (GOMAXPROCS at least searchThreads + backgroundPs), unless the user set GOMAXPROCS. Extra Ps cost nothing when idle;
// on a single core the operating system shares it between the threads by their priorities.
func reserveBackgroundP(searchThreads int) {
	processors.mu.Lock()
	defer processors.mu.Unlock()
	if !processors.checked {
		processors.checked = true
		_, processors.fixed = os.LookupEnv("GOMAXPROCS")
	}
	processors.search = max(processors.search, searchThreads, 1)
	if want := processors.search + backgroundPs; !processors.fixed && runtime.GOMAXPROCS(0) < want {
		runtime.GOMAXPROCS(want)
	}
	own := ownPNo
	if runtime.GOMAXPROCS(0) > processors.search {
		own = ownPYes
	}
	processors.ownP.Store(own)
}

// background is where a part's work beside our search runs: through the gate of our searches (fg: between them;
// nil: no gate), on a thread at the priority nice gives (see lowerThreadPriority).
type background struct {
	fg   *foreground
	nice int
}

// enter waits until no search of ours runs and marks a step of background work as running (a search that
// begins meanwhile waits at most maxHoldWait for it); the returned function ends the step. A step must be
// short (a move learned), since it is not cut short.
func (b background) enter() (leave func()) {
	if b.fg == nil {
		return func() {}
	}
	_, leave = b.fg.enter(context.Background())
	return leave
}

// backgroundHasOwnP reports whether the runtime has a P beyond the search threads' for the background. Our
// search asks it at every hold: once reserveBackgroundP has run (the first of the memory's threads, at the
// first reading) the answer is read without a lock. Reading GOMAXPROCS takes the runtime's scheduler lock,
// and processors.mu is taken by the memory's threads as they start; in session 23's Stockfish 2050 series one
// hold took 101.6 ms (of some 4,000 searches), where the gate's own work is microseconds.
func backgroundHasOwnP() bool {
	switch processors.ownP.Load() {
	case ownPYes:
		return true
	case ownPNo:
		return false
	}
	processors.mu.Lock()
	defer processors.mu.Unlock()
	return runtime.GOMAXPROCS(0) > max(processors.search, 1)
}

// unmarkBackgroundThread takes the calling thread out of backgroundThreads, before the goroutine locked to it
// returns (the thread ends with it, and the operating system may give its id to a new one).
func unmarkBackgroundThread() { backgroundThreads.mark(syscall.Gettid(), false) }

// nameThread names the calling thread (the goroutine is locked to it) for the operating system's tools.
func nameThread(role string) {
	name := append([]byte(role), 0)
	if len(name) > 16 {
		name = append(name[:15], 0)
	}
	_ = unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(&name[0])), 0, 0, 0)
}

// memoryGCPercent is the garbage collector's GOGC while a Player has its memory open. The memory's work
// allocates much (the reading of a memory of 1,000 games for the next game: about 1 s of CPU; the analyses), and
// each collection it causes runs its workers and the runtime's sweeper at the search's priority; when one of the
// memory's threads, at the lowest priority, is stopped by the operating system in the middle of its share of
// the sweeping, the runtime's sweeper spins until that thread runs again (Go issue 73499), at the search's
// priority, taking up to half the core from our search (session 20's CPU profiles: runtime.bgsweep, a quarter
// of the process's CPU). Four times fewer collections took the search's nodes per second beside that work from
// 0.65-0.75 of the memory-less engine's to 0.84-1.09 in session 20's measurements (docs/memory.md); the heap may
// grow to five times what is live instead of twice.
const memoryGCPercent = 400

// gcRaised counts the Players whose memory is open (several may share a process), and keeps the percent to
// restore when the last closes.
var gcRaised struct {
	mu    sync.Mutex
	count int
	prev  int
}

// collectLessOften sets GOGC to memoryGCPercent while a memory is open (unless the user set GOGC, or a higher
// one is in force) and returns the function that restores it.
func collectLessOften() (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	gcRaised.mu.Lock()
	defer gcRaised.mu.Unlock()
	if gcRaised.count == 0 {
		prev := debug.SetGCPercent(memoryGCPercent)
		if prev < 0 || prev >= memoryGCPercent {
			debug.SetGCPercent(prev)
			return func() {}
		}
		gcRaised.prev = prev
	}
	gcRaised.count++
	return func() {
		gcRaised.mu.Lock()
		defer gcRaised.mu.Unlock()
		if gcRaised.count--; gcRaised.count == 0 {
			debug.SetGCPercent(gcRaised.prev)
		}
	}
}
