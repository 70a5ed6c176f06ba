// Tests of the fit: the solver, and both fits recovering known weights from synthetic data.

package main

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSolveRecoversAKnownSolution(t *testing.T) {
	a := [][]float64{{4, 2, 0.6}, {2, 5, 1}, {0.6, 1, 3}}
	want := []float64{1, -2, 0.5}
	b := make([]float64, 3)
	for i := range a {
		b[i] = dot(a[i], want)
	}
	got, err := solve(a, b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("solution %v, want %v", got, want)
		}
	}
	if _, err := solve([][]float64{{1, 2}, {2, 1}}, []float64{1, 1}); err == nil {
		t.Error("an indefinite matrix was accepted")
	}
}

// syntheticSamples draws n feature vectors and scores them with w plus Gaussian noise.
func syntheticSamples(rng *rand.Rand, w []float64, n int, noise float64) []sample {
	data := make([]sample, n)
	for i := range data {
		x := make([]float64, len(w))
		for j := range x {
			x[j] = float64(rng.IntN(5) - 2)
		}
		data[i] = sample{x: x, y: dot(w, x) + noise*rng.NormFloat64()}
	}
	return data
}

func TestFitsRecoverKnownWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	want := []float64{100, 300, -20, 45, 5}
	data := syntheticSamples(rng, want, 4000, 10)
	xs := make([][]float64, len(data))
	ys := make([]float64, len(data))
	ones := make([]float64, len(data))
	for i, d := range data {
		xs[i], ys[i], ones[i] = d.x, d.y, 1
	}
	prior := make([]float64, len(want))
	ls, err := weightedLeastSquares(xs, ys, ones, prior, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	logistic, err := fitLogistic(data, ls, prior, 1e-6, 6)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]float64{"least squares": ls, "logistic": logistic} {
		for i := range want {
			if math.Abs(got[i]-want[i]) > 3 {
				t.Errorf("%s: weights %v, want %v", name, got, want)
				break
			}
		}
	}
	if l := logisticLoss(data, logistic); l > logisticLoss(data, prior) {
		t.Errorf("the fit's loss %v is above the zero vector's", l)
	}
}
