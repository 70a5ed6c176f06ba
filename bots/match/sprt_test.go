// Tests of the SPRT: the LLR against hand-computed values, the MLE's optimality, the Elo interval, the
// stopping rule's error rates on simulated pairs of known Elo, the pair bookkeeping and the output.

package match

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/connect4"
)

// elo3to1 is the Elo of a 3-to-1 score (0.75): 400 log10(3).
var elo3to1 = 400 * math.Log10(3)

func TestLLRHandComputed(t *testing.T) {
	// Only LL and WW pairs: a two-point distribution on {0, 1} with p(0) = 1/4. On two points the
	// distribution of mean s is unique, q(0) = 1 - s, so the MLE is that one: under H0 (elo 0, s = 1/2)
	// q0 = (1/2, 1/2), under H1 (3:1, s = 3/4) q1 = (1/4, 3/4), and over 40 pairs
	// LLR = 40 (1/4 ln(1/4 / 1/2) + 3/4 ln(3/4 / 1/2)) = 40 (-ln2/4 + 3/4 ln 1.5) = 5.232481...
	want := 40 * (0.25*math.Log(0.5) + 0.75*math.Log(1.5))
	cases := []struct {
		name     string
		elo0     float64
		elo1     float64
		want     float64
		tolerate float64
	}{
		{"H1 true", 0, elo3to1, want, 0.02},
		// Swapping the hypotheses negates the ratio.
		{"swapped", elo3to1, 0, -want, 0.02},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Unregularized, on the two points alone: exact.
			got := 40 * llrPerSample([]float64{0, 1}, []float64{0.25, 0.75}, eloScore(c.elo0), eloScore(c.elo1))
			if math.Abs(got-c.want) > 1e-9 {
				t.Errorf("two-point LLR %v, want %v", got, c.want)
			}
			// Through SPRT.LLR, whose three empty cells count 0.001 pairs each: almost the same.
			s := SPRT{Elo0: c.elo0, Elo1: c.elo1, Alpha: 0.05, Beta: 0.05}
			if got := s.LLR([5]int{10, 0, 0, 0, 30}); math.Abs(got-c.want) > c.tolerate {
				t.Errorf("LLR %v, want %v ± %v", got, c.want, c.tolerate)
			}
		})
	}
	// A mean equal to the mean of H0 and of H1 alike is impossible; a sample whose mean is H0's gives a
	// negative LLR, one whose mean is H1's a positive one.
	s := SPRT{Elo0: 0, Elo1: elo3to1, Alpha: 0.05, Beta: 0.05}
	if llr := s.LLR([5]int{5, 10, 20, 10, 5}); llr >= 0 {
		t.Errorf("a sample at elo 0 gives LLR %v, want < 0", llr)
	}
	if llr := s.LLR([5]int{0, 0, 10, 0, 10}); llr <= 0 { // mean 3/4
		t.Errorf("a sample at 3:1 gives LLR %v, want > 0", llr)
	}
	if llr := s.LLR([5]int{}); llr != 0 {
		t.Errorf("no pairs: LLR %v, want 0", llr)
	}
}

func TestMLEWithMeanIsTheConstrainedMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	a := pairValues[:]
	for trial := range 200 {
		p := make([]float64, 5)
		var total float64
		for i := range p {
			p[i] = rng.Float64() + 0.01
			total += p[i]
		}
		for i := range p {
			p[i] /= total
		}
		s := 0.05 + 0.9*rng.Float64()
		q := mleWithMean(a, p, s)
		var sum, mean float64
		for i := range q {
			sum += q[i]
			mean += q[i] * a[i]
		}
		if math.Abs(sum-1) > 1e-12 || math.Abs(mean-s) > 1e-9 {
			t.Fatalf("trial %d: q %v sums to %v with mean %v, want 1 and %v", trial, q, sum, mean, s)
		}
		// Moving along a direction that keeps the sum and the mean (d ⟂ 1 and d ⟂ a) never raises the
		// log-likelihood: the objective is concave, so this is the maximum.
		loglik := func(q []float64) float64 {
			var l float64
			for i := range q {
				l += p[i] * math.Log(q[i])
			}
			return l
		}
		best := loglik(q)
		for range 20 {
			d := make([]float64, 5)
			for i := range d {
				d[i] = rng.NormFloat64()
			}
			project(d, []float64{1, 1, 1, 1, 1})
			project(d, []float64{-2, -1, 0, 1, 2}) // a - 1/2, orthogonal to the ones
			moved := make([]float64, 5)
			for i := range q {
				moved[i] = q[i] + 1e-3*d[i]*q[i]/(1+math.Abs(d[i]))
			}
			// Re-project the step itself so that the constraints hold exactly.
			step := make([]float64, 5)
			for i := range q {
				step[i] = moved[i] - q[i]
			}
			project(step, []float64{1, 1, 1, 1, 1})
			project(step, []float64{-2, -1, 0, 1, 2})
			for i := range q {
				moved[i] = q[i] + step[i]
			}
			if l := loglik(moved); l > best+1e-12 {
				t.Fatalf("trial %d: a feasible move raises the log-likelihood from %v to %v", trial, best, l)
			}
		}
	}
}

// project removes from d its component along u.
func project(d, u []float64) {
	var du, uu float64
	for i := range d {
		du += d[i] * u[i]
		uu += u[i] * u[i]
	}
	for i := range d {
		d[i] -= du / uu * u[i]
	}
}

func TestPentanomialElo(t *testing.T) {
	cases := []struct {
		name         string
		penta        [5]int
		elo, lo, hi  float64 // computed by hand from the comment's numbers
		infLo, infHi bool
	}{
		// Symmetric: mean 1/2, variance (2·(1/4)²·10 + 2·(1/2)²·5)/50 = (1.25+2.5)/50 = 0.075, se = √(0.075/50)
		// = 0.0387298, so s = 0.5 ± 0.0759097: EloDiff(0.5759097) = -400 log10(0.736384) = +53.158, and -53.158 below.
		{"even", [5]int{5, 10, 20, 10, 5}, 0, -EloDiff(0.5 + z95*math.Sqrt(0.075/50)), EloDiff(0.5 + z95*math.Sqrt(0.075/50)), false, false},
		// All pairs DD or WL: no variance, a point interval at 0.
		{"all even pairs", [5]int{0, 0, 12, 0, 0}, 0, 0, 0, false, false},
		// 3:1 pairs: mean (0·1 + 1·3)/4 = 0.75, variance 3/16, se = √(3/64) = 0.2165: the interval's top end
		// passes 1, so it is +Inf.
		{"few pairs", [5]int{1, 0, 0, 0, 3}, elo3to1, EloDiff(0.75 - z95*math.Sqrt(3.0/64)), 0, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			elo, lo, hi := PentanomialElo(c.penta)
			if math.Abs(elo-c.elo) > 1e-9 || math.Abs(lo-c.lo) > 1e-9 && !c.infLo {
				t.Errorf("elo %v [%v, %v], want %v [%v, %v]", elo, lo, hi, c.elo, c.lo, c.hi)
			}
			if c.infHi {
				if !math.IsInf(hi, 1) {
					t.Errorf("upper end %v, want +Inf", hi)
				}
			} else if math.Abs(hi-c.hi) > 1e-9 {
				t.Errorf("upper end %v, want %v", hi, c.hi)
			}
		})
	}
	if elo, lo, hi := PentanomialElo([5]int{}); !math.IsNaN(elo) || !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Error("no pairs should give NaN")
	}
	// The symmetric case's numbers, written out: ±53.16 Elo.
	if _, _, hi := PentanomialElo([5]int{5, 10, 20, 10, 5}); math.Abs(hi-53.158) > 0.001 {
		t.Errorf("upper end %v, want 53.158", hi)
	}
}

// tilted returns the pentanomial distribution base·exp(θ a_i), normalized, whose mean is eloScore(elo):
// the shape of base moved to a known Elo.
func tilted(base [5]float64, elo float64) [5]float64 {
	target := eloScore(elo)
	at := func(theta float64) ([5]float64, float64) {
		var q [5]float64
		var sum, mean float64
		for i := range q {
			q[i] = base[i] * math.Exp(theta*pairValues[i])
			sum += q[i]
		}
		for i := range q {
			q[i] /= sum
			mean += q[i] * pairValues[i]
		}
		return q, mean
	}
	lo, hi := -50.0, 50.0
	for range 200 {
		mid := (lo + hi) / 2
		if _, m := at(mid); m < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	q, _ := at((lo + hi) / 2)
	return q
}

// simulate runs the test on pairs drawn from dist until it decides (or maxPairs pairs) and returns the verdict.
func simulate(s SPRT, dist [5]float64, rng *rand.Rand, maxPairs int) Verdict {
	var penta [5]int
	for n := 1; n <= maxPairs; n++ {
		u := rng.Float64()
		i := 0
		for ; i < 4 && u >= dist[i]; i++ {
			u -= dist[i]
		}
		penta[i]++
		if v := s.Decide(penta); v != Undecided {
			return v
		}
	}
	return Undecided
}

func TestSPRTStoppingRuleOnSimulatedPairs(t *testing.T) {
	// A typical engine-test shape (many even pairs, few double wins or losses) moved to a known Elo.
	base := [5]float64{0.03, 0.2, 0.54, 0.2, 0.03}
	const runs = 200
	gain := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	fishtest := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	cases := []struct {
		name    string
		sprt    SPRT
		elo     float64
		wantH1  bool
		atLeast float64 // the share of runs that must reach the right verdict
	}{
		// At elo0 the test must accept H0 with probability at least 1 - alpha; at elo1 accept H1 with
		// probability at least 1 - beta. The tolerance, 0.05 below 0.95, is more than three standard
		// deviations of a share over 200 runs (√(0.05·0.95/200) = 0.0154); the GSPRT's overshoot makes the
		// real error rates a little smaller than the nominal ones.
		{"0,10 at elo0", gain, 0, false, 0.90},
		{"0,10 at elo1", gain, 10, true, 0.90},
		// fishtest's usual bounds, at a true Elo of 0: H0 accepted.
		{"0,5 at elo0", fishtest, 0, false, 0.90},
		// Well outside the hypotheses the test decides the right way almost always.
		{"0,10 far below", gain, -15, false, 0.99},
		{"0,10 far above", gain, 30, true, 0.99},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i)+1, 99))
			dist := tilted(base, c.elo)
			var mean float64
			for j, q := range dist {
				mean += q * pairValues[j]
			}
			if math.Abs(EloDiff(mean)-c.elo) > 1e-6 {
				t.Fatalf("the simulated distribution's Elo is %v, want %v", EloDiff(mean), c.elo)
			}
			right, undecided := 0, 0
			for range runs {
				switch simulate(c.sprt, dist, rng, 100000) {
				case AcceptH1:
					if c.wantH1 {
						right++
					}
				case AcceptH0:
					if !c.wantH1 {
						right++
					}
				default:
					undecided++
				}
			}
			share := float64(right) / float64(runs)
			t.Logf("elo %+g: the right verdict in %d of %d runs (%.3f)", c.elo, right, runs, share)
			if share < c.atLeast || undecided > 0 {
				t.Errorf("right verdict in %d of %d runs (%.3f, want at least %.2f), %d undecided",
					right, runs, share, c.atLeast, undecided)
			}
		})
	}
}

func TestParseSPRT(t *testing.T) {
	cases := []struct {
		text        string
		alpha, beta float64
		ok          bool
	}{
		{"0,5", 0.05, 0.05, true},
		{" -3.5 , 1.5 ", 0.1, 0.01, true},
		{"5,0", 0.05, 0.05, false},    // elo0 must be below elo1
		{"5,5", 0.05, 0.05, false},    // and not equal
		{"0", 0.05, 0.05, false},      // two numbers
		{"0,x", 0.05, 0.05, false},    // numbers
		{"0,NaN", 0.05, 0.05, false},  // finite
		{"0,3000", 0.05, 0.05, false}, // within ±2000
		{"0,5", 0, 0.05, false},       // alpha in (0, 1)
		{"0,5", 0.05, 1, false},       // beta in (0, 1)
		{"0,5", 0.6, 0.5, false},      // alpha + beta < 1
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			s, err := ParseSPRT(c.text, c.alpha, c.beta)
			if (err == nil) != c.ok {
				t.Fatalf("ParseSPRT(%q, %v, %v) = %+v, %v; want ok %v", c.text, c.alpha, c.beta, s, err, c.ok)
			}
		})
	}
	s, _ := ParseSPRT("0,5", 0.05, 0.05)
	lower, upper := s.Bounds()
	// Wald's bounds: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
	if math.Abs(lower+2.944439) > 1e-6 || math.Abs(upper-2.944439) > 1e-6 {
		t.Errorf("bounds [%v, %v], want ±2.944439", lower, upper)
	}
}

func FuzzParseSPRT(f *testing.F) {
	for _, seed := range []string{"0,5", "-1.5,2", ",", "1e309,2", "0,5,6", "NaN,Inf"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSPRT(text, 0.05, 0.05)
		if err != nil {
			return
		}
		if !(s.Elo0 < s.Elo1) || math.Abs(s.Elo0) > maxSPRTElo || math.Abs(s.Elo1) > maxSPRTElo {
			t.Fatalf("%q accepted as %+v", text, s)
		}
		for _, penta := range [][5]int{{1, 0, 0, 0, 0}, {0, 0, 0, 0, 1}, {3, 1, 4, 1, 5}} {
			if llr := s.LLR(penta); math.IsNaN(llr) || math.IsInf(llr, 0) {
				t.Fatalf("%+v: LLR of %v is %v", s, penta, llr)
			}
		}
	})
}

func TestSummaryCountsPairs(t *testing.T) {
	// Games 1 and 2 are one pair, 3 and 4 the next; the games arrive out of order.
	game := func(n int, player1 games.Side, result games.Result) GameRecord {
		return GameRecord{Number: n, Player1: player1, Result: result, Termination: "checkmate"}
	}
	s := Summary{SPRT: &SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}}
	s.Add(game(3, games.First, games.FirstWins)) // player 1 wins as white
	s.Add(game(1, games.First, games.Draw))      // a draw
	if s.Pairs() != 0 {
		t.Fatalf("%d pairs after two unpaired games", s.Pairs())
	}
	s.Add(game(2, games.Second, games.FirstWins)) // player 1 loses as black: pair 1 is LD
	s.Add(game(4, games.Second, games.Draw))      // pair 2 is WD
	s.Add(game(6, games.Second, games.SecondWins))
	s.Add(game(5, games.First, games.FirstWins)) // pair 3 is WW
	if want := [5]int{0, 1, 0, 1, 1}; s.Pentanomial != want {
		t.Errorf("pentanomial %v, want %v", s.Pentanomial, want)
	}
	var table bytes.Buffer
	s.WriteTable(&table)
	for _, want := range []string{"pentanomial [LL, LD, DD/WL, WD, WW] = [0, 1, 0, 1, 1] over 3 pairs",
		"SPRT elo0 +0.0, elo1 +5.0 (logistic), alpha 0.05, beta 0.05: LLR", "undecided"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		Pentanomial [5]int
		Pairs       int
		SPRT        struct {
			Elo1    float64
			LLR     float64
			Verdict string
			Lower   float64 `json:"lower_bound"`
		}
	}
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	if decoded.Pentanomial != s.Pentanomial || decoded.Pairs != 3 || decoded.SPRT.Elo1 != 5 ||
		decoded.SPRT.Verdict != "undecided" || math.Abs(decoded.SPRT.LLR-s.SPRT.LLR(s.Pentanomial)) > 0.001 ||
		math.Abs(decoded.SPRT.Lower+2.944) > 0.001 {
		t.Errorf("JSON %s", b)
	}
}

func TestRunStopsWhenTheSPRTDecides(t *testing.T) {
	cases := []struct {
		name        string
		concurrency int
	}{
		{"serial", 1},
		{"three at once", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A 4-ply material player against one that values nothing and looks 1 ply ahead: far more than
			// 50 Elo apart, so H1 (elo 50 against elo 0) is accepted long before the 400-game limit.
			cfg := quickConfig(connect4.Game{}, mustSpec(t, "preset=material depth=4"), mustSpec(t, "preset=zero depth=1"))
			cfg.Games, cfg.Concurrency, cfg.RandomPlies, cfg.Seed = 400, c.concurrency, 4, 7
			cfg.SPRT = &SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
			sum, records := collect(t, cfg)
			if sum.Verdict != AcceptH1 {
				t.Fatalf("verdict %v after %d games, pentanomial %v", sum.Verdict, sum.Games, sum.Pentanomial)
			}
			if sum.Games >= cfg.Games || sum.Games != 2*sum.Pairs() {
				t.Errorf("%d games in %d pairs of at most %d games: the match should stop early with whole pairs",
					sum.Games, sum.Pairs(), cfg.Games)
			}
			// The pairs started before the verdict are finished: at most one more per worker.
			if sum.VerdictPairs > sum.Pairs() || sum.Pairs() > sum.VerdictPairs+c.concurrency {
				t.Errorf("decided after %d pairs, %d played with %d workers", sum.VerdictPairs, sum.Pairs(), c.concurrency)
			}
			for n := 1; n <= sum.Games; n++ {
				if _, ok := records[n]; !ok {
					t.Errorf("game %d is missing: the games played should be 1..%d", n, sum.Games)
				}
			}
			if llr := sum.SPRT.LLR(sum.Pentanomial); llr < 2.9 {
				t.Errorf("H1 accepted with LLR %v", llr)
			}
		})
	}
}

func TestRunRefusesABadSPRT(t *testing.T) {
	cases := []struct {
		name  string
		games int
		sprt  SPRT
		want  string
	}{
		{"odd games", 7, SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}, "must be even"},
		{"crossed hypotheses", 8, SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, "elo0 (5) must be below elo1"},
		{"no alpha", 8, SPRT{Elo0: 0, Elo1: 5, Beta: 0.05}, "alpha"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := quickConfig(connect4.Game{}, mustSpec(t, "preset=material depth=2"), mustSpec(t, "preset=zero depth=1"))
			cfg.Games, cfg.SPRT = c.games, &c.sprt
			if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}
