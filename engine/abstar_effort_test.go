// Search effort of M* 1-pass, alpha-beta* and alpha-beta in checkers at depth 4 (Carmel & Markovitch's
// leaves-per-move figures: 723, 190 and 66).
package engine

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/gametest"
)

// The paper's second checkers experiment: every player values a board by Mat - Tot/25 from its own point
// of view (Mat in men with a king worth 1.5, here in hundredths of a man as the bots presets count), so
// the exchange-loving opponent OP is that same function from its side, and |f1 + f0| = (2/25) Tot.
var (
	msMatTot25 = Evaluation{Name: "mat-tot25", Weights: msCheckersWeights(100, 150, -4)}
)

// msCheckersWeights returns checkers weights on men, kings and Tot, zero elsewhere.
func msCheckersWeights(men, kings, tot float64) []float64 {
	w := make([]float64, checkers.NumFeatures)
	w[checkers.FeatMen], w[checkers.FeatKings], w[checkers.FeatTotal] = men, kings, tot
	return w
}

// msTotBound is the paper's leaf bound |f1 + f0| <= (2/25) Tot, read at the root: no move adds a piece.
func msTotBound(p games.Position, dst []float64) {
	x := make([]float64, checkers.NumFeatures)
	p.Features(x)
	dst[0] = 2 * 4 * x[checkers.FeatTotal]
}

// msACFPositions returns the positions before every stride-th move of the first n games of the ACF
// archive (at most 100 moves of each side per game).
func msACFPositions(t testing.TB, n, stride int) []games.Position {
	t.Helper()
	path := filepath.Join(gametest.SharedData(t, ""), "checkers", "ACF_converted.pdn")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("ACF archive not available: %v", err)
	}
	defer f.Close()
	all, err := checkers.ReadPDN(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []games.Position
	for i := 0; i < len(all) && i < n; i++ {
		start, moves, err := all[i].Replay()
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

// msEffort is the average effort per move (leaves) of the searches over a set of positions.
type msEffort struct {
	positions         int
	onePass, abStar   float64 // fixed depth, the game's move order
	ab                float64 // textbook alpha-beta, fixed depth, the game's move order
	abStarID, abID    float64 // iterative deepening to the depth, previous iterations' choices first
	abStarSearchAgree int     // positions where the iterative search found the fixed-depth value
}

// msMeasureEffort searches every position to depth with M* 1-pass, alpha-beta* and alpha-beta, at a
// fixed depth and (alpha-beta* and, as alpha-beta* of a player without a model, alpha-beta) by iterative
// deepening, and checks that alpha-beta* found M*'s move and value.
func msMeasureEffort(t testing.TB, positions []games.Position, depth int) msEffort {
	g := checkers.Game{}
	mirror := msCheckersMirror()
	opts := ModelOptions{Mirror: mirror}
	player := NewPlayerModel(msMatTot25, msMatTot25)
	one, err := NewMStarOnePass(g, player, opts)
	if err != nil {
		t.Fatal(err)
	}
	star, err := NewAlphaBetaStar(g, player, msTotBound, opts)
	if err != nil {
		t.Fatal(err)
	}
	starID, err := NewAlphaBetaStar(g, player, msTotBound, opts)
	if err != nil {
		t.Fatal(err)
	}
	plainID, err := NewAlphaBetaStar(g, NewPlayerModel(msMatTot25), nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	var leavesOne, leavesStar, leavesAB, leavesStarID, leavesABID uint64
	for _, p := range positions {
		r1 := one.SearchDepth(p, depth)
		r2 := star.SearchDepth(p, depth)
		if r1.Value != r2.Value || r1.Move != r2.Move {
			t.Fatalf("%s: alpha-beta* %v (%s), M* 1-pass %v (%s)", p.FEN(), r2.Value, p.FormatMove(r2.Move), r1.Value, p.FormatMove(r1.Move))
		}
		leavesOne += r1.Leaves
		leavesStar += r2.Leaves
		var n uint64
		msAlphaBeta(msLeafCounter{p, &n}, msMatTot25, mirror, p.ToMove(), depth, 0, math.Inf(-1), math.Inf(1), true)
		leavesAB += n
		for _, s := range []*AlphaBetaStar{starID, plainID} {
			s.NewGame()
		}
		res := starID.Search(p, NewControl(Limits{Depth: depth}, p.ToMove()), nil)
		if res.Score != r1.Value {
			t.Fatalf("%s: iterative alpha-beta* %v, M* 1-pass %v", p.FEN(), res.Score, r1.Value)
		}
		leavesStarID += starID.Leaves()
		plainID.Search(p, NewControl(Limits{Depth: depth}, p.ToMove()), nil)
		leavesABID += plainID.Leaves()
	}
	k := float64(len(positions))
	return msEffort{positions: len(positions), onePass: float64(leavesOne) / k, abStar: float64(leavesStar) / k,
		ab: float64(leavesAB) / k, abStarID: float64(leavesStarID) / k, abID: float64(leavesABID) / k}
}

func TestSearchEffort(t *testing.T) {
	gamesCount, stride := 300, 2
	if testing.Short() {
		gamesCount, stride = 20, 8
	}
	positions := msACFPositions(t, gamesCount, stride)
	e := msMeasureEffort(t, positions, 4)
	t.Logf("checkers, depth 4, Mat - Tot/25 vs the exchange-loving model, |f1 + f0| <= (2/25) Tot, %d positions (every %d-th move of %d ACF games):",
		e.positions, stride, gamesCount)
	t.Logf("%-40s %11s %6s", "search", "leaves/move", "paper")
	t.Logf("%-40s %11.1f %6d", "M* 1-pass", e.onePass, 723)
	t.Logf("%-40s %11.1f %6d", "alpha-beta*", e.abStar, 190)
	t.Logf("%-40s %11.1f %6d", "alpha-beta", e.ab, 66)
	t.Logf("%-40s %11.1f", "alpha-beta*, iterative deepening 1-4", e.abStarID)
	t.Logf("%-40s %11.1f", "alpha-beta, iterative deepening 1-4", e.abID)
	t.Logf("alpha-beta* / alpha-beta = %.2f at a fixed depth (paper %.2f), %.2f by iterative deepening",
		e.abStar/e.ab, 190.0/66, e.abStarID/e.abID)
	if e.abStar > e.onePass || e.ab > e.abStar || e.abID > e.abStarID {
		t.Errorf("leaves per move: M* 1-pass %.1f, alpha-beta* %.1f, alpha-beta %.1f (iterative: %.1f and %.1f); want that order",
			e.onePass, e.abStar, e.ab, e.abStarID, e.abID)
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
