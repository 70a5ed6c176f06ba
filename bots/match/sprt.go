// The sequential probability ratio test of a match: pentanomial game-pair statistics, the generalized LLR
// with the maximum-likelihood distributions under elo0 and elo1, the stopping rule and the Elo interval.
package match

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The method (no code is taken from anywhere; the formulas are the papers'):
//
//   - A pair is the two games of one opening with colours swapped. Its outcome for player 1 is one of five
//     (the pentanomial model): LL, LD, DD or WL, WD, WW, worth a_i = 0, 1/4, 1/2, 3/4, 1 (the pair's points
//     over 2). Pairs are independent while the two games of a pair are not (the opening's bias), which is
//     why pairs, not games, are the unit: the variance is the pairs' and comes out right.
//   - Elo is logistic: an expected score s means elo = -400 log10(1/s - 1), s = L(elo) = 1/(1+10^(-elo/400)).
//     H0 is E[a] = L(elo0), H1 is E[a] = L(elo1).
//   - The generalized SPRT (GSPRT; H. P. Chan, J. Liu et al., "Generalized sequential probability ratio
//     test", http://stat.columbia.edu/~jcliu/paper/GSPRT_SQA3.pdf) replaces each simple hypothesis by the
//     maximum-likelihood distribution within it. For a multinomial with observed frequencies p_i the
//     distribution q of mean s that maximizes sum p_i log q_i is q_i = p_i / (1 + λ(a_i - s)), with λ the
//     root of sum p_i (a_i - s)/(1 + λ(a_i - s)) = 0 (M. Van den Bergh, "The support of the MLE for a
//     multinomial with a given expectation", http://hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf;
//     this is what fishtest's LLR_logistic computes). Then LLR = N sum_i p_i log(q1_i / q0_i) over the N
//     pairs.
//   - Empty cells are counted as 1e-3 pairs (fishtest does the same), so that the MLE exists from the first
//     pair on; it changes the LLR by a negligible amount once pairs accumulate.
//   - Wald's bounds: stop accepting H1 once LLR >= log((1-β)/α), accepting H0 once LLR <= log(β/(1-α)).
//   - The Elo estimate is EloDiff of the pairs' mean score, and its 95% interval EloDiff(s ± 1.96 σ/√N) with
//     σ² the pairs' variance sum p_i (a_i - s)², as fishtest reports for pentanomial results.

// pairValues are the pentanomial outcomes' scores: the pair's points for player 1 over 2.
var pairValues = [5]float64{0, 0.25, 0.5, 0.75, 1}

// PentanomialNames name the pentanomial cells in order, from player 1's view.
var PentanomialNames = [5]string{"LL", "LD", "DD/WL", "WD", "WW"}

// emptyCell is the count given to a pentanomial cell without pairs in the LLR.
const emptyCell = 1e-3

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against H1: elo = Elo1 (logistic Elo of
// player 1 over player 2) with error rates Alpha (accepting H1 when H0 holds) and Beta (accepting H0 when
// H1 holds).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Default error rates.
const (
	DefaultAlpha = 0.05
	DefaultBeta  = 0.05
)

// ParseSPRT reads "elo0,elo1" and returns the test with the error rates alpha and beta, checked.
func ParseSPRT(text string, alpha, beta float64) (SPRT, error) {
	a, b, ok := strings.Cut(text, ",")
	if !ok {
		return SPRT{}, fmt.Errorf("%q: want elo0,elo1 (e.g. 0,5)", text)
	}
	elo0, err0 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	elo1, err1 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err := errors.Join(err0, err1); err != nil {
		return SPRT{}, fmt.Errorf("%q: want two numbers elo0,elo1 (e.g. 0,5)", text)
	}
	s := SPRT{Elo0: elo0, Elo1: elo1, Alpha: alpha, Beta: beta}
	return s, s.Check()
}

// maxSPRTElo bounds the hypotheses' Elo: beyond it the expected scores are too close to 0 or 1 to test.
const maxSPRTElo = 2000

// Check returns an error unless elo0 < elo1 are finite and within ±2000, and alpha, beta are in (0, 1)
// with alpha + beta < 1 (otherwise the bounds cross).
func (s SPRT) Check() error {
	switch {
	case math.IsNaN(s.Elo0) || math.IsNaN(s.Elo1) || math.Abs(s.Elo0) > maxSPRTElo || math.Abs(s.Elo1) > maxSPRTElo:
		return fmt.Errorf("elo0 and elo1 must be numbers within ±%d", maxSPRTElo)
	case s.Elo0 >= s.Elo1:
		return fmt.Errorf("elo0 (%g) must be below elo1 (%g)", s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 1) || !(s.Beta > 0 && s.Beta < 1):
		return fmt.Errorf("alpha (%g) and beta (%g) must be between 0 and 1", s.Alpha, s.Beta)
	case s.Alpha+s.Beta >= 1:
		return fmt.Errorf("alpha + beta (%g) must be below 1", s.Alpha+s.Beta)
	}
	return nil
}

// Bounds returns Wald's bounds on the LLR: H0 is accepted at or below lower, H1 at or above upper.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// eloScore is the expected score of a logistic Elo difference.
func eloScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// LLR returns the generalized log-likelihood ratio of H1 against H0 for the pentanomial counts, 0 without pairs.
func (s SPRT) LLR(penta [5]int) float64 {
	counts, n := regularized(penta)
	if n == 0 {
		return 0
	}
	var p [5]float64
	for i, c := range counts {
		p[i] = c / n
	}
	return n * llrPerSample(pairValues[:], p[:], eloScore(s.Elo0), eloScore(s.Elo1))
}

// regularized returns the counts with empty cells counted as emptyCell, and their total; all zero
// without pairs.
func regularized(penta [5]int) (counts [5]float64, total float64) {
	pairs := 0
	for _, c := range penta {
		pairs += c
	}
	if pairs == 0 {
		return counts, 0
	}
	for i, c := range penta {
		counts[i] = max(float64(c), emptyCell)
		total += counts[i]
	}
	return counts, total
}

// llrPerSample returns sum_i p_i log(q1_i / q0_i), where q0 and q1 are the distributions on the values a of
// means s0 and s1 that maximize the likelihood of the frequencies p.
func llrPerSample(a, p []float64, s0, s1 float64) float64 {
	q0, q1 := mleWithMean(a, p, s0), mleWithMean(a, p, s1)
	var llr float64
	for i := range p {
		if p[i] > 0 {
			llr += p[i] * math.Log(q1[i]/q0[i])
		}
	}
	return llr
}

// mleWithMean returns the distribution q on the values a with mean s that maximizes sum p_i log q_i:
// q_i = p_i / (1 + λ(a_i - s)), λ the root of g(λ) = sum p_i (a_i - s)/(1 + λ(a_i - s)). g decreases from
// +∞ to -∞ on the interval where every 1 + λ(a_i - s) with p_i > 0 is positive, so bisection finds the
// root. s must lie strictly between the smallest and largest a_i with p_i > 0.
func mleWithMean(a, p []float64, s float64) []float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for i, ai := range a {
		if p[i] <= 0 {
			continue
		}
		d := ai - s
		switch {
		case d > 0:
			lo = max(lo, -1/d)
		case d < 0:
			hi = min(hi, -1/d)
		}
	}
	g := func(lambda float64) float64 {
		var sum float64
		for i, ai := range a {
			if p[i] > 0 {
				d := ai - s
				sum += p[i] * d / (1 + lambda*d)
			}
		}
		return sum
	}
	// The poles are at lo and hi themselves; bisect strictly inside them.
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if g(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	lambda := lo + (hi-lo)/2
	q := make([]float64, len(a))
	var total float64
	for i, ai := range a {
		if p[i] > 0 {
			q[i] = p[i] / (1 + lambda*(ai-s))
			total += q[i]
		}
	}
	for i := range q {
		q[i] /= total // exact up to rounding already; this removes the bisection's last error
	}
	return q
}

// Verdict is an SPRT's decision.
type Verdict int

// The verdicts.
const (
	Undecided Verdict = iota
	AcceptH0
	AcceptH1
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "undecided"
}

// Decide returns the verdict of the counts: AcceptH1 at or above the upper bound, AcceptH0 at or below the
// lower one, Undecided between them.
func (s SPRT) Decide(penta [5]int) Verdict {
	llr := s.LLR(penta)
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Undecided
}

// PentanomialElo returns the logistic Elo difference of the pentanomial counts and its 95% interval
// [lo, hi]: EloDiff of the pairs' mean score s and of s ∓ 1.96 σ/√N, with σ² the pairs' variance. Without
// pairs all three are NaN; an end of the score interval at or beyond 0 or 1 gives an infinite end.
func PentanomialElo(penta [5]int) (elo, lo, hi float64) {
	n := 0
	for _, c := range penta {
		n += c
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	var s, variance float64
	for i, c := range penta {
		s += float64(c) * pairValues[i]
	}
	s /= float64(n)
	for i, c := range penta {
		d := pairValues[i] - s
		variance += float64(c) * d * d
	}
	variance /= float64(n)
	se := math.Sqrt(variance / float64(n))
	return EloDiff(s), EloDiff(s - z95*se), EloDiff(s + z95*se)
}

// pairIndex returns the pentanomial cell of a pair in which player 1 scored points (0, 0.5, ... 2).
func pairIndex(points float64) int {
	return max(0, min(4, int(math.Round(2*points))))
}

// sprtJSON is the JSON form of a match's SPRT.
type sprtJSON struct {
	Elo0         float64 `json:"elo0"`
	Elo1         float64 `json:"elo1"`
	Alpha        float64 `json:"alpha"`
	Beta         float64 `json:"beta"`
	Elo          string  `json:"elo_model"`
	LLR          float64 `json:"llr"`
	Lower        float64 `json:"lower_bound"`
	Upper        float64 `json:"upper_bound"`
	Verdict      string  `json:"verdict"`
	VerdictPairs int     `json:"verdict_pairs,omitempty"`
}

// sprtJSON returns the summary's SPRT in JSON form, or nil without one.
func (s Summary) sprtJSON() *sprtJSON {
	if s.SPRT == nil {
		return nil
	}
	lower, upper := s.SPRT.Bounds()
	round := func(x float64) float64 { return math.Round(x*1000)/1000 + 0 }
	verdict := map[Verdict]string{Undecided: "undecided", AcceptH0: "H0", AcceptH1: "H1"}[s.Verdict]
	return &sprtJSON{Elo0: s.SPRT.Elo0, Elo1: s.SPRT.Elo1, Alpha: s.SPRT.Alpha, Beta: s.SPRT.Beta, Elo: "logistic",
		LLR: round(s.SPRT.LLR(s.Pentanomial)), Lower: round(lower), Upper: round(upper), Verdict: verdict,
		VerdictPairs: s.VerdictPairs}
}

// writePairs writes the pentanomial counts with the Elo they give, and the SPRT's state when there is one:
//
//	pentanomial [LL, LD, DD/WL, WD, WW] = [3, 10, 20, 12, 5] over 50 pairs; elo +13.9, 95% [-20.1, +48.4] (logistic, by pairs)
//	SPRT elo0 +0.0, elo1 +5.0 (logistic), alpha 0.05, beta 0.05: LLR 0.32 in [-2.94, 2.94]: undecided
func (s Summary) writePairs(w io.Writer) {
	pairs := s.Pairs()
	if pairs == 0 && s.SPRT == nil {
		return
	}
	counts := make([]string, len(s.Pentanomial))
	for i, c := range s.Pentanomial {
		counts[i] = strconv.Itoa(c)
	}
	elo, lo, hi := PentanomialElo(s.Pentanomial)
	plural := "s"
	if pairs == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "pentanomial [%s] = [%s] over %d pair%s; elo %s, 95%% [%s, %s] (logistic, by pairs)\n",
		strings.Join(PentanomialNames[:], ", "), strings.Join(counts, ", "), pairs, plural, formatElo(elo), formatElo(lo), formatElo(hi))
	if s.SPRT == nil {
		return
	}
	lower, upper := s.SPRT.Bounds()
	state := "undecided"
	if s.Verdict != Undecided {
		state = fmt.Sprintf("%s after %d pairs", s.Verdict, s.VerdictPairs)
	}
	fmt.Fprintf(w, "SPRT elo0 %s, elo1 %s (logistic), alpha %g, beta %g: LLR %.2f in [%.2f, %.2f]: %s\n",
		formatElo(s.SPRT.Elo0), formatElo(s.SPRT.Elo1), s.SPRT.Alpha, s.SPRT.Beta, s.SPRT.LLR(s.Pentanomial), lower, upper, state)
}
