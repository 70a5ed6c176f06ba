// Online learning inside the Player and Search auto: the worker learns off the clock and persists, the yardstick
// is filed per game, auto picks a model that beats minimax on a known opponent and is alpha-beta without evidence.

package player

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/connect4"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

// learningMatch plays games of g between a Player with the memory dir (preset strongest at depth ourDepth,
// Search left unset, so auto) and a fixed opponent, the preset oppPreset at oppDepth without memory, from
// openings of randomPlies random plies. It returns the Player's info strings and the game records.
func learningMatch(t *testing.T, g games.Game, dir string, n, ourDepth int, oppPreset string, oppDepth, randomPlies int, seed uint64) ([]string, []match.GameRecord) {
	t.Helper()
	var mu sync.Mutex
	var infos []string
	var recs []match.GameRecord
	cfg := match.Config{Game: g, Games: n, MaxMoves: 60, MoveTimeout: time.Minute, RandomPlies: randomPlies, Seed: seed,
		Players: [2]match.PlayerSpec{{Name: "dossier", Depth: ourDepth}, {Name: "fixed " + oppPreset, Preset: oppPreset, Depth: oppDepth}},
		NewSearcher: func(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
			cfg := searchers.Config{Preset: spec.Preset, Depth: spec.Depth, HashMB: 4}
			if spec.Name != "dossier" {
				s, err := searchers.New(g, cfg)
				return match.InProcess{Engine: match.SearcherEngine(s), Name: spec.Name, Depth: spec.Depth}, err
			}
			p := New(g, cfg)
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
				return match.InProcess{}, err
			}
			if err := p.OpenMemory(); err != nil {
				return match.InProcess{}, err
			}
			return match.InProcess{Engine: infoRecorder{Engine: p, mu: &mu, infos: &infos}, Name: spec.Name, Depth: spec.Depth}, nil
		},
		OnGame: func(r match.GameRecord, _ match.Summary) { recs = append(recs, r) },
	}
	if _, err := match.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	return infos, recs
}

// infoRecorder is a Player whose searches keep their info strings.
type infoRecorder struct {
	*Engine
	mu    *sync.Mutex
	infos *[]string
}

// Search searches and keeps the info strings.
func (r infoRecorder) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	return r.Engine.Search(p, ctl, func(info engine.Info) {
		if info.Text != "" {
			r.mu.Lock()
			*r.infos = append(*r.infos, info.Text)
			r.mu.Unlock()
		}
		if report != nil {
			report(info)
		}
	})
}

// openMemory opens the memory in dir for a test.
func openMemory(t *testing.T, dir string) *memory.Memory {
	t.Helper()
	m, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// yardsticks returns the opponent's stored yardsticks, oldest first, with their game IDs.
func yardsticks(t *testing.T, prof *memory.Profile) ([]learn.GameYardstick, []string) {
	t.Helper()
	var ys []learn.GameYardstick
	var ids []string
	for _, pt := range prof.Models[learn.ModelYardstick] {
		var y learn.GameYardstick
		if err := json.Unmarshal(pt.State, &y); err != nil {
			t.Fatal(err)
		}
		ys, ids = append(ys, y), append(ids, pt.GameID)
	}
	return ys, ids
}

func TestLearningPersistsAndAutoPicksTheLearnedModel(t *testing.T) {
	cases := []struct {
		name     string
		game     games.Game
		ourDepth int
		opponent string
		oppDepth int
		games    int
		model    bool // whether auto must end up playing a model search
	}{
		// The opponent searches 2 plies with our own evaluation: the type learner finds strongest@2, the depth
		// learner a shallow depth, and the learners' minimax (our evaluation at 4 plies) predicts it worse; but
		// our own search's predictions are nearly as good as the type learner's (73% against 79% top-1), so
		// auto rightly stays with alpha-beta. Against SP, whose evaluation is not ours, only the type learner
		// knows the opponent (78% against our search's 54-64%); the solver wins these games fast, so more of
		// them make the evidence.
		{"checkers strongest@2", checkers.Game{}, 4, "strongest", 2, 3, false},
		{"connect4 sp@2", connect4.Game{}, 4, "sp", 2, 8, true},
	}
	// Every opponent move must be filed with its probability below: wait for the worker as long as it takes on a
	// loaded machine (under the race detector beside other jobs it fell behind the 5 s bound).
	defer func(wait time.Duration) { learnWait = wait }(learnWait)
	learnWait = time.Minute
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.game.Name() != "checkers" {
				t.Skip("short: checkers only")
			}
			dir := filepath.Join(t.TempDir(), "memory")
			infos, recs := learningMatch(t, tc.game, dir, tc.games, tc.ourDepth, tc.opponent, tc.oppDepth, 4, 7)
			if len(recs) != tc.games {
				t.Fatalf("%d games played, want %d", len(recs), tc.games)
			}
			if len(infos) == 0 || !strings.HasPrefix(infos[0], "auto: alphabeta (no yardstick") {
				t.Errorf("first game's info strings %q: want auto's alpha-beta without evidence first", infos)
			}
			m := openMemory(t, dir)
			key := play.NameKey("fixed " + tc.opponent)
			prof, err := m.Profile(key)
			if err != nil {
				t.Fatal(err)
			}
			ys, ids := yardsticks(t, prof)
			if len(ys) != tc.games {
				t.Fatalf("%d yardsticks stored, want one per game (%d)", len(ys), tc.games)
			}
			total := map[string]learn.Score{}
			for i, y := range ys {
				if ids[i] == "" || y.Game != tc.game.Name() {
					t.Errorf("yardstick %d: game ID %q, game %q", i+1, ids[i], y.Game)
				}
				mm := y.Scores[learn.MinimaxModelName]
				for _, name := range []string{learn.MinimaxModelName, learn.ModelTypeProbs, learn.ModelDepth, searchers.DiscrepancyModelName} {
					s, ok := y.Scores[name]
					if !ok || s.Moves != mm.Moves || s.Moves < 5 || s.Top1 < 0 || s.Top1 > s.Top3 || s.Top3 > 1 || s.LogLikelihood > 0 {
						t.Errorf("game %d, %s: %+v (minimax %+v)", i+1, name, s, mm)
					}
					total[name] = total[name].Pool(s)
				}
			}
			for name, s := range total {
				t.Logf("%s over %d games: %v", name, len(ys), s)
			}
			mm := total[learn.MinimaxModelName]
			beaters := []string{learn.ModelTypeProbs}
			if tc.opponent == presets.Default {
				beaters = append(beaters, learn.ModelDepth)
			}
			for _, name := range beaters {
				if s := total[name]; s.Top1 <= mm.Top1 || s.LogLikelihood <= mm.LogLikelihood {
					t.Errorf("%s (%v) does not beat minimax (%v) on a preset opponent at depth %d", name, s, mm, tc.oppDepth)
				}
			}
			// Each learner's states: one per game with its ID, folded over the games so far (no mid-game ones:
			// a game that did not end has no place in the fold's order).
			for _, name := range []string{learn.ModelTypeProbs, learn.ModelDepth, searchers.DiscrepancyModelName} {
				points := prof.Models[name]
				if len(points) != tc.games {
					t.Errorf("%s: %d states for %d games", name, len(points), tc.games)
				}
				for i, pt := range points {
					mark, err := learn.ReadFoldMark(pt.State)
					if pt.GameID == "" || err != nil || mark == nil || mark.Games != i+1 {
						t.Errorf("%s: state %d (game %q) has the fold mark %+v (%v), want %d games", name, i, pt.GameID, mark, err, i+1)
					}
				}
			}
			var depth learn.DepthLearnerState
			if err := json.Unmarshal(prof.Models[learn.ModelDepth][len(prof.Models[learn.ModelDepth])-1].State, &depth); err != nil {
				t.Fatal(err)
			}
			dl, err := learn.NewDepthLearner(tc.game, depth)
			if err != nil {
				t.Fatal(err)
			}
			// The opponent's alpha-beta is not the learner's plain minimax (its table and move order break
			// ties otherwise), so the learned depth may be off by one; the yardstick above is what counts.
			t.Logf("learned depth %d for an opponent at %d plies (counters %v)", dl.Depth(), tc.oppDepth, depth.Counts)
			// The moves are filed with the probability the model in use gave them.
			stored, err := m.Games(key)
			if err != nil {
				t.Fatal(err)
			}
			withProb, opp := 0, 0
			for _, sg := range stored {
				for _, r := range sg.Records {
					if r.ByOpponent {
						opp++
						if r.Probability >= 0 && r.Probability <= 1 {
							withProb++
						} else {
							t.Logf("game %s: the move at ply %d (of %d) was filed without a probability", sg.ID, r.Ply, len(sg.Moves))
						}
					}
				}
			}
			if opp == 0 || withProb != opp {
				t.Errorf("%d of %d opponent moves filed with a probability", withProb, opp)
			}
			m.Close()
			// A second Player reads the states back, and auto picks a model that beat minimax.
			p := New(tc.game, searchers.Config{Depth: tc.ourDepth, HashMB: 4})
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			p.SetOpponent(play.Opponent{Name: "fixed " + tc.opponent, Kind: play.Computer, Source: "match"})
			p.WaitPrepared()
			p.NewGame(tc.game)
			p.WaitPrepared()
			prep := p.learning.preparedNow()
			if prep == nil || prep.l.types.State().Moves != mm.Moves || prep.l.depthL.State().Examples != mm.Moves {
				t.Fatalf("the second Player read back %+v, want learners of %d moves", prep, mm.Moves)
			}
			c := prep.choice
			t.Log(c.Why)
			if !tc.model {
				if c.Search != searchers.AlphaBetaSearch || !strings.Contains(c.Why, "no model beat minimax") {
					t.Errorf("auto chose %q (%s), want alphabeta", c.Search, c.Why)
				}
				return
			}
			if c.Search != searchers.PromSearch && c.Search != searchers.OMSearch {
				t.Errorf("auto chose %q (%s), want prom or om", c.Search, c.Why)
			}
			later := strings.Join(infos, "\n")
			if !strings.Contains(later, "auto: prom") && !strings.Contains(later, "auto: om") {
				t.Errorf("auto never played a model search in the match: %q", infos)
			}
		})
	}
}

func TestAutoWithoutEvidenceIsAlphaBeta(t *testing.T) {
	for _, g := range []games.Game{checkers.Game{}, connect4.Game{}} {
		t.Run(g.Name(), func(t *testing.T) {
			plain := New(g, searchers.Config{Search: searchers.AlphaBetaSearch, HashMB: 2})
			auto := New(g, searchers.Config{HashMB: 2})
			if err := auto.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
				t.Fatal(err)
			}
			defer auto.Close()
			auto.SetOpponent(play.Opponent{Name: "someone"})
			auto.WaitPrepared()
			for _, p := range []*Engine{plain, auto} {
				p.NewGame(g)
				p.WaitPrepared()
			}
			pos := g.Start()
			var infos []string
			for ply := 0; ply < 8 && pos.Status().Result == games.Ongoing; ply++ {
				lim := engine.Limits{Depth: 5}
				var results [2]engine.Result
				for i, p := range []*Engine{plain, auto} {
					if ply == 0 {
						p.StartGame(play.GameStart{Game: g, OurSide: pos.ToMove(), Start: pos.Clone()})
					}
					results[i] = p.Search(pos.Clone(), engine.NewControl(lim, pos.ToMove()), func(info engine.Info) {
						if i == 1 && info.Text != "" {
							infos = append(infos, info.Text)
						}
					})
				}
				if results[0].Move != results[1].Move || results[0].Nodes != results[1].Nodes || results[0].Score != results[1].Score {
					t.Fatalf("ply %d: alpha-beta %v (%d nodes), auto %v (%d nodes)", ply, results[0].Move, results[0].Nodes,
						results[1].Move, results[1].Nodes)
				}
				pos.Play(results[0].Move)
			}
			if len(infos) == 0 || !strings.HasPrefix(infos[0], "auto: alphabeta (no yardstick") {
				t.Errorf("info strings %q: want the choice said at the first search", infos)
			}
		})
	}
}

// withSearch adds to a yardstick our search's own predictions of moves moves, top1 of them right.
func withSearch(y learn.GameYardstick, moves int, top1 float64) learn.GameYardstick {
	y.Scores[learn.SearchModelName] = learn.Score{Moves: moves, Top1: top1, Top3: top1}
	return y
}

func TestPickModel(t *testing.T) {
	y := func(moves int, mm, typeprobs learn.Score) learn.GameYardstick {
		mm.Moves, typeprobs.Moves = moves, moves
		return learn.GameYardstick{Game: "checkers", Scores: map[string]learn.Score{learn.MinimaxModelName: mm, learn.ModelTypeProbs: typeprobs}}
	}
	good := learn.Score{Top1: 0.8, LogLikelihood: -0.5}
	base := learn.Score{Top1: 0.4, LogLikelihood: -5}
	cases := []struct {
		name  string
		yards []learn.GameYardstick
		want  bool
	}{
		{"none", nil, false},
		{"too few moves", []learn.GameYardstick{y(20, base, good)}, false},
		{"enough moves over two games", []learn.GameYardstick{y(20, base, good), y(20, base, good)}, true},
		{"top-1 within two standard errors", []learn.GameYardstick{y(40, base, learn.Score{Top1: 0.55, LogLikelihood: -0.5})}, false},
		{"worse log-likelihood", []learn.GameYardstick{y(40, base, learn.Score{Top1: 0.8, LogLikelihood: -6})}, false},
		{"only the last five games count", append([]learn.GameYardstick{y(200, base, good)}, y(5, base, good), y(5, base, good),
			y(5, base, good), y(5, base, good), y(5, base, good)), false},
		// Glaurung's games: the learners' 1-ply minimax predicted 30%, the discrepancy model 40%, our search 50%.
		{"our search's own predictions are the baseline too", []learn.GameYardstick{withSearch(y(60, learn.Score{Top1: 0.3,
			LogLikelihood: -14}, learn.Score{Top1: 0.4, LogLikelihood: -2}), 58, 0.5)}, false},
		{"a model that beats the search too", []learn.GameYardstick{withSearch(y(60, base, good), 58, 0.5)}, true},
		{"too few search predictions to count", []learn.GameYardstick{withSearch(y(60, base, learn.Score{Top1: 0.6,
			LogLikelihood: -2}), 10, 0.95)}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			best, ok, _ := pickModel(tc.yards)
			if ok != tc.want || (ok && best.model != learn.ModelTypeProbs) {
				t.Errorf("pickModel = %+v, %v; want ok %v", best, ok, tc.want)
			}
		})
	}
}

func TestLearningTakeBack(t *testing.T) {
	g := checkers.Game{}
	our, err := presets.Lookup(g, presets.Default)
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLearners("x", g, our, nil)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var mu sync.Mutex
	var learned []int
	w := newLearning(g, nil, func() *learners { <-release; return l }, "game", learn.MinimaxModelName,
		func(_ *learning, it learnItem, prob float64) {
			mu.Lock()
			defer mu.Unlock()
			if prob < 0 || prob > 1 {
				t.Errorf("ply %d: probability %v", it.ply, prob)
			}
			learned = append(learned, it.ply)
		}, background{})
	pos := g.Start()
	var buf [games.MaxMoves]games.Move
	for ply := 0; ply < 8; ply++ {
		m := pos.AppendMoves(buf[:0])[0]
		if ply%2 == 1 { // the opponent moves second
			w.add(learnItem{pos: pos.Clone(), move: m, ply: ply})
		}
		pos.Play(m)
	}
	w.takeBack(4) // plies 5 and 7 go; 1 and 3 stay
	close(release)
	yard, states, err := w.finish(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(learned) != 2 || learned[0] != 1 || learned[1] != 3 {
		t.Errorf("learned plies %v, want [1 3]", learned)
	}
	if s := yard.Scores[learn.MinimaxModelName]; s.Moves != 2 {
		t.Errorf("yardstick of %d moves, want 2", s.Moves)
	}
	var st learn.TypeLearnerState
	if err := json.Unmarshal(states[learn.ModelTypeProbs], &st); err != nil || st.Moves != 2 {
		t.Errorf("type learner state %+v (%v), want 2 moves", st, err)
	}
}

func TestPlayerTakeBackDoesNotRefileMoves(t *testing.T) {
	g := checkers.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	p := New(g, searchers.Config{HashMB: 2})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	p.SetOpponent(play.Opponent{Name: "taker"})
	p.WaitPrepared()
	p.NewGame(g)
	p.WaitPrepared()
	pos := g.Start()
	var moves []games.Move
	var buf [games.MaxMoves]games.Move
	p.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: pos.Clone()})
	for ply := 0; ply < 8; ply++ {
		m := pos.AppendMoves(buf[:0])[0]
		if ply%2 == 1 {
			p.ObserveMove(play.ObservedMove{Before: pos.Clone(), Move: m, Ply: ply, Elapsed: -1})
		}
		moves = append(moves, m)
		pos.Play(m)
	}
	p.TakeBack(4)
	p.GameOver(play.GameEnd{Outcome: games.Outcome{Result: games.Ongoing}, Reason: "unknown", Moves: moves[:4]})
	m := p.Memory()
	stored, err := m.Games(play.NameKey("taker"))
	if err != nil || len(stored) != 1 {
		t.Fatalf("games %v, %v", stored, err)
	}
	// The opponent's moves at plies 1 and 3 with their probabilities, and ours before them, filed when the
	// opponent's replies came.
	var plies, ours []int
	for _, r := range stored[0].Records {
		if !r.ByOpponent {
			ours = append(ours, r.Ply)
			continue
		}
		plies = append(plies, r.Ply)
		if r.Probability < 0 {
			t.Errorf("ply %d filed without a probability", r.Ply)
		}
	}
	if len(plies) != 2 || plies[0] != 1 || plies[1] != 3 || len(ours) != 2 || ours[0] != 0 || ours[1] != 2 {
		t.Errorf("stored plies %v of the opponent and %v of ours, want [1 3] and [0 2]", plies, ours)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkLearnMove measures the worker's cost of one opponent move (scoring under every model, then
// learning) in the positions of a game between presets, per game.
func BenchmarkLearnMove(b *testing.B) {
	for _, g := range bookedGames() {
		b.Run(g.Name(), func(b *testing.B) {
			our, err := presets.Lookup(g, presets.Default)
			if err != nil {
				b.Fatal(err)
			}
			l, err := newLearners("x", g, our, nil)
			if err != nil {
				b.Fatal(err)
			}
			var positions []games.Position
			var played []games.Move
			s := mustSearcher(b, g, searchers.Config{Depth: 3, HashMB: 2})
			pos := g.Start()
			for len(positions) < 40 && pos.Status().Result == games.Ongoing {
				res := searchLimited(s, pos, engine.Limits{Depth: 3})
				positions, played = append(positions, pos.Clone()), append(played, res.Move)
				pos.Play(res.Move)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := i % len(positions)
				if _, err := l.scoreAndLearn(positions[k], played[k]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
