// The gradient tuner: Adam over sparse feature vectors on the logistic (Texel) loss, with the scaling
// constant K fitted first, and labels from scores, game results or a mix of both.

package main

import (
	"math"
	"math/rand/v2"
)

// sparse is a feature vector that keeps its non-zero entries only (most chess features are zero in most
// positions: passed pawns by rank, rooks on the seventh, ...).
type sparse struct {
	index []int32
	value []float64
}

// toSparse keeps the non-zero entries of x.
func toSparse(x []float64) sparse {
	var s sparse
	for i, v := range x {
		if v != 0 {
			s.index = append(s.index, int32(i))
			s.value = append(s.value, v)
		}
	}
	return s
}

// dot returns w · s.
func (s sparse) dot(w []float64) float64 {
	var sum float64
	for k, i := range s.index {
		sum += w[i] * s.value[k]
	}
	return sum
}

// example is one training position for the gradient tuner: its features and the expected result to fit
// (in [0, 1], from the side to move).
type example struct {
	x      sparse
	target float64
	score  float64 // the score label in centipawns (the tables' RMS error)
}

// Labels: what the expected result of a position is made of.
type labelMode struct {
	// resultWeight is the weight of the game's result in the target, the rest going to sigmoid(score):
	// 0 fits scores only, 1 results only (the original Texel tuning).
	resultWeight float64
}

// examples turns samples into training examples: target = w·result + (1-w)·sigmoid(score). A sample
// without a result falls back on its score whatever the weight.
func examples(data []sample, mode labelMode) []example {
	out := make([]example, len(data))
	for i, d := range data {
		t := sigmoid(d.y)
		if d.hasResult {
			t = mode.resultWeight*d.result + (1-mode.resultWeight)*t
		}
		out[i] = example{x: toSparse(d.x), target: t}
	}
	return out
}

// meanLoss is the mean of (target - sigmoid(K w·x))².
func meanLoss(data []example, w []float64, k float64) float64 {
	var s float64
	for _, e := range data {
		d := e.target - sigmoid(k*e.x.dot(w))
		s += d * d
	}
	return s / float64(max(len(data), 1))
}

// fitK returns the K in [kMin, kMax] that minimizes meanLoss(data, w, K) for the weights w, by golden-
// section search (the loss is unimodal in K for any sensible data). Texel's tuning fits K once to the
// engine's current evaluation, so that the tuned weights keep its scale, then tunes the weights with K
// fixed.
func fitK(data []example, w []float64) float64 {
	const kMin, kMax = 0.05, 20.0
	// Search log K, so that the relative precision is the same at every scale.
	lo, hi := math.Log(kMin), math.Log(kMax)
	ratio := (math.Sqrt(5) - 1) / 2
	a, b := hi-ratio*(hi-lo), lo+ratio*(hi-lo)
	fa, fb := meanLoss(data, w, math.Exp(a)), meanLoss(data, w, math.Exp(b))
	for hi-lo > 1e-6 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - ratio*(hi-lo)
			fa = meanLoss(data, w, math.Exp(a))
		} else {
			lo, a, fa = a, b, fb
			b = lo + ratio*(hi-lo)
			fb = meanLoss(data, w, math.Exp(b))
		}
	}
	return math.Exp((lo + hi) / 2)
}

// adamOptions are the gradient tuner's settings.
type adamOptions struct {
	// Epochs are passes over the data; Batch is the examples per step (0: all, full-batch Adam).
	Epochs, Batch int
	// Rate is the first step size in weight units (centipawns); it decays geometrically to
	// Rate·FinalRate over the epochs.
	Rate, FinalRate float64
	// Beta1, Beta2 and Epsilon are Adam's moment decays and its guard against division by zero.
	Beta1, Beta2, Epsilon float64
	// K scales the evaluation inside the sigmoid (fitK).
	K float64
	// L2 pulls the weights towards Prior: the loss gains L2 · mean_j ((w_j - prior_j)/100)².
	L2    float64
	Prior []float64
	// Seed shuffles the examples between epochs when Batch is set.
	Seed uint64
}

// defaultAdamOptions are settings that converge on the chess features in 400 epochs of a few thousand
// positions (the tests' recovery of known weights); more data needs fewer epochs.
func defaultAdamOptions() adamOptions {
	return adamOptions{Epochs: 400, Batch: 256, Rate: 5, FinalRate: 0.005, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-12, K: 1}
}

// fitAdam minimizes mean_i (target_i - sigmoid(K w·x_i))² (+ the L2 term) by Adam (Kingma & Ba, "Adam: a
// method for stochastic optimization", 2015) from start and returns the weights. The gradient of an
// example is -2 (t - p) p (1 - p) K/scoreScale · x with p = sigmoid(K w·x), over its non-zero features
// only.
func fitAdam(data []example, start []float64, o adamOptions) []float64 {
	n := len(start)
	w := append([]float64(nil), start...)
	m, v, grad := make([]float64, n), make([]float64, n), make([]float64, n)
	order := make([]int, len(data))
	for i := range order {
		order[i] = i
	}
	batch := o.Batch
	if batch <= 0 || batch > len(data) {
		batch = len(data)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0xada))
	decay := 1.0
	if o.Epochs > 1 && o.FinalRate > 0 {
		decay = math.Pow(o.FinalRate, 1/float64(o.Epochs-1))
	}
	rate := o.Rate
	step := 0
	for epoch := 0; epoch < o.Epochs; epoch++ {
		if batch < len(data) {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		for begin := 0; begin < len(order); begin += batch {
			end := min(begin+batch, len(order))
			clear(grad)
			scale := 1 / float64(end-begin)
			for _, i := range order[begin:end] {
				e := data[i]
				p := sigmoid(o.K * e.x.dot(w))
				g := -2 * (e.target - p) * p * (1 - p) * o.K / scoreScale * scale
				for k, j := range e.x.index {
					grad[j] += g * e.x.value[k]
				}
			}
			if o.L2 > 0 && o.Prior != nil {
				for j := range grad {
					grad[j] += 2 * o.L2 * (w[j] - o.Prior[j]) / (100 * 100 * float64(n))
				}
			}
			step++
			c1 := 1 - math.Pow(o.Beta1, float64(step))
			c2 := 1 - math.Pow(o.Beta2, float64(step))
			for j := range w {
				m[j] = o.Beta1*m[j] + (1-o.Beta1)*grad[j]
				v[j] = o.Beta2*v[j] + (1-o.Beta2)*grad[j]*grad[j]
				w[j] -= rate * (m[j] / c1) / (math.Sqrt(v[j]/c2) + o.Epsilon)
			}
		}
		rate *= decay
	}
	return w
}
