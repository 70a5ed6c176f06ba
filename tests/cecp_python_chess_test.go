// CECP through the binary as python-chess (and lichess-bot's xboard mode) drives it.
package tests

import (
	"path/filepath"
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
