// Tests of the model searches as New builds them: with minimax's implicit model every one plays as
// alpha-beta at equal depth, with real models they play legal moves and predict replies, and their bounds
// are sound.

package searchers

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/engine/model"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// mustPreset looks a preset up or fails the test.
func mustPreset(t testing.TB, g games.Game, name string) presets.Preset {
	t.Helper()
	p, err := presets.Lookup(g, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mirrorOfGame returns the engine mirror of g's book.
func mirrorOfGame(t testing.TB, g games.Game) model.Mirror {
	t.Helper()
	partner, sign, err := presets.MirrorTable(g)
	if err != nil {
		t.Fatal(err)
	}
	return model.Mirror{Partner: partner, Sign: sign}
}

// randomPositions plays random games from the start and keeps the position after each of plies random
// moves (stopping short of the end of the game).
func randomPositions(g games.Game, seed uint64, plies ...int) []games.Position {
	rng := rand.New(rand.NewPCG(seed, 17))
	var out []games.Position
	for _, n := range plies {
		p := g.Start()
		for range n {
			var buf [games.MaxMoves]games.Move
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
			if games.OutcomeOf(p).Result != games.Ongoing {
				p.Undo()
				break
			}
		}
		out = append(out, p)
	}
	return out
}

// referenceAlphaBeta is alpha-beta with the preset's evaluation for the root player (through the player's
// view where the evaluation needs it) under the given options, to a fixed depth.
type referenceAlphaBeta struct {
	game games.Game
	eval engine.Evaluation
	opts engine.AlphaBetaOptions
	view *ViewSpec
}

// newReference returns the reference search of a preset.
func newReference(t testing.TB, g games.Game, eval engine.Evaluation, opts engine.AlphaBetaOptions) referenceAlphaBeta {
	m := mirrorOfGame(t, g)
	r := referenceAlphaBeta{game: g, eval: eval, opts: opts}
	if spec := (ViewSpec{partner: m.Partner, sign: m.Sign}); spec.NeedsView(eval) {
		r.view = &spec
	}
	return r
}

// search returns alpha-beta's result on p at depth plies, for p's side to move.
func (r referenceAlphaBeta) search(p games.Position, depth int) engine.Result {
	if r.view != nil {
		p = NewPlayerView(p, *r.view)
	}
	return engine.NewAlphaBeta(r.game, r.eval, r.opts).Search(p, engine.NewControl(engine.Limits{Depth: depth}, p.ToMove()), nil)
}

// moveValue returns the value of playing m in p for p's side to move, searched depth - 1 plies further.
func (r referenceAlphaBeta) moveValue(p games.Position, m games.Move, depth int) float64 {
	q := p.Clone()
	if r.view != nil {
		q = NewPlayerView(q, *r.view) // the root player stays the side to move in p
	}
	q.Play(m)
	if o := games.OutcomeOf(q); o.Result != games.Ongoing {
		if o.Result == games.Draw {
			return 0
		}
		return engine.MateScore - 1
	}
	res := engine.NewAlphaBeta(r.game, r.eval, r.opts).Search(q, engine.NewControl(engine.Limits{Depth: depth - 1}, q.ToMove()), nil)
	return -res.Score
}

// sameValue reports whether two search values are equal up to rounding in the last bits.
func sameValue(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a)) }

func TestModelSearchesWithTheImplicitModelPlayAsAlphaBeta(t *testing.T) {
	cases := []struct {
		game   games.Game
		preset string
		depth  int
		plies  []int
	}{
		{chess.Game{}, "strongest", 3, []int{6, 14}},
		{checkers.Game{}, "mat-tot25", 4, []int{4, 12, 24}},
		{connect4.Game{}, "sp", 4, []int{3, 8, 14}},
		{tictactoe.Game{}, "strongest", 4, []int{1, 2, 3}},
	}
	plain := engine.AlphaBetaOptions{}
	quiescent := engine.AlphaBetaOptions{Quiescence: true}
	for _, tc := range cases {
		preset := mustPreset(t, tc.game, tc.preset)
		positions := randomPositions(tc.game, 3, tc.plies...)
		if testing.Short() {
			positions = positions[:1]
		}
		for _, algorithm := range modelSearchAlgorithms() {
			// The M* family and the symmetric search evaluate their leaves statically; OM, PrOM and MEU
			// with our own probe, with quiescence where the game has tactics.
			probe := plain
			if algorithm == OMSearch || algorithm == PromSearch || algorithm == MEUSearch {
				probe = quiescent
			}
			ref := newReference(t, tc.game, preset.Eval, probe)
			env := modelEnv{game: tc.game, own: preset.Eval, mirror: mirrorOfGame(t, tc.game), probe: probe}
			t.Run(tc.game.Name()+"/"+algorithm, func(t *testing.T) {
				for _, p := range positions {
					s, err := newModelSearcher(env, algorithm, ModelSpec{})
					if err != nil {
						t.Fatal(err)
					}
					fen := p.FEN()
					got := s.Search(p, engine.NewControl(engine.Limits{Depth: tc.depth}, p.ToMove()), nil)
					want := ref.search(p, tc.depth)
					if p.FEN() != fen {
						t.Fatalf("%s: the search left the position as %s", fen, p.FEN())
					}
					if got.Depth != tc.depth || !sameValue(got.Score, want.Score) {
						t.Fatalf("%s: depth %d value %v, alpha-beta depth %d value %v", fen, got.Depth, got.Score, want.Depth, want.Score)
					}
					if probe == plain {
						// Without probes New builds the same search; its depth cap is the Depth option.
						public := mustSearcher(t, tc.game, Config{Preset: tc.preset, Search: algorithm, Depth: tc.depth, HashMB: 1})
						if res := searchLimited(public, p, engine.Limits{}); res.Move != got.Move || !sameValue(res.Score, got.Score) {
							t.Fatalf("%s: NewSearcher's search played %v worth %v, the model searcher %v worth %v", fen,
								res.Move, res.Score, got.Move, got.Score)
						}
					}
					if got.Move != want.Move {
						// Equally good moves: the model search must have chosen one of alpha-beta's value.
						if v := ref.moveValue(p, got.Move, tc.depth); !sameValue(v, want.Score) {
							t.Fatalf("%s: played %s worth %v, alpha-beta %s worth %v", fen, p.FormatMove(got.Move), v,
								p.FormatMove(want.Move), want.Score)
						}
					}
				}
			})
		}
	}
}

// realModels are models of every search per game, with our preset first.
var realModels = map[string]struct {
	preset string
	depth  int
	models map[string]string
}{
	"chess": {"strongest", 3, map[string]string{
		MStarSearch: "materialist", MStarOnePassSearch: "materialist,attacker", AlphaBetaStarSearch: "materialist",
		MStarStrategySearch: "materialist@1", MStarRiskSearch: "attacker@2", OMSearch: "materialist@2",
		PromSearch: "strongest:0.5,materialist:0.3,attacker:0.2", MEUSearch: "rank:0.6",
		SymmetricSearch: "materialist"}},
	"checkers": {"mat-tot25", 4, map[string]string{
		MStarSearch: "mat-tot25@3", MStarOnePassSearch: "mat-tot25,mat+tot25", AlphaBetaStarSearch: "mat-tot25",
		MStarStrategySearch: "mat+tot25@2", MStarRiskSearch: "mat-tot25", OMSearch: "mat-tot25",
		PromSearch: "mat-tot25:0.7,mat+tot25:0.3", MEUSearch: "rank:0.5", SymmetricSearch: "mat-tot25"}},
	"connect4": {"sophisticated", 4, map[string]string{
		MStarSearch: "sp", MStarOnePassSearch: "sp,sophisticated", AlphaBetaStarSearch: "sp",
		MStarStrategySearch: "sp@1", MStarRiskSearch: "sp@3", OMSearch: "sp@1",
		PromSearch: "sp:0.6,sophisticated:0.4", MEUSearch: "rank:0.7", SymmetricSearch: "sp"}},
	"tictactoe": {"strongest", 4, map[string]string{
		MStarSearch: "open-lines", MStarOnePassSearch: "open-lines,strongest", AlphaBetaStarSearch: "open-lines",
		MStarStrategySearch: "open-lines@2", MStarRiskSearch: "open-lines@3", OMSearch: "open-lines@2",
		PromSearch: "strongest:0.5,open-lines:0.5", MEUSearch: "rank:0.5", SymmetricSearch: "open-lines"}},
}

func TestModelSearchesWithRealModelsPredictReplies(t *testing.T) {
	for _, g := range bookedGames() {
		spec := realModels[g.Name()]
		positions := randomPositions(g, 9, 4, 10)
		if testing.Short() {
			positions = positions[:1]
		}
		for _, algorithm := range modelSearchAlgorithms() {
			model := spec.models[algorithm]
			t.Run(g.Name()+"/"+algorithm+" "+model, func(t *testing.T) {
				s := mustSearcher(t, g, Config{Preset: spec.preset, Search: algorithm, Model: model, Depth: spec.depth, HashMB: 1})
				for _, p := range positions {
					var reported []games.Move
					res := s.Search(p, engine.NewControl(engine.Limits{Depth: spec.depth}, p.ToMove()), func(info engine.Info) {
						reported = append(reported, info.Predicted)
					})
					// A search stops early once the end of the game is within its horizon.
					if !games.IsLegal(p, res.Move) || res.Depth < 1 || res.Depth > spec.depth {
						t.Fatalf("%s: move %v at depth %d", p.FEN(), res.Move, res.Depth)
					}
					after := p.Clone()
					after.Play(res.Move)
					if games.OutcomeOf(after).Result != games.Ongoing {
						continue
					}
					if !games.IsLegal(after, res.Ponder) {
						t.Fatalf("%s: %s, predicted reply %v is not legal", p.FEN(), p.FormatMove(res.Move), res.Ponder)
					}
					if len(reported) == 0 || reported[len(reported)-1] != res.Ponder {
						t.Errorf("%s: info lines predicted %v, the result %v", p.FEN(), reported, res.Ponder)
					}
				}
			})
		}
	}
}

func TestNewSearcherRejectsBadModels(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"model for alpha-beta", Config{Model: "mat-tot25"}, `alphabeta takes no opponent model`},
		{"unknown preset", Config{Search: "mstar", Model: "mat-tot25,nosuch"},
			`opponent model term "nosuch": checkers has no preset "nosuch"`},
		{"malformed", Config{Search: "om", Model: "mat-tot25@x"}, `term "mat-tot25@x": depth "x"`},
		{"too deep a strategy", Config{Preset: "mat-tot25", Search: "mstar", Model: "mat+tot25@4"},
			`term "mat+tot25@4": the opponent's depth 4 must be below our depth 4`},
		{"configured depth", Config{Preset: "mat-tot25", Search: "mstar-risk", Model: "mat+tot25@4", Depth: 6}, ""},
		{"probabilities", Config{Search: "prom", Model: "mat-tot25:0.5,mat+tot25:0.4"}, `sum to 0.9, want 1`},
		{"meu without rank", Config{Search: "meu", Model: "mat-tot25"}, `meu takes one term rank:PS`},
		{"meu rank", Config{Search: "MEU", Model: "rank:0.25"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(checkers.Game{}, withHashMB(tc.cfg, 1))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// withHashMB returns cfg with a table size.
func withHashMB(cfg Config, mb int) Config {
	cfg.HashMB = mb
	return cfg
}

func TestFeatureBoundsHoldAlongRandomLines(t *testing.T) {
	lines, plies := 200, 12
	if testing.Short() {
		lines = 40
	}
	for _, g := range bookedGames() {
		t.Run(g.Name(), func(t *testing.T) {
			bounder := featureBounderOf(g)
			names := g.FeatureNames()
			for i, known := range bounder.known {
				if !known {
					t.Errorf("feature %s has no bound", names[i])
				}
			}
			m := mirrorOfGame(t, g)
			rng := rand.New(rand.NewPCG(11, uint64(len(names))))
			bounds := make([]float64, len(names))
			x := make([]float64, len(names))
			for line := range lines {
				p := randomPositions(g, uint64(line), rng.IntN(60))[0]
				if !bounder.at(p, bounds) {
					t.Fatalf("the bounder cannot read %s", p.FEN())
				}
				for i := range bounds {
					if j := m.Partner[i]; bounder.nonNegative[i] && (!bounder.nonNegative[j] || m.Sign[i] != 1) {
						t.Fatalf("feature %s is a count but reads as %v times %s from the other side", names[i], m.Sign[i], names[j])
					}
					if j := m.Partner[i]; bounds[j] != bounds[i] {
						t.Fatalf("%s: features %s and %s read each other from the other side but are bounded by %v and %v",
							p.FEN(), names[i], names[j], bounds[i], bounds[j])
					}
				}
				for ply := 0; ply <= plies && games.OutcomeOf(p).Result == games.Ongoing; ply++ {
					p.Features(x)
					for i, v := range x {
						if math.Abs(v) > bounds[i] || (bounder.nonNegative[i] && v < 0) {
							t.Fatalf("%s: %s = %v beyond its bound %v", p.FEN(), names[i], v, bounds[i])
						}
					}
					var buf [games.MaxMoves]games.Move
					moves := p.AppendMoves(buf[:0])
					if len(moves) == 0 {
						break
					}
					p.Play(moves[rng.IntN(len(moves))])
				}
			}
		})
	}
}

func TestCheckersTotOnePlyFromTheHorizon(t *testing.T) {
	// Where the refinement narrows Tot's interval, every child lies in it and none is a finished game.
	g := checkers.Game{}
	bounder := featureBounderOf(g)
	n := len(g.FeatureNames())
	low, high := make([]float64, n), make([]float64, n)
	rng := rand.New(rand.NewPCG(4, 4))
	narrowed := 0
	for game := range 60 {
		p := randomPositions(g, uint64(game), 0)[0]
		for ply := 0; ply < 150 && games.OutcomeOf(p).Result == games.Ongoing; ply++ {
			if !bounder.intervals(p, 1, low, high) {
				t.Fatal("the bounder cannot read a checkers position")
			}
			var buf [games.MaxMoves]games.Move
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			if tot := float64(bitsOnBoard(p)); low[checkers.FeatTotal] > 0 {
				narrowed++
				for _, m := range moves {
					fen, move := p.FEN(), p.FormatMove(m)
					p.Play(m)
					child := float64(bitsOnBoard(p))
					if p.Status().Result != games.Ongoing || p.Repetitions() > 0 || child < low[checkers.FeatTotal] ||
						child > high[checkers.FeatTotal] {
						t.Fatalf("%s: after %s Tot %v (status %v, repetitions %d), interval [%v, %v] from Tot %v", fen,
							move, child, p.Status(), p.Repetitions(), low[checkers.FeatTotal], high[checkers.FeatTotal], tot)
					}
					p.Undo()
				}
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	if narrowed == 0 {
		t.Error("no position had its interval narrowed")
	}
}

func TestCheckersExchangeBoundIsTheirPapers(t *testing.T) {
	// Mat - Tot/25 against the same function from the other side: |f1 + f0| <= (2/25) Tot, 8 hundredths of a
	// man per piece on the board; against Mat + Tot/25 (minimax's model) the pair is zero-sum.
	g := checkers.Game{}
	op := mustPreset(t, g, "mat-tot25").Eval
	mm := mustPreset(t, g, "mat+tot25").Eval
	p := g.Start()
	for _, tc := range []struct {
		chain []engine.Evaluation
		want  []float64
	}{
		{[]engine.Evaluation{op, op}, []float64{8 * 24}},
		{[]engine.Evaluation{op, mm}, []float64{0}},
		{[]engine.Evaluation{op, op, mm}, []float64{8 * 24, 0}},
		{[]engine.Evaluation{op, mm, op}, []float64{0, 0}},
	} {
		bounds, err := modelLeafBounds(g, tc.chain, mirrorOfGame(t, g))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, len(tc.want))
		bounds(p, got)
		ranges, err := modelLeafRanges(g, tc.chain, mirrorOfGame(t, g))
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := make([]float64, len(tc.want)), make([]float64, len(tc.want))
		ranges(p, 4, lo, hi)
		for k := range got {
			// Tot is a count: the sum f_k + f_{k+1} = -8 Tot is never positive.
			if got[k] != tc.want[k] || lo[k] != -tc.want[k] || hi[k] != 0 {
				t.Errorf("chain of %d: bounds %v, ranges [%v, %v], want bounds %v", len(tc.chain), got, lo, hi, tc.want)
			}
		}
	}
}

func TestAlphaBetaStarWithTheDerivedBoundsIsMStarOnePass(t *testing.T) {
	// Theorem 4: whenever the leaf bounds hold alpha-beta* returns M* 1-pass's value, move and prediction.
	for _, g := range bookedGames() {
		spec := realModels[g.Name()]
		t.Run(g.Name(), func(t *testing.T) {
			positions := randomPositions(g, 13, 2, 5, 9, 14, 20, 27)
			if testing.Short() {
				positions = positions[:2]
			}
			for _, model := range []string{spec.models[AlphaBetaStarSearch], spec.models[MStarOnePassSearch]} {
				cfg := Config{Preset: spec.preset, Model: model, Depth: spec.depth, HashMB: 1}
				cfg.Search = AlphaBetaStarSearch
				star := mustSearcher(t, g, cfg)
				cfg.Search = MStarOnePassSearch
				onePass := mustSearcher(t, g, cfg)
				for _, p := range positions {
					a, b := searchLimited(star, p, engine.Limits{}), searchLimited(onePass, p, engine.Limits{})
					if a.Move != b.Move || a.Ponder != b.Ponder || !sameValue(a.Score, b.Score) {
						t.Fatalf("%s model %s: alpha-beta* %v %v %v, M* 1-pass %v %v %v", p.FEN(), model, a.Move, a.Ponder,
							a.Score, b.Move, b.Ponder, b.Score)
					}
				}
			}
		})
	}
}

func TestPairsWithoutABoundAreRejected(t *testing.T) {
	g := checkers.Game{}
	bounder := featureBounderOf(g)
	bounder.known = make([]bool, len(bounder.known)) // as for a game whose features have no proven bound
	op := mustPreset(t, g, "mat-tot25").Eval
	strongest := mustPreset(t, g, "strongest").Eval
	if _, err := newPairGap(g, bounder, strongest, model.ZeroSumOpponent(strongest, mirrorOfGame(t, g)), mirrorOfGame(t, g)); err != nil {
		t.Errorf("a zero-sum pair needs no bound: %v", err)
	}
	_, err := newPairGap(g, bounder, op, op, mirrorOfGame(t, g))
	if err == nil || !strings.Contains(err.Error(), "not zero-sum on the checkers feature tot, which has no proven bound") {
		t.Errorf("error %v", err)
	}
}

func TestSymmetricSearchWithCommonInterestStaysInItsRange(t *testing.T) {
	// Two exchange-loving checkers players share an interest in exchanges: the equilibrium pays the root
	// player at least its minimax value and at most 2B more per opponent level (model.BCIRange).
	g := checkers.Game{}
	s := mustSearcher(t, g, Config{Preset: "mat-tot25", Search: "symmetric", Model: "mat-tot25", HashMB: 1})
	ref := newReference(t, g, mustPreset(t, g, "mat-tot25").Eval, engine.AlphaBetaOptions{})
	for _, p := range randomPositions(g, 5, 8, 16, 30) {
		const depth = 4
		res := searchLimited(s, p, engine.Limits{Depth: depth})
		minimax := ref.search(p, depth).Score
		tot := float64(bitsOnBoard(p))
		if res.Score < minimax-1e-9 || res.Score > minimax+2*8*tot*(depth/2)+1e-9 {
			t.Errorf("%s: equilibrium pays %v, minimax %v, bound %v", p.FEN(), res.Score, minimax, 8*tot)
		}
	}
}

// bitsOnBoard counts the pieces of a checkers position.
func bitsOnBoard(p games.Position) int {
	x := make([]float64, checkers.NumFeatures)
	p.Features(x)
	return int(x[checkers.FeatTotal])
}
