// Tests of Control: time budgets from the clocks, movetime, node and depth limits, stop, ponderhit, infinite.
package engine

import (
	"testing"
	"time"

	"dossier/games"
)

func TestBudget(t *testing.T) {
	sec := time.Second
	tests := []struct {
		name       string
		lim        Limits
		side       games.Side
		soft, hard time.Duration
	}{
		{"no limits", Limits{}, games.First, 0, 0},
		{"movetime", Limits{MoveTime: sec}, games.First, sec - MoveOverhead/3, sec - MoveOverhead/3},
		{"tiny movetime", Limits{MoveTime: time.Millisecond}, games.First, time.Millisecond, time.Millisecond},
		{"sudden death", Limits{Time: [2]time.Duration{60 * sec, 0}}, games.First,
			(60*sec - MoveOverhead) / 40, (60*sec - MoveOverhead) / 10},
		{"other side's clock unused", Limits{Time: [2]time.Duration{60 * sec, 0}}, games.Second, 0, 0},
		{"second side's clock", Limits{Time: [2]time.Duration{0, 40 * sec}}, games.Second,
			(40*sec - MoveOverhead) / 40, (40*sec - MoveOverhead) / 10},
		{"increment", Limits{Time: [2]time.Duration{10 * sec, 10 * sec}, Inc: [2]time.Duration{sec, sec}}, games.First,
			(10*sec-MoveOverhead)/40 + 3*sec/4, (10*sec-MoveOverhead)/40*4 + 3*sec},
		{"moves to go", Limits{Time: [2]time.Duration{10 * sec, 0}, MovesToGo: 5}, games.First,
			(10*sec - MoveOverhead) / 5, (10*sec - MoveOverhead) / 3},
		{"almost flagged", Limits{Time: [2]time.Duration{10 * time.Millisecond, 0}}, games.First,
			time.Millisecond, time.Millisecond},
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

// waitChecked polls Check as a search does until it reports the stop, or fails after a generous deadline.
func waitChecked(t *testing.T, c *Control) time.Duration {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !c.Check(0) {
		if time.Now().After(deadline) {
			t.Fatal("Check never reported the limit")
		}
		time.Sleep(time.Millisecond)
	}
	return c.Elapsed()
}

func isReleased(c *Control) bool {
	select {
	case <-c.Released():
		return true
	default:
		return false
	}
}

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
	if e := waitChecked(t, c); e < 40*time.Millisecond {
		t.Errorf("stopped after %v, before the move time", e)
	}
	if !c.Stopped() || c.NextIteration(3) || !c.NextIteration(1) {
		t.Error("after the hard limit: Stopped false, or NextIteration wrong")
	}
}

func TestControlClockSoftLimit(t *testing.T) {
	// 40 moves of budget from 2.03 s: soft 50 ms, so no iteration starts after 25 ms.
	c := NewControl(Limits{Time: [2]time.Duration{0, 2*time.Second + MoveOverhead}}, games.Second)
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
	if !c.Check(1000) || !c.Stopped() {
		t.Error("node limit not applied")
	}
}

func TestControlStop(t *testing.T) {
	c := NewControl(Limits{}, games.First)
	if c.Check(1<<40) || !c.NextIteration(50) {
		t.Error("an unlimited search stops by itself")
	}
	c.Stop()
	if !c.Stopped() || !c.Check(0) || c.NextIteration(2) || !isReleased(c) {
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
	if c.Check(0) || !c.NextIteration(9) {
		t.Error("the move time runs while pondering")
	}
	c.PonderHit()
	if !isReleased(c) {
		t.Error("ponderhit did not release the search")
	}
	if e := c.Elapsed(); e >= 30*time.Millisecond {
		t.Errorf("ponderhit did not restart the clock: %v elapsed", e)
	}
	if e := waitChecked(t, c); e < 20*time.Millisecond {
		t.Errorf("stopped %v after ponderhit, before the move time", e)
	}
}

func TestControlPonderStop(t *testing.T) {
	c := NewControl(Limits{Ponder: true}, games.First)
	c.Stop()
	if !isReleased(c) || !c.Stopped() {
		t.Error("stop during ponder does not release")
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
	c.Stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not release an infinite search")
	}
}

func TestHandOverLeavesTheSecondSearcherIterations(t *testing.T) {
	ctl := NewControl(Limits{MoveTime: 2 * time.Second}, games.First)
	time.Sleep(1100 * time.Millisecond) // a first searcher spends more than half the budget
	if ctl.NextIteration(2) {
		t.Fatal("without a hand-over, no iteration should start after half the budget")
	}
	ctl.HandOver()
	if !ctl.NextIteration(2) {
		t.Error("after the hand-over the second searcher should get iterations in the time that is left")
	}
}
