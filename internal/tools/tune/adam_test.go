// Tests of the gradient tuner: Adam recovers known weights from positions of random chess games labelled
// through the sigmoid by those weights, K is found again, and the labels mix scores and results.

package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"dossier/bots/presets"
	"dossier/games"
	"dossier/games/chess"
)

// walkRandomGames plays random games from the start and offers visit the positions met on the way from ply 6
// on, one in every (at random), none over, until visit has taken n of them.
func walkRandomGames(rng *rand.Rand, n, every int, visit func(p *chess.Position) bool) {
	var buf [games.MaxMoves]games.Move
	for taken := 0; taken < n; {
		p := chess.StartPosition()
		for ply := 0; ply < 160 && taken < n; ply++ {
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 || p.Status().Result.Over() {
				break
			}
			if ply >= 6 && rng.IntN(every) == 0 && visit(p) {
				taken++
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// randomPositions returns the features of n positions of random games (one in four), with their evaluation
// under w within ±limit.
func randomPositions(rng *rand.Rand, n int, w []float64, limit float64) [][]float64 {
	g := chess.Game{}
	var out [][]float64
	walkRandomGames(rng, n, 4, func(p *chess.Position) bool {
		x := make([]float64, len(g.FeatureNames()))
		p.Features(x)
		if math.Abs(dot(w, x)) > limit {
			return false
		}
		out = append(out, x)
		return true
	})
	return out
}

func TestAdamRecoversKnownWeights(t *testing.T) {
	g := chess.Game{}
	names := g.FeatureNames()
	prior, err := presets.Weights(g, priorWeights())
	if err != nil {
		t.Fatal(err)
	}
	strongest, err := presets.Lookup(g, presets.Default)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		truth []float64
		k     float64
		// start returns where the tuner starts from the true weights.
		start func(rng *rand.Rand, truth []float64) []float64
	}{
		{"the prior from 40% off", prior, 1, func(rng *rand.Rand, truth []float64) []float64 {
			w := make([]float64, len(truth))
			for j := range w {
				w[j] = truth[j] * (0.6 + 0.8*rng.Float64())
			}
			return w
		}},
		{"the strongest preset from zero", strongest.Eval.Weights, 1, func(*rand.Rand, []float64) []float64 {
			return make([]float64, len(names))
		}},
		// Labels of a scaled evaluation: K is found again first, then the weights with K held.
		{"the prior at K = 0.6 from the strongest preset", prior, 0.6, func(*rand.Rand, []float64) []float64 {
			return append([]float64(nil), strongest.Eval.Weights...)
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i)+3, 4))
			xs := randomPositions(rng, 6000, c.truth, 600/c.k)
			data := make([]example, len(xs))
			for i, x := range xs {
				data[i] = example{x: toSparse(x), target: sigmoid(c.k * dot(c.truth, x))}
			}
			o := defaultAdamOptions()
			o.K = 1
			if c.k != 1 {
				o.K = fitK(data, c.truth)
				if math.Abs(o.K-c.k) > 1e-3 {
					t.Errorf("K = %.5f, want %v", o.K, c.k)
				}
			}
			start := c.start(rng, c.truth)
			got := fitAdam(data, start, o)
			// Every weight within 1% of its value plus half a centipawn; the labels are exact, so only
			// the optimizer's convergence limits this. A feature the positions never show (the mop-up term:
			// random games reach no bare king) keeps the weight it started at.
			seen := make([]bool, len(names))
			for _, x := range xs {
				for j, v := range x {
					seen[j] = seen[j] || v != 0
				}
			}
			for j, name := range names {
				if !seen[j] {
					if got[j] != start[j] {
						t.Errorf("%s: no position shows it, yet its weight moved from %.2f to %.2f", name, start[j], got[j])
					}
					continue
				}
				if math.Abs(got[j]-c.truth[j]) > 0.01*math.Abs(c.truth[j])+0.5 {
					t.Errorf("%s: %.2f, want %.2f (started at %.2f)", name, got[j], c.truth[j], start[j])
				}
			}
			if before, after := meanLoss(data, start, o.K), meanLoss(data, got, o.K); after > before/1000 {
				t.Errorf("the loss went from %.3g to %.3g only", before, after)
			}
		})
	}
}

func TestParseResult(t *testing.T) {
	cases := []struct {
		text string
		want float64
		ok   bool
	}{
		{"1", 1, true}, {"0", 0, true}, {"0.5", 0.5, true}, {"1/2", 0.5, true}, {" 1 ", 1, true},
		{"1-0", 0, false}, {"2", 0, false}, {"", 0, false}, {"0.25", 0, false},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			got, err := parseResult(c.text)
			if (err == nil) != c.ok || got != c.want {
				t.Errorf("parseResult(%q) = %v, %v; want %v, ok %v", c.text, got, err, c.want, c.ok)
			}
		})
	}
}

func FuzzParseResult(f *testing.F) {
	for _, s := range []string{"1", "0.5", "1/2", "0", "x", "1-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := parseResult(text)
		if err == nil && got != 0 && got != 0.5 && got != 1 {
			t.Fatalf("parseResult(%q) = %v", text, got)
		}
	})
}

func TestExampleTargets(t *testing.T) {
	// A score of 400·log10(3) centipawns means an expected result of 3/4.
	score := 400 * math.Log10(3)
	cases := []struct {
		name   string
		sample sample
		weight float64
		want   float64
	}{
		{"score only", sample{y: score}, 0, 0.75},
		{"result only", sample{y: score, result: 0, hasResult: true}, 1, 0},
		{"half and half", sample{y: score, result: 1, hasResult: true}, 0.5, 0.875},
		{"no result falls back on the score", sample{y: score}, 1, 0.75},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.sample.x = []float64{0, 2, 0, -1}
			got := examples([]sample{c.sample}, labelMode{resultWeight: c.weight})[0]
			if math.Abs(got.target-c.want) > 1e-12 {
				t.Errorf("target %v, want %v", got.target, c.want)
			}
			if len(got.x.index) != 2 || got.x.index[0] != 1 || got.x.value[1] != -1 || got.x.dot([]float64{5, 3, 7, 1}) != 5 {
				t.Errorf("sparse features %+v of %v", got.x, c.sample.x)
			}
		})
	}
}

func TestAdamOnResultsFindsTheExpectation(t *testing.T) {
	// Texel's setting: results drawn as wins with probability sigmoid(w·x) (and losses otherwise) are noisy
	// labels whose expectation is the known evaluation. Two features, 20,000 positions: Adam on the results
	// recovers the weights up to the sampling noise, whose spread over seeds is about 2 cp for the first
	// weight and 1.2 cp for the second; 6 cp is three standard deviations or more.
	rng := rand.New(rand.NewPCG(1, 6))
	truth := []float64{120, -40}
	var data []sample
	for range 20000 {
		x := []float64{float64(rng.IntN(7) - 3), float64(rng.IntN(9) - 4)}
		result := 0.0
		if rng.Float64() < sigmoid(dot(truth, x)) {
			result = 1
		}
		data = append(data, sample{x: x, y: 0, result: result, hasResult: true})
	}
	o := defaultAdamOptions()
	o.Epochs, o.Batch = 60, 1024
	got := fitAdam(examples(data, labelMode{resultWeight: 1}), []float64{0, 0}, o)
	for j := range truth {
		if math.Abs(got[j]-truth[j]) > 6 {
			t.Errorf("weights %v, want %v within 6 cp", got, truth)
			break
		}
	}
}
