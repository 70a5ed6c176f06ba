// CECP as python-chess (and so lichess-bot's xboard mode) drives it: the exact lines its XBoardProtocol sends
// (chess/engine.py), and the replies it accepts.
package protocol

import (
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/chess"
)

// TestCECPLevelWithoutTimeLeft: python-chess sends "level 0 M:SS INC" from the clock before every move, so a
// game without increment has "level 0 0:00 0" once the clock is below one second; the time left is in the
// time command that follows, and without one the engine moves at once. It was refused ("no time at all").
func TestCECPLevelWithoutTimeLeft(t *testing.T) {
	eng := newFakeEngine(0)
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	tr.send("xboard", "protover 2")
	tr.expect("feature done=1")
	tr.send("new", "force", "usermove e2e4", "level 0 0:00 0", "time 80", "otim 5000", "nopost", "easy", "go")
	got := tr.expect("move ")
	tr.send("new", "level 0 0:00 0", "go") // no time command: move at once
	got = append(got, tr.expect("move ")...)
	tr.quit()
	if errs := linesWith(got, "Error"); len(errs) > 0 {
		t.Errorf("errors %q", errs)
	}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if len(eng.limits) != 2 {
		t.Fatalf("%d searches, want 2", len(eng.limits))
	}
	if lim := eng.limits[0]; lim.Time[games.Second] != 800*time.Millisecond || lim.Time[games.First] != 50*time.Second ||
		lim.Inc != [2]time.Duration{} {
		t.Errorf("limits under level 0 0:00 0 with time 80: %+v", lim)
	}
	if lim := eng.limits[1]; lim.Time[games.First] != time.Millisecond || lim.Inc != [2]time.Duration{} {
		t.Errorf("limits under level 0 0:00 0 with no clock: %+v", lim)
	}
}

// pythonChessHandshake is what python-chess sends and answers at start: xboard, protover 2, and after the
// features "accepted" or "rejected" for those it has an opinion on.
func pythonChessHandshake(t *testing.T, tr *transcript) []string {
	t.Helper()
	tr.send("xboard", "protover 2")
	features := tr.expect("feature done=1")
	for _, l := range features {
		if strings.Contains(l, "sigterm=0") || strings.Contains(l, "reuse=0") || strings.Contains(l, "san=1") {
			t.Errorf("python-chess rejects this feature: %q", l)
		}
	}
	return features
}
