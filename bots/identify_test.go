// Identifying an unnamed opponent: the identifier's arithmetic on hand-made games, the Player's announcement
// from a real memory, accuracy among a dozen in-process opponents after 1, 3 and 10 games, and the cost of
// an observation.
package bots

import (
	"fmt"
	"math"
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
	"dossier/games/tictactoe"
	"dossier/memory"
	"dossier/play"
)

// storedGame makes a stored game of g from its start, ours the side we played, moves in protocol notation.
func storedGame(g games.Game, ours games.Side, moves ...string) memory.Game {
	return memory.Game{GameSummary: memory.GameSummary{Game: g.Name(), OurSide: int(ours)}, StartFEN: g.Start().FEN(),
		Moves: moves}
}

// observeLine feeds the moves of a line from g's start to the identifier, the unnamed opponent playing side
// opp.
func observeLine(t *testing.T, id *Identifier, g games.Game, opp games.Side, moves ...string) {
	t.Helper()
	p := g.Start()
	for ply, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("move %d %s: %v", ply+1, text, err)
		}
		if p.ToMove() == opp {
			id.Observe(p, m, ply)
		}
		p.Play(m)
	}
}

func TestIdentifierRanking(t *testing.T) {
	g := tictactoe.Game{}
	// Two opponents who always answered our corner opening differently (we moved first), and one of
	// another game, who must be left out.
	stored := []OpponentGames{
		{Key: "centre", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@b2"), storedGame(g, games.First, "P@a1", "P@b2")}},
		{Key: "edge", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@a2"), storedGame(g, games.First, "P@a1", "P@a2")}},
		{Key: "checkers player", Games: []memory.Game{storedGame(checkers.Game{}, games.First, "11-15")}},
		{Key: play.UnknownKey, Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@c3")}},
	}
	tests := []struct {
		name  string
		games [][]string // the unnamed opponent's games (it plays second), each from the start
		want  string     // the first of the ranking
		ident bool       // whether it is identified at the default threshold
	}{
		{"no moves: someone new ties the stored ones", nil, NewOpponentKey, false},
		{"one game like centre's", [][]string{{"P@a1", "P@b2"}}, "centre", false},
		{"five games like centre's", slices.Repeat([][]string{{"P@a1", "P@b2"}}, 5), "centre", true},
		{"five games like edge's", slices.Repeat([][]string{{"P@a1", "P@a2"}}, 5), "edge", true},
		{"moves nobody played", [][]string{{"P@a1", "P@c1"}, {"P@a1", "P@c1"}}, NewOpponentKey, false},
		{"positions nobody saw", [][]string{{"P@b2", "P@a1"}, {"P@c3", "P@a1"}}, NewOpponentKey, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := NewIdentifier(g, stored, IdentifierOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if id.Opponents() != 2 {
				t.Fatalf("%d opponents, want 2 (centre and edge)", id.Opponents())
			}
			for _, line := range tc.games {
				id.StartGame()
				observeLine(t, id, g, games.Second, line...)
			}
			r := id.Ranking()
			if len(r) != 3 {
				t.Fatalf("ranking %v: want 3 hypotheses", r)
			}
			sum := 0.0
			for _, c := range r {
				sum += c.Probability
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("posteriors sum to %g", sum)
			}
			// A tie is broken by key, and "(new)" sorts before the letters: check the top probability instead.
			top := slices.IndexFunc(r, func(c IdentifyCandidate) bool { return c.Key == tc.want })
			if top < 0 || r[top].Probability < r[0].Probability {
				t.Errorf("ranking %+v: want %s first", r, tc.want)
			}
			if tc.want != NewOpponentKey && r[0].Key != tc.want {
				t.Errorf("ranking %+v: want %s first", r, tc.want)
			}
			if _, ok := id.Identified(); ok != tc.ident {
				t.Errorf("identified %v, want %v (ranking %+v)", ok, tc.ident, r)
			}
		})
	}
}

func TestIdentifierPosteriorByHand(t *testing.T) {
	// centre played b2 after a1 twice, edge a2 twice; the unnamed opponent plays b2 once. Tic-tac-toe after a1
	// has 8 legal moves; a = b = 1.
	g := tictactoe.Game{}
	stored := []OpponentGames{
		{Key: "centre", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@b2"), storedGame(g, games.First, "P@a1", "P@b2")}},
		{Key: "edge", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@a2"), storedGame(g, games.First, "P@a1", "P@a2")}},
	}
	id, err := NewIdentifier(g, stored, IdentifierOptions{Alpha: 1, Beta: 1})
	if err != nil {
		t.Fatal(err)
	}
	observeLine(t, id, g, games.Second, "P@a1", "P@b2")
	// Someone new: u(b2) = (2 + 1/8) / (4 + 1). centre: u_-centre(b2) = (0 + 1/8) / (2 + 1), P = (2 + u) / 3.
	// edge: u_-edge(b2) = (2 + 1/8) / (2 + 1), P = (0 + u) / 3.
	pNew := (2 + 1.0/8) / 5
	pCentre := (2 + (1.0/8)/3) / 3
	pEdge := ((2 + 1.0/8) / 3) / 3
	sum := pNew + pCentre + pEdge
	want := map[string]float64{NewOpponentKey: pNew / sum, "centre": pCentre / sum, "edge": pEdge / sum}
	for _, c := range id.Ranking() {
		if math.Abs(c.Probability-want[c.Key]) > 1e-12 {
			t.Errorf("%s: posterior %g, want %g", c.Key, c.Probability, want[c.Key])
		}
	}
	// Taking the move back removes its evidence.
	id.TakeBack(1)
	for _, c := range id.Ranking() {
		if math.Abs(c.Probability-1.0/3) > 1e-12 {
			t.Errorf("after the take-back %s: posterior %g, want 1/3", c.Key, c.Probability)
		}
	}
}

func TestIdentifierRefusesBadInput(t *testing.T) {
	g := tictactoe.Game{}
	tests := []struct {
		name string
		game games.Game
		opts IdentifierOptions
	}{
		{"no game", nil, IdentifierOptions{}},
		{"threshold above 1", g, IdentifierOptions{Threshold: 1.5}},
		{"negative alpha", g, IdentifierOptions{Alpha: -1}},
		{"negative beta", g, IdentifierOptions{Beta: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewIdentifier(tc.game, nil, tc.opts); err == nil {
				t.Error("no error")
			}
		})
	}
	// Stored games that do not replay are skipped, counted, and keep the moves before the bad one.
	stored := []OpponentGames{{Key: "x", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@b2", "nonsense"),
		{GameSummary: memory.GameSummary{Game: g.Name()}, StartFEN: "not a position", Moves: []string{"P@a1"}}}}}
	id, err := NewIdentifier(g, stored, IdentifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if id.Skipped() != 2 || id.Opponents() != 1 || id.Positions() != 1 {
		t.Errorf("skipped %d, opponents %d, positions %d; want 2, 1, 1", id.Skipped(), id.Opponents(), id.Positions())
	}
}

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
			p := NewPlayer(g, searchers.Config{Depth: 2, HashMB: 1})
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			p.SetOpponent(tc.opponent)
			var infos []string
			for range 3 { // the evidence of each game carries into the next
				p.NewGame(g)
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
			p.mu.Lock()
			recallKey, learnKey := "", p.learnerKey()
			if p.recall != nil {
				recallKey = p.recall.opponent
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
	stored   []OpponentGames
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
	data := identData{stored: make([]OpponentGames, len(opponents)), sessions: make([][][]identObservation, len(opponents))}
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
func identMeasure(t testing.TB, g games.Game, data identData, opts IdentifierOptions, after []int) identAccuracy {
	t.Helper()
	id, err := NewIdentifier(g, data.stored, opts)
	if err != nil {
		t.Fatal(err)
	}
	if id.Opponents() != len(data.names) {
		t.Fatalf("%d opponents in the identifier, want %d", id.Opponents(), len(data.names))
	}
	res := identAccuracy{after: map[int]float64{}, newAfter: map[int]float64{}, confusion: map[string]int{}}
	// top returns the first hypothesis after the held-out games [from, from+k) of session s under identifier x.
	top := func(x *Identifier, s [][]identObservation, from, k int) string {
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
			x, err := NewIdentifier(g, slices.Delete(slices.Clone(data.stored), i, i+1), opts)
			if err != nil {
				t.Fatal(err)
			}
			for from := 0; from+k <= len(data.sessions[i]); from++ {
				trials++
				if top(x, data.sessions[i], from, k) == NewOpponentKey {
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
			res := identMeasure(t, tc.game, data, IdentifierOptions{}, after)
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
		opts IdentifierOptions
		n    int
	}{
		{checkers.Game{}, IdentifierOptions{}, 10},
		{checkers.Game{}, IdentifierOptions{}, 100},
		{checkers.Game{}, IdentifierOptions{}, 1000},
		{chess.Game{}, IdentifierOptions{Classes: true}, 10},
		{chess.Game{}, IdentifierOptions{Classes: true}, 100},
	}
	for _, tc := range tests {
		g := tc.game
		name := "pooled"
		if tc.opts.Classes {
			name = "classes"
		}
		b.Run(fmt.Sprintf("%s/%s/opponents=%d", g.Name(), name, tc.n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(tc.n), 3))
			stored := make([]OpponentGames, tc.n)
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
			id, err := NewIdentifier(g, stored, tc.opts)
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
				if len(id.cur) > 1<<16 {
					id.cur = id.cur[:0]
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
	stored, err := LoadOpponentGames(mem, checkers.Game{})
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || stored[0].Key != "fixed" || len(stored[0].Games) != 2 {
		t.Fatalf("stored %d opponents (%+v), want fixed with 2 games", len(stored), stored)
	}
	id, err := NewIdentifier(checkers.Game{}, stored, IdentifierOptions{})
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

func TestMoveClass(t *testing.T) {
	g := chess.Game{}
	tests := []struct {
		fen, move string
		want      int // piece index in PNBRQK (castling 6) x 4, + 2 for a capture or promotion, + 1 for a check
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", 0},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", 4},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", 2},
		{"rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "d1h5", 4*4 + 1},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 6 * 4},
		{"8/P7/8/8/8/8/7k/5K2 w - - 0 1", "a7a8q", 2},
	}
	for _, tc := range tests {
		t.Run(tc.move, func(t *testing.T) {
			p := mustPosition(t, g, tc.fen)
			m, err := p.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := moveClass(p, m); got != tc.want {
				t.Errorf("class %d, want %d", got, tc.want)
			}
		})
	}
	// A game without a notation that tells kinds of move apart has one class, or two with tactical moves.
	c4 := connect4.Game{}.Start()
	var buf [games.MaxMoves]games.Move
	if got := moveClass(c4, c4.AppendMoves(buf[:0])[0]); got != 0 {
		t.Errorf("Connect-Four: class %d, want 0", got)
	}
}

func TestIdentifierClassesUseEveryMove(t *testing.T) {
	g := chess.Game{}
	// knight answers our first move with a knight, pawn with a pawn; the unnamed opponent meets openings
	// neither saw and answers with knights.
	stored := []OpponentGames{
		{Key: "knight", Games: []memory.Game{storedGame(g, games.First, "e2e4", "g8f6"), storedGame(g, games.First, "d2d4", "b8c6"),
			storedGame(g, games.First, "c2c4", "g8h6")}},
		{Key: "pawn", Games: []memory.Game{storedGame(g, games.First, "e2e4", "e7e5"), storedGame(g, games.First, "d2d4", "d7d5"),
			storedGame(g, games.First, "c2c4", "c7c5")}},
	}
	heldOut := [][]string{{"a2a3", "b8c6"}, {"h2h3", "g8f6"}, {"b2b3", "b8a6"}}
	tests := []struct {
		name string
		opts IdentifierOptions
		want string // the first of the ranking; "" when all tie
	}{
		{"classes: knight", IdentifierOptions{Classes: true}, "knight"},
		{"pooled: no evidence", IdentifierOptions{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := NewIdentifier(g, stored, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range heldOut {
				id.StartGame()
				observeLine(t, id, g, games.Second, line...)
			}
			r := id.Ranking()
			if tc.want == "" {
				for _, c := range r {
					if math.Abs(c.Probability-1.0/3) > 1e-12 {
						t.Errorf("ranking %+v: want a three-way tie", r)
					}
				}
				return
			}
			if r[0].Key != tc.want {
				t.Errorf("ranking %+v: want %s first", r, tc.want)
			}
			// Taking the last game's move back removes its evidence, for every opponent.
			before := id.Ranking()
			id.TakeBack(1)
			if after := id.Ranking(); after[0].Probability >= before[0].Probability {
				t.Errorf("take-back kept the evidence: %+v then %+v", before, after)
			}
		})
	}
}
