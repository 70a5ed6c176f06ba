// What the memory did in a game: the counts of searches the experience settled nodes in, and of moves a won
// game or a prepared entry gave instead of the search's.

package player

import (
	"testing"

	"dossier/engine"
	"dossier/games"
)

func TestMemoryUseCountsWhatChangedTheMove(t *testing.T) {
	a, b := engine.Result{Move: games.Move(1)}, engine.Result{Move: games.Move(2)}
	var u memoryUse
	u.search(0, a, a, a)                             // nothing
	u.search(40, a, b, b)                            // experience, and a won game's move
	u.search(0, a, a, b)                             // a prepared move
	u.search(7, a, b, a)                             // experience, a won game's move, then the prepared one
	u.search(0, a, engine.Result{}, engine.Result{}) // no move at all: nothing replaced
	if u.searches != 5 || u.settled != 2 || u.nodes != 47 || u.recalled != 2 || u.prepared != 2 {
		t.Errorf("counted %d searches, %d settled, %d nodes, %d recalled, %d prepared", u.searches, u.settled, u.nodes, u.recalled, u.prepared)
	}
	if d := u.depth(); d != 0 {
		t.Errorf("median depth %d of searches that reached none", d)
	}
	for _, d := range []int{9, 12, 10, 11, 30} {
		u.search(0, engine.Result{Move: a.Move, Depth: d}, a, a)
	}
	if d := u.depth(); d != 11 {
		t.Errorf("median depth %d, want 11 of 9 10 11 12 30 (the searches that reached no depth left out)", d)
	}
	u.reset()
	if u.searches != 0 || u.nodes != 0 || u.recalled != 0 || u.prepared != 0 {
		t.Errorf("after reset: %d searches, %d nodes", u.searches, u.nodes)
	}
}
