// What the memory did in a game: the counts of searches the experience settled nodes in, and of moves a won
// game, a repeated draw left or a prepared entry gave instead of the search's.

package player

import (
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"dossier/engine"
	"dossier/games"
)

func TestMemoryUseCountsWhatChangedTheMove(t *testing.T) {
	a, b := engine.Result{Move: games.Move(1)}, engine.Result{Move: games.Move(2)}
	var u memoryUse
	u.search(1, 0, a, a, a)                             // nothing
	u.search(3, 40, a, b, b)                            // experience, and a won game's move
	u.search(5, 0, a, a, b)                             // a prepared move
	u.search(7, 7, a, b, a)                             // experience, a won game's move, then the prepared one
	u.search(9, 0, a, engine.Result{}, engine.Result{}) // no move at all: nothing replaced
	u.leftDraw()
	u.search(11, 0, a, b, b) // a move that left a repeated draw
	if u.searches != 6 || u.settled != 2 || u.nodes != 47 || u.recalled != 3 || u.drawsLeft != 1 || u.prepared != 2 {
		t.Errorf("counted %d searches, %d settled, %d nodes, %d recalled (%d leaving a draw), %d prepared", u.searches,
			u.settled, u.nodes, u.recalled, u.drawsLeft, u.prepared)
	}
	if d := u.depth(); d != 0 {
		t.Errorf("median depth %d of searches that reached none", d)
	}
	for _, d := range []int{9, 12, 10, 11, 30} {
		u.search(0, 0, engine.Result{Move: a.Move, Depth: d}, a, a)
	}
	if d := u.depth(); d != 11 {
		t.Errorf("median depth %d, want 11 of 9 10 11 12 30 (the searches that reached no depth left out)", d)
	}
	u.reset()
	if u.searches != 0 || u.nodes != 0 || u.recalled != 0 || u.drawsLeft != 0 || u.prepared != 0 {
		t.Errorf("after reset: %d searches, %d nodes", u.searches, u.nodes)
	}
}

// TestLostFromLooksBeforeTheLastLostStretch: the analysis of a lost game begins window moves before our searches
// last saw the game lost for good, or before its end when they never did.
func TestLostFromLooksBeforeTheLastLostStretch(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64 // our searches' values at plies 10, 12, 14, ...
		want   int
	}{
		{"lost from ply 22 on, after a lost moment at 14", []float64{0, 0, -300, 0, 50, 0, -250, -400, -900}, 16},
		{"never seen lost: the last moves", []float64{0, 10, 20, 30, 40, 50}, 16},
		{"lost from the start", []float64{-300, -300, -400}, 0},
		{"too short", []float64{0, -300}, 0},
		{"no search", nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var u memoryUse
			for i, v := range c.scores {
				u.search(10+2*i, 0, engine.Result{Move: games.Move(1), Depth: 5, Score: v}, engine.Result{}, engine.Result{})
			}
			if got := u.lostFrom(200, 3); got != c.want {
				t.Errorf("from ply %d, want %d", got, c.want)
			}
		})
	}
}

// A search that spent long outside its search proper is logged with the part that took the time; the game's
// line gives the longest such time.
func TestTimeOutsideTheSearchIsLoggedByPart(t *testing.T) {
	core, logs := observer.New(zapcore.WarnLevel)
	var u memoryUse
	u.reset()
	var quick onClock
	quick.begin()
	quick.mark(partSearcher)
	u.spentOnClock(quick, 3, zap.New(core))
	if logs.Len() != 0 {
		t.Fatalf("a quick search logged %v", logs.All())
	}
	var slow onClock
	slow.begin()
	slow.mark(partSearcher)
	time.Sleep(slowOnClock + 5*time.Millisecond) // a background thread holding the gate's lock
	slow.mark(partHold)
	slow.skip()
	u.spentOnClock(slow, 9, zap.New(core))
	if logs.Len() != 1 {
		t.Fatalf("%d lines logged for a slow search, want 1", logs.Len())
	}
	fields := logs.All()[0].ContextMap()
	if hold := fields["hold"].(time.Duration); hold < slowOnClock {
		t.Errorf("the hold took %v in the log, want the %v slept", hold, slowOnClock)
	}
	if searcher := fields["searcher"].(time.Duration); searcher > slowOnClock/2 {
		t.Errorf("the searcher's part took %v in the log, want about nothing", searcher)
	}
	if fields["ply"].(int64) != 9 {
		t.Errorf("ply %v logged, want 9", fields["ply"])
	}
	if u.onClockMax < slowOnClock || u.onClockMax != slow.total() {
		t.Errorf("the longest time outside a search %v, want %v", u.onClockMax, slow.total())
	}
}
