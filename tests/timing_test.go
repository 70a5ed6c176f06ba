// Time use through the built binary: movetime used to its end, clocks that give the side to move nothing,
// readyok soon after ucinewgame and resizes with a large Hash, proven results reported at their depth.

package tests

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMoveTimeIsUsed: go movetime N answers after about N ms, less the Move Overhead (30 ms), in every
// searcher that runs under a move time: alpha-beta in chess and checkers, Connect-Four's solver handing
// over to alpha-beta, and the model searches' driver. The bounds are loose for a loaded machine but tight
// enough to catch a search that stops when it thinks another iteration will not fit (it answered after
// 63-88% of N).
func TestMoveTimeIsUsed(t *testing.T) {
	if testing.Short() {
		t.Skip("searches for 7 s")
	}
	const late = 150 * time.Millisecond
	cases := []struct {
		name    string
		variant string
		setup   []string // option lines
		moves   []string
		ms      int
	}{
		{"chess 1000", "chess", nil, nil, 1000},
		{"chess 3000", "chess", nil, []string{"e2e4"}, 3000},
		{"checkers", "checkers", nil, nil, 1000},
		// The second player is out of the book: the solver tries half the time, then alpha-beta.
		{"connect4 solver hand-over", "cfour", nil, []string{"P@d1"}, 1000},
		{"model search", "chess", []string{"setoption name Search value mstar",
			"setoption name OpponentModel value materialist"}, nil, 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := startDossier(t)
			handshake(p)
			p.send("setoption name UCI_Variant value " + c.variant)
			p.send(c.setup...)
			p.send("ucinewgame")
			ready(p)
			r := newReplay(t, c.variant)
			for _, m := range c.moves {
				r.play(p, m)
			}
			p.send(r.positionCommand())
			n := time.Duration(c.ms) * time.Millisecond
			move, took := timedGo(p, r.pos, fmt.Sprintf("go movetime %d", c.ms), n+promptTimeout)
			t.Logf("go movetime %d: bestmove %s after %v", c.ms, move, took.Round(time.Millisecond))
			if took < n*9/10 || took > n+late {
				t.Errorf("go movetime %d answered after %v, want %v to %v", c.ms, took.Round(time.Millisecond), n*9/10, n+late)
			}
		})
	}
}

// TestClocksThatGiveTheSideToMoveNothing: a clock for the opponent only, or increments only, must still
// get a move without stop: the increment is the move's time, and with nothing for the side to move it
// searches engine.DefaultMoveTime (1 s), each less the Move Overhead.
func TestClocksThatGiveTheSideToMoveNothing(t *testing.T) {
	cases := []struct {
		name     string
		moves    []string
		goCmd    string
		min, max time.Duration
	}{
		{"only White's clock, Black to move", []string{"e2e4"}, "go wtime 1000 winc 100", 800 * time.Millisecond, 2 * time.Second},
		{"only Black's clock, White to move", nil, "go btime 60000", 800 * time.Millisecond, 2 * time.Second},
		{"increments only", nil, "go winc 100 binc 100", 0, time.Second},
		{"own increment, opponent's time", []string{"e2e4"}, "go wtime 60000 binc 300", 0, time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := startDossier(t)
			handshake(p)
			r := newReplay(t, "chess")
			for _, m := range c.moves {
				r.play(p, m)
			}
			p.send(r.positionCommand())
			move, took := timedGo(p, r.pos, c.goCmd, promptTimeout)
			t.Logf("%s: bestmove %s after %v", c.goCmd, move, took.Round(time.Millisecond))
			if took < c.min || took > c.max {
				t.Errorf("%s answered after %v, want %v to %v", c.goCmd, took.Round(time.Millisecond), c.min, c.max)
			}
		})
	}
}

// TestScrambleBelowTheIncrement: with less on the clock than the increment (300 ms left at 2+2), the move
// must come well within the time left, since online platforms add the increment only after the move; it
// came after 0.9-1.1 s (issue #34), a loss on time.
func TestScrambleBelowTheIncrement(t *testing.T) {
	p := startDossier(t)
	handshake(p)
	r := newReplay(t, "chess")
	for _, m := range strings.Fields("e2e4 g8f6 e4e5 f6d5 c2c4 d5f4 d2d4 f4e6 d4d5 e6c5 b2b4 c5a6 b1c3 a6b4 g1f3") {
		r.play(p, m)
	}
	p.send(r.positionCommand())
	p.send("go depth 1") // the first search builds the searcher and its table, which a game does before its scramble
	bestMove(p, r.pos, searchTimeout)
	for _, c := range []struct {
		goCmd string
		bound time.Duration
	}{
		{"go btime 300 wtime 2000 winc 2000 binc 2000", 270 * time.Millisecond}, // 300 ms less the Move Overhead
		{"go btime 10 wtime 2000 winc 200 binc 200", 0},                         // logged: the bound is the machine's
	} {
		p.send(r.positionCommand())
		move, took := timedGo(p, r.pos, c.goCmd, promptTimeout)
		t.Logf("%s: bestmove %s after %v", c.goCmd, move, took.Round(time.Millisecond))
		if c.bound > 0 && took > c.bound {
			t.Errorf("%s answered after %v, want within %v", c.goCmd, took.Round(time.Millisecond), c.bound)
		}
	}
	p.send("quit")
	p.wait(10 * time.Second)
}

// TestLargeHashKeepsReadyOKPrompt: with a large Hash, readyok must follow ucinewgame and a resize well
// within a GUI's time-out (cutechess and lichess-bot wait 10 s or less). Clearing a 1 GB table page by
// page took 4 s here, mapping the Connect-Four solver's share of it 3 s.
func TestLargeHashKeepsReadyOKPrompt(t *testing.T) {
	// The first ucinewgame after Hash 1024 takes 0.1-1.35 s alone on this machine (the table's first pages
	// mapped), and took 2.16 s in session 22's CI run, beside the other packages' tests on two cores; the
	// faults this guards against took 3-4 s alone.
	const bound = 3 * time.Second
	for _, variant := range []string{"chess", "cfour"} {
		t.Run(variant, func(t *testing.T) {
			if testing.Short() && variant == "cfour" {
				t.Skip("the solver's first searches write to 768 MB of fresh pages: seconds")
			}
			p := startDossier(t)
			handshake(p)
			p.send("setoption name UCI_Variant value " + variant)
			step := func(what string, lines ...string) {
				t.Helper()
				p.send(lines...)
				sent := p.send("isready")
				line, _ := p.expect(promptTimeout, "readyok", func(s string) bool { return s == "readyok" })
				took := line.at.Sub(sent)
				t.Logf("%s: readyok after %v", what, took.Round(time.Millisecond))
				if took > bound {
					t.Errorf("%s: readyok after %v, want within %v", what, took.Round(time.Millisecond), bound)
				}
			}
			search := func() {
				t.Helper()
				r := newReplay(t, variant)
				r.play(p, firstLegal(t, r.pos))
				p.send(r.positionCommand(), "go depth 5")
				bestMove(p, r.pos, searchTimeout)
			}
			p.send("go depth 1") // a first searcher with the default table, as a GUI's first game has
			bestMove(p, newReplay(t, variant).pos, searchTimeout)
			step("Hash 1024", "setoption name Hash value 1024")
			step("first ucinewgame", "ucinewgame")
			p.send("go movetime 500")
			bestMove(p, newReplay(t, variant).pos, searchTimeout)
			step("ucinewgame after a search", "ucinewgame")
			search()
			step("Hash 1024 set again", "setoption name Hash value 1024", "ucinewgame")
			search()
			step("Hash 512", "setoption name Hash value 512", "ucinewgame")
		})
	}
}

// TestProvenMateReportedAtItsDepth: a mate in one is found at depth 1 and the search ends there, rather
// than deepening to the depth limit (it went on to depth 20).
func TestProvenMateReportedAtItsDepth(t *testing.T) {
	p := startDossier(t)
	handshake(p)
	p.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go depth 20")
	line, before := p.expectPrefix(searchTimeout, "bestmove")
	if line != "bestmove a1a8" {
		t.Errorf("%q, want bestmove a1a8", line)
	}
	var depths []int
	for _, l := range before {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "info" && f[1] == "depth" {
			d, err := strconv.Atoi(f[2])
			if err != nil {
				t.Fatalf("info line %q", l)
			}
			depths = append(depths, d)
			if !strings.Contains(l, "score mate 1 ") {
				t.Errorf("info line %q does not report the mate in one", l)
			}
		}
	}
	if len(depths) != 1 || depths[0] != 1 {
		t.Errorf("info depths %v, want only depth 1", depths)
	}
}
