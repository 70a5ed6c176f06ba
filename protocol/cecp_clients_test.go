// CECP as python-chess (and so lichess-bot's xboard mode) drives it: the exact lines its XBoardProtocol sends
// (chess/engine.py), and the replies it accepts.

package protocol

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/engine"
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

// pythonChessAnalyse runs an analysis as python-chess's analyse(board, Limit(depth=depth)) does in xboard
// mode: it waits for a thinking line of that depth or more, then ends the analysis with ".", "exit" and a
// ping, and takes any line but thinking lines, comments and the pong for unexpected output. It returns the
// thinking lines.
func pythonChessAnalyse(t *testing.T, tr *transcript, fen string, depth int) []string {
	t.Helper()
	tr.send("new", "force", "setboard "+fen, "post", "analyze")
	var posts []string
	for reached := false; !reached; {
		line := tr.expect("")[0]
		fields := strings.Fields(line)
		if len(fields) < 4 || !isDigits(fields[0]) {
			if !strings.HasPrefix(line, "#") {
				t.Errorf("unexpected output %q", line)
			}
			continue
		}
		posts = append(posts, line)
		d, _ := strconv.Atoi(fields[0])
		reached = d >= depth
	}
	tr.send(".", "exit", "ping 41")
	for _, line := range tr.expect("pong 41") {
		fields := strings.Fields(line)
		if line != "pong 41" && !strings.HasPrefix(line, "#") && (len(fields) < 4 || !isDigits(fields[0])) {
			t.Errorf("unexpected output after the analysis: %q", line)
		}
	}
	return posts
}

// isDigits reports whether s is a whole number without sign.
func isDigits(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// TestCECPAnalysisGoesOnAfterAProvenMate: an analysis whose search proves a mate at depth 1 posted that line
// and no deeper one, so python-chess's analyse with Limit(depth=5) never returned (issue #34); the line is
// now posted at every depth up to the engine's deepest, and "." then gets no stat01 (nothing is searched).
func TestCECPAnalysisGoesOnAfterAProvenMate(t *testing.T) {
	const fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
	mate := after(t, chess.Game{}, fen)
	m, err := mate.ParseMove("d1d8")
	if err != nil {
		t.Fatal(err)
	}
	eng := newFakeEngine(0)
	eng.info = &engine.Info{Depth: 1, SelDepth: 1, Score: engine.MateScore - 1, Nodes: 26, PV: []games.Move{m}}
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	pythonChessHandshake(t, tr)
	posts := pythonChessAnalyse(t, tr, fen, 5)
	if len(posts) < 5 || posts[0] != "1 100001 0 26 d1d8" || !strings.HasPrefix(posts[4], "5 100001 ") ||
		!strings.HasSuffix(posts[4], " 26 d1d8") {
		t.Errorf("thinking lines %q, want the mate at depths 1 to 5", posts)
	}
	tr.quit()
	if deepest := linesWith(tr.seen, " 100001 "); len(deepest) != engine.MaxDepth ||
		!strings.HasPrefix(deepest[len(deepest)-1], fmt.Sprintf("%d 100001 ", engine.MaxDepth)) {
		t.Errorf("%d mate lines, the last %q; want one per depth up to %d", len(deepest), deepest[len(deepest)-1], engine.MaxDepth)
	}
}

// TestCECPStatusNotAfterTheAnalysisEnds: python-chess ends an analysis with ".", "exit" and "ping" at once and
// took the stat01 line "." was answered with for unexpected output; "." alone still gets one.
func TestCECPStatusNotAfterTheAnalysisEnds(t *testing.T) {
	eng := newFakeEngine(0)
	eng.waitForStop.Store(true)
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	tr.send("new", "force", "post", "analyze")
	waitFor(t, eng.started, "the analysis")
	tr.send(".", "exit", "ping 1")
	tr.expect("pong 1")
	time.Sleep(3 * statusDelay)
	tr.send("analyze")
	waitFor(t, eng.started, "the second analysis")
	tr.send(".")
	tr.expect("stat01: ")
	tr.quit()
	if status := linesWith(tr.seen, "stat01"); len(status) != 1 {
		t.Errorf("stat01 lines %q, want only the one of the second analysis", status)
	}
}

// TestCECPNodeLimit: python-chess's play(board, Limit(nodes=N)) in xboard mode sends "nps 1" and "st N" (and
// refused to before, dossier announcing nps=0); the protocol's nps makes the engine's clock count nodes, so
// xboard's "st 8" with "nps 10000" is 80,000 nodes, and a clock becomes its budget in nodes. new ends it.
func TestCECPNodeLimit(t *testing.T) {
	eng := newFakeEngine(0)
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	features := pythonChessHandshake(t, tr)
	if !containsPrefix(linesWith(features, " nps=1 "), "feature ") {
		t.Errorf("features %q do not announce nps=1", features)
	}
	tr.send("new", "force", "usermove e2e4", "nps 1", "st 5000000", "nopost", "easy", "go")
	tr.expect("move ")
	tr.send("new", "force", "usermove e2e4", "st 8", "nps 10000", "go")
	tr.expect("move ")
	tr.send("new", "force", "usermove e2e4", "level 0 1 0", "nps 1000", "time 6000", "otim 6000", "go")
	tr.expect("move ")
	tr.send("new", "force", "usermove e2e4", "st 2", "go") // new ended nps: 2 s of wall clock
	tr.expect("move ")
	tr.send("nps x", "ping 1")
	got := tr.expect("pong 1")
	tr.quit()
	if errs := linesWith(got, "Error"); len(errs) != 1 || errs[0] != "Error (nps needs a number of nodes a second): nps x" {
		t.Errorf("errors %q", errs)
	}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if len(eng.limits) != 4 {
		t.Fatalf("%d searches, want 4", len(eng.limits))
	}
	noClock := func(lim engine.Limits) bool {
		return lim.MoveTime == 0 && lim.Time == [2]time.Duration{} && lim.Inc == [2]time.Duration{}
	}
	if lim := eng.limits[0]; lim.Nodes != 5_000_000 || !noClock(lim) {
		t.Errorf("nps 1, st 5000000: limits %+v, want 5,000,000 nodes and no clock", lim)
	}
	if lim := eng.limits[1]; lim.Nodes != 80_000 || !noClock(lim) {
		t.Errorf("st 8, nps 10000: limits %+v, want 80,000 nodes", lim)
	}
	// 60 s of sudden death: a soft budget of a 20th, 3 s (a clock of nodes has no GUI delay to keep back),
	// at 1,000 nodes a second.
	if lim := eng.limits[2]; lim.Nodes != 3000 || !noClock(lim) {
		t.Errorf("a clock of 60 s under nps 1000: limits %+v, want 3,000 nodes", lim)
	}
	if lim := eng.limits[3]; lim.Nodes != 0 || lim.MoveTime != 2*time.Second {
		t.Errorf("st 2 after new: limits %+v, want 2 s and no node limit", lim)
	}
}

// TestCECPPondersWhenHard: hard turns pondering on (python-chess sends it for play(..., ponder=True), xboard
// for its pondering option): after its move the engine searches the position after the reply it expects
// until the opponent's move comes, and answers ping at once meanwhile; the game's record is the moves
// played. easy turns it off and ends a ponder search. Before, hard and easy changed nothing.
func TestCECPPondersWhenHard(t *testing.T) {
	eng := newFakeEngine(0)
	eng.expectsReply = true
	eng.waitForStop.Store(true) // a search runs until its clock or a stop ends it
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	tr.send("xboard", "protover 2")
	tr.expect("feature done=1")
	tr.send("new", "st 0.1", "hard", "nopost", "usermove e2e4")
	waitFor(t, eng.started, "the move's search")
	ours := strings.TrimPrefix(tr.expect("move ")[0], "move ")
	waitFor(t, eng.started, "the ponder search")
	tr.send("ping 1")
	tr.expect("pong 1") // at once: a ponder search is no command in progress
	afterOurs := after(t, chess.Game{}, "", "e2e4", ours)
	guess := firstMove(t, afterOurs)
	tr.send("time 6000", "otim 6000", "usermove "+guess) // the expected reply
	waitFor(t, eng.started, "the search after the reply")
	second := strings.TrimPrefix(tr.expect("move ")[0], "move ")
	waitFor(t, eng.started, "the second ponder search")
	tr.send("easy", "ping 2")
	tr.expect("pong 2")
	other := after(t, chess.Game{}, "", "e2e4", ours, guess, second)
	tr.send("usermove " + firstMove(t, other))
	tr.expect("move ")
	tr.send("result 1/2-1/2 {agreed}", "ping 3")
	tr.expect("pong 3")
	tr.quit()

	eng.mu.Lock()
	roots, limits := eng.roots, eng.limits
	eng.mu.Unlock()
	want := []string{
		after(t, chess.Game{}, "", "e2e4").FEN(),
		after(t, chess.Game{}, "", "e2e4", ours, guess).FEN(),                              // pondering on the expected reply
		after(t, chess.Game{}, "", "e2e4", ours, guess).FEN(),                              // the reply came: the move's search
		after(t, chess.Game{}, "", "e2e4", ours, guess, second, firstMove(t, other)).FEN(), // pondering again
		after(t, chess.Game{}, "", "e2e4", ours, guess, second, firstMove(t, other)).FEN(), // the move's; easy: no more
	}
	if !slices.Equal(roots, want) {
		t.Errorf("searched\n%s\nwant\n%s", strings.Join(roots, "\n"), strings.Join(want, "\n"))
	}
	if len(limits) == len(want) && (!limits[1].Ponder || limits[2].Ponder || limits[2].MoveTime == 0 || !limits[3].Ponder) {
		t.Errorf("limits %+v: want a ponder search, then the move's search under st", limits)
	}
	events := eng.events()
	if len(events) < 2 || events[len(events)-2] != "over 1/2-1/2 agreed after 6 moves" {
		t.Errorf("life cycle %q: want the game of 6 moves played", events)
	}
}
