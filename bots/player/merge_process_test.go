// The test of learned state with real processes: the test binary re-executed as four dossier
// Players that play a match against one opponent at once on one memory (a badger directory shared through
// its owner, and a PostgreSQL schema where a server can be had); afterwards every learner's stored state
// must equal one process replaying the same games in sequence.

package player

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/connect4"
	"dossier/internal/pgtest"
	"dossier/memory"
)

// The fold worker's settings, passed in its environment.
const (
	envFoldWorker = "DOSSIER_FOLD_WORKER" // the worker's number; set only in workers
	envFoldDir    = "DOSSIER_FOLD_DIR"    // the memory: a directory or a postgres:// URL
	envFoldGames  = "DOSSIER_FOLD_GAMES"  // how many games it plays
)

// foldRivalName is the one opponent every fold worker plays.
const foldRivalName = "fold rival"

// foldWorkerConfig is the fold worker's configuration: even mode (the ledger learns), at a fixed depth.
func foldWorkerConfig() searchers.Config {
	return searchers.Config{Mode: searchers.EvenMode, Depth: 2, HashMB: 1}
}

// TestFoldWorker is not a test: re-executed with DOSSIER_FOLD_WORKER set, it is one dossier process playing
// a short Connect-Four match against the fold rival with the memory of DOSSIER_FOLD_DIR.
func TestFoldWorker(t *testing.T) {
	worker := os.Getenv(envFoldWorker)
	if worker == "" {
		t.Skip("a helper process for TestLearnedStateOfFourProcesses")
	}
	n, _ := strconv.Atoi(worker)
	count, _ := strconv.Atoi(os.Getenv(envFoldGames))
	dir := os.Getenv(envFoldDir)
	g := connect4.Game{}
	cfg := match.Config{Game: g, Games: count, MaxMoves: 40, MoveTimeout: time.Minute, RandomPlies: 4, Seed: uint64(n + 1),
		Players: [2]match.PlayerSpec{{Name: "dossier", Depth: 2}, {Name: foldRivalName, Preset: presets.Default, Depth: 1}},
		NewSearcher: func(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
			if spec.Name != "dossier" {
				s, err := searchers.New(g, searchers.Config{Preset: spec.Preset, Depth: spec.Depth, HashMB: 1})
				return match.InProcess{Engine: match.SearcherEngine(s), Name: spec.Name, Depth: spec.Depth}, err
			}
			p := New(g, foldWorkerConfig())
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
				return match.InProcess{}, err
			}
			if err := p.OpenMemory(); err != nil {
				return match.InProcess{}, err
			}
			return match.InProcess{Engine: p, Name: spec.Name, Depth: spec.Depth}, nil
		},
	}
	if _, err := match.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
}

// TestLearnedStateOfFourProcesses runs four fold workers at once on one memory, then checks the stored
// states of the learners (type probabilities, depth, discrepancy counts) and of the even-game ledger: each
// folded every game of the match and equals a sequential replay of the same games in the fold's order.
func TestLearnedStateOfFourProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("four processes playing a match (-short)")
	}
	const workers, perWorker = 4, 3
	backends := []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"badger", func(t *testing.T) string { return t.TempDir() }},
		{"postgres", func(t *testing.T) string {
			srv := pgtest.Start(t)
			t.Cleanup(pgtest.Stop)
			sep := "?"
			if strings.Contains(srv.URL, "?") {
				sep = "&"
			}
			return srv.URL + sep + "schema=" + pgtest.Schema()
		}},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			dir := b.dir(t)
			state := t.TempDir() // a PostgreSQL memory's spool
			procs := make([]*exec.Cmd, workers)
			outs := make([]*os.File, workers)
			for i := range procs {
				procs[i], outs[i] = startFoldWorker(t, dir, state, i, perWorker)
			}
			for i, cmd := range procs {
				waitFoldWorker(t, cmd, outs[i], i)
			}
			mem, err := memory.Open(memory.Options{Dir: dir, SpoolDir: state})
			if err != nil {
				t.Fatal(err)
			}
			defer mem.Close()
			opps, err := mem.Opponents()
			if err != nil {
				t.Fatal(err)
			}
			if len(opps) != 1 {
				t.Fatalf("%d opponents stored, want the fold rival alone: %+v", len(opps), opps)
			}
			key := opps[0].Key
			g := connect4.Game{}
			our, err := learnedPreset(g, foldWorkerConfig())
			if err != nil {
				t.Fatal(err)
			}
			if n := checkStoredFold(t, mem, key, g, our); n != workers*perWorker {
				t.Errorf("%d games folded, want %d", n, workers*perWorker)
			}
			checkStoredEven(t, mem, key, workers*perWorker)
		})
	}
}

// startFoldWorker starts fold worker number n playing games games on the memory dir (spool: state), its
// output to a log file.
func startFoldWorker(t *testing.T, dir, state string, n, games int) (*exec.Cmd, *os.File) {
	t.Helper()
	out, err := os.Create(filepath.Join(t.TempDir(), "worker.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFoldWorker$", "-test.count=1")
	cmd.Env = append(os.Environ(), envFoldWorker+"="+strconv.Itoa(n), envFoldDir+"="+dir,
		envFoldGames+"="+strconv.Itoa(games), "XDG_STATE_HOME="+state)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// waitFoldWorker waits for a fold worker and fails the test, with its log, when it failed.
func waitFoldWorker(t *testing.T, cmd *exec.Cmd, out *os.File, n int) {
	t.Helper()
	err := cmd.Wait()
	out.Close()
	if err != nil {
		log, _ := os.ReadFile(out.Name())
		t.Fatalf("worker %d: %v\n%s", n, err, log)
	}
}

// TestLearnedStateAfterAKill kills (SIGKILL) a fold worker in the middle of its match, most likely in a game
// or a fold, then has another play two games: the stored states must still equal a sequential replay of
// every finished game (a game without an end is not folded) and the ledger count every stored result.
func TestLearnedStateAfterAKill(t *testing.T) {
	if testing.Short() {
		t.Skip("processes playing a match (-short)")
	}
	dir, state := t.TempDir(), t.TempDir()
	cmd, out := startFoldWorker(t, dir, state, 0, 100)
	time.Sleep(6 * time.Second)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	out.Close()
	next, nextOut := startFoldWorker(t, dir, state, 1, 2)
	waitFoldWorker(t, next, nextOut, 1)
	mem, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	opps, err := mem.Opponents()
	if err != nil || len(opps) != 1 {
		t.Fatalf("opponents %+v (%v), want the fold rival alone", opps, err)
	}
	g := connect4.Game{}
	our, err := learnedPreset(g, foldWorkerConfig())
	if err != nil {
		t.Fatal(err)
	}
	n := checkStoredFold(t, mem, opps[0].Key, g, our)
	t.Logf("%d finished games folded", n)
	if n < 2 {
		t.Errorf("%d finished games, want at least the second worker's 2", n)
	}
	checkStoredEven(t, mem, opps[0].Key, -1)
}
