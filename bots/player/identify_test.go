// The Player identifies an unnamed opponent from the memory; the identifier's accuracy among a dozen in-process
// opponents after 1, 3 and 10 games, and the cost of an observation.

package player

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

// recordStoredGame files one finished game against a named opponent in the memory.
func recordStoredGame(t *testing.T, mem *memory.Memory, g games.Game, name string, ours games.Side, moves []string) {
	t.Helper()
	o := play.Opponent{Name: name, Source: "match"}
	id := memory.NewGameID()
	now := time.Now()
	mem.Record(memory.Event{Start: &memory.GameStart{GameID: id, Opponent: o, Game: g.Name(), OurSide: int(ours),
		StartFEN: g.Start().FEN(), At: now}})
	mem.Record(memory.Event{End: &memory.GameEnd{GameID: id, Result: "*", Reason: "unknown", OurScore: -1, Moves: moves, At: now}})
}

func TestPlayerIdentifiesAnUnnamedOpponent(t *testing.T) {
	g := connect4.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	mem, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// Two named opponents answered our d1 opening differently over three moves each, twice.
	lines := map[string][]string{
		"left":  {"P@d1", "P@c1", "P@d2", "P@c2", "P@d3", "P@d4"},
		"right": {"P@d1", "P@e1", "P@d2", "P@e2", "P@d3", "P@d4"},
	}
	for _, name := range []string{"left", "right"} {
		for range 2 {
			recordStoredGame(t, mem, g, name, games.First, lines[name])
		}
	}
	if err := mem.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		opponent play.Opponent
		want     string // the identified key, "" for none
	}{
		{"unnamed, plays like right", play.Opponent{}, "right"},
		{"named: no identification", play.Opponent{Name: "someone"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(g, searchers.Config{Depth: 2, HashMB: 1})
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			p.SetOpponent(tc.opponent)
			p.WaitPrepared()
			var infos []string
			for range 3 { // the evidence of each game carries into the next
				p.NewGame(g)
				p.WaitPrepared()
				pos := g.Start()
				p.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: pos.Clone()})
				for ply, text := range lines["right"] {
					m, err := pos.ParseMove(text)
					if err != nil {
						t.Fatal(err)
					}
					if pos.ToMove() == games.First {
						res := p.Search(pos.Clone(), engine.NewControl(engine.Limits{Depth: 1}, pos.ToMove()),
							func(i engine.Info) {
								if i.Text != "" {
									infos = append(infos, i.Text)
								}
							})
						if res.Move == games.NoMove {
							t.Fatal("no move")
						}
					} else {
						p.ObserveMove(play.ObservedMove{Before: pos.Clone(), Move: m, Ply: ply, Elapsed: -1})
					}
					pos.Play(m)
				}
				p.GameOver(play.GameEnd{Reason: "unknown"})
			}
			said := slices.IndexFunc(infos, func(s string) bool { return strings.HasPrefix(s, "identified: ") })
			c, ok := p.Identified()
			if tc.want == "" {
				if ok || said >= 0 || p.IdentifyRanking() != nil {
					t.Errorf("a named opponent was identified: %+v, infos %q", c, infos)
				}
				return
			}
			if !ok || c.Key != tc.want {
				t.Fatalf("identified %+v (%v), want %s; ranking %+v", c, ok, tc.want, p.IdentifyRanking())
			}
			// The next game plays with the identified opponent's memory: its game memory and its learners.
			p.NewGame(g)
			p.WaitPrepared()
			p.mu.Lock()
			recallKey, learnKey := "", p.learnerKey()
			if r := p.gameMemory.get(); r != nil {
				recallKey = r.opponent
			}
			p.mu.Unlock()
			if recallKey != tc.want || learnKey != tc.want {
				t.Errorf("after identification the game memory is %q's and learning files under %q, want %q", recallKey,
					learnKey, tc.want)
			}
			if said < 0 || !strings.HasPrefix(infos[said], "identified: "+tc.want+" (p=") {
				t.Errorf("infos %q: want identified: %s once", infos, tc.want)
			}
			if n := len(slices.DeleteFunc(slices.Clone(infos), func(s string) bool { return !strings.HasPrefix(s, "identified") })); n != 1 {
				t.Errorf("said %d times: %q", n, infos)
			}
		})
	}
}

// identOpponent is an in-process opponent for the accuracy test: a preset at a depth that plays a random legal
// move with probability noise (seeded), so that its games vary as an engine's on the clock do.
type identOpponent struct {
	name   string
	preset string
	depth  int
}

// identPlayer plays one side in identPlay: a searcher with its noise and random source.
type identPlayer struct {
	s     engine.Searcher
	depth int
	noise float64
	rng   *rand.Rand
}

// move returns the player's move in p.
func (pl identPlayer) move(p games.Position) games.Move {
	var buf [games.MaxMoves]games.Move
	legal := p.AppendMoves(buf[:0])
	if pl.rng.Float64() < pl.noise {
		return legal[pl.rng.IntN(len(legal))]
	}
	return searchLimited(pl.s, p.Clone(), engine.Limits{Depth: pl.depth}).Move
}

// identObservation is one move of the opponent in a held-out game.
type identObservation struct {
	before games.Position
	move   games.Move
	ply    int
}

// identPlay plays a game from start between us and the opponent (us first when ourSide is First) and returns
// it as a stored game and as the opponent's observations.
func identPlay(g games.Game, start games.Position, ours games.Side, us, opp identPlayer, maxPlies int) (memory.Game, []identObservation) {
	us.s.NewGame()
	opp.s.NewGame()
	p := start.Clone()
	sg := memory.Game{GameSummary: memory.GameSummary{Game: g.Name(), OurSide: int(ours)}, StartFEN: start.FEN()}
	var obs []identObservation
	for ply := 0; ply < maxPlies; ply++ {
		if games.OutcomeOf(p).Result != games.Ongoing {
			break
		}
		var m games.Move
		if p.ToMove() == ours {
			m = us.move(p)
		} else {
			m = opp.move(p)
			obs = append(obs, identObservation{before: p.Clone(), move: m, ply: ply})
		}
		sg.Moves = append(sg.Moves, p.FormatMove(m))
		p.Play(m)
	}
	return sg, obs
}

// identOpenings returns n distinct openings of g, plies random plies from the start (seeded).
func identOpenings(g games.Game, n, plies int, seed uint64) []games.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []games.Position
	seen := map[uint64]bool{}
	var buf [games.MaxMoves]games.Move
	for len(out) < n {
		p := g.Start()
		for range plies {
			legal := p.AppendMoves(buf[:0])
			p.Play(legal[rng.IntN(len(legal))])
		}
		if !seen[p.Hash()] {
			seen[p.Hash()] = true
			out = append(out, p)
		}
	}
	return out
}

// identAccuracy is the accuracy test's result for one game.
type identAccuracy struct {
	after     map[int]float64 // games -> fraction of windows whose first hypothesis is the opponent
	newAfter  map[int]float64 // the same for an opponent left out of the memory: someone new first
	confusion map[string]int  // "true -> taken" after one game, for the log
}

// identData is the accuracy test's games: the stored ones of each opponent and its held-out session.
type identData struct {
	names    []string
	stored   []learn.OpponentGames
	sessions [][][]identObservation
}

// identGames plays train stored games and heldOut held-out games against each opponent, from a few random
// openings, colours alternating, us a depth-4 player of usPreset; the opponents play a random move with
// probability noise, we with probability usNoise.
func identGames(t testing.TB, g games.Game, usPreset string, opponents []identOpponent, train, heldOut int, noise, usNoise float64) identData {
	t.Helper()
	const maxPlies = 80
	openings := identOpenings(g, 6, 2, 11)
	us := identPlayer{s: mustSearcher(t, g, searchers.Config{Preset: usPreset, Depth: 4, HashMB: 1}), depth: 4, noise: usNoise}
	data := identData{stored: make([]learn.OpponentGames, len(opponents)), sessions: make([][][]identObservation, len(opponents))}
	for i, o := range opponents {
		opp := identPlayer{s: mustSearcher(t, g, searchers.Config{Preset: o.preset, Depth: o.depth, HashMB: 1}), depth: o.depth, noise: noise}
		data.names = append(data.names, o.name)
		data.stored[i].Key = o.name
		for k := range train + heldOut {
			us.rng = rand.New(rand.NewPCG(uint64(1000*i+k), 1))
			opp.rng = rand.New(rand.NewPCG(uint64(1000*i+k), 2))
			ours := games.Side(k % 2)
			sg, obs := identPlay(g, openings[(k/2)%len(openings)], ours, us, opp, maxPlies)
			if k < train {
				data.stored[i].Games = append(data.stored[i].Games, sg)
			} else {
				data.sessions[i] = append(data.sessions[i], obs)
			}
		}
	}
	return data
}

// identMeasure measures the identifier built with opts on the data: after k games, every window of k
// consecutive held-out games of an opponent is one trial.
func identMeasure(t testing.TB, g games.Game, data identData, opts learn.IdentifierOptions, after []int) identAccuracy {
	t.Helper()
	id, err := learn.NewIdentifier(g, data.stored, opts)
	if err != nil {
		t.Fatal(err)
	}
	if id.Opponents() != len(data.names) {
		t.Fatalf("%d opponents in the identifier, want %d", id.Opponents(), len(data.names))
	}
	res := identAccuracy{after: map[int]float64{}, newAfter: map[int]float64{}, confusion: map[string]int{}}
	// top returns the first hypothesis after the held-out games [from, from+k) of session s under identifier x.
	top := func(x *learn.Identifier, s [][]identObservation, from, k int) string {
		x.Reset()
		for _, game := range s[from : from+k] {
			x.StartGame()
			for _, o := range game {
				x.Observe(o.before, o.move, o.ply)
			}
		}
		return x.Ranking()[0].Key
	}
	for _, k := range after {
		right, trials := 0, 0
		for i, name := range data.names {
			for from := 0; from+k <= len(data.sessions[i]); from++ {
				got := top(id, data.sessions[i], from, k)
				trials++
				if got == name {
					right++
				} else if k == 1 {
					res.confusion[name+" -> "+got]++
				}
			}
		}
		res.after[k] = float64(right) / float64(trials)
	}
	// Someone new: each opponent in turn left out of the memory must be ranked below someone new.
	for _, k := range after {
		right, trials := 0, 0
		for i := range data.names {
			x, err := learn.NewIdentifier(g, slices.Delete(slices.Clone(data.stored), i, i+1), opts)
			if err != nil {
				t.Fatal(err)
			}
			for from := 0; from+k <= len(data.sessions[i]); from++ {
				trials++
				if top(x, data.sessions[i], from, k) == learn.NewOpponentKey {
					right++
				}
			}
		}
		res.newAfter[k] = float64(right) / float64(trials)
	}
	return res
}

// identCheckersOpponents are twelve checkers opponents: the four papers' evaluations at depths 2, 4 and 6.
func identCheckersOpponents() []identOpponent {
	var out []identOpponent
	for _, preset := range []string{"mat-tot25", "mat+tot25", "mat12-tot25", "mat12+tot25"} {
		for _, d := range []int{2, 4, 6} {
			out = append(out, identOpponent{fmt.Sprintf("%s d%d", preset, d), preset, d})
		}
	}
	return out
}

// identConnect4Opponents are twelve Connect-Four opponents: the two evaluations at depths 1 to 6.
func identConnect4Opponents() []identOpponent {
	var out []identOpponent
	for _, preset := range []string{"sophisticated", "sp"} {
		for _, d := range []int{1, 2, 3, 4, 5, 6} {
			out = append(out, identOpponent{fmt.Sprintf("%s d%d", preset, d), preset, d})
		}
	}
	return out
}

func TestIdentifyAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 1440 short games; runs without -short")
	}
	tests := []struct {
		name      string
		game      games.Game
		us        string
		opponents []identOpponent
		// noise and usNoise are the probabilities of a random move, the opponents' and ours.
		noise, usNoise float64
		// Bounds well below what was measured (see the log), far above chance (1/13): the identifier must work.
		min map[int]float64
	}{
		{"checkers quiet", checkers.Game{}, "mat-tot25", identCheckersOpponents(), 0.03, 0.05, map[int]float64{1: 0.4, 3: 0.65, 10: 0.75}},
		{"checkers noisy", checkers.Game{}, "mat-tot25", identCheckersOpponents(), 0.1, 0.15, map[int]float64{1: 0.2, 3: 0.35, 10: 0.5}},
		{"connect4 quiet", connect4.Game{}, "sophisticated", identConnect4Opponents(), 0.03, 0.05, map[int]float64{1: 0.4, 3: 0.65, 10: 0.75}},
		{"connect4 noisy", connect4.Game{}, "sophisticated", identConnect4Opponents(), 0.1, 0.15, map[int]float64{1: 0.2, 3: 0.35, 10: 0.5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			after := []int{1, 3, 10}
			data := identGames(t, tc.game, tc.us, tc.opponents, 20, 10, tc.noise, tc.usNoise)
			res := identMeasure(t, tc.game, data, learn.IdentifierOptions{}, after)
			for _, k := range after {
				t.Logf("%s, %d opponents: after %2d games %.1f%% identified; an opponent left out: someone new first %.1f%%",
					tc.name, len(tc.opponents), k, 100*res.after[k], 100*res.newAfter[k])
				if res.after[k] < tc.min[k] {
					t.Errorf("after %d games: accuracy %.3f, want at least %.2f", k, res.after[k], tc.min[k])
				}
			}
			if res.after[3] < res.after[1] {
				t.Errorf("accuracy falls with evidence: %.3f after 1 game, %.3f after 3", res.after[1], res.after[3])
			}
			var conf []string
			for k, n := range res.confusion {
				if n > 1 {
					conf = append(conf, fmt.Sprintf("%s x%d", k, n))
				}
			}
			slices.Sort(conf)
			t.Logf("confusions after 1 game (twice or more of 10): %s", strings.Join(conf, "; "))
		})
	}
}

// BenchmarkIdentifierObserve measures one observation in a position near the start, where most stored
// opponents were seen (ten random games each: in checkers 79% of them), the costly case: checkers with the
// pooled back-off for 10, 100 and 1000 stored opponents, chess with the class back-off (every opponent's
// probability changes, after the legal moves are classified) for 10 and 100. It reports the build's time and
// the table's positions too.
func BenchmarkIdentifierObserve(b *testing.B) {
	tests := []struct {
		game games.Game
		opts learn.IdentifierOptions
		n    int
	}{
		{checkers.Game{}, learn.IdentifierOptions{}, 10},
		{checkers.Game{}, learn.IdentifierOptions{}, 100},
		{checkers.Game{}, learn.IdentifierOptions{}, 1000},
		{chess.Game{}, learn.IdentifierOptions{Classes: true}, 10},
		{chess.Game{}, learn.IdentifierOptions{Classes: true}, 100},
	}
	for _, tc := range tests {
		g := tc.game
		name := "pooled"
		if tc.opts.Classes {
			name = "classes"
		}
		b.Run(fmt.Sprintf("%s/%s/opponents=%d", g.Name(), name, tc.n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(tc.n), 3))
			stored := make([]learn.OpponentGames, tc.n)
			var buf [games.MaxMoves]games.Move
			for i := range stored {
				stored[i].Key = fmt.Sprintf("opponent %d", i)
				for range 10 { // ten random games of 60 plies each; we play first
					p := g.Start()
					sg := memory.Game{GameSummary: memory.GameSummary{Game: g.Name()}, StartFEN: p.FEN()}
					for range 60 {
						legal := p.AppendMoves(buf[:0])
						if len(legal) == 0 {
							break
						}
						m := legal[rng.IntN(len(legal))]
						sg.Moves = append(sg.Moves, p.FormatMove(m))
						p.Play(m)
					}
					stored[i].Games = append(stored[i].Games, sg)
				}
			}
			start := time.Now()
			id, err := learn.NewIdentifier(g, stored, tc.opts)
			if err != nil {
				b.Fatal(err)
			}
			built := time.Since(start)
			// The opponent's first move, after our first: most opponents played there.
			p := g.Start()
			p.Play(p.AppendMoves(buf[:0])[0])
			m := p.AppendMoves(buf[:0])[0]
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				id.Observe(p, m, 1)
				if i%(1<<16) == 0 {
					id.StartGame() // bounds the take-back terms the loop piles up
				}
			}
			b.ReportMetric(float64(built.Milliseconds()), "build-ms")
			b.ReportMetric(float64(id.Positions()), "positions")
		})
	}
}

// TestIdentifierBuildsFromMatchGames checks that games filed by a Player through the match runner's life
// cycle, under a named opponent, build an identifier that names that opponent from its moves.
func TestIdentifierBuildsFromMatchGames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	for range 2 {
		recallMatchAgainst(t, dir, 2, searchers.DefaultMemoryRisk(checkers.Game{}), 4)
	}
	mem, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	stored, err := learn.LoadOpponentGames(mem, checkers.Game{})
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || stored[0].Key != "fixed" || len(stored[0].Games) != 2 {
		t.Fatalf("stored %d opponents (%+v), want fixed with 2 games", len(stored), stored)
	}
	id, err := learn.NewIdentifier(checkers.Game{}, stored, learn.IdentifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Replaying the first stored game as the unnamed opponent's: deterministic players met the same positions.
	sg := stored[0].Games[0]
	p := mustPosition(t, checkers.Game{}, sg.StartFEN)
	id.StartGame()
	for ply, text := range sg.Moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if p.ToMove() != games.Side(sg.OurSide) {
			id.Observe(p, m, ply)
		}
		p.Play(m)
	}
	r := id.Ranking()
	if r[0].Key != "fixed" || r[0].Probability < 0.5 {
		t.Errorf("ranking %+v: want fixed first", r)
	}
	_, moves, evidence := id.Observed()
	if evidence == 0 || evidence > moves {
		t.Errorf("%d moves, %d with evidence", moves, evidence)
	}
}
