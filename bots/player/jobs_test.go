// The analyses as jobs of the memory: done once whichever process takes them, in the idle time of a later game
// under one process per game, by a study, and never by two studies at once.

package player

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"dossier/bots/analysis"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
	"dossier/play"

	"go.uber.org/zap"
)

// countJobsDone counts, by game, the analysis jobs this process marks done until the test ends.
func countJobsDone(t *testing.T) func() map[string]int {
	t.Helper()
	var mu sync.Mutex
	done := map[string]int{}
	jobDone = func(job *memory.Job) {
		mu.Lock()
		defer mu.Unlock()
		done[job.GameID+" "+job.Kind]++
	}
	t.Cleanup(func() { jobDone = nil })
	return func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range done {
			out[k] = v
		}
		return out
	}
}

// foolsMate is a game White loses in four plies: dossier plays White.
var foolsMate = []string{"f2f3", "e7e5", "g2g4", "d8h4"}

// TestOneProcessPerGameAnalysesEveryGameOnce plays a series of lost games as lichess-bot does, one Player (an
// engine process) per game that quits as soon as its game ends: no Player has time for its own game's analysis,
// each does the one the previous left, between its searches, and a study does the last.
func TestOneProcessPerGameAnalysesEveryGameOnce(t *testing.T) {
	g := chess.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	count := countJobsDone(t)
	rival := play.Opponent{Name: "rival", Source: "match"}
	var ids []string
	for i := range 3 {
		p := New(g, searchers.Config{HashMB: 1})
		p.analysisDepth = analysisDepth // no deep pass: one job a game
		if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
			t.Fatal(err)
		}
		p.SetOpponent(rival)
		p.NewGame(g)
		p.WaitPrepared()
		p.analyst.wait() // the idle time before the game's first move
		if i > 0 {
			if n := count()[ids[i-1]+" "+jobAnalysis]; n != 1 {
				t.Fatalf("process %d: the previous game's analysis done %d times before its first move, want once", i+1, n)
			}
		}
		playedGame(t, p, g, games.SecondWins, foolsMate...)
		ids = append(ids, p.Current().ID)
		if err := p.Close(); err != nil { // quit at once: the analysis is given back to the queue
			t.Fatal(err)
		}
	}
	mem, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	var progress bytes.Buffer
	rep, err := Study(context.Background(), mem, StudyOptions{Nice: 19, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Done != 1 || rep.GivenBack != 0 || rep.Failed != 0 {
		t.Errorf("the study: %+v, want the last game's job alone done\n%s", rep, progress.String())
	}
	if !strings.Contains(progress.String(), "analysis of game "+ids[2]+" against rival") {
		t.Errorf("the study's progress does not name the last game:\n%s", progress.String())
	}
	done := count()
	for _, id := range ids {
		if done[id+" "+jobAnalysis] != 1 {
			t.Errorf("game %s analysed %d times, want once (%v)", id, done[id+" "+jobAnalysis], done)
		}
	}
	if left, err := mem.Jobs(context.Background()); err != nil || len(left) != 0 {
		t.Errorf("jobs left: %v (%v)", left, err)
	}
	prof, err := mem.Profile(rival.Key())
	if err != nil {
		t.Fatal(err)
	}
	if len(prof.Mistakes) != 3 {
		t.Errorf("%d mistakes filed for the 3 lost games, want 3", len(prof.Mistakes))
	}
}

// TestTwoStudiesNeverDoTheSameJob runs two studies on one memory directory at once (the store's owner and a
// client of it, as two processes are): every job is done by one of them, once.
func TestTwoStudiesNeverDoTheSameJob(t *testing.T) {
	g := chess.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	count := countJobsDone(t)
	// Six lost games' analyses, filed as a Player files them at a game's end.
	first, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 6 {
		lg := lostGame{game: g, preset: "strongest", start: g.Start(), ourSide: games.First, key: "rival",
			gameID: memory.NewGameID(), depth: analysisDepth, nice: 19}
		pos := g.Start()
		for _, text := range foolsMate {
			m, err := pos.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			lg.moves = append(lg.moves, m)
			pos.Play(m)
		}
		if err := first.Record(memory.Event{Job: analysisJobOf(lg, analysisBudget, time.Now())}).Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, lg.gameID)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	reports := make([]StudyReport, 2)
	for i := range 2 {
		mem, err := memory.Open(memory.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer mem.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep, err := Study(context.Background(), mem, StudyOptions{Nice: 19})
			if err != nil {
				t.Error(err)
			}
			reports[i] = rep
		}()
	}
	wg.Wait()
	done := count()
	for _, id := range ids {
		if done[id+" "+jobAnalysis] != 1 {
			t.Errorf("game %s analysed %d times, want once", id, done[id+" "+jobAnalysis])
		}
	}
	if total := reports[0].Done + reports[1].Done; total != len(ids) {
		t.Errorf("the studies did %d and %d jobs, want %d in all", reports[0].Done, reports[1].Done, len(ids))
	}
}

// envStudyWorker names the memory directory of the study helper process; set only in it.
const envStudyWorker = "DOSSIER_STUDY_WORKER_DIR"

// TestStudyWorker is not a test: re-executed with envStudyWorker set, it plays killedGame without analysing it,
// files its analysis as a job, prints "acked" once the memory acknowledged both, runs a study, prints "studied"
// and waits to be killed.
func TestStudyWorker(t *testing.T) {
	dir, g, p := workerPlayer(t, envStudyWorker, "TestKillNineDuringTheStudy")
	p.analysisOff = true
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	p.SetOpponent(play.Opponent{Name: "rival", Source: "match"})
	p.WaitPrepared()
	playedGame(t, p, g, games.SecondWins, killedGame...)
	lg := lostGame{game: g, preset: "materialist", start: g.Start(), ourSide: games.First, key: "rival",
		gameID: p.Current().ID, depth: 7, nice: 19}
	pos := g.Start()
	for _, text := range killedGame {
		m, _ := pos.ParseMove(text)
		lg.moves = append(lg.moves, m)
		pos.Play(m)
	}
	mem := p.Memory()
	if err := mem.Record(memory.Event{Job: analysisJobOf(lg, analysisBudget, time.Now())}).Wait(context.Background()); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	if err := mem.Flush(context.Background()); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("acked")
	if _, err := Study(context.Background(), mem, StudyOptions{Nice: 19}); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("studied")
	time.Sleep(time.Hour)
}

// TestKillNineDuringTheStudy kills a study (SIGKILL) at moments spread over its work: the game and its job, both
// acknowledged, are never lost; the analysis is there whole, its job gone, or its job still queued (taken by the
// killed study until its lease ends, then by the next) with the analysis not filed at all, or filed whole (the
// kill fell between the acknowledgement of the analysis and the job's end). Whatever the kill left, the next
// study ends with the finished study's analysis, filed once, and no job.
func TestKillNineDuringTheStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs helper processes")
	}
	var refMistakes []memory.Mistake
	var refEntries, done, queued, filedQueued int
	killAtMoments(t, "^TestStudyWorker$", envStudyWorker, "studied", func(refDir string) {
		_, refMistakes, refEntries = storedAnalysis(t, refDir)
		if len(refMistakes) != 1 || refEntries == 0 {
			t.Fatalf("the finished study filed %d mistakes and %d entries", len(refMistakes), refEntries)
		}
	}, func(t *testing.T, dir string) {
		game, mistakes, entries := storedAnalysis(t, dir)
		if game.Result != "0-1" || len(game.Moves) != len(killedGame) {
			t.Errorf("the acknowledged game: %s after %d moves, want 0-1 after %d", game.Result, len(game.Moves), len(killedGame))
		}
		m, err := memory.Open(memory.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		jobs, err := m.Jobs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		whole := len(mistakes) == 1 && entries == refEntries && mistakes[0].Move == refMistakes[0].Move
		switch {
		case len(mistakes) == 0 && entries == 0 && len(jobs) == 1 && jobs[0].GameID == game.ID:
			queued++
		case whole && len(jobs) == 1 && jobs[0].GameID == game.ID:
			filedQueued++
		case whole && len(jobs) == 0:
			done++
		default:
			t.Errorf("%d mistakes, %d entries of %d, jobs %+v", len(mistakes), entries, refEntries, jobs)
		}
		// The next study: the killed worker's lease is ended at once (it would run out within jobLease).
		for _, j := range jobs {
			if j.Worker == "" {
				continue // never claimed
			}
			if err := m.ReleaseJob(context.Background(), j.ID, j.Worker); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Study(context.Background(), m, StudyOptions{Nice: 19}); err != nil {
			t.Fatal(err)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		_, mistakes, entries = storedAnalysis(t, dir)
		if len(mistakes) != 1 || entries != refEntries || mistakes[0].Move != refMistakes[0].Move {
			t.Errorf("after the next study: %d mistakes, %d entries of %d", len(mistakes), entries, refEntries)
		}
		if queuedAnalysis(t, dir, game.ID) {
			t.Errorf("after the next study the analysis of %s is still queued", game.ID)
		}
	})
	t.Logf("killed studies: %d had done the job, %d left it queued, %d had filed the analysis but not ended the job",
		done, queued, filedQueued)
}

// TestAnalysisCutShortGoesOnWhereItStopped runs a game's analysis as a series of processes that each quit after
// two of our moves were analysed (one process per game, an analysis longer than a game's idle time): each goes on
// from the moves the ones before found, every move is analysed once in all, and the job ends. Before the
// progress was saved, each process began again at the first move and the job never ended.
func TestAnalysisCutShortGoesOnWhereItStopped(t *testing.T) {
	g := chess.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	count := countJobsDone(t)
	game := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "e1g1", "e8g8"}
	lg := lostGame{game: g, preset: "strongest", start: g.Start(), ourSide: games.First, key: "rival",
		gameID: memory.NewGameID(), won: true, depth: 4, nice: 19} // a won game: every move of ours is re-checked
	pos := g.Start()
	for _, text := range game {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		lg.moves = append(lg.moves, m)
		pos.Play(m)
	}
	ours := len(game) / 2
	analysed := map[int]int{}
	var cut context.CancelFunc
	var mu sync.Mutex
	moveAnalysed = func(_ *memory.Job, m analysis.Move) {
		mu.Lock()
		defer mu.Unlock()
		analysed[m.Ply]++
		if n := len(analysed); n%2 == 0 && n < ours {
			cut() // the process quits: its game ended
		}
	}
	t.Cleanup(func() { moveAnalysed = nil })
	first, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Record(memory.Event{Job: analysisJobOf(lg, analysisBudget, time.Now())}).Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	first.Close()
	runs := 0
	for ; runs < ours+2; runs++ {
		mem, err := memory.Open(memory.Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		f := openedFiler(mem, zap.NewNop())
		worker := workerName()
		job, err := mem.ClaimJob(context.Background(), worker, jobLease, analysisKinds...)
		if err != nil {
			t.Fatal(err)
		}
		if job == nil {
			mem.Close()
			break
		}
		ctx, cancel := context.WithCancel(context.Background())
		mu.Lock()
		cut = cancel
		mu.Unlock()
		if _, err := runAnalysisJob(ctx, f, newForeground(), job, worker, nil); err != nil {
			t.Errorf("run %d: %v", runs, err)
		}
		cancel()
		if err := mem.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if runs != ours/2 {
		t.Errorf("the analysis took %d processes, want %d (two moves each)", runs, ours/2)
	}
	if len(analysed) != ours {
		t.Errorf("%d of our %d moves analysed: %v", len(analysed), ours, analysed)
	}
	for ply, n := range analysed {
		if n != 1 {
			t.Errorf("ply %d analysed %d times, want once", ply, n)
		}
	}
	if done := count()[lg.gameID+" "+jobAnalysis]; done != 1 {
		t.Errorf("the job was marked done %d times, want once", done)
	}
}
