// End-to-end games through Debian's polyglot (xboard to UCI): dossier against a random mover and against itself, every move checked with notnil.

package tests

import (
	"dossier/internal/testdeep"
	"dossier/play"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// polyglotPath returns polyglot's path: on PATH, or where Debian installs it (/usr/games is not always on
// PATH); the test is skipped (failed in CI) when it is missing.
func polyglotPath(t *testing.T) string {
	t.Helper()
	if path, err := exec.LookPath("polyglot"); err == nil {
		return path
	}
	return requirePeer(t, "/usr/games/polyglot")
}

// polyglotClockCS is each side's time for the whole game in the polyglot games, in centiseconds (xboard's
// unit); dossier spends a fortieth of what is left on a move.
const polyglotClockCS = 500

// xboardEngine is dossier behind polyglot, driven as xboard drives an engine over CECP.
type xboardEngine struct {
	p        *proc
	logPath  string
	opponent string
	clockCS  int  // the engine's clock as we keep it, sent with "time" before each move
	started  bool // "go" was sent: the engine now answers every usermove
}

// startXboardEngine writes a polyglot ini for the built dossier in a temporary directory, starts polyglot
// on it, and opens a game against an opponent of the given name, as xboard does.
func startXboardEngine(t *testing.T, polyglot, label, opponent string) *xboardEngine {
	t.Helper()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "polyglot.log")
	ini := fmt.Sprintf(`[PolyGlot]
EngineName = dossier
EngineDir = %s
EngineCommand = %s
Log = true
LogFile = %s
Book = false
Resign = false
[Engine]
Hash = 16
`, filepath.Dir(dossierBin), dossierBin, logPath)
	iniPath := filepath.Join(dir, "dossier.ini")
	if err := os.WriteFile(iniPath, []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	x := &xboardEngine{p: startProc(t, label, dir, polyglot, iniPath), logPath: logPath, opponent: opponent,
		clockCS: polyglotClockCS}
	x.p.send("xboard", "protover 2")
	x.p.expect(promptTimeout, "feature done=1", func(l string) bool {
		return strings.HasPrefix(l, "feature") && strings.Contains(l, "done=1")
	})
	// easy: no pondering; nopost: no thinking output between the moves.
	x.p.send("new", "easy", "nopost", "computer", "name "+opponent,
		fmt.Sprintf("level 0 0:%02d 0", polyglotClockCS/100))
	x.p.send("ping 1")
	x.p.expectLine(promptTimeout, "pong 1")
	return x
}

// move tells the engine the opponent's move (none when the engine opens the game) and returns its reply.
func (x *xboardEngine) move(opponentMove string) string {
	x.p.t.Helper()
	x.p.send(fmt.Sprintf("time %d", x.clockCS), fmt.Sprintf("otim %d", polyglotClockCS))
	var sent time.Time
	switch {
	case opponentMove != "":
		sent = x.p.send("usermove " + opponentMove)
	case !x.started:
		sent = x.p.send("go")
	default:
		x.p.fatalf("the engine is to move but no opponent move was given")
	}
	x.started = true
	line, _ := x.p.expect(searchTimeout, "a move", func(l string) bool {
		if strings.HasPrefix(l, "Illegal move") || strings.HasPrefix(l, "Error") {
			x.p.fatalf("polyglot reports %q", l)
		}
		return strings.HasPrefix(l, "move ")
	})
	// The clock is only for the engine's time management; it never runs below a tenth of a second here.
	x.clockCS = max(x.clockCS-int(line.at.Sub(sent).Milliseconds()/10), 10)
	return strings.TrimPrefix(line.text, "move ")
}

// finish quits polyglot and checks that it passed the opponent's name to dossier as UCI_Opponent.
func (x *xboardEngine) finish(t *testing.T) {
	t.Helper()
	x.p.send("quit")
	if code := x.p.wait(promptTimeout); code != 0 {
		x.p.fatalf("polyglot exit code %d", code)
	}
	log, err := os.ReadFile(x.logPath)
	if err != nil {
		t.Fatalf("polyglot log: %v", err)
	}
	const sent = "Adapter->Engine: setoption name UCI_Opponent value "
	var values []string
	for _, l := range strings.Split(string(log), "\n") {
		if _, value, ok := strings.Cut(l, sent); ok {
			values = append(values, value)
		}
	}
	if len(values) == 0 {
		t.Fatalf("polyglot never set UCI_Opponent; log:\n%s", tail(string(log), 40))
	}
	for _, v := range values {
		o := play.ParseUCIOpponent(v)
		if o.Name != x.opponent || o.Kind != play.Computer {
			t.Errorf("UCI_Opponent %q reads as %+v, want the computer %q", v, o, x.opponent)
		}
	}
	t.Logf("polyglot set UCI_Opponent %d times, to %q", len(values), values[0])
}

// tail returns the last n lines of text.
func tail(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// TestPolyglotAgainstRandom plays dossier through polyglot against a random mover (seeded, so a failure
// replays), with dossier as White and as Black, until the game ends or a move limit; notnil checks every
// move, and polyglot must have told dossier its opponent's name.
func TestPolyglotAgainstRandom(t *testing.T) {
	polyglot := polyglotPath(t)
	const maxPlies = 200
	cases := []struct {
		name         string
		dossierWhite bool
		seed         uint64
	}{
		{"dossier white", true, 1},
		{"dossier black", false, 2},
	}
	for _, c := range cases {
		dossierWhite := c.dossierWhite
		t.Run(c.name, func(t *testing.T) {
			const opponent = "RandomMover"
			x := startXboardEngine(t, polyglot, "polyglot", opponent)
			ref := newReferee()
			rng := rand.New(rand.NewPCG(20240601, c.seed))
			last := ""
			for len(ref.moves()) < maxPlies {
				if ended, _ := ref.over(); ended {
					break
				}
				dossierToMove := (len(ref.moves())%2 == 0) == dossierWhite
				if !dossierToMove {
					last = ref.randomMove(rng)
					if err := ref.play(last); err != nil {
						t.Fatalf("the random mover's %s: %v", last, err)
					}
					continue
				}
				move := x.move(last)
				if err := ref.play(move); err != nil {
					x.p.fatalf("dossier's move %d %q through polyglot: %v; game %v", len(ref.moves())+1, move, err, ref.moves())
				}
			}
			checkPlayedOut(t, ref, maxPlies)
			x.finish(t)
		})
	}
}

// TestPolyglotSelfPlay plays dossier against itself through two polyglots, each told the other's name, as two
// xboard engines under one referee would.
func TestPolyglotSelfPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game through two polyglots")
	}
	// TestPolyglotAgainstRandom plays through polyglot in every run.
	testdeep.Skip(t)
	polyglot := polyglotPath(t)
	const maxPlies = 120
	white := startXboardEngine(t, polyglot, "polyglot white", "dossier Black")
	black := startXboardEngine(t, polyglot, "polyglot black", "dossier White")
	ref := newReferee()
	last := ""
	for len(ref.moves()) < maxPlies {
		if ended, _ := ref.over(); ended {
			break
		}
		side := white
		if len(ref.moves())%2 == 1 {
			side = black
		}
		last = side.move(last)
		if err := ref.play(last); err != nil {
			side.p.fatalf("move %d %q: %v; game %v", len(ref.moves())+1, last, err, ref.moves())
		}
	}
	checkPlayedOut(t, ref, maxPlies)
	white.finish(t)
	black.finish(t)
}

// checkPlayedOut logs how a game ended and fails when it stopped at a move limit under 40 plies.
func checkPlayedOut(t *testing.T, ref *referee, maxPlies int) {
	t.Helper()
	plies := len(ref.moves())
	ended, how := ref.over()
	if !ended {
		how = fmt.Sprintf("played out to the %d-ply limit", maxPlies)
		if plies < 40 {
			t.Fatalf("stopped after %d plies without a result", plies)
		}
	}
	t.Logf("%d plies, %s: %s", plies, how, strings.Join(ref.moves(), " "))
}
