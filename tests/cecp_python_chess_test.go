// CECP through the binary as python-chess (and lichess-bot's xboard mode) drives it.

package tests

import (
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCECPSigtermEndsTheSessionCleanly: dossier no longer announces sigterm=0, which python-chess rejects
// at every start; xboard then sends SIGTERM shortly after quit (or to end an engine), and the signal must
// end the session as the end of its input does: the game filed, the memory closed, exit code 0.
func TestCECPSigtermEndsTheSessionCleanly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	p := startDossier(t, "--memory", dir)
	features := strings.Join(cecpHandshake(p), "\n")
	if strings.Contains(features, "sigterm=0") {
		t.Errorf("features announce sigterm=0, which python-chess rejects: %s", features)
	}
	p.send("new", "level 0 1 0", "name Terminator", "time 6000", "otim 6000", "usermove e2e4")
	r := newReplay(t, "chess")
	r.play(p, "e2e4")
	engineMove(p, r)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(30 * time.Second); code != 0 {
		t.Fatalf("dossier exited %d at SIGTERM", code)
	}
	games := showMemory(t, dir, "Terminator").Profile.Games
	if len(games) != 1 || games[0].Result != "*" || games[0].Plies != 2 {
		t.Errorf("games stored %+v, want the unfinished game of 2 plies", games)
	}
}

// TestCECPAnalyseWithDepthAfterAProvenMate: python-chess's analyse(board, Limit(depth=5)) in xboard mode on
// a mate in one never returned (issue #34): the engine posted "1 100001 0 26 d1d8" and stopped deepening,
// while the client waits for a line of depth 5. After it, python-chess sends ".", "exit" and a ping, and
// takes anything but thinking lines and the pong for unexpected output (a stat01 line was).
func TestCECPAnalyseWithDepthAfterAProvenMate(t *testing.T) {
	p := startDossier(t, "--no-memory")
	cecpHandshake(p)
	p.send("new", "force", "setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "post", "analyze")
	p.expect(searchTimeout, "a thinking line of depth 5 or more", func(line string) bool {
		fields := strings.Fields(line)
		if len(fields) < 4 {
			return false
		}
		depth, err := strconv.Atoi(fields[0])
		return err == nil && depth >= 5
	})
	p.send(".", "exit", "ping 7")
	_, before := p.expectPrefix(promptTimeout, "pong 7")
	for _, line := range before {
		if fields := strings.Fields(line); len(fields) < 4 || !isWholeNumber(fields[0]) {
			t.Errorf("unexpected output after the analysis: %q", line)
		}
	}
	p.send("quit")
	p.wait(10 * time.Second)
}

// isWholeNumber reports whether s is a whole number without sign.
func isWholeNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}
