// Learned states as a function of the whole memory: the learners' states and the even-game ledger are folded
// over every stored game in one order (by the game's end, then its ID), from the last stored state whose fold
// mark fits that order, and the folded states are filed back as marks for the next process to go on from. N
// processes on one memory thus learn exactly what one process playing the same games in sequence would.

package player

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/memory"
	"dossier/memory/learn"
)

// foldedModels are the learners whose states are folds over the stored games (in the order states files them).
var foldedModels = []string{learn.ModelTypeProbs, learn.ModelDepth, searchers.DiscrepancyModelName}

// foldRounds bounds how many times a fold reads the memory again after it filed states: a state another
// process filed under the same key from fewer games is then filed anew.
const foldRounds = 3

// foldBudget bounds the time one fold of the learners spends replaying games (it runs at a new game and after
// a game's end, both off the clock, but a GUI waits for the first). A memory with a long backlog (games no
// process folded) is folded over the next games, foldBudget at a time; what was folded is filed each game, so
// no work is lost, and the learners read meanwhile are those of the games folded so far.
const foldBudget = 2 * time.Second

// modelWriter files a folded state of a model after the game gameID, which ended at at.
type modelWriter func(model string, state json.RawMessage, at time.Time, gameID string)

// recordModelAt files a learned model's state for an opponent key at a given time (the key of a folded
// state is its last game's end and ID, so that filing it again replaces it).
func (f *filer) recordModelAt(key, model string, state json.RawMessage, gameID string, at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recordLocked(memory.Event{Model: &memory.ModelUpdate{OpponentKey: key, Model: model, State: state,
		GameID: gameID, At: at}})
}

// learnerFits reports whether a stored state of one of foldedModels is a state of game g's learners with
// our preset: whether restoreLearner, which newLearners plays with, takes it.
func learnerFits(model string, raw json.RawMessage, g games.Game, our presets.Preset) bool {
	_, err := restoreLearner(model, raw, g, our)
	return err == nil
}

// learnerBase returns the base of the learners' fold for game g and our preset: each model's latest legacy
// snapshot (a state without a fold mark, as dossier filed before states were folded) that fits, the latest
// time among them (games that ended by then are in them), and the base's name.
func learnerBase(prof *memory.Profile, g games.Game, our presets.Preset) (map[string][]memory.ModelPoint, time.Time, string) {
	models := map[string][]memory.ModelPoint{}
	var at time.Time
	for _, name := range foldedModels {
		points := prof.Models[name]
		for i := len(points) - 1; i >= 0; i-- {
			mark, err := learn.ReadFoldMark(points[i].State)
			if err != nil || mark != nil || !learnerFits(name, points[i].State, g, our) {
				continue
			}
			models[name] = []memory.ModelPoint{points[i]}
			if points[i].At.After(at) {
				at = points[i].At
			}
			break
		}
	}
	base := g.Name() + "/" + our.Name
	if !at.IsZero() {
		base += "/legacy@" + strconv.FormatInt(at.UnixNano(), 10)
	}
	return models, at, base
}

// learnerOrder returns the games the learners fold, in the fold's order: the opponent's finished games of g
// that ended after the base.
func learnerOrder(prof *memory.Profile, g games.Game, after time.Time) []learn.FoldItem {
	var items []learn.FoldItem
	for _, gs := range prof.Games {
		if gs.Game == g.Name() && !gs.End.IsZero() && gs.End.After(after) {
			items = append(items, learn.FoldItem{ID: gs.ID, End: gs.End})
		}
	}
	learn.SortFold(items)
	return items
}

// foldLearners returns the learners' states of an opponent in game g (as newLearners takes them: one point
// per model, none for a new learner) folded over every finished game the memory holds, and files through
// write (nil: nothing is filed) the state after each game it had to fold. It goes on from the furthest
// stored state of all three models whose mark fits the order, so that it folds only the games no process
// folded yet. It reads the memory again after filing until no state is missing (at most foldRounds times).
// It stops replaying after budget (0: no bound), returning the states of the games folded so far.
func foldLearners(mem *memory.Memory, key string, g games.Game, our presets.Preset, write modelWriter, budget time.Duration) (map[string][]memory.ModelPoint, *memory.Profile, error) {
	var models map[string][]memory.ModelPoint
	var prof *memory.Profile
	var deadline time.Time
	if budget > 0 {
		deadline = time.Now().Add(budget)
	}
	for round := 0; round < foldRounds; round++ {
		var folded, left int
		var err error
		models, prof, folded, left, err = foldLearnersOnce(mem, key, g, our, write, deadline)
		if err != nil || folded == 0 || left > 0 || write == nil {
			return models, prof, err
		}
	}
	return models, prof, nil
}

// foldLearnersOnce is one round of foldLearners, replaying games until the deadline (zero: none); it returns
// how many games it folded and how many it left to fold.
func foldLearnersOnce(mem *memory.Memory, key string, g games.Game, our presets.Preset, write modelWriter, deadline time.Time) (map[string][]memory.ModelPoint, *memory.Profile, int, int, error) {
	prof, err := mem.Profile(key)
	if errors.Is(err, memory.ErrUnknownOpponent) {
		return nil, nil, 0, 0, nil
	}
	if err != nil {
		return nil, nil, 0, 0, err
	}
	models, after, base := learnerBase(prof, g, our)
	items := learnerOrder(prof, g, after)
	elsewhere, err := learnedElsewhere(mem, prof, g, after)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	for id, it := range elsewhere {
		if !slices.ContainsFunc(items, func(x learn.FoldItem) bool { return x.ID == id }) {
			items = append(items, it.FoldItem)
		}
	}
	learn.SortFold(items)
	digests := learn.FoldDigests(base, items)
	byDigest := map[string]map[string]memory.ModelPoint{}
	for _, name := range foldedModels {
		byDigest[name] = map[string]memory.ModelPoint{}
		for _, pt := range prof.Models[name] {
			if mark, err := learn.ReadFoldMark(pt.State); err == nil && mark.Fits(base, digests) {
				byDigest[name][mark.Digest] = pt
			}
		}
	}
	done := 0
	for k := len(items); k > 0 && done == 0; k-- {
		found := map[string][]memory.ModelPoint{}
		for _, name := range foldedModels {
			if pt, ok := byDigest[name][digests[k]]; ok {
				found[name] = []memory.ModelPoint{pt}
			}
		}
		if len(found) == len(foldedModels) {
			models, done = found, k
		}
	}
	if done == len(items) {
		return models, prof, 0, 0, nil
	}
	stored, err := mem.GamesBrief(key)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	byID := make(map[string]*memory.Game, len(stored))
	for i := range stored {
		byID[stored[i].ID] = &stored[i]
	}
	read := map[string]bool{key: true}
	for _, it := range items[done:] {
		from := elsewhere[it.ID].from
		if byID[it.ID] != nil || from == "" || read[from] {
			continue
		}
		read[from] = true
		other, err := mem.GamesBrief(from)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		for i := range other {
			if _, ok := elsewhere[other[i].ID]; ok {
				byID[other[i].ID] = &other[i]
			}
		}
	}
	for i := done; i < len(items); i++ {
		if !deadline.IsZero() && i > done && time.Now().After(deadline) {
			return models, prof, i - done, len(items) - i, nil
		}
		// Learners made afresh from the state before each game: a game's fold depends on that state and the
		// game alone (not on the caches or tables of the games before), wherever the fold resumed.
		l, err := newLearners(key, g, our, models)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		if gm := byID[items[i].ID]; gm != nil {
			replayGame(l, g, gm)
		}
		l.disc.CountGame()
		states, err := l.states()
		if err != nil {
			return nil, nil, 0, 0, err
		}
		mark := learn.FoldMark{Version: learn.FoldVersion, Base: base, Games: i + 1, Digest: digests[i+1]}
		models = map[string][]memory.ModelPoint{}
		for _, name := range foldedModels {
			st, err := learn.WithFoldMark(states[name], mark)
			if err != nil {
				return nil, nil, 0, 0, fmt.Errorf("%s: %w", name, err)
			}
			models[name] = []memory.ModelPoint{{At: items[i].End, GameID: items[i].ID, State: st}}
			if write != nil {
				write(name, st, items[i].End, items[i].ID)
			}
		}
	}
	return models, prof, len(items) - done, 0, nil
}

// elsewhereGame is a game its learners learned under another key than the one it is filed under.
type elsewhereGame struct {
	learn.FoldItem
	from string // the key it is filed under
}

// learnedElsewhere returns, by ID, the finished games of g that ended after the given time and that the
// profile's learned-game records (learn.LearnedGameModel) claim from another opponent key.
func learnedElsewhere(mem *memory.Memory, prof *memory.Profile, g games.Game, after time.Time) (map[string]elsewhereGame, error) {
	claimed := map[string]map[string]bool{} // by the key filed under, the game IDs
	for _, pt := range prof.Models[learn.LearnedGameModel] {
		var lg learn.LearnedGame
		if pt.GameID == "" || json.Unmarshal(pt.State, &lg) != nil || lg.Version != learn.LearnedGameVersion ||
			lg.From == "" || lg.From == prof.Key {
			continue
		}
		if claimed[lg.From] == nil {
			claimed[lg.From] = map[string]bool{}
		}
		claimed[lg.From][pt.GameID] = true
	}
	out := map[string]elsewhereGame{}
	for from, ids := range claimed {
		other, err := mem.Profile(from)
		if errors.Is(err, memory.ErrUnknownOpponent) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, gs := range other.Games {
			if ids[gs.ID] && gs.Game == g.Name() && !gs.End.IsZero() && gs.End.After(after) {
				out[gs.ID] = elsewhereGame{FoldItem: learn.FoldItem{ID: gs.ID, End: gs.End}, from: other.Key}
			}
		}
	}
	return out, nil
}

// replayGame has the learners learn from every opponent move of a stored game, as the game's worker did
// while it was played. A move that does not read ends the replay (the positions after it are unknown); one
// a learner cannot learn from is skipped, as the worker skips it.
func replayGame(l *learners, g games.Game, gm *memory.Game) {
	p := g.Start()
	if gm.StartFEN != "" {
		q, err := g.ParsePosition(gm.StartFEN)
		if err != nil {
			return
		}
		p = q
	}
	opp := games.Side(1 - gm.OurSide)
	for _, text := range gm.Moves {
		m, err := p.ParseMove(text)
		if err != nil || !games.IsLegal(p, m) {
			return
		}
		if p.ToMove() == opp {
			l.observe(p, m)
		}
		p.Play(m)
	}
}

// observe has every learner learn from one opponent move (without scoring it first); a learner that cannot
// learn from it changes nothing.
func (l *learners) observe(p games.Position, m games.Move) {
	_, _ = l.types.Observe(p, m)
	_ = l.depthL.Observe(p, m)
	_, _ = l.disc.Observe(p, m)
}

// evenFold is the even-game ledger folded over the stored results of an opponent: the state, its mark, and
// the last result folded (its game and time; "" when none).
type evenFold struct {
	state  *learn.EvenState
	mark   learn.FoldMark
	lastID string
	lastAt time.Time
	stored bool // whether the memory holds the folded state under the last result's key already
}

// foldEvenOnce reads the opponent's even-game results and folds them (see foldEven).
func foldEvenOnce(mem *memory.Memory, key string) (evenFold, error) {
	prof, err := mem.Profile(key)
	if errors.Is(err, memory.ErrUnknownOpponent) {
		return evenFold{state: learn.FoldEven(nil, nil)}, nil
	}
	if err != nil {
		return evenFold{}, err
	}
	return foldEvenProfile(prof), nil
}

// foldEvenProfile folds a profile's even-game results over its base: the latest legacy "even" snapshot (a
// state without a fold mark) when there is one, and the results filed after it, in the fold's order. A
// result that does not read is left out; a game's second result is ignored.
func foldEvenProfile(prof *memory.Profile) evenFold {
	var base *learn.EvenState
	var after time.Time
	points := prof.Models[learn.EvenModel]
	for i := len(points) - 1; i >= 0; i-- {
		if mark, err := learn.ReadFoldMark(points[i].State); err != nil || mark != nil {
			continue
		}
		if s, err := learn.ParseEvenState(points[i].State); err == nil {
			base, after = s, points[i].At
			break
		}
	}
	name := "even"
	if base != nil {
		name += "/legacy@" + strconv.FormatInt(after.UnixNano(), 10)
	}
	results := map[string]learn.EvenResult{}
	var items []learn.FoldItem
	for _, pt := range prof.Models[learn.EvenResultModel] {
		if pt.GameID == "" || !pt.At.After(after) {
			continue
		}
		if _, dup := results[pt.GameID]; dup {
			continue
		}
		r, err := learn.ParseEvenResult(pt.State)
		if err != nil {
			continue
		}
		results[pt.GameID] = r
		items = append(items, learn.FoldItem{ID: pt.GameID, End: pt.At})
	}
	learn.SortFold(items)
	ordered := make([]learn.EvenResult, len(items))
	for i, it := range items {
		ordered[i] = results[it.ID]
	}
	digests := learn.FoldDigests(name, items)
	f := evenFold{state: learn.FoldEven(base, ordered),
		mark: learn.FoldMark{Version: learn.FoldVersion, Base: name, Games: len(items), Digest: digests[len(items)]}}
	if len(items) == 0 {
		f.stored = true
		return f
	}
	last := items[len(items)-1]
	f.lastID, f.lastAt = last.ID, last.End
	for _, pt := range points {
		if pt.GameID == last.ID && pt.At.Equal(last.End) {
			mark, err := learn.ReadFoldMark(pt.State)
			f.stored = err == nil && mark != nil && *mark == f.mark
		}
	}
	return f
}

// foldEven returns the opponent's even-game state folded over every stored result, and files it (through
// write, nil: not filed) under its last result's key unless the memory holds it there already, reading
// again after filing (at most foldRounds times) in case another process filed a shorter fold there.
func foldEven(mem *memory.Memory, key string, write modelWriter) (*learn.EvenState, error) {
	var f evenFold
	for round := 0; round < foldRounds; round++ {
		var err error
		if f, err = foldEvenOnce(mem, key); err != nil {
			return nil, err
		}
		if f.stored || write == nil {
			break
		}
		raw, err := json.Marshal(f.state)
		if err != nil {
			return nil, err
		}
		st, err := learn.WithFoldMark(raw, f.mark)
		if err != nil {
			return nil, err
		}
		write(learn.EvenModel, st, f.lastAt, f.lastID)
	}
	return f.state, nil
}

// fold folds the opponent's stored games into the learners of game g (see foldLearners), one fold at a time
// in this process, filing what it computed; it returns the states, and the profile it read last (nil when
// the opponent is unknown).
func (l *learningPart) fold(mem *memory.Memory, key string, g games.Game, our presets.Preset) (map[string][]memory.ModelPoint, *memory.Profile, error) {
	l.foldMu.Lock()
	defer l.foldMu.Unlock()
	return foldLearners(mem, key, g, our, func(model string, state json.RawMessage, at time.Time, gameID string) {
		// On the fold's thread, of the lowest priority: filed without the filer's lock (see recordBackground).
		l.filer.recordBackground(memory.Event{Model: &memory.ModelUpdate{OpponentKey: key, Model: model, State: state,
			GameID: gameID, At: at}})
	}, foldBudget)
}

// waitFolds waits for the folds still running after the games' ends.
func (l *learningPart) waitFolds() { l.folds.Wait() }

// fileLearnedAs files, when the game gameID is filed under another opponent key than the one its learners
// learn for (an unnamed opponent identified as a stored one), a learned-game record under the learners' key
// that puts the game into their fold.
func (f *filer) fileLearnedAs(gameID, filedUnder, learnedAs string) {
	if gameID == "" || filedUnder == learnedAs {
		return
	}
	raw, err := json.Marshal(learn.LearnedGame{Version: learn.LearnedGameVersion, From: filedUnder})
	if err != nil {
		return
	}
	f.recordModelAt(learnedAs, learn.LearnedGameModel, raw, gameID, time.Now())
}

// FoldLearners folds every stored game of game g against the opponent key into the learners, without a time
// bound, filing the states it computed: the work a new game would otherwise do foldBudget at a time. It is for
// workers that run beside the engine (a study process, a measurement's setup), never on a search's clock.
func FoldLearners(mem *memory.Memory, key string, g games.Game) error {
	our, err := learnedPreset(g, searchers.Config{})
	if err != nil {
		return err
	}
	write := func(model string, state json.RawMessage, at time.Time, gameID string) {
		mem.Record(memory.Event{Model: &memory.ModelUpdate{OpponentKey: key, Model: model, State: state,
			GameID: gameID, At: at}})
	}
	if _, _, err := foldLearners(mem, key, g, our, write, 0); err != nil {
		return err
	}
	return mem.Flush(context.Background())
}
