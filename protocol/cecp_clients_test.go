// CECP as python-chess (and so lichess-bot's xboard mode) drives it: the exact lines its XBoardProtocol sends
// (chess/engine.py), and the replies it accepts.
package protocol

import (
	"slices"
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

// TestCECPOptionsAsPythonChessReadsThem: python-chess reads a feature option's name up to its first space, so
// "Move Overhead -spin 30 0 5000" was an option "Move" that configure could not set; CECP announces it as
// MoveOverhead, which python-chess sends back as "option MoveOverhead=100" (and xboard's own spelling with the
// space still works). No feature is one python-chess rejects (sigterm=0 was, at every start).
func TestCECPOptionsAsPythonChessReadsThem(t *testing.T) {
	eng := newFakeEngine(0)
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	features := pythonChessHandshake(t, tr)
	for _, l := range features {
		if name, ok := strings.CutPrefix(l, `feature option="`); ok && !strings.HasPrefix(strings.Fields(name)[1], "-") {
			t.Errorf("python-chess would read the option's name as %q: %q", strings.Fields(name)[0], l)
		}
	}
	if !slices.Contains(features, `feature option="MoveOverhead -spin 30 0 5000"`) {
		t.Errorf("features %q lack MoveOverhead", features)
	}
	tr.send("option MoveOverhead=100", "new", "force", "usermove e2e4", "go")
	tr.expect("move ")
	tr.send("option Move Overhead=250", "new", "force", "usermove e2e4", "go")
	got := tr.expect("move ")
	tr.quit()
	if errs := linesWith(append(features, got...), "Error"); len(errs) > 0 {
		t.Errorf("errors %q", errs)
	}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if len(eng.limits) != 2 || eng.limits[0].MoveOverhead != 100*time.Millisecond || eng.limits[1].MoveOverhead != 250*time.Millisecond {
		t.Errorf("limits %+v, want overheads of 100 and 250 ms", eng.limits)
	}
}
