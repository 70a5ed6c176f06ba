// Tests of the discrepancy counts files and the learner: round trips, corrupt files, hand-checked
// discrepancies, agreement with MEU's own reply values, training games and MEU playing the learned counts.
package bots

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// sampleCounts returns counts with two bands of three ranges.
func sampleCounts(t testing.TB) *searchers.DiscrepancyCounts {
	t.Helper()
	c, err := searchers.NewDiscrepancyCounts("connect4", "sophisticated", 4, 2, []float64{5, 495000}, 6)
	if err != nil {
		t.Fatal(err)
	}
	c.Opponent, c.Games, c.Observations = "sp d1", 2, 9
	c.Counts = [][]float64{{3, 1, 0, 1}, {2, 0, 1.5, 0.5}}
	c.Offered = [][]float64{{5, 2, 3, 1}, {4, 1, 2, 2}}
	return c
}

func TestDiscrepancyCountsRoundTrip(t *testing.T) {
	want := sampleCounts(t)
	withoutOffered := sampleCounts(t)
	withoutOffered.Offered = nil
	empty, err := searchers.NewDiscrepancyCounts("tictactoe", "open-lines", 1, 0, []float64{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*searchers.DiscrepancyCounts{"full": want, "no offered": withoutOffered, "empty": empty} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := c.Write(&buf); err != nil {
				t.Fatal(err)
			}
			got, err := searchers.ReadDiscrepancyCounts(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			if !reflect.DeepEqual(got, c) {
				t.Fatalf("read back %+v, wrote %+v", got, c)
			}
			path := filepath.Join(t.TempDir(), "counts.json")
			if err := c.Save(path); err != nil {
				t.Fatal(err)
			}
			loaded, err := searchers.LoadDiscrepancyCounts(path)
			if err != nil || !reflect.DeepEqual(loaded, c) {
				t.Fatalf("loaded %+v (%v), saved %+v", loaded, err, c)
			}
			model, err := c.Model()
			if err != nil {
				t.Fatal(err)
			}
			for b, row := range c.Counts {
				if got := model.Counts(b); !slices.Equal(got, row) {
					t.Errorf("model band %d: %v, want %v", b, got, row)
				}
			}
		})
	}
	var buf bytes.Buffer
	if err := want.Write(&buf); err != nil {
		t.Fatal(err)
	}
	// One band to a line, as the format's documentation shows it.
	if !strings.Contains(buf.String(), "\"counts\": [\n    [3, 1, 0, 1],\n    [2, 0, 1.5, 0.5]\n  ]") ||
		!strings.Contains(buf.String(), `"edges": [5, 495000]`) {
		t.Errorf("layout:\n%s", buf.String())
	}
}

func TestReadDiscrepancyCountsErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleCounts(t).Write(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	tests := []struct {
		name, text, err string
	}{
		{"empty", "", "the file is empty"},
		{"not JSON", "counts", "not JSON at byte 1"},
		{"truncated", good[:len(good)/2], "ends inside the JSON object"},
		{"array", "[1, 2]", "holds a JSON array, want an object"},
		{"trailing data", good + "{}", "data after the JSON object"},
		{"unknown field", strings.Replace(good, `"games"`, `"gamez"`, 1), `unknown field "gamez"`},
		{"wrong type", strings.Replace(good, `"depth": 4`, `"depth": "4"`, 1), "field depth holds a JSON string"},
		{"format", strings.Replace(good, "dossier discrepancy counts", "other", 1), `field format is "other"`},
		{"version", strings.Replace(good, `"version": 1`, `"version": 2`, 1), "field version is 2, this dossier reads version 1"},
		{"no game", strings.Replace(good, `"connect4"`, `""`, 1), "field game is missing"},
		{"no evaluation", strings.Replace(good, `"sophisticated"`, `""`, 1), "field evaluation is missing"},
		{"depth", strings.Replace(good, `"depth": 4`, `"depth": 0`, 1), "field depth is 0"},
		{"reply depth", strings.Replace(good, `"replyDepth": 2`, `"replyDepth": 4`, 1), "field replyDepth is 4, want a depth in 0..3"},
		{"negative games", strings.Replace(good, `"games": 2`, `"games": -1`, 1), "field games is -1"},
		{"no edges", strings.Replace(good, `"edges": [5, 495000],`, ``, 1), "field edges is missing"},
		{"edges order", strings.Replace(good, `[5, 495000]`, `[5, 5]`, 1), "field edges: edge 1 is 5"},
		{"edge zero", strings.Replace(good, `[5, 495000]`, `[0, 495000]`, 1), "field edges: edge 0 is 0"},
		{"band width", strings.Replace(good, `"bandPlies": 6`, `"bandPlies": -6`, 1), "field bandPlies is -6"},
		{"one band", strings.Replace(good, `"bandPlies": 6`, `"bandPlies": 0`, 1), "field counts has 2 bands, but bandPlies 0 means one band"},
		{"no counts", strings.Replace(good, `"counts"`, `"countz"`, 1), `unknown field "countz"`},
		{"short band", strings.Replace(good, `[3, 1, 0, 1]`, `[3, 1, 0]`, 1), "field counts: band 0 has 3 numbers, want one per range (4 with 2 edges)"},
		{"negative count", strings.Replace(good, `[3, 1, 0, 1]`, `[3, -1, 0, 1]`, 1), "field counts: band 0, range 1 is -1"},
		{"huge count", strings.Replace(good, `[3, 1, 0, 1]`, `[3, 1e999, 0, 1]`, 1), "field counts holds a JSON number"},
		{"offered bands", strings.Replace(good, `[4, 1, 2, 2]`, ``, 1), "not JSON"},
		{"offered band count", strings.Replace(good, ",\n    [4, 1, 2, 2]", "", 1), "field offered has 1 bands, counts has 2"},
		{"short offered", strings.Replace(good, `[4, 1, 2, 2]`, `[4]`, 1), "field offered: band 1 has 1 numbers"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := searchers.ReadDiscrepancyCounts(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "discrepancy counts: ") {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
	if _, err := searchers.LoadDiscrepancyCounts(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzReadDiscrepancyCounts checks that any bytes either fail with an error naming what is wrong, or read
// as counts that check, build a model and write back to the same counts.
func FuzzReadDiscrepancyCounts(f *testing.F) {
	var buf bytes.Buffer
	if err := sampleCounts(f).Write(&buf); err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{buf.String(), "", "{}", "[]", "null", `{"format": 1}`, `{"counts": [[1e308, 1e308]]}`,
		strings.Replace(buf.String(), `"bandPlies": 6`, `"bandPlies": 0`, 1), buf.String()[:40]} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := searchers.ReadDiscrepancyCounts(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "discrepancy counts: ") || len(err.Error()) < len("discrepancy counts: ")+5 {
				t.Fatalf("error %q does not say what is wrong", err)
			}
			return
		}
		if _, err := c.Model(); err != nil {
			t.Fatalf("counts that check build no model: %v", err)
		}
		var out bytes.Buffer
		if err := c.Write(&out); err != nil {
			t.Fatalf("counts that check do not write: %v", err)
		}
		again, err := searchers.ReadDiscrepancyCounts(&out)
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("written counts read back as %+v (%v), want %+v", again, err, c)
		}
		c.WriteTable(&out)
	})
}

func TestDefaultDiscrepancyEdges(t *testing.T) {
	if got := DefaultDiscrepancyEdges(mustPreset(t, connect4.Game{}, "sophisticated").Eval); !slices.Equal(got, []float64{1, 5, 25, 125, 495000}) {
		t.Errorf("sophisticated: %v, want powers of 5 up to one step above the largest weight, and half MateBound", got)
	}
	for _, g := range bookedGames() {
		for _, p := range presets.Of(g) {
			edges := DefaultDiscrepancyEdges(p.Eval)
			if _, err := engine.NewDiscrepancyModel(edges, 0); err != nil || edges[len(edges)-1] != engine.MateBound/2 {
				t.Errorf("%s %s: edges %v (%v)", g.Name(), p.Name, edges, err)
			}
		}
	}
}

// learnerOf builds a learner or fails the test.
func learnerOf(t testing.TB, g games.Game, cfg DiscrepancyLearnerConfig) *DiscrepancyLearner {
	t.Helper()
	l, err := NewDiscrepancyLearner(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// playMoves plays moves given in the game's notation on p.
func playMoves(t testing.TB, p games.Position, moves ...string) games.Position {
	t.Helper()
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil || !games.IsLegal(p, m) {
			t.Fatalf("move %s in %s: %v", s, p.FEN(), err)
		}
		p.Play(m)
	}
	return p
}

func TestDiscrepancyLearnerHandChecked(t *testing.T) {
	g := tictactoe.Game{}
	// The open-lines player values a position for the side to move at 100 x (lines free of the
	// opponent's stones - lines free of its own). Depth 2 values each reply statically (reply depth 0).
	// The edges 50 and 150 make the ranges 0, (0, 50], (50, 150] and above 150.
	//   - X (the opponent) to move on the empty board, O learning: after X in the centre O has 4 lines
	//     free of X and 8 free of O, -400; after a corner 5 - 8, -300; after an edge 6 - 8, -200. The
	//     centre is X's best reply, a corner is 100 worse, an edge 200.
	//   - O (the opponent) to move after X in the centre, X learning: after O in a corner X has 5 lines
	//     free of O and 4 free of X, +100; after an edge 6 - 4, +200.
	//   - X to move on a board with one empty square (b2 a1 c1 a3 a2 c2 b3 b1 played): one reply, not counted.
	//   - Depth 3 (reply depth 1): O to move after X a1 O b2 X b1 must block at c1; any other reply lets
	//     X complete a1-b1-c1, worth MateScore - 1 to X, a discrepancy above the last edge.
	edges := []float64{50, 150}
	tests := []struct {
		name    string
		depth   int
		learner games.Side
		before  []string
		reply   string
		want    float64 // the discrepancy; NaN: at least half MateBound
		rng     int
		counted bool
	}{
		{"X in the centre", 2, games.Second, nil, "b2", 0, 0, true},
		{"X in a corner", 2, games.Second, nil, "a1", 100, 2, true},
		{"X on an edge", 2, games.Second, nil, "b1", 200, 3, true},
		{"O in a corner", 2, games.First, []string{"b2"}, "c3", 0, 0, true},
		{"O on an edge", 2, games.First, []string{"b2"}, "a2", 100, 2, true},
		{"forced move", 2, games.Second, []string{"b2", "a1", "c1", "a3", "a2", "c2", "b3", "b1"}, "c3", 0, 0, false},
		{"blocks", 3, games.First, []string{"a1", "b2", "b1"}, "c1", 0, 0, true},
		{"misses the block", 3, games.First, []string{"a1", "b2", "b1"}, "a3", math.NaN(), 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := learnerOf(t, g, DiscrepancyLearnerConfig{Preset: "open-lines", Depth: tc.depth, Edges: edges})
			p := playMoves(t, g.Start(), tc.before...)
			if p.ToMove() == tc.learner {
				t.Fatalf("the learner %v is to move in %s", tc.learner, p.FEN())
			}
			m, _ := p.ParseMove(tc.reply)
			fen := p.FEN()
			obs, err := l.Observe(p, m)
			if err != nil {
				t.Fatal(err)
			}
			if p.FEN() != fen {
				t.Fatalf("Observe changed the position to %s", p.FEN())
			}
			if math.IsNaN(tc.want) {
				if obs.Discrepancy < engine.MateBound/2 {
					t.Errorf("discrepancy %v, want a forced win let through (>= %v)", obs.Discrepancy, engine.MateBound/2)
				}
			} else if obs.Discrepancy != tc.want {
				t.Errorf("discrepancy %v, want %v", obs.Discrepancy, tc.want)
			}
			if obs.Range != tc.rng || obs.Counted != tc.counted || obs.Ply != len(tc.before) {
				t.Errorf("range %d counted %v ply %d, want %d %v %d", obs.Range, obs.Counted, obs.Ply, tc.rng, tc.counted, len(tc.before))
			}
			c := l.Counts()
			want := [][]float64{}
			if tc.counted {
				want = [][]float64{make([]float64, 4)}
				want[0][tc.rng] = 1
			}
			if !reflect.DeepEqual(c.Counts, want) || c.Observations != len(want) {
				t.Errorf("counts %v (%d observations), want %v", c.Counts, c.Observations, want)
			}
		})
	}
	l := learnerOf(t, g, DiscrepancyLearnerConfig{Preset: "open-lines", Depth: 2})
	p := playMoves(t, g.Start(), "b2")
	illegal, _ := p.ParseMove("b2")
	if _, err := l.Observe(p, illegal); err == nil || !strings.Contains(err.Error(), "not legal") {
		t.Errorf("an illegal move: %v", err)
	}
}

// valueRecorder is an MEU reply model that records the values MEU shows it, by position, and answers as
// minimax does.
type valueRecorder struct {
	values map[string][]float64
}

func (r *valueRecorder) Probabilities(p games.Position, _ []games.Move, values []float64, probs []float64) {
	r.values[p.FEN()] = slices.Clone(values)
	best := slices.Min(values)
	n := 0
	for _, v := range values {
		if v == best {
			n++
		}
	}
	for j, v := range values {
		probs[j] = 0
		if v == best {
			probs[j] = 1 / float64(n)
		}
	}
}

// discrepancies returns each value minus the lowest.
func discrepancies(values []float64) []float64 {
	best := slices.Min(values)
	out := make([]float64, len(values))
	for j, v := range values {
		out[j] = v - best
	}
	return out
}

// TestLearnerMeasuresAsMEU checks that the learner's discrepancies are those MEU at the same depth measures
// at the replies to each of its moves, for evaluations that need the player's view (sp, mat-tot25) and
// those that do not.
func TestLearnerMeasuresAsMEU(t *testing.T) {
	tests := []struct {
		game   games.Game
		preset string
		depth  int
		plies  []int
	}{
		{connect4.Game{}, "sophisticated", 2, []int{0, 5, 12}},
		{connect4.Game{}, "sophisticated", 4, []int{3, 8, 20}},
		{connect4.Game{}, "sp", 3, []int{4, 9}},
		{checkers.Game{}, "mat-tot25", 3, []int{6, 15}},
		{tictactoe.Game{}, "open-lines", 3, []int{1, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.game.Name()+" "+tc.preset, func(t *testing.T) {
			preset := mustPreset(t, tc.game, tc.preset)
			partner, sign, err := presets.MirrorTable(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			rec := &valueRecorder{values: map[string][]float64{}}
			opts := engine.DefaultMEUOptions(tc.game)
			opts.Mirror = engine.Mirror{Partner: partner, Sign: sign}
			meu, err := engine.NewMEU(tc.game, preset.Eval, rec, opts)
			if err != nil {
				t.Fatal(err)
			}
			l := learnerOf(t, tc.game, DiscrepancyLearnerConfig{Preset: tc.preset, Depth: tc.depth})
			starts, err := DiscrepancyStarts(tc.game, tc.plies, len(tc.plies), 7)
			if err != nil {
				t.Fatal(err)
			}
			compared := 0
			for _, p := range starts {
				clear(rec.values)
				meu.SearchDepth(p, tc.depth)
				var buf [games.MaxMoves]games.Move
				for _, m := range p.AppendMoves(buf[:0]) {
					p.Play(m)
					if seen, ok := rec.values[p.FEN()]; ok {
						replies := p.AppendMoves(nil)
						values := make([]float64, len(replies))
						l.ReplyValues(p, replies, values)
						got, want := discrepancies(values), discrepancies(seen)
						for j := range got {
							if math.Abs(got[j]-want[j]) > 1e-6 {
								t.Fatalf("%s: the learner's discrepancies %v, MEU's %v", p.FEN(), got, want)
							}
						}
						compared++
					}
					p.Undo()
				}
			}
			if compared == 0 {
				t.Fatal("MEU showed its model no position")
			}
		})
	}
}

func TestDiscrepancyStarts(t *testing.T) {
	g := connect4.Game{}
	plies := []int{2, 4, 16}
	starts, err := DiscrepancyStarts(g, plies, 12, 3)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := DiscrepancyStarts(g, plies, 12, 3)
	seen := map[string]bool{}
	for i, p := range starts {
		if p.Ply() != plies[i%len(plies)] || games.OutcomeOf(p).Result.Over() || seen[p.FEN()] {
			t.Errorf("start %d: %s at ply %d (repeated %v)", i, p.FEN(), p.Ply(), seen[p.FEN()])
		}
		seen[p.FEN()] = true
		if again[i].FEN() != p.FEN() {
			t.Errorf("start %d differs with the same seed", i)
		}
	}
	if _, err := DiscrepancyStarts(tictactoe.Game{}, []int{1}, 10, 1); err == nil || !strings.Contains(err.Error(), "starting configuration 10") {
		t.Errorf("ten distinct one-ply tic-tac-toe starts: %v", err)
	}
	if _, err := DiscrepancyStarts(g, nil, 1, 1); err == nil {
		t.Error("no plies: no error")
	}
}

// inProcessFactory builds in-process match players with NewSearcher.
func inProcessFactory(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
	s, err := searchers.New(g, searchers.Config{Preset: spec.Preset, Search: spec.Search, Model: spec.Model, Depth: spec.Depth})
	if err != nil {
		return match.InProcess{}, err
	}
	p, _ := presets.Lookup(g, spec.Preset)
	return match.InProcess{Engine: match.SearcherEngine(s), Name: p.Name, Depth: max(spec.Depth, p.Depth)}, nil
}

func TestTrainDiscrepanciesAndPlayThem(t *testing.T) {
	g := connect4.Game{}
	gameCount := 8
	if testing.Short() {
		gameCount = 2
	}
	l := learnerOf(t, g, DiscrepancyLearnerConfig{Preset: "sophisticated", Depth: 2, BandPlies: 8})
	starts, err := DiscrepancyStarts(g, []int{2, 8}, gameCount/2, 1)
	if err != nil {
		t.Fatal(err)
	}
	var counted []int
	cfg := match.Config{Game: g, Games: gameCount, Openings: starts, NewSearcher: inProcessFactory,
		OnGame: func(rec match.GameRecord, _ match.Summary) { counted = append(counted, len(rec.Moves)) }}
	cfg.Players[0] = match.PlayerSpec{Preset: "sophisticated", Depth: 2}
	cfg.Players[1] = match.PlayerSpec{Preset: "sp"}
	sum, err := TrainDiscrepancies(context.Background(), cfg, l)
	if err != nil {
		t.Fatal(err)
	}
	c := l.Counts()
	total := 0.0
	for b, row := range c.Counts {
		for r, x := range row {
			total += x
			if x > c.Offered[b][r] {
				t.Errorf("band %d range %d: chosen %v times, offered %v", b, r, x, c.Offered[b][r])
			}
		}
	}
	if sum.Games != gameCount || c.Games != gameCount || len(counted) != gameCount || c.Observations == 0 || total != float64(c.Observations) {
		t.Fatalf("%d games (%d seen by the learner), %d observations, counts total %v", sum.Games, c.Games, c.Observations, total)
	}

	// The counts as MEU's model, from the file and learning online: legal moves.
	path := filepath.Join(t.TempDir(), "sp.json")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	fromFile := mustSearcher(t, g, searchers.Config{Preset: "sophisticated", Search: "meu", Model: "discrepancy:" + path, Depth: 4})
	online, err := l.NewMEUSearcher(searchers.Config{Preset: "sophisticated", Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	sp := mustSearcher(t, g, searchers.Config{Preset: "sp"})
	for _, s := range []engine.Searcher{fromFile, online} {
		if o, plies := playGame(t, starts[0], s, sp, engine.Limits{}, 42); !o.Result.Over() || plies == 0 {
			t.Errorf("game %v after %d plies", o, plies)
		}
	}
	if _, err := l.NewMEUSearcher(searchers.Config{Preset: "sp"}); err == nil || !strings.Contains(err.Error(), "not the learner's") {
		t.Errorf("another preset: %v", err)
	}
}

func TestDiscrepancyModelTerm(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sp counts, v1.json")
	if err := sampleCounts(t).Save(path); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt.json")
	if err := os.WriteFile(corrupt, []byte(`{"format": "dossier discrepancy counts", "version": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		game games.Game
		cfg  searchers.Config
		err  string
	}{
		{"counts", connect4.Game{}, searchers.Config{Preset: "sophisticated", Search: "meu", Model: "Discrepancy: " + path + " "}, ""},
		{"missing file", connect4.Game{}, searchers.Config{Search: "meu", Model: "discrepancy:" + dir + "/none.json"},
			`term "discrepancy:` + dir + `/none.json": open`},
		{"corrupt file", connect4.Game{}, searchers.Config{Search: "meu", Model: "discrepancy:" + corrupt}, "field game is missing"},
		{"other game", checkers.Game{}, searchers.Config{Search: "meu", Model: "discrepancy:" + path}, "the counts are of connect4, not checkers"},
		{"other search", connect4.Game{}, searchers.Config{Search: "om", Model: "discrepancy:" + path}, "om takes no discrepancy counts (only meu does)"},
		{"one term among others", connect4.Game{}, searchers.Config{Search: "prom", Model: "sp:0.5,discrepancy:x"},
			`term "discrepancy:x": discrepancy:PATH is a whole model`},
		{"no path", connect4.Game{}, searchers.Config{Search: "meu", Model: "discrepancy: "}, "needs the path of a counts file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := searchers.New(tc.game, tc.cfg)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := playMoves(t, tc.game.Start(), "d", "d")
			if res := searchLimited(s, p, engine.Limits{Depth: 4}); !games.IsLegal(p, res.Move) {
				t.Fatalf("move %d is not legal", res.Move)
			}
		})
	}
	spec, err := searchers.ParseModelSpec("discrepancy:" + path)
	if err != nil || spec.String() != "discrepancy:"+path || spec.Terms[0].Path != path {
		t.Errorf("a path with a comma and a space: %+v (%v)", spec, err)
	}
}
