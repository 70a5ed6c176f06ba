// Search effort of M* 1-pass, alpha-beta* and alpha-beta in checkers at depth 4 (Carmel & Markovitch's
// leaves-per-move figures: 723, 190 and 66; here, over 8,035 positions of ACF games with Mat in men, 873.5,
// 376.1 with the paper's bound or 260.5 with the exact range of f1 + f0, and 113.0).
package model

import (
	"dossier/engine"
	"math"
	"math/bits"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/gametest"
)

// The paper's second checkers experiment: every player values a board by Mat - Tot/25 from its own point
// of view (Mat in men with a king worth 1.5, here in hundredths of a man as the bots presets count), so
// the exchange-loving opponent OP is that same function from its side, and |f1 + f0| = (2/25) Tot.
// msMat12Tot25 is the bots preset mat12-tot25: Mat as a fraction of a side's 12 pieces, Mat/12 - Tot/25
// times 1200.
var (
	msMatTot25   = engine.Evaluation{Name: "mat-tot25", Weights: msCheckersWeights(100, 150, -4)}
	msMat12Tot25 = engine.Evaluation{Name: "mat12-tot25", Weights: msCheckersWeights(100, 150, -48)}
)

// msExchangePair is one reading of the paper's pair: the player's function Mat - Tot/25 and OP's, the same
// from its side.
type msExchangePair struct {
	name string
	eval engine.Evaluation
}

// msExchangePairs are the two readings of Mat: in men (Tot/25 only breaks ties) and in twelfths of a side.
var msExchangePairs = []msExchangePair{
	{"Mat in men", msMatTot25},
	{"Mat in twelfths of a side (mat12-tot25)", msMat12Tot25},
}

// gap is how much f1 + f0 falls per piece on the board at a static leaf: twice the function's cost of a
// piece of Tot (8 or 96 hundredths of a man).
func (x msExchangePair) gap() float64 { return -2 * x.eval.Weights[checkers.FeatTotal] }

// msTotBound is the paper's bound for the pair with Mat in men; msExchangeRanges its exact ranges.
var (
	msTotBound       = msExchangePairs[0].bound
	msExchangeRanges = msExchangePairs[0].ranges
)

// msCheckersWeights returns checkers weights on men, kings and Tot, zero elsewhere.
func msCheckersWeights(men, kings, tot float64) []float64 {
	w := make([]float64, checkers.NumFeatures)
	w[checkers.FeatMen], w[checkers.FeatKings], w[checkers.FeatTotal] = men, kings, tot
	return w
}

// bound is the paper's leaf bound |f1 + f0| <= (2/25) Tot, Tot read at the position the search asks
// about: no move adds a piece, so it holds at every leaf below.
func (x msExchangePair) bound(p games.Position, dst []float64) {
	dst[0] = x.gap() * float64(msPieces(p))
}

// msPieces returns the number of pieces on a checkers board (Tot).
func msPieces(p games.Position) int {
	if cp, ok := p.(*checkers.Position); ok {
		return bits.OnesCount32(cp.Men(games.First) | cp.Kings(games.First) | cp.Men(games.Second) | cp.Kings(games.Second))
	}
	x := make([]float64, checkers.NumFeatures)
	p.Features(x)
	return int(x[checkers.FeatTotal])
}

// msACFPositions returns the positions before every stride-th move of the first n games of the ACF
// archive (at most 100 moves of each side per game).
func msACFPositions(t testing.TB, n, stride int) []games.Position {
	t.Helper()
	all, err := checkers.ReadPDN(gametest.OpenTestData(t, "checkers/ACF_converted.pdn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	var out []games.Position
	for i := 0; i < len(all) && i < n; i++ {
		// Replay returns the game's final position: the moves are replayed here from the start.
		_, moves, err := all[i].Replay()
		if err != nil {
			t.Fatalf("ACF game %d: %v", i+1, err)
		}
		start, err := all[i].StartPosition()
		if err != nil {
			t.Fatalf("ACF game %d: %v", i+1, err)
		}
		p := games.Position(start)
		for ply, m := range moves {
			if ply >= 200 || p.Status().Result != games.Ongoing {
				break
			}
			if ply%stride == 0 {
				out = append(out, p.Clone())
			}
			p.Play(m)
		}
	}
	return out
}

// msLeafCounter is a position that counts feature extractions.
type msLeafCounter struct {
	games.Position
	n *uint64
}

// Features counts and extracts the features.
func (p msLeafCounter) Features(dst []float64) {
	*p.n++
	p.Position.Features(dst)
}

// ranges is what the two functions of the benchmark say exactly, as LeafRanges: at a static
// leaf f0 + f1 = -(2/25) Tot (in hundredths of a man, -8 Tot), and at a finished game's leaf 0, so below p,
// Tot never growing, the sum lies in [-8 Tot(p), 0]. One ply from the horizon the leaves are p's children,
// and it looks at them without evaluating them: with captures forced (every move is one), each child has
// lost at least one of the opponent's pieces and at most all of them, and cannot be a finished game (a
// capture resets the no-progress count); without a capture, the children keep p's Tot, and only a king's
// quiet move can end the game, by repeating a position (which takes four plies without a capture or man
// move) or reaching the no-progress limit: when that is possible, the king moves are played to see.
func (x msExchangePair) ranges(p games.Position, depth int, lo, hi []float64) {
	tot, w := float64(msPieces(p)), x.gap()
	lo[0], hi[0] = -w*tot, 0
	cp, ok := p.(*checkers.Position)
	if depth != 1 || !ok {
		return
	}
	mover := cp.ToMove()
	switch {
	case cp.TacticsForced():
		theirs := bits.OnesCount32(cp.Men(mover^1) | cp.Kings(mover^1))
		lo[0], hi[0] = -w*(tot-1), -w*(tot-float64(theirs))
	case cp.Kings(mover) == 0 || (cp.NoProgress()+1 < 4 && cp.NoProgress()+1 < checkers.NoProgressPlies):
		lo[0], hi[0] = -w*tot, -w*tot
	case !msDrawInOnePly(cp):
		lo[0], hi[0] = -w*tot, -w*tot
	}
}

// msDrawInOnePly reports whether a quiet move of p (no capture is possible) leads to a position that the
// searches score as a draw: a repetition or the no-progress limit.
func msDrawInOnePly(p *checkers.Position) bool {
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		p.Play(m)
		draw := p.Status().Result != games.Ongoing || p.Repetitions() > 0
		p.Undo()
		if draw {
			return true
		}
	}
	return false
}

// msStarBound is one way the benchmark tells alpha-beta* how far the model is from zero-sum.
type msStarBound struct {
	name   string
	ranges LeafRanges
}

// starBounds are the two ways for the pair: the paper's bound on |f1 + f0| (read at every node, so Tot
// shrinks as pieces come off), and the exact range of f1 + f0 that the functions themselves give.
func (x msExchangePair) starBounds() []msStarBound {
	return []msStarBound{
		{"|f1 + f0| <= (2/25) Tot", LeafBounds(x.bound).Ranges()},
		{"f1 + f0 in [-(2/25) Tot, 0], exact 1 ply out", x.ranges},
	}
}

// msEffort is the average effort per move (leaves) of the searches over a set of positions: M* 1-pass,
// alpha-beta* with each of the pair's starBounds, and alpha-beta, at a fixed depth in the game's move order and
// (alpha-beta* and alpha-beta) by iterative deepening with the same move table.
type msEffort struct {
	positions       int
	onePass, ab     float64
	abStar          []float64 // per starBounds
	abStarID        []float64
	abID            float64
	exactPositions  int       // the subset where the exact ranges were measured (every msExactStride-th position)
	exact, exactAB  float64   // alpha-beta* with the exact range below every node, and alpha-beta, on that subset
	abStarMicros    []float64 // CPU-bound wall time per fixed-depth search, microseconds (noisy)
	onePassMicros   float64
	alphaBetaMicros float64
}

// msMeasureEffort searches every position to depth with M* 1-pass, alpha-beta* (with each of the pair's
// starBounds) and alpha-beta, at a fixed depth in the game's move order and (alpha-beta*, and
// alpha-beta as alpha-beta* of a player without a model) by iterative deepening, and checks that every
// alpha-beta* found M*'s move and value.
func msMeasureEffort(t testing.TB, pair msExchangePair, positions []games.Position, depth, exactStride int) msEffort {
	g := checkers.Game{}
	mirror := msCheckersMirror()
	opts := ModelOptions{Mirror: mirror}
	f := pair.eval
	player := NewPlayerModel(f, f)
	msStarBounds := pair.starBounds()
	one, err := NewMStarOnePass(g, player, opts)
	if err != nil {
		t.Fatal(err)
	}
	newStar := func(model *PlayerModel, r LeafRanges) *AlphaBetaStar {
		s, err := NewAlphaBetaStar(g, model, nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		s.SetLeafRanges(r)
		return s
	}
	var stars, starsID []*AlphaBetaStar
	for _, b := range msStarBounds {
		stars = append(stars, newStar(player, b.ranges))
		starsID = append(starsID, newStar(player, b.ranges))
	}
	plainID := newStar(NewPlayerModel(f), nil)
	e := msEffort{positions: len(positions), abStar: make([]float64, len(stars)), abStarID: make([]float64, len(stars)),
		abStarMicros: make([]float64, len(stars))}
	timed := func(dst *float64, f func()) {
		start := time.Now()
		f()
		*dst += float64(time.Since(start).Microseconds())
	}
	for i, p := range positions {
		var r1 ModelResult
		timed(&e.onePassMicros, func() { r1 = one.SearchDepth(p, depth) })
		e.onePass += float64(r1.Leaves)
		for i, s := range stars {
			var r ModelResult
			timed(&e.abStarMicros[i], func() { r = s.SearchDepth(p, depth) })
			if r.Value != r1.Value || r.Move != r1.Move || r.Predicted != r1.Predicted {
				t.Fatalf("%s, %s: alpha-beta* %v (%s, reply %s), M* 1-pass %v (%s, reply %s)", p.FEN(), msStarBounds[i].name,
					r.Value, p.FormatMove(r.Move), msFormatReply(p, r.Move, r.Predicted), r1.Value, p.FormatMove(r1.Move),
					msFormatReply(p, r1.Move, r1.Predicted))
			}
			e.abStar[i] += float64(r.Leaves)
		}
		var n uint64
		timed(&e.alphaBetaMicros, func() {
			msAlphaBeta(msLeafCounter{p, &n}, f, mirror, p.ToMove(), depth, 0, math.Inf(-1), math.Inf(1), true)
		})
		e.ab += float64(n)
		for i, s := range starsID {
			s.NewGame()
			res := s.Search(p, engine.NewControl(engine.Limits{Depth: depth}, p.ToMove()), nil)
			if res.Score != r1.Value {
				t.Fatalf("%s, %s: iterative alpha-beta* %v, M* 1-pass %v", p.FEN(), msStarBounds[i].name, res.Score, r1.Value)
			}
			e.abStarID[i] += float64(s.Leaves())
		}
		if exactStride > 0 && i%exactStride == 0 {
			exact := newStar(player, abExactRanges(t, p.ToMove(), player.Chain(), opts))
			r := exact.SearchDepth(p, depth)
			if r.Value != r1.Value || r.Move != r1.Move {
				t.Fatalf("%s, exact ranges: alpha-beta* %v, M* 1-pass %v", p.FEN(), r.Value, r1.Value)
			}
			e.exactPositions++
			e.exact += float64(r.Leaves)
			e.exactAB += float64(n)
		}
		plainID.NewGame()
		plainID.Search(p, engine.NewControl(engine.Limits{Depth: depth}, p.ToMove()), nil)
		e.abID += float64(plainID.Leaves())
	}
	k := float64(len(positions))
	for _, x := range []*float64{&e.onePass, &e.ab, &e.abID, &e.onePassMicros, &e.alphaBetaMicros} {
		*x /= k
	}
	if e.exactPositions > 0 {
		e.exact /= float64(e.exactPositions)
		e.exactAB /= float64(e.exactPositions)
	}
	for _, xs := range [][]float64{e.abStar, e.abStarID, e.abStarMicros} {
		for i := range xs {
			xs[i] /= k
		}
	}
	return e
}

// msFormatReply writes the reply r to move m of p, or "-".
func msFormatReply(p games.Position, m, r games.Move) string {
	if m == games.NoMove || r == games.NoMove {
		return "-"
	}
	p.Play(m)
	defer p.Undo()
	return p.FormatMove(r)
}

func TestSearchEffort(t *testing.T) {
	gamesCount, stride, exactStride := 300, 2, 10
	if testing.Short() {
		gamesCount, stride, exactStride = 20, 8, 0
	}
	positions := msACFPositions(t, gamesCount, stride)
	for _, pair := range msExchangePairs {
		t.Run(pair.eval.Name, func(t *testing.T) {
			msReportEffort(t, pair, msMeasureEffort(t, pair, positions, 4, exactStride), stride, gamesCount, exactStride)
		})
	}
}

// msReportEffort logs the effort of the searches against the paper's figures and checks their order.
func msReportEffort(t *testing.T, pair msExchangePair, e msEffort, stride, gamesCount, exactStride int) {
	msStarBounds := pair.starBounds()
	t.Logf("checkers, depth 4, Mat - Tot/25 (%s) vs the exchange-loving model, %d positions (every %d-th move of %d ACF games):",
		pair.name, e.positions, stride, gamesCount)
	t.Logf("%-62s %11s %6s %8s", "search (fixed depth, the game's move order)", "leaves/move", "paper", "µs/move")
	t.Logf("%-62s %11.1f %6d %8.0f", "M* 1-pass", e.onePass, 723, e.onePassMicros)
	for i, b := range msStarBounds {
		t.Logf("%-62s %11.1f %6d %8.0f", "alpha-beta*, "+b.name, e.abStar[i], 190, e.abStarMicros[i])
	}
	t.Logf("%-62s %11.1f %6d %8.0f", "alpha-beta", e.ab, 66, e.alphaBetaMicros)
	for i, b := range msStarBounds {
		t.Logf("%-62s %11.1f", "iterative deepening 1-4: alpha-beta*, "+b.name, e.abStarID[i])
	}
	t.Logf("%-62s %11.1f", "iterative deepening 1-4: alpha-beta", e.abID)
	for i, b := range msStarBounds {
		t.Logf("alpha-beta* (%s) / alpha-beta = %.2f at a fixed depth (paper %.2f), %.2f by iterative deepening",
			b.name, e.abStar[i]/e.ab, 190.0/66, e.abStarID[i]/e.abID)
	}
	if e.exactPositions > 0 {
		t.Logf("the limit of any bound, on every %d-th position (%d): alpha-beta* with the exact range of f1 + f0 below every node %.1f, alpha-beta %.1f: %.2f",
			exactStride, e.exactPositions, e.exact, e.exactAB, e.exact/e.exactAB)
	}
	for i := range msStarBounds {
		if e.abStar[i] > e.onePass || e.ab > e.abStar[i] || e.abID > e.abStarID[i] {
			t.Errorf("leaves per move: M* 1-pass %.1f, alpha-beta* %.1f, alpha-beta %.1f (iterative: %.1f and %.1f); want that order",
				e.onePass, e.abStar[i], e.ab, e.abStarID[i], e.abID)
		}
	}
}

func BenchmarkSearchEffort(b *testing.B) {
	positions := msACFPositions(b, 20, 4)
	for _, search := range []string{"M* 1-pass", "alpha-beta*"} {
		b.Run(search, func(b *testing.B) {
			opts := ModelOptions{Mirror: msCheckersMirror()}
			player := NewPlayerModel(msMatTot25, msMatTot25)
			var s interface {
				SearchDepth(games.Position, int) ModelResult
			}
			var err error
			if search == "M* 1-pass" {
				s, err = NewMStarOnePass(checkers.Game{}, player, opts)
			} else {
				s, err = NewAlphaBetaStar(checkers.Game{}, player, msTotBound, opts)
			}
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var leaves uint64
			moves := 0
			for b.Loop() {
				for _, p := range positions {
					leaves += s.SearchDepth(p, 4).Leaves
					moves++
				}
			}
			b.ReportMetric(float64(leaves)/float64(moves), "leaves/move")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(moves), "µs/move")
		})
	}
}
