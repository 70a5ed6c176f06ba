// Tests of New: configuration errors, the depth cap and its relay of stop and ponderhit.

package searchers

import (
	"strings"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games/checkers"
	"dossier/games/connect4"
)

func TestNewSearcherRejectsBadConfigurations(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"unknown preset", Config{Preset: "sp"}, `no preset "sp"`},
		{"unknown search", Config{Search: "minimax"}, `unknown search "minimax" (searches: alphabeta, mstar, `},
		{"negative depth", Config{Depth: -1}, "depth -1 is negative"},
		{"negative hash", Config{HashMB: -5}, "hash size -5 MiB is negative"},
		{"negative threads", Config{Threads: -2}, "thread count -2 is negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(checkers.Game{}, tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := New(fakeGame{}, Config{}); err == nil {
		t.Error("a searcher was built for a game without a book")
	}
	s := mustSearcher(t, checkers.Game{}, Config{Search: "AlphaBeta", HashMB: 1, Threads: 2, Contempt: 20})
	opts := presetSearcherOf(s).inner.(*engine.AlphaBeta).Options()
	if opts.HashMB != 1 || opts.Threads != 2 || opts.Contempt != 20 {
		t.Errorf("options %+v do not follow the configuration", opts)
	}
}

func TestDepthCapCombinesWithTheGoDepth(t *testing.T) {
	tests := []struct {
		name    string
		preset  string
		depth   int // Config.Depth
		goDepth int
		want    int
	}{
		{"preset cap", "mat-tot25", 0, 0, 4},
		{"go depth below the cap", "mat-tot25", 0, 2, 2},
		{"go depth above the cap", "mat-tot25", 0, 9, 4},
		{"configured depth replaces the preset's", "mat-tot25", 3, 0, 3},
		{"configured depth above the go depth", "mat-tot25", 6, 5, 5},
		{"no cap", "strongest", 0, 3, 3},
		{"cap on strongest", "strongest", 2, 7, 2},
	}
	g := checkers.Game{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSearcher(t, g, Config{Preset: tc.preset, Depth: tc.depth, HashMB: 1})
			res := searchLimited(s, g.Start(), engine.Limits{Depth: tc.goDepth})
			if res.Depth != tc.want {
				t.Errorf("searched to depth %d, want %d", res.Depth, tc.want)
			}
		})
	}
}

// startSearch runs s on p under lim on a goroutine and returns the control and the channel of its result.
func startSearch(s engine.Searcher, lim engine.Limits) (*engine.Control, <-chan engine.Result) {
	p := connect4.Game{}.Start()
	ctl := engine.NewControl(lim, p.ToMove())
	done := make(chan engine.Result, 1)
	go func() { done <- s.Search(p, ctl, nil) }()
	return ctl, done
}

func TestDepthCapRelaysStopAndPonderHit(t *testing.T) {
	g := connect4.Game{}
	const settle = 50 * time.Millisecond
	t.Run("infinite search stops at stop only", func(t *testing.T) {
		// Depth 1 is done at once, but UCI forbids bestmove before stop in an infinite search.
		ctl, done := startSearch(mustSearcher(t, g, Config{Preset: "sp"}), engine.Limits{Infinite: true})
		select {
		case res := <-done:
			t.Fatalf("returned %+v before stop", res)
		case <-time.After(settle):
		}
		ctl.Stop()
		if res := <-done; res.Depth != 1 {
			t.Errorf("depth %d, want the cap 1", res.Depth)
		}
	})
	t.Run("ponder search returns after ponderhit", func(t *testing.T) {
		ctl, done := startSearch(mustSearcher(t, g, Config{Preset: "sp"}), engine.Limits{Ponder: true, MoveTime: time.Hour})
		select {
		case res := <-done:
			t.Fatalf("returned %+v while pondering", res)
		case <-time.After(settle):
		}
		ctl.PonderHit()
		if res := <-done; res.Depth != 1 {
			t.Errorf("depth %d, want the cap 1", res.Depth)
		}
	})
	t.Run("stop reaches a deep capped search", func(t *testing.T) {
		s := mustSearcher(t, g, Config{Preset: "sophisticated", Depth: 40, HashMB: 1})
		ctl, done := startSearch(s, engine.Limits{})
		time.Sleep(settle)
		ctl.Stop()
		select {
		case res := <-done:
			if res.Move == 0 || res.Depth >= 40 {
				t.Errorf("stopped search returned %+v", res)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the capped search did not stop")
		}
	})
}
