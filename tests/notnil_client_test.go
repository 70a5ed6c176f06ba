// Whole games driven by notnil/chess's UCI client: dossier against a random mover and against Stockfish, every move checked with notnil.

package tests

import (
	"bytes"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	notnil "github.com/notnil/chess"
	"github.com/notnil/chess/uci"
)

// uciClient is an engine driven by notnil's uci.Engine. That client reads without deadlines and does not
// expose the process, so the engine runs under a small shell wrapper that records its process id, every
// call runs under a timeout, and on a timeout or at the end of the test the process is killed by that id.
type uciClient struct {
	t       *testing.T
	name    string
	eng     *uci.Engine
	pidFile string
	mu      sync.Mutex
	log     bytes.Buffer // the client's transcript (its Debug log)
}

// startUCIClient starts the engine at path through notnil's client and runs the uci handshake.
func startUCIClient(t *testing.T, name, path string) *uciClient {
	t.Helper()
	dir := t.TempDir()
	c := &uciClient{t: t, name: name, pidFile: filepath.Join(dir, "pid")}
	wrapper := filepath.Join(dir, "engine.sh")
	script := fmt.Sprintf("#!/bin/sh\necho $$ > %s\nexec %s\n", strconv.Quote(c.pidFile), strconv.Quote(path))
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	logger := log.New(&lockedWriter{mu: &c.mu, buf: &c.log}, "", log.Lmicroseconds)
	eng, err := uci.New(wrapper, uci.Debug, uci.Logger(logger))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c.eng = eng
	t.Cleanup(c.close)
	c.run(promptTimeout, uci.CmdUCI, uci.CmdIsReady)
	return c
}

// run runs client commands, failing the test with the transcript (and killing the engine) when they do
// not finish within timeout.
func (c *uciClient) run(timeout time.Duration, cmds ...uci.Cmd) {
	c.t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.eng.Run(cmds...) }()
	select {
	case err := <-done:
		if err != nil {
			c.fatalf("%v: %v", cmds, err)
		}
	case <-time.After(timeout):
		c.kill()
		c.fatalf("%v did not finish within %v", cmds, timeout)
	}
}

// bestMove sends the game so far and a go, and returns the engine's move in UCI notation.
func (c *uciClient) bestMove(ref *referee, goCmd uci.CmdGo) string {
	c.t.Helper()
	c.run(searchTimeout, uci.CmdPosition{Position: notnil.StartingPosition(), Moves: ref.game.Moves()}, goCmd)
	best := c.eng.SearchResults().BestMove
	if best == nil {
		c.fatalf("no bestmove after %v", ref.moves())
	}
	return notnil.UCINotation{}.Encode(nil, best)
}

// fatalf fails the test with the end of the client's transcript.
func (c *uciClient) fatalf(format string, args ...any) {
	c.t.Helper()
	c.mu.Lock()
	transcript := tail(c.log.String(), transcriptKeep)
	c.mu.Unlock()
	c.t.Fatalf("%s: %s\ntranscript:\n%s", c.name, fmt.Sprintf(format, args...), transcript)
}

// kill ends the engine process by the id its wrapper recorded.
func (c *uciClient) kill() {
	text, err := os.ReadFile(c.pidFile)
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(text)))
	if err != nil || pid <= 0 {
		return
	}
	if proc, err := os.FindProcess(pid); err == nil {
		proc.Kill()
	}
}

// close quits the engine through the client (which kills it after quit) and, if that hangs, by its id.
func (c *uciClient) close() {
	done := make(chan struct{})
	go func() {
		c.eng.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	c.kill()
}

// checkDossierID checks what notnil's client read from dossier's uci reply: its name and the options a
// GUI needs.
func checkDossierID(c *uciClient) {
	c.t.Helper()
	if name := c.eng.ID()["name"]; name != "dossier" {
		c.fatalf("id name %q, want dossier", name)
	}
	for _, o := range []string{"UCI_Variant", "UCI_Opponent", "Hash", "Threads"} {
		if _, ok := c.eng.Options()[o]; !ok {
			c.fatalf("notnil's client read no option %s", o)
		}
	}
}

// TestNotnilClientAgainstRandom has notnil's UCI client drive dossier through whole games against a seeded
// random mover, with dossier as White and as Black: every dossier move must be legal for notnil, and the
// game must end (random play loses to any search) or reach the move limit.
func TestNotnilClientAgainstRandom(t *testing.T) {
	const maxPlies = 200
	cases := []struct {
		name         string
		dossierWhite bool
		seed         uint64
	}{
		{"dossier white", true, 1},
		{"dossier black", false, 2},
	}
	for _, tc := range cases {
		dossierWhite := tc.dossierWhite
		t.Run(tc.name, func(t *testing.T) {
			c := startUCIClient(t, "dossier", dossierBin)
			checkDossierID(c)
			c.run(promptTimeout, uci.CmdSetOption{Name: "UCI_Opponent", Value: "none none computer RandomMover"},
				uci.CmdUCINewGame, uci.CmdIsReady)
			ref := newReferee()
			rng := rand.New(rand.NewPCG(7, tc.seed))
			for len(ref.moves()) < maxPlies {
				if ended, _ := ref.over(); ended {
					break
				}
				if (len(ref.moves())%2 == 0) != dossierWhite {
					if err := ref.play(ref.randomMove(rng)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				move := c.bestMove(ref, uci.CmdGo{MoveTime: 30 * time.Millisecond})
				if err := ref.play(move); err != nil {
					c.fatalf("dossier's move %d %q: %v; game %v", len(ref.moves())+1, move, err, ref.moves())
				}
			}
			checkPlayedOut(t, ref, maxPlies)
		})
	}
}

// TestNotnilClientAgainstStockfish plays dossier (on a clock of 10 s + 0.1 s a move) against Stockfish held
// to 1350 Elo at 20 ms a move, both driven by notnil's client, until the game ends or a move limit.
func TestNotnilClientAgainstStockfish(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game against Stockfish")
	}
	stockfishPath := requirePeer(t, "/usr/games/stockfish")
	const (
		maxPlies = 300
		base     = 10 * time.Second
		inc      = 100 * time.Millisecond
	)
	dossier := startUCIClient(t, "dossier", dossierBin)
	checkDossierID(dossier)
	stockfish := startUCIClient(t, "stockfish", stockfishPath)
	stockfish.run(promptTimeout, uci.CmdSetOption{Name: "UCI_LimitStrength", Value: "true"},
		uci.CmdSetOption{Name: "UCI_Elo", Value: "1350"}, uci.CmdUCINewGame, uci.CmdIsReady)
	dossier.run(promptTimeout, uci.CmdSetOption{Name: "UCI_Opponent", Value: "none 1350 computer Stockfish"},
		uci.CmdUCINewGame, uci.CmdIsReady)
	ref := newReferee()
	clock := [2]time.Duration{base, base} // White's and Black's; only dossier's runs
	const dossierSide = 0                 // dossier plays White
	for len(ref.moves()) < maxPlies {
		if ended, _ := ref.over(); ended {
			break
		}
		side := len(ref.moves()) % 2
		var move string
		if side == dossierSide {
			start := time.Now()
			move = dossier.bestMove(ref, uci.CmdGo{WhiteTime: clock[0], BlackTime: clock[1],
				WhiteIncrement: inc, BlackIncrement: inc})
			left := clock[side] - time.Since(start)
			if left <= 0 {
				t.Errorf("dossier overstepped its clock at ply %d: %v left", len(ref.moves())+1, left)
			}
			clock[side] = max(left+inc, time.Millisecond)
		} else {
			move = stockfish.bestMove(ref, uci.CmdGo{MoveTime: 20 * time.Millisecond})
		}
		if err := ref.play(move); err != nil {
			player := stockfish
			if side == dossierSide {
				player = dossier
			}
			player.fatalf("move %d %q: %v; game %v", len(ref.moves())+1, move, err, ref.moves())
		}
	}
	checkPlayedOut(t, ref, maxPlies)
	t.Logf("dossier's clock at the end: %v of %v + %v a move", clock[dossierSide].Round(time.Millisecond), base, inc)
}
