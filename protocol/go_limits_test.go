// A go command whose limit is unreadable still ends its search: the limit is taken at its smallest.

package protocol

import (
	"strings"
	"testing"

	"dossier/games/chess"
)

// TestGoUnreadableLimitIsNoEndlessSearch: "go nodes abc" was reported and then searched without limit, a
// search that only stop ends (issue #34); the limit is now its smallest value, and the bestmove comes.
func TestGoUnreadableLimitIsNoEndlessSearch(t *testing.T) {
	tests := []struct {
		goCmd, wantErr string
		check          func(t *testing.T, eng *fakeEngine)
	}{
		{"go nodes abc", `go: nodes "abc" is not a whole number; using 1`, func(t *testing.T, eng *fakeEngine) {
			if lim := eng.limits[0]; lim.Nodes != 1 {
				t.Errorf("limits %+v, want 1 node", lim)
			}
		}},
		{"go depth 2x", `go: depth "2x" is not a whole number; using 1`, func(t *testing.T, eng *fakeEngine) {
			if lim := eng.limits[0]; lim.Depth != 1 {
				t.Errorf("limits %+v, want depth 1", lim)
			}
		}},
		{"go movetime soon", `go: movetime "soon" is not a whole number; using 1`, func(t *testing.T, eng *fakeEngine) {
			if lim := eng.limits[0]; lim.MoveTime != 1e6 {
				t.Errorf("limits %+v, want a move time of 1 ms", lim)
			}
		}},
		{"go wtime 1000 winc x", `go: winc "x" is not a whole number`, func(t *testing.T, eng *fakeEngine) {
			if lim := eng.limits[0]; lim.Time[0] != 1e9 || lim.Inc[0] != 0 {
				t.Errorf("limits %+v, want 1 s and no increment", lim)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.goCmd, func(t *testing.T) {
			eng := newFakeEngine(0)
			out := runScript(t, eng, chess.Game{}, testConfig(), "position startpos\n"+tc.goCmd+"\n")
			errs := linesWith(out, "info string error")
			if len(errs) != 1 || errs[0] != "info string error: "+tc.wantErr {
				t.Errorf("errors %q, want %q", errs, tc.wantErr)
			}
			if !strings.HasPrefix(out[len(out)-1], "bestmove ") {
				t.Errorf("no bestmove: %q", out)
			}
			eng.mu.Lock()
			defer eng.mu.Unlock()
			tc.check(t, eng)
		})
	}
}
