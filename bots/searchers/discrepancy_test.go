// Tests of the discrepancy learner on a preset's search: hand-checked discrepancies, agreement with MEU's own
// reply values, and the discrepancy:PATH model term.

package searchers

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/engine"
	"dossier/engine/model"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
	"dossier/memory/learn"
)

// learnerOf builds a learner or fails the test.
func learnerOf(t testing.TB, g games.Game, preset string, cfg learn.DiscrepancyLearnerConfig) *learn.DiscrepancyLearner {
	t.Helper()
	l, err := NewDiscrepancyLearner(g, preset, 0, cfg)
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
			l := learnerOf(t, g, "open-lines", learn.DiscrepancyLearnerConfig{Depth: tc.depth, Edges: edges})
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
	l := learnerOf(t, g, "open-lines", learn.DiscrepancyLearnerConfig{Depth: 2})
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
			opts := model.DefaultMEUOptions(tc.game)
			opts.Mirror = model.Mirror{Partner: partner, Sign: sign}
			meu, err := model.NewMEU(tc.game, preset.Eval, rec, opts)
			if err != nil {
				t.Fatal(err)
			}
			l := learnerOf(t, tc.game, tc.preset, learn.DiscrepancyLearnerConfig{Depth: tc.depth})
			starts, err := match.DistinctRandomStarts(tc.game, tc.plies, len(tc.plies), 7)
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
		cfg  Config
		err  string
	}{
		{"counts", connect4.Game{}, Config{Preset: "sophisticated", Search: "meu", Model: "Discrepancy: " + path + " "}, ""},
		{"missing file", connect4.Game{}, Config{Search: "meu", Model: "discrepancy:" + dir + "/none.json"},
			`term "discrepancy:` + dir + `/none.json": open`},
		{"corrupt file", connect4.Game{}, Config{Search: "meu", Model: "discrepancy:" + corrupt}, "field game is missing"},
		{"other game", checkers.Game{}, Config{Search: "meu", Model: "discrepancy:" + path}, "the counts are of connect4, not checkers"},
		{"other search", connect4.Game{}, Config{Search: "om", Model: "discrepancy:" + path}, "om takes no discrepancy counts (only meu does)"},
		{"one term among others", connect4.Game{}, Config{Search: "prom", Model: "sp:0.5,discrepancy:x"},
			`term "discrepancy:x": discrepancy:PATH is a whole model`},
		{"no path", connect4.Game{}, Config{Search: "meu", Model: "discrepancy: "}, "needs the path of a counts file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.game, tc.cfg)
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
	spec, err := ParseModelSpec("discrepancy:" + path)
	if err != nil || spec.String() != "discrepancy:"+path || spec.Terms[0].Path != path {
		t.Errorf("a path with a comma and a space: %+v (%v)", spec, err)
	}
}

// sampleCounts returns counts with two bands of three ranges.
func sampleCounts(t testing.TB) *learn.DiscrepancyCounts {
	t.Helper()
	c, err := learn.NewDiscrepancyCounts("connect4", "sophisticated", 4, 2, []float64{5, 495000}, 6)
	if err != nil {
		t.Fatal(err)
	}
	c.Opponent, c.Games, c.Observations = "sp d1", 2, 9
	c.Counts = [][]float64{{3, 1, 0, 1}, {2, 0, 1.5, 0.5}}
	c.Offered = [][]float64{{5, 2, 3, 1}, {4, 1, 2, 2}}
	return c
}

func TestDefaultDiscrepancyEdges(t *testing.T) {
	if got := learn.DefaultDiscrepancyEdges(mustPreset(t, connect4.Game{}, "sophisticated").Eval); !slices.Equal(got, []float64{1, 5, 25, 125, 495000}) {
		t.Errorf("sophisticated: %v, want powers of 5 up to one step above the largest weight, and half MateBound", got)
	}
	for _, g := range bookedGames() {
		for _, p := range presets.Of(g) {
			edges := learn.DefaultDiscrepancyEdges(p.Eval)
			if _, err := model.NewDiscrepancyModel(edges, 0); err != nil || edges[len(edges)-1] != engine.MateBound/2 {
				t.Errorf("%s %s: edges %v (%v)", g.Name(), p.Name, edges, err)
			}
		}
	}
}
