// The fit: least squares and a logistic (Texel-style) refinement by Gauss-Newton, in plain Go.
package main

import (
	"errors"
	"math"
)

// sample is one labelled position: its features from the side to move and Stockfish's score for it, with
// the game's result from the side to move (1, 1/2 or 0) when hasResult.
type sample struct {
	x         []float64
	y         float64
	result    float64
	hasResult bool
}

// solve solves the symmetric positive definite system a w = b by Cholesky decomposition (a is
// overwritten).
func solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	for j := 0; j < n; j++ {
		d := a[j][j]
		for k := 0; k < j; k++ {
			d -= a[j][k] * a[j][k]
		}
		if d <= 0 {
			return nil, errors.New("the normal equations are not positive definite")
		}
		a[j][j] = math.Sqrt(d)
		for i := j + 1; i < n; i++ {
			s := a[i][j]
			for k := 0; k < j; k++ {
				s -= a[i][k] * a[j][k]
			}
			a[i][j] = s / a[j][j]
		}
	}
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= a[i][k] * y[k]
		}
		y[i] = s / a[i][i]
	}
	w := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= a[k][i] * w[k]
		}
		w[i] = s / a[i][i]
	}
	return w, nil
}

// weightedLeastSquares minimises sum_i c_i r_i^2 + ridge |w - prior|^2 over w, where r_i = target_i - w . x_i
// and ridge = lambda sum_i c_i: the prior weighs as much as lambda times the data.
func weightedLeastSquares(xs [][]float64, target, c []float64, prior []float64, lambda float64) ([]float64, error) {
	n := len(prior)
	var total float64
	for _, ci := range c {
		total += ci
	}
	ridge := lambda * total
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		a[i][i] = ridge
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = ridge * prior[i]
	}
	for s, x := range xs {
		for i := 0; i < n; i++ {
			if x[i] == 0 {
				continue
			}
			ci := c[s] * x[i]
			b[i] += ci * target[s]
			for j := 0; j <= i; j++ {
				a[i][j] += ci * x[j]
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			a[j][i] = a[i][j]
		}
	}
	return solve(a, b)
}

// scoreScale is the logistic scale: a score s means an expected result of sigmoid(s) = 1/(1+10^(-s/400)).
const scoreScale = 400 / math.Ln10

// sigmoid maps a score to an expected result in (0, 1).
func sigmoid(s float64) float64 { return 1 / (1 + math.Exp(-s/scoreScale)) }

// fitLogistic minimises sum_i (sigmoid(y_i) - sigmoid(w . x_i))^2 + lambda |w - prior|^2 by Gauss-Newton from
// start, the Texel loss with Stockfish's expected result as the target: large scores weigh little.
func fitLogistic(data []sample, start, prior []float64, lambda float64, iterations int) ([]float64, error) {
	w := append([]float64(nil), start...)
	xs := make([][]float64, len(data))
	for i, d := range data {
		xs[i] = d.x
	}
	target := make([]float64, len(data))
	c := make([]float64, len(data))
	for it := 0; it < iterations; it++ {
		// Linearise sigmoid(w . x) around the current w: the step solves a weighted least-squares problem
		// whose targets are the current scores corrected by the residual over the slope.
		for i, d := range data {
			z := dot(w, d.x)
			p := sigmoid(z)
			slope := p * (1 - p) / scoreScale
			target[i] = z + (sigmoid(d.y)-p)/slope
			c[i] = slope * slope
		}
		next, err := weightedLeastSquares(xs, target, c, prior, lambda)
		if err != nil {
			return nil, err
		}
		w = next
	}
	return w, nil
}

// dot is the dot product.
func dot(w, x []float64) float64 {
	var s float64
	for i := range w {
		s += w[i] * x[i]
	}
	return s
}

// logisticLoss is the mean squared difference of expected results.
func logisticLoss(data []sample, w []float64) float64 {
	var s float64
	for _, d := range data {
		e := sigmoid(d.y) - sigmoid(dot(w, d.x))
		s += e * e
	}
	return s / float64(len(data))
}
