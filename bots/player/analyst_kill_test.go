// kill -9 during the analysis of a lost game: the test binary re-executed as a Player that loses a game and
// analyses it, killed at moments spread over the analysis; what was acknowledged (the game, its moves and end)
// is always there after, and the analysis is there whole or not at all.

package player

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/chess"
	"dossier/internal/testdeep"
	"dossier/memory"
	"dossier/play"
)

// envAnalysisWorker names the memory directory of the helper process; set only in it.
const envAnalysisWorker = "DOSSIER_ANALYSIS_WORKER_DIR"

// killedGame is the lost game the helper plays: 3.Qxf7+?? gives the queen away, and seven moves follow.
var killedGame = []string{"e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "g1f3", "d7d6", "f1c4", "c8e6",
	"c4e6", "f7e6", "b1c3", "g8f6"}

// TestAnalysisWorker is not a test: re-executed with envAnalysisWorker set, it is a Player that loses
// killedGame, prints "acked" once the memory acknowledged the game, "analysed" once the analysis is filed, and
// then waits to be killed.
func TestAnalysisWorker(t *testing.T) {
	dir, g, p := workerPlayer(t, envAnalysisWorker, "TestKillNineDuringTheAnalysis")
	p.analysisDepth = 7
	workAndWait(p, dir, "analysed", func() { playedGame(t, p, g, games.SecondWins, killedGame...) })
}

// workerPlayer is the start of a helper: the memory directory from the environment variable env (the test is
// skipped outside a helper of the parent test) and a chess Player with the materialist preset.
func workerPlayer(t *testing.T, env, parent string) (string, games.Game, *Engine) {
	dir := os.Getenv(env)
	if dir == "" {
		t.Skip("a helper process for " + parent)
	}
	g := chess.Game{}
	return dir, g, New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
}

// workAndWait runs a helper: p on the memory in dir against "rival" plays its games, prints "acked" once the
// memory acknowledged them, done once the analysis (and any preparation) after them is filed, and then waits
// to be killed. A line "error ..." ends the helper instead.
func workAndWait(p *Engine, dir, done string, playGames func()) {
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	p.SetOpponent(play.Opponent{Name: "rival", Source: "match"})
	p.WaitPrepared()
	playGames()
	if err := p.Memory().Flush(context.Background()); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("acked")
	p.analyst.wait()
	if err := p.Memory().Flush(context.Background()); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println(done)
	time.Sleep(time.Hour)
}

// startWorker re-executes the test binary as the helper that the run pattern names, with env added to its
// environment, and returns it with the lines it prints.
func startWorker(t *testing.T, run, env string) (*exec.Cmd, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", run)
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- strings.TrimSpace(sc.Text())
		}
	}()
	return cmd, lines
}

// await waits for the helper to print want, failing on an error line or after a minute.
func await(t *testing.T, lines <-chan string, want string) {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the helper ended before %q", want)
			}
			if strings.HasPrefix(l, "error") {
				t.Fatalf("the helper: %s", l)
			}
			if l == want {
				return
			}
		case <-timeout:
			t.Fatalf("no %q from the helper within a minute", want)
		}
	}
}

// storedRival opens the helper's memory in dir, closed when the test ends, and reads the games against "rival".
func storedRival(t *testing.T, dir string) (*memory.Memory, []memory.Game, error) {
	t.Helper()
	m, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	stored, err := m.Games("rival")
	return m, stored, err
}

// storedAnalysis reads the lost game and what its analysis filed from the memory dir.
func storedAnalysis(t *testing.T, dir string) (memory.Game, []memory.Mistake, int) {
	t.Helper()
	m, stored, err := storedRival(t, dir)
	if err != nil || len(stored) != 1 {
		t.Fatalf("games %+v, %v; want the lost game", stored, err)
	}
	prof, err := m.Profile("rival")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := m.Experience("rival", "chess")
	if err != nil {
		t.Fatal(err)
	}
	return stored[0], prof.Mistakes, len(entries)
}

func TestKillNineDuringTheAnalysis(t *testing.T) {
	if testing.Short() {
		t.Skip("runs helper processes")
	}
	var refMistakes []memory.Mistake
	var refEntries, filed int
	killAtMoments(t, "^TestAnalysisWorker$", envAnalysisWorker, "analysed", func(refDir string) {
		_, refMistakes, refEntries = storedAnalysis(t, refDir)
		if len(refMistakes) != 1 || refEntries == 0 {
			t.Fatalf("the finished analysis filed %d mistakes and %d entries", len(refMistakes), refEntries)
		}
	}, func(t *testing.T, dir string) {
		game, mistakes, entries := storedAnalysis(t, dir)
		if game.Result != "0-1" || len(game.Moves) != len(killedGame) {
			t.Errorf("the acknowledged game: %s after %d moves, want 0-1 after %d", game.Result, len(game.Moves),
				len(killedGame))
		}
		switch {
		case len(mistakes) == 0 && entries == 0:
			// Not analysed: the analysis, acknowledged as a job with the game, waits for the next process.
			if !queuedAnalysis(t, dir, game.ID) {
				t.Errorf("the analysis of the killed helper's game is neither filed nor queued")
			}
		case len(mistakes) == 1 && entries == refEntries && mistakes[0].Move == refMistakes[0].Move:
			filed++
		default:
			t.Errorf("a part of the analysis: %d mistakes, %d entries of %d", len(mistakes), entries, refEntries)
		}
	})
	t.Logf("%d killed helpers had filed the analysis", filed)
}

// killAtMoments runs the helper that the run pattern names (its memory directory in the environment variable
// env) to its line done and kills it (SIGKILL), hands that memory to checkReference, then starts it again
// three times (six in the deep run, DOSSIER_DEEP_TESTS=1) and kills it at moments spread from its "acked"
// line to a quarter past the time the first took from there to done, handing each memory to checkKilled in a
// subtest.
func killAtMoments(t *testing.T, run, env, done string, checkReference func(dir string),
	checkKilled func(t *testing.T, dir string)) {
	t.Helper()
	start := func(t *testing.T, dir string) (*exec.Cmd, <-chan string) {
		t.Helper()
		return startWorker(t, run, env+"="+dir)
	}
	refDir := filepath.Join(t.TempDir(), "memory")
	cmd, lines := start(t, refDir)
	begun := time.Now()
	await(t, lines, "acked")
	acked := time.Now()
	await(t, lines, done)
	working := time.Since(acked)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	t.Logf("the helper took %v to the acknowledgement, %v from there to %q",
		acked.Sub(begun).Round(time.Millisecond), working.Round(time.Millisecond), done)
	checkReference(refDir)
	kills := 6
	if testdeep.Quick() {
		kills = 3
	}
	for i := range kills {
		delay := time.Duration(i) * working * 5 / 4 / time.Duration(kills-1)
		t.Run(fmt.Sprintf("killed %v after the acknowledgement", delay.Round(time.Millisecond)), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory")
			cmd, lines := start(t, dir)
			await(t, lines, "acked")
			time.Sleep(delay)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			checkKilled(t, dir)
		})
	}
}

// queuedAnalysis reports whether the memory in dir holds an analysis job of the game gameID.
func queuedAnalysis(t *testing.T, dir, gameID string) bool {
	t.Helper()
	m, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	jobs, err := m.Jobs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.GameID == gameID && (j.Kind == jobAnalysis || j.Kind == jobAnalysisDeep) {
			return true
		}
	}
	return false
}
