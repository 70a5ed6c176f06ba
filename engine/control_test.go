// Tests of Control: time budgets from the clocks, movetime, node and depth limits, stop, ponderhit, infinite.
package engine

import (
	"testing"
	"time"

	"dossier/games"
)

func TestBudget(t *testing.T) {
	sec := time.Second
	const keep = DefaultMoveOverhead
	clocks := func(first, second time.Duration) [2]time.Duration { return [2]time.Duration{first, second} }
	tests := []struct {
		name       string
		lim        Limits
		side       games.Side
		soft, hard time.Duration
	}{
		{"no limits", Limits{}, games.First, 0, 0},
		{"depth only", Limits{Depth: 5}, games.First, 0, 0},
		{"movetime", Limits{MoveTime: sec, MoveOverhead: keep}, games.First, 0, sec - keep},
		{"movetime without overhead", Limits{MoveTime: sec}, games.First, 0, sec},
		{"movetime below the overhead", Limits{MoveTime: 10 * time.Millisecond, MoveOverhead: keep}, games.First,
			0, time.Millisecond},
		{"movetime before the clock", Limits{MoveTime: sec, Time: clocks(60*sec, 0)}, games.First, 0, sec},
		{"sudden death", Limits{Time: clocks(60*sec, 0), MoveOverhead: keep}, games.First,
			(60*sec - keep) / suddenDeathMoves, (60*sec - keep) / suddenDeathMoves * 4},
		{"second side's clock", Limits{Time: clocks(0, 40*sec), MoveOverhead: keep}, games.Second,
			(40*sec - keep) / suddenDeathMoves, (40*sec - keep) / suddenDeathMoves * 4},
		{"increment", Limits{Time: clocks(10*sec, 10*sec), Inc: clocks(sec, sec), MoveOverhead: keep}, games.First,
			(10*sec-keep)/suddenDeathMoves + 3*sec/4, (10*sec-keep)/3 + 3*sec/4},
		{"moves to go", Limits{Time: clocks(10*sec, 0), MovesToGo: 5, MoveOverhead: keep}, games.First,
			(10*sec - keep) / 5, (10*sec - keep) / 3},
		{"moves to go beyond the bound", Limits{Time: clocks(80*sec, 0), MovesToGo: 100, MoveOverhead: keep}, games.First,
			(80*sec - keep) / maxMovesToGo, (80*sec - keep) / maxMovesToGo * 4},
		{"almost flagged", Limits{Time: clocks(10*time.Millisecond, 0), MoveOverhead: keep}, games.First,
			time.Millisecond, time.Millisecond},
		// Clocks that give the side to move nothing still end the search.
		{"increments only", Limits{Inc: clocks(100*time.Millisecond, 100*time.Millisecond), MoveOverhead: keep},
			games.First, 0, 100*time.Millisecond - keep},
		{"own increment, opponent's time", Limits{Time: clocks(0, sec), Inc: clocks(200*time.Millisecond, 0)},
			games.First, 0, 200 * time.Millisecond},
		{"opponent's clock only", Limits{Time: clocks(sec, 0), Inc: clocks(100*time.Millisecond, 0), MoveOverhead: keep},
			games.Second, 0, DefaultMoveTime - keep},
		{"opponent's clock and a depth", Limits{Time: clocks(sec, 0), Depth: 3}, games.Second, 0, 0},
		{"opponent's clock and nodes", Limits{Time: clocks(sec, 0), Nodes: 1000}, games.Second, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			soft, hard := budget(tc.lim, tc.side)
			if soft != tc.soft || hard != tc.hard {
				t.Errorf("budget = (%v, %v), want (%v, %v)", soft, hard, tc.soft, tc.hard)
			}
			if soft > hard {
				t.Errorf("soft limit %v above hard limit %v", soft, hard)
			}
		})
	}
}

// waitDone waits for the control's Done channel, as a search that blocks does, and returns the time
// elapsed then; it fails after a generous deadline.
func waitDone(t *testing.T, c *Control) time.Duration {
	t.Helper()
	select {
	case <-c.Done():
		if !c.Stopped() || !c.Check(0) {
			t.Error("Done closed without Stopped and Check reporting it")
		}
		return c.Elapsed()
	case <-time.After(10 * time.Second):
		t.Fatal("Done never closed")
	}
	return 0
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func isReleased(c *Control) bool { return isClosed(c.Released()) }

func TestControlMoveTime(t *testing.T) {
	c := NewControl(Limits{MoveTime: 50 * time.Millisecond}, games.First)
	if !isReleased(c) {
		t.Error("a timed search is not released from the start")
	}
	if c.Check(0) {
		t.Error("Check stops at once")
	}
	if !c.NextIteration(1) || !c.NextIteration(2) {
		t.Error("NextIteration refuses the first iterations")
	}
	time.Sleep(35 * time.Millisecond)
	if !c.NextIteration(20) {
		t.Error("under movetime NextIteration refused an iteration before the move time was up")
	}
	if e := waitDone(t, c); e < 50*time.Millisecond {
		t.Errorf("stopped after %v, before the move time", e)
	}
	if !c.Stopped() || c.NextIteration(3) || !c.NextIteration(1) {
		t.Error("after the hard limit: Stopped false, or NextIteration wrong")
	}
}

func TestControlClockSoftLimit(t *testing.T) {
	// 40 moves of budget from 2.03 s: soft 50 ms, so no iteration starts after 25 ms.
	c := NewControl(Limits{Time: [2]time.Duration{0, 2*time.Second + DefaultMoveOverhead}, MovesToGo: 40, MoveOverhead: DefaultMoveOverhead},
		games.Second)
	deadline := time.Now().Add(10 * time.Second)
	for c.NextIteration(5) {
		if time.Now().After(deadline) {
			t.Fatal("NextIteration never refused")
		}
		time.Sleep(time.Millisecond)
	}
	if e := c.Elapsed(); e < 20*time.Millisecond {
		t.Errorf("NextIteration refused after %v, before half the soft limit", e)
	}
	if c.Stopped() {
		t.Error("passing the soft limit latched Stopped")
	}
}

func TestControlNodesAndDepth(t *testing.T) {
	c := NewControl(Limits{Nodes: 1000, Depth: 3}, games.First)
	if c.Check(999) {
		t.Error("stopped below the node limit")
	}
	if !c.NextIteration(3) || c.NextIteration(4) {
		t.Error("depth limit 3 not applied by NextIteration")
	}
	if isClosed(c.Done()) {
		t.Error("Done closed below the node limit")
	}
	if !c.Check(1000) || !c.Stopped() || !isClosed(c.Done()) {
		t.Error("node limit not applied")
	}
}

func TestControlStop(t *testing.T) {
	c := NewControl(Limits{}, games.First)
	if c.Check(1<<40) || !c.NextIteration(50) {
		t.Error("an unlimited search stops by itself")
	}
	if isClosed(c.Done()) {
		t.Error("Done closed before Stop")
	}
	c.Stop()
	if !c.Stopped() || !c.Check(0) || c.NextIteration(2) || !isReleased(c) || !isClosed(c.Done()) {
		t.Error("Stop did not stop and release")
	}
	c.Stop() // a second Stop is harmless
}

func TestControlPonderHit(t *testing.T) {
	c := NewControl(Limits{Ponder: true, MoveTime: 30 * time.Millisecond}, games.First)
	time.Sleep(60 * time.Millisecond)
	if isReleased(c) {
		t.Error("a ponder search is released before ponderhit")
	}
	if c.Check(0) || !c.NextIteration(9) || isClosed(c.Done()) {
		t.Error("the move time runs while pondering")
	}
	c.PonderHit()
	if !isReleased(c) {
		t.Error("ponderhit did not release the search")
	}
	if e := c.Elapsed(); e >= 30*time.Millisecond {
		t.Errorf("ponderhit did not restart the clock: %v elapsed", e)
	}
	if e := waitDone(t, c); e < 30*time.Millisecond {
		t.Errorf("stopped %v after ponderhit, before the move time", e)
	}
}

func TestControlPonderStop(t *testing.T) {
	c := NewControl(Limits{Ponder: true}, games.First)
	c.Stop()
	if !isReleased(c) || !c.Stopped() || !isClosed(c.Done()) {
		t.Error("stop during ponder does not release")
	}
	c.PonderHit() // a ponderhit after the stop must not start the clock again
	if !c.Stopped() {
		t.Error("ponderhit after stop undid the stop")
	}
}

func TestControlInfinite(t *testing.T) {
	c := NewControl(Limits{Infinite: true, MoveTime: time.Millisecond}, games.First)
	time.Sleep(10 * time.Millisecond)
	c.PonderHit() // a stray ponderhit must not end an infinite search
	if isReleased(c) {
		t.Error("an infinite search is released before stop")
	}
	done := make(chan struct{})
	go func() {
		<-c.Released()
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("Released closed without stop")
	case <-time.After(20 * time.Millisecond):
	}
	if !isClosed(c.Done()) {
		t.Error("the move time of an infinite search did not stop it")
	}
	c.Stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not release an infinite search")
	}
}

func TestControlWithDepth(t *testing.T) {
	tests := []struct {
		name          string
		depth, capped int
		want          int
	}{
		{"cap without a depth limit", 0, 4, 4},
		{"tighter cap", 8, 4, 4},
		{"looser cap", 3, 4, 3},
		{"no cap", 6, 0, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			outer := NewControl(Limits{Depth: tc.depth, Ponder: true}, games.First)
			inner := outer.WithDepth(tc.capped)
			if got := inner.Limits().Depth; got != tc.want {
				t.Errorf("depth %d, want %d", got, tc.want)
			}
			if outer.Limits().Depth != tc.depth {
				t.Error("WithDepth changed the outer control's depth")
			}
			outer.PonderHit()
			if !isReleased(inner) {
				t.Error("ponderhit on the outer control did not release the inner one")
			}
			outer.Stop()
			if !inner.Stopped() || !isClosed(inner.Done()) {
				t.Error("stop on the outer control did not reach the inner one")
			}
		})
	}
}

func TestHandOverLeavesTheSecondSearcherIterations(t *testing.T) {
	// 80 s for 40 moves: a soft limit of 2 s, so no iteration starts after 1 s.
	ctl := NewControl(Limits{Time: [2]time.Duration{80 * time.Second, 0}, MovesToGo: 40}, games.First)
	time.Sleep(1100 * time.Millisecond) // a first searcher spends more than half the budget
	if ctl.NextIteration(2) {
		t.Fatal("without a hand-over, no iteration should start after half the budget")
	}
	ctl.HandOver()
	if !ctl.NextIteration(2) {
		t.Error("after the hand-over the second searcher should get iterations in the time that is left")
	}
}

// TestBudgetNeverExceedsTheClock checks, over a grid of clocks, increments and moves to go, that no budget
// reaches beyond the time left less the overhead: the increment is added after the move, so a clock below
// the increment (a scramble at 1+1, 2+1, 3+2) would otherwise be overspent and the game lost on time.
func TestBudgetNeverExceedsTheClock(t *testing.T) {
	ms := time.Millisecond
	lefts := []time.Duration{1 * ms, 10 * ms, 30 * ms, 31 * ms, 50 * ms, 100 * ms, 300 * ms, 999 * ms, 2 * time.Second,
		10 * time.Second, time.Minute, time.Hour}
	incs := []time.Duration{0, 10 * ms, 200 * ms, time.Second, 2 * time.Second, 3 * time.Second, time.Minute}
	overheads := []time.Duration{0, DefaultMoveOverhead, 100 * ms}
	for _, left := range lefts {
		for _, inc := range incs {
			for movesToGo := 0; movesToGo <= 41; movesToGo++ {
				for _, overhead := range overheads {
					lim := Limits{Time: [2]time.Duration{0, left}, Inc: [2]time.Duration{inc, inc}, MovesToGo: movesToGo,
						MoveOverhead: overhead}
					soft, hard := budget(lim, games.Second)
					usable := left - overhead
					if soft <= 0 || hard <= 0 || soft > hard {
						t.Fatalf("left %v inc %v movestogo %d overhead %v: budget (%v, %v)", left, inc, movesToGo, overhead, soft, hard)
					}
					if usable > time.Millisecond && hard >= usable {
						t.Fatalf("left %v inc %v movestogo %d overhead %v: hard limit %v, but only %v is left after the overhead",
							left, inc, movesToGo, overhead, hard, usable)
					}
					if usable <= time.Millisecond && hard != time.Millisecond {
						t.Fatalf("left %v inc %v overhead %v: no time to spare, yet a hard limit of %v", left, inc, overhead, hard)
					}
				}
			}
		}
	}
	// The scramble of issue #34: 300 ms left, 2 s increment.
	_, hard := budget(Limits{Time: [2]time.Duration{2 * time.Second, 300 * ms}, Inc: [2]time.Duration{2 * time.Second, 2 * time.Second},
		MoveOverhead: DefaultMoveOverhead}, games.Second)
	if hard > 150*ms {
		t.Errorf("300 ms left with a 2 s increment: hard limit %v", hard)
	}
}

// TestControlWithTimeShare checks that a control given a share of the move's time stops its search at that
// share of the hard limit and refuses iterations after half of its share of the soft one, that the outer
// control keeps the whole budget, and that shares of derived controls multiply.
func TestControlWithTimeShare(t *testing.T) {
	t.Run("movetime", func(t *testing.T) {
		outer := NewControl(Limits{MoveTime: 200 * time.Millisecond}, games.First)
		inner := outer.WithTimeShare(0.5).WithDepth(30)
		if _, hard := inner.Budget(); hard != 100*time.Millisecond {
			t.Errorf("the inner hard limit %v, want 100ms", hard)
		}
		if _, hard := outer.Budget(); hard != 200*time.Millisecond {
			t.Errorf("the outer hard limit %v, want 200ms", hard)
		}
		start := time.Now()
		for !inner.Check(0) {
			if time.Since(start) > 5*time.Second {
				t.Fatal("the inner control never stopped")
			}
			time.Sleep(time.Millisecond)
		}
		if e := time.Since(start); e < 95*time.Millisecond || e > 180*time.Millisecond {
			t.Errorf("the inner control stopped after %v, want about 100ms", e)
		}
	})
	t.Run("clock", func(t *testing.T) {
		// 40 moves of budget from 4.03 s: soft 100 ms; half of a quarter of it is 12.5 ms.
		outer := NewControl(Limits{Time: [2]time.Duration{4*time.Second + DefaultMoveOverhead}, MovesToGo: 40, MoveOverhead: DefaultMoveOverhead},
			games.First)
		inner := outer.WithTimeShare(0.5).WithTimeShare(0.5)
		if soft, _ := inner.Budget(); soft != 25*time.Millisecond {
			t.Errorf("the inner soft limit %v, want 25ms", soft)
		}
		start := time.Now()
		for inner.NextIteration(5) {
			if time.Since(start) > 5*time.Second {
				t.Fatal("NextIteration never refused")
			}
			time.Sleep(time.Millisecond)
		}
		if e := time.Since(start); e < 12*time.Millisecond || e > 45*time.Millisecond {
			t.Errorf("the inner control refused iterations after %v, want about 12.5ms", e)
		}
		if !outer.NextIteration(5) || outer.Stopped() {
			t.Error("the outer control lost its budget")
		}
	})
	t.Run("no share", func(t *testing.T) {
		outer := NewControl(Limits{MoveTime: 100 * time.Millisecond}, games.First)
		for _, share := range []float64{0, 1, 1.5, -1} {
			if _, hard := outer.WithTimeShare(share).Budget(); hard != 100*time.Millisecond {
				t.Errorf("share %v: hard limit %v, want the whole 100ms", share, hard)
			}
		}
	})
}

// TestControlSetTimeShare checks that SetTimeShare changes a share while the search runs, in the controls derived
// from it too, and does nothing to a control without a share of its own.
func TestControlSetTimeShare(t *testing.T) {
	outer := NewControl(Limits{MoveTime: 200 * time.Millisecond}, games.First)
	inner := outer.WithTimeShare(0.5)
	derived := inner.WithDepth(10).WithMultiPV(2)
	for _, c := range []struct {
		share float64
		want  time.Duration
	}{{1, 200 * time.Millisecond}, {0.25, 50 * time.Millisecond}, {2, 200 * time.Millisecond}, {0.5, 100 * time.Millisecond}} {
		inner.SetTimeShare(c.share)
		if _, hard := derived.Budget(); hard != c.want {
			t.Errorf("share %v: the derived hard limit %v, want %v", c.share, hard, c.want)
		}
	}
	if nested := inner.WithTimeShare(0.5); true {
		nested.SetTimeShare(1)
		if _, hard := nested.Budget(); hard != 100*time.Millisecond {
			t.Errorf("a share of a share set whole: hard limit %v, want its outer's 100ms", hard)
		}
	}
	outer.SetTimeShare(0.5)
	if _, hard := outer.Budget(); hard != 200*time.Millisecond {
		t.Errorf("SetTimeShare on a control without a share: hard limit %v, want 200ms", hard)
	}
}
