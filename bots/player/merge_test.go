// Tests of learned state as a fold over the stored games: the fold equals one learner set replaying the games
// in sequence, resumes from stored marks, survives late games, stale and half-written marks and legacy
// snapshots, and the even-game ledger of two Players on one memory counts every game.

package player

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/connect4"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

// foldOpponent is the opponent of the fold tests.
var foldOpponent = play.Opponent{Name: "Fold Rival", Kind: play.Computer, Source: "match"}

// randomMoves plays a random game of g from its start for at most plies plies and returns its moves.
func randomMoves(g games.Game, rng *rand.Rand, plies int) []string {
	p := g.Start()
	var out []string
	var buf [games.MaxMoves]games.Move
	for len(out) < plies && !p.Status().Result.Over() {
		moves := p.AppendMoves(buf[:0])
		if len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		out = append(out, p.FormatMove(m))
		p.Play(m)
	}
	return out
}

// recordFinishedGame files a finished game of g against foldOpponent that ended at end, with its moves.
func recordFinishedGame(t *testing.T, mem *memory.Memory, g games.Game, id string, ours games.Side, moves []string, end time.Time) {
	t.Helper()
	recordGameAgainst(t, mem, foldOpponent, g, id, ours, moves, end)
}

// recordGameAgainst files a finished game of g against o that ended at end, with its moves.
func recordGameAgainst(t *testing.T, mem *memory.Memory, o play.Opponent, g games.Game, id string, ours games.Side, moves []string, end time.Time) {
	t.Helper()
	mem.Record(memory.Event{Start: &memory.GameStart{GameID: id, OpponentKey: o.Key(), Opponent: o,
		Game: g.Name(), OurSide: int(ours), StartFEN: g.Start().FEN(), At: end.Add(-time.Second)}})
	mem.Record(memory.Event{End: &memory.GameEnd{GameID: id, Result: "1/2-1/2", Reason: "test", OurScore: 0.5,
		Moves: moves, At: end}})
}

// sequentialLearners is one learner set of game g replaying the stored games of the opponent in the fold's
// order, as one process playing them in sequence learns (the reference of the fold).
func sequentialLearners(t *testing.T, mem *memory.Memory, key string, g games.Game, our presets.Preset) (map[string]json.RawMessage, int) {
	t.Helper()
	stored, err := mem.Games(key)
	if err != nil {
		t.Fatal(err)
	}
	items := make([]learn.FoldItem, 0, len(stored))
	byID := map[string]*memory.Game{}
	for i := range stored {
		if stored[i].Game == g.Name() && !stored[i].End.IsZero() {
			items = append(items, learn.FoldItem{ID: stored[i].ID, End: stored[i].End})
			byID[stored[i].ID] = &stored[i]
		}
	}
	learn.SortFold(items)
	l, err := newLearners(key, g, our, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		replayGame(l, g, byID[it.ID])
		l.disc.CountGame()
	}
	states, err := l.states()
	if err != nil {
		t.Fatal(err)
	}
	return states, len(items)
}

// sameState reports how two learners' states differ ("" when equal, numbers to a relative 1e-9: the order
// of floating-point sums), leaving the fold mark out.
func sameState(got, want json.RawMessage) string {
	var a, b map[string]any
	if err := json.Unmarshal(got, &a); err != nil {
		return err.Error()
	}
	if err := json.Unmarshal(want, &b); err != nil {
		return err.Error()
	}
	delete(a, "fold")
	delete(b, "fold")
	return diffJSON("", a, b)
}

// diffJSON returns the first difference between two decoded JSON values.
func diffJSON(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
		for k := range x {
			if d := diffJSON(path+"."+k, x[k], y[k]); d != "" {
				return d
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
		for i := range x {
			if d := diffJSON(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
	case float64:
		y, ok := b.(float64)
		if !ok || math.Abs(x-y) > 1e-9*max(1, math.Abs(x), math.Abs(y)) {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
	default:
		if a != b {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
	}
	return ""
}

// storedLatest returns the latest stored state of each folded model and its mark.
func storedLatest(t *testing.T, mem *memory.Memory, key string) (map[string]json.RawMessage, map[string]*learn.FoldMark) {
	t.Helper()
	prof, err := mem.Profile(key)
	if err != nil {
		t.Fatal(err)
	}
	states, marks := map[string]json.RawMessage{}, map[string]*learn.FoldMark{}
	for _, name := range foldedModels {
		points := prof.Models[name]
		if len(points) == 0 {
			t.Fatalf("no %s state stored", name)
		}
		states[name] = points[len(points)-1].State
		mark, err := learn.ReadFoldMark(states[name])
		if err != nil {
			t.Fatal(err)
		}
		marks[name] = mark
	}
	return states, marks
}

// checkStoredFold checks that the latest stored state of every folded model folded all n games and equals
// the sequential replay.
func checkStoredFold(t *testing.T, mem *memory.Memory, key string, g games.Game, our presets.Preset) int {
	t.Helper()
	want, n := sequentialLearners(t, mem, key, g, our)
	got, marks := storedLatest(t, mem, key)
	for _, name := range foldedModels {
		if marks[name] == nil || marks[name].Games != n {
			t.Errorf("%s: the stored state's mark %+v, want %d games", name, marks[name], n)
		}
		if d := sameState(got[name], want[name]); d != "" {
			t.Errorf("%s: the stored state differs from the sequential replay: %s", name, d)
		}
	}
	return n
}

// memoryWriter files folded states straight into a memory.
func memoryWriter(mem *memory.Memory, key string) modelWriter {
	return func(model string, state json.RawMessage, at time.Time, gameID string) {
		mem.Record(memory.Event{Model: &memory.ModelUpdate{OpponentKey: key, Model: model, State: state, GameID: gameID, At: at}})
	}
}

func TestFoldLearners(t *testing.T) {
	g := connect4.Game{}
	our := mustPreset(t, g, presets.Default)
	key := foldOpponent.Key()
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	rng := rand.New(rand.NewPCG(7, 8))
	mem := openMemory(t, t.TempDir())
	write := memoryWriter(mem, key)
	for i := range 4 {
		recordFinishedGame(t, mem, g, fmt.Sprintf("g%d", i), games.Side(i%2), randomMoves(g, rng, 16), t0.Add(time.Duration(i)*time.Minute))
	}
	t.Run("a fold equals the sequential replay", func(t *testing.T) {
		_, _, folded, _, err := foldLearnersOnce(mem, key, g, our, write, time.Time{})
		if err != nil || folded != 4 {
			t.Fatalf("folded %d games (%v), want 4", folded, err)
		}
		checkStoredFold(t, mem, key, g, our)
	})
	t.Run("folding again folds nothing", func(t *testing.T) {
		if _, _, folded, _, err := foldLearnersOnce(mem, key, g, our, write, time.Time{}); err != nil || folded != 0 {
			t.Errorf("folded %d games (%v), want none", folded, err)
		}
	})
	t.Run("a new game is folded alone", func(t *testing.T) {
		recordFinishedGame(t, mem, g, "g4", games.First, randomMoves(g, rng, 16), t0.Add(4*time.Minute))
		if _, _, folded, _, err := foldLearnersOnce(mem, key, g, our, write, time.Time{}); err != nil || folded != 1 {
			t.Errorf("folded %d games (%v), want 1", folded, err)
		}
		checkStoredFold(t, mem, key, g, our)
	})
	t.Run("a game filed late that ended before the last", func(t *testing.T) {
		recordFinishedGame(t, mem, g, "g-late", games.Second, randomMoves(g, rng, 16), t0.Add(150*time.Second))
		// The marks of g0..g2 still fit (the late game comes after them); g3 and g4 are folded again.
		if _, _, folded, _, err := foldLearnersOnce(mem, key, g, our, write, time.Time{}); err != nil || folded != 3 {
			t.Errorf("folded %d games (%v), want 3", folded, err)
		}
		checkStoredFold(t, mem, key, g, our)
	})
	t.Run("a stale state filed over the latest is folded again", func(t *testing.T) {
		prof, err := mem.Profile(key)
		if err != nil {
			t.Fatal(err)
		}
		// Another process's shorter fold lands under the last game's key after ours.
		points := prof.Models[learn.ModelTypeProbs]
		stale, last := points[len(points)-3], points[len(points)-1]
		write(learn.ModelTypeProbs, stale.State, last.At, last.GameID)
		if _, _, err := foldLearners(mem, key, g, our, write, 0); err != nil {
			t.Fatal(err)
		}
		checkStoredFold(t, mem, key, g, our)
	})
	t.Run("a fold killed halfway resumes from the last whole mark", func(t *testing.T) {
		recordFinishedGame(t, mem, g, "g5", games.Second, randomMoves(g, rng, 16), t0.Add(5*time.Minute))
		models, _, folded, _, err := foldLearnersOnce(mem, key, g, our, nil, time.Time{})
		if err != nil || folded != 1 {
			t.Fatalf("folded %d games (%v), want 1", folded, err)
		}
		// Only the first model's state was filed before the process died.
		pt := models[learn.ModelTypeProbs][0]
		write(learn.ModelTypeProbs, pt.State, pt.At, pt.GameID)
		if _, _, folded, _, err := foldLearnersOnce(mem, key, g, our, write, time.Time{}); err != nil || folded != 1 {
			t.Errorf("folded %d games (%v), want 1", folded, err)
		}
		checkStoredFold(t, mem, key, g, our)
	})
	t.Run("a backlog is folded a game per fold past its budget", func(t *testing.T) {
		for i := range 3 {
			recordFinishedGame(t, mem, g, fmt.Sprintf("backlog%d", i), games.First, randomMoves(g, rng, 16), t0.Add(time.Duration(6+i)*time.Minute))
		}
		past := time.Now().Add(-time.Second)
		for left := 2; left >= 0; left-- {
			_, _, folded, gotLeft, err := foldLearnersOnce(mem, key, g, our, write, past)
			if err != nil || folded != 1 || gotLeft != left {
				t.Fatalf("folded %d games, %d left (%v); want 1, %d left", folded, gotLeft, err, left)
			}
		}
		checkStoredFold(t, mem, key, g, our)
	})
	t.Run("an unknown opponent has new learners", func(t *testing.T) {
		models, prof, err := foldLearners(mem, "nobody", g, our, write, 0)
		if err != nil || models != nil || prof != nil {
			t.Errorf("models %v, profile %v, error %v", models, prof, err)
		}
	})
}

// TestFoldLearnersFromLegacySnapshots checks that the states an older dossier filed (without fold marks) are
// the base of the fold: the games that ended before them are in them, the later ones are folded on.
func TestFoldLearnersFromLegacySnapshots(t *testing.T) {
	g := connect4.Game{}
	our := mustPreset(t, g, presets.Default)
	key := foldOpponent.Key()
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	rng := rand.New(rand.NewPCG(9, 10))
	mem := openMemory(t, t.TempDir())
	write := memoryWriter(mem, key)
	old := randomMoves(g, rng, 16)
	recordFinishedGame(t, mem, g, "old", games.First, old, t0)
	// The legacy snapshots: the learners after the old game, filed after it as the old worker did.
	legacy, err := newLearners(key, g, our, nil)
	if err != nil {
		t.Fatal(err)
	}
	replayGame(legacy, g, &memory.Game{GameSummary: memory.GameSummary{OurSide: int(games.First)}, Moves: old})
	legacy.disc.CountGame()
	states, err := legacy.states()
	if err != nil {
		t.Fatal(err)
	}
	for name, st := range states {
		write(name, st, t0.Add(time.Second), "old")
	}
	for i := range 2 {
		recordFinishedGame(t, mem, g, fmt.Sprintf("new%d", i), games.Second, randomMoves(g, rng, 16), t0.Add(time.Duration(i+1)*time.Minute))
	}
	if _, _, folded, _, err := foldLearnersOnce(mem, key, g, our, write, time.Time{}); err != nil || folded != 2 {
		t.Fatalf("folded %d games (%v), want the 2 after the snapshots", folded, err)
	}
	// The reference: the legacy learners going on with the two new games.
	stored, err := mem.Games(key)
	if err != nil {
		t.Fatal(err)
	}
	for i := range stored {
		if stored[i].ID != "old" {
			replayGame(legacy, g, &stored[i])
			legacy.disc.CountGame()
		}
	}
	want, err := legacy.states()
	if err != nil {
		t.Fatal(err)
	}
	got, marks := storedLatest(t, mem, key)
	for _, name := range foldedModels {
		if marks[name] == nil || marks[name].Games != 2 {
			t.Errorf("%s: mark %+v, want 2 games after the legacy base", name, marks[name])
		}
		if d := sameState(got[name], want[name]); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

// TestFoldLearnersWithIdentifiedGames checks that a game filed under the unnamed opponent's key, whose
// learners learned for the stored opponent it was identified as, is folded into that opponent's learners in
// its place in the order, once.
func TestFoldLearnersWithIdentifiedGames(t *testing.T) {
	g := connect4.Game{}
	our := mustPreset(t, g, presets.Default)
	key := foldOpponent.Key()
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	rng := rand.New(rand.NewPCG(11, 12))
	mem := openMemory(t, t.TempDir())
	write := memoryWriter(mem, key)
	unnamed := play.Opponent{}
	recordFinishedGame(t, mem, g, "named0", games.First, randomMoves(g, rng, 16), t0)
	recordGameAgainst(t, mem, unnamed, g, "unnamed0", games.Second, randomMoves(g, rng, 16), t0.Add(time.Minute))
	recordGameAgainst(t, mem, unnamed, g, "unnamed-other", games.Second, randomMoves(g, rng, 16), t0.Add(90*time.Second))
	recordFinishedGame(t, mem, g, "named1", games.Second, randomMoves(g, rng, 16), t0.Add(2*time.Minute))
	f := newFiler(MemoryConfig{})
	f.mem = mem
	f.fileLearnedAs("unnamed0", unnamed.Key(), key)
	f.fileLearnedAs("named1", key, key) // the same key: nothing to file
	f.fileLearnedAs("unnamed0", unnamed.Key(), key)
	if _, _, folded, _, err := foldLearnersOnce(mem, key, g, our, write, time.Time{}); err != nil || folded != 3 {
		t.Fatalf("folded %d games (%v), want 3", folded, err)
	}
	ours, err := mem.Games(key)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := mem.Games(unnamed.Key())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*memory.Game{}
	for _, list := range [][]memory.Game{ours, theirs} {
		for i := range list {
			byID[list[i].ID] = &list[i]
		}
	}
	l, err := newLearners(key, g, our, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"named0", "unnamed0", "named1"} {
		replayGame(l, g, byID[id])
		l.disc.CountGame()
	}
	want, err := l.states()
	if err != nil {
		t.Fatal(err)
	}
	got, marks := storedLatest(t, mem, key)
	for _, name := range foldedModels {
		if marks[name] == nil || marks[name].Games != 3 {
			t.Errorf("%s: mark %+v, want 3 games", name, marks[name])
		}
		if d := sameState(got[name], want[name]); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

// TestEvenLedgerCountsEveryProcess is the symptom in miniature: a 24-game match against one opponent
// at concurrency 2 (two Players in even mode on one memory, 12 games each, at once). The stored ledger used
// to end at 12 games (each Player's own, the last writer winning); it must count 24 and equal one ledger
// playing the 24 results in the fold's order, and a new Player must read that.
func TestEvenLedgerCountsEveryProcess(t *testing.T) {
	dir := t.TempDir()
	g := connect4.Game{}
	const tc = "2+0.05"
	const perPlayer = 12
	players := make([]*Engine, 2)
	for i := range players {
		players[i] = New(g, searchers.Config{Mode: searchers.EvenMode, HashMB: 1})
		if err := players[i].UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
			t.Fatal(err)
		}
		if err := players[i].OpenMemory(); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.SetOpponent(foldOpponent)
			p.WaitPrepared()
			for n := range perPlayer {
				p.NewGame(g)
				p.WaitPrepared()
				p.StartGame(play.GameStart{Game: g, OurSide: games.Side(n % 2), Start: g.Start(), TimeControl: tc})
				result := []games.Result{games.FirstWins, games.SecondWins, games.Draw}[(n+i)%3]
				p.GameOver(play.GameEnd{Outcome: games.Outcome{Result: result}, Reason: "test"})
			}
		}()
	}
	wg.Wait()
	for _, p := range players {
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	mem := openMemory(t, dir)
	want := checkStoredEven(t, mem, foldOpponent.Key(), 2*perPlayer)
	next := New(g, searchers.Config{Mode: searchers.EvenMode, HashMB: 1})
	if err := next.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	if got := next.EvenRecord(foldOpponent, tc); got != *want.Record(tc) || got.Games != 2*perPlayer {
		t.Errorf("a new Player reads %+v, want %+v", got, *want.Record(tc))
	}
}

// checkStoredEven checks that the opponent's latest stored even-game state equals one ledger playing the n
// stored results (n < 0: however many are stored) in the fold's order, and returns that ledger.
func checkStoredEven(t *testing.T, mem *memory.Memory, key string, n int) *learn.EvenState {
	t.Helper()
	prof, err := mem.Profile(key)
	if err != nil {
		t.Fatal(err)
	}
	var items []learn.FoldItem
	byID := map[string]learn.EvenResult{}
	for _, pt := range prof.Models[learn.EvenResultModel] {
		r, err := learn.ParseEvenResult(pt.State)
		if err != nil {
			t.Fatal(err)
		}
		byID[pt.GameID] = r
		items = append(items, learn.FoldItem{ID: pt.GameID, End: pt.At})
	}
	if n < 0 {
		n = len(items)
	}
	if len(items) != n {
		t.Fatalf("%d results stored, want %d", len(items), n)
	}
	learn.SortFold(items)
	want := &learn.EvenState{Version: learn.EvenStateVersion, TimeControls: map[string]*learn.EvenRecord{}}
	for _, it := range items {
		want.Record(byID[it.ID].TimeControl).Update(byID[it.ID].Score)
	}
	points := prof.Models[learn.EvenModel]
	if len(points) == 0 {
		t.Fatal("no even-game state stored")
	}
	stored, err := learn.ParseEvenState(points[len(points)-1].State)
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, r := range stored.TimeControls {
		games += r.Games
	}
	if games != n {
		t.Errorf("the stored ledger counts %d games, want %d", games, n)
	}
	if len(stored.TimeControls) != len(want.TimeControls) {
		t.Errorf("the stored ledger has %d time controls, the sequential one %d", len(stored.TimeControls), len(want.TimeControls))
	}
	for tc, w := range want.TimeControls {
		if got := stored.TimeControls[tc]; got == nil || *got != *w {
			t.Errorf("time control %q: the stored ledger %+v, the sequential one %+v", tc, got, *w)
		}
	}
	return want
}

// TestEvenLedgerFromALegacySnapshot checks that an "even" state an older dossier filed (no fold mark) is the
// base the results filed after it are folded on, and that a result that does not read is left out.
func TestEvenLedgerFromALegacySnapshot(t *testing.T) {
	dir := t.TempDir()
	mem := openMemory(t, dir)
	key := foldOpponent.Key()
	write := memoryWriter(mem, key)
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	legacy := &learn.EvenState{Version: learn.EvenStateVersion}
	for range 5 {
		legacy.Record("").Update(1)
	}
	raw, err := json.Marshal(legacy)
	if err != nil {
		t.Fatal(err)
	}
	mem.Record(memory.Event{Sighting: &memory.Sighting{Opponent: foldOpponent, At: t0}})
	write(learn.EvenModel, raw, t0, "old")
	// A result filed before the snapshot is in it already; two after it count, one twice; one is unreadable.
	res := func(score float64) json.RawMessage {
		data, _ := json.Marshal(learn.EvenResult{Version: learn.EvenResultVersion, Score: score})
		return data
	}
	write(learn.EvenResultModel, res(1), t0.Add(-time.Minute), "before")
	write(learn.EvenResultModel, res(0), t0.Add(time.Minute), "a")
	write(learn.EvenResultModel, res(0), t0.Add(3*time.Minute), "a")
	write(learn.EvenResultModel, res(0.5), t0.Add(2*time.Minute), "b")
	write(learn.EvenResultModel, json.RawMessage(`{"version":1,"score":7}`), t0.Add(4*time.Minute), "bad")
	got, err := foldEven(mem, key, write)
	if err != nil {
		t.Fatal(err)
	}
	want := learn.FoldEven(legacy, []learn.EvenResult{{Score: 0}, {Score: 0.5}})
	if *got.Record("") != *want.Record("") || got.Record("").Games != 7 {
		t.Errorf("folded %+v, want %+v (7 games)", *got.Record(""), *want.Record(""))
	}
	// The folded state is filed, marked, under the last result's key; a second fold finds it there.
	prof, err := mem.Profile(key)
	if err != nil {
		t.Fatal(err)
	}
	f := foldEvenProfile(prof)
	if !f.stored || f.mark.Games != 2 || f.lastID != "b" {
		t.Errorf("after the fold: stored %v, mark %+v, last %q", f.stored, f.mark, f.lastID)
	}
}
