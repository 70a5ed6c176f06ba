// Donkers et al.'s counting experiment (their section 2): the 0.1864 error with ambiguous events and its
// fall towards zero without them.

package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// countingSetup is one of Donkers et al.'s simulations: N opponent types pick numbers in 0..M-1, the
// target opponent plays the number of a type drawn from P = (a, b, ..., b), b = (1-a)/(N-1), for T steps.
type countingSetup struct {
	n, m, steps     int
	a               float64
	dependent       bool // types pick near the previous type's number instead of independently
	ignoreAmbiguous bool
}

// truth returns the set-up's type probabilities (a, b, ..., b).
func (s countingSetup) truth() []float64 {
	p := make([]float64, s.n)
	p[0] = s.a
	for i := 1; i < s.n; i++ {
		p[i] = (1 - s.a) / float64(s.n-1)
	}
	return p
}

// run simulates the set-up once and returns the learning error and the fraction of events disregarded as
// ambiguous.
func (s countingSetup) run(rng *rand.Rand) (float64, float64) {
	truth := s.truth()
	counts, err := NewTypeCounts(s.n, s.ignoreAmbiguous)
	if err != nil {
		panic(err)
	}
	picks := make([]int, s.n)
	agree := make([]bool, s.n)
	for range s.steps {
		for i := range picks {
			switch {
			case i == 0 || !s.dependent:
				picks[i] = rng.IntN(s.m)
			default: // Donkers et al.'s dependent types: (m_{i-1} + k) mod M with k in -4..4
				picks[i] = ((picks[i-1]+rng.IntN(9)-4)%s.m + s.m) % s.m
			}
		}
		chosen, u := 0, rng.Float64()
		for chosen < s.n-1 && u >= truth[chosen] {
			u -= truth[chosen]
			chosen++
		}
		for i := range agree {
			agree[i] = picks[i] == picks[chosen]
		}
		if err := counts.Observe(agree); err != nil {
			panic(err)
		}
	}
	return LearningError(counts.Probabilities(), truth), float64(counts.Ambiguous) / float64(counts.Events)
}

// meanError runs the set-up `runs` times (Donkers et al.'s sample size was 100) and returns the mean
// error, its standard error and the mean fraction of ambiguous events.
func (s countingSetup) meanError(runs int, seed uint64) (mean, stderr, ambiguous float64) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var sum, sum2 float64
	for range runs {
		e, f := s.run(rng)
		sum += e
		sum2 += e * e
		ambiguous += f
	}
	n := float64(runs)
	mean = sum / n
	variance := max(sum2/n-mean*mean, 0) * n / max(n-1, 1)
	return mean, math.Sqrt(variance / n), ambiguous / n
}

// donkersError is the error Donkers et al. compute for P(w_0) = 1 with ambiguous events: the estimate
// tends to M/(M+N-1) for w_0 and 1/(M+N-1) for the others.
func donkersError(n, m int) float64 {
	d := float64(m + n - 1)
	return math.Sqrt(math.Pow(1-float64(m)/d, 2) + float64(n-1)/(d*d))
}

func TestDonkersCountingError(t *testing.T) {
	if got := donkersError(5, 20); math.Abs(got-0.1864) > 1e-4 { // sqrt(20/576) = 0.18634
		t.Fatalf("the closed form gives %.5f, the paper 0.1864", got)
	}
	runs, steps := 100, 100_000
	if testing.Short() {
		runs, steps = 20, 20_000
	}
	cases := []struct {
		name            string
		ignoreAmbiguous bool
		want            float64
	}{
		{"with ambiguous events", false, donkersError(5, 20)},
		{"without ambiguous events", true, 0}, // only w_0 ever agrees alone, so the estimate is exact
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := countingSetup{n: 5, m: 20, steps: steps, a: 1, ignoreAmbiguous: c.ignoreAmbiguous}
			mean, se, ambiguous := s.meanError(runs, 1)
			// The error of one run is a smooth function of binomial counts; its spread over the runs gives
			// the standard error of the mean, and the mean must lie within 5 of them of the limit (the
			// bias at T steps is of order 1/T, far below that).
			tol := 5*se + 1e-9
			t.Logf("N=5 M=20 P(w0)=1 T=%d, %d runs: error %.5f ± %.5f (paper %.4f), %.1f%% of events ambiguous",
				steps, runs, mean, se, c.want, 100*ambiguous)
			if math.Abs(mean-c.want) > tol {
				t.Errorf("mean error %.5f, want %.5f within %.5f", mean, c.want, tol)
			}
			// The paper: a constant 18.6% of events are ambiguous with independent types (1 - 0.95^4).
			if want := 1 - math.Pow(19.0/20, 4); math.Abs(ambiguous-want) > 0.01 {
				t.Errorf("%.4f of events ambiguous, want %.4f", ambiguous, want)
			}
		})
	}
}

func TestDonkersCountingConverges(t *testing.T) {
	// Without ambiguous events the error falls towards 0 as the learning time grows (Donkers et al.'s
	// Figure 4: as 1/sqrt(T)); with them it stays where the bias puts it.
	steps := []int{100, 1000, 10_000, 100_000}
	runs := 100
	if testing.Short() {
		steps, runs = steps[:3], 30
	}
	for _, ignore := range []bool{true, false} {
		t.Run(fmt.Sprintf("ignoreAmbiguous=%v", ignore), func(t *testing.T) {
			var errs []float64
			for _, T := range steps {
				s := countingSetup{n: 5, m: 20, steps: T, a: 0.6, ignoreAmbiguous: ignore}
				mean, _, _ := s.meanError(runs, 2)
				errs = append(errs, mean)
			}
			t.Logf("P(w0)=0.6: error by T=%v: %.4f", steps, errs)
			last := errs[len(errs)-1]
			if ignore {
				for i := 1; i < len(errs); i++ {
					// Tenfold the steps divides the error by about sqrt(10) = 3.16; allow 2.
					if errs[i] > errs[i-1]/2 {
						t.Errorf("error %.4f at T=%d did not fall from %.4f at T=%d", errs[i], steps[i], errs[i-1], steps[i-1])
					}
				}
				if last > 0.02 {
					t.Errorf("error %.4f at T=%d, want below 0.02", last, steps[len(steps)-1])
				}
				return
			}
			// With ambiguous events the estimate of P(w0) = 0.6 tends to a fixed biased value: the error
			// stays above 0.08 however long it learns.
			if last < 0.08 {
				t.Errorf("error %.4f with ambiguous events, want the bias (above 0.08)", last)
			}
		})
	}
}

// TestDonkersCountingTable prints the experiment's table: the error by P(w0), learning time, with and without
// ambiguous events, for independent and dependent types (N = 5, M = 20, 100 runs each).
// go test ./memory/learn -run TestDonkersCountingTable -v
func TestDonkersCountingTable(t *testing.T) {
	if testing.Short() {
		t.Skip("the full table takes a while; run without -short")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-11s %-9s %-8s %7s  %s\n", "types", "ambiguous", "T", "", "error (ambiguous %) by P(w0) = 0, 0.2, 0.4, 0.6, 0.8, 1")
	for _, dependent := range []bool{false, true} {
		for _, ignore := range []bool{false, true} {
			for _, T := range []int{100, 100_000} {
				kind, amb := "independent", "counted"
				if dependent {
					kind = "dependent"
				}
				if ignore {
					amb = "ignored"
				}
				fmt.Fprintf(&b, "%-11s %-9s %-8d        ", kind, amb, T)
				for _, a := range []float64{0, 0.2, 0.4, 0.6, 0.8, 1} {
					s := countingSetup{n: 5, m: 20, steps: T, a: a, dependent: dependent, ignoreAmbiguous: ignore}
					mean, _, f := s.meanError(100, 3)
					fmt.Fprintf(&b, " %.4f (%2.0f%%)", mean, 100*f)
				}
				b.WriteByte('\n')
			}
		}
	}
	t.Log(b.String())
}

func TestTypeCountsStates(t *testing.T) {
	c, err := NewTypeCounts(3, true)
	if err != nil {
		t.Fatal(err)
	}
	events := [][]bool{{true, false, false}, {true, true, false}, {false, false, true}, {false, false, false}, {true, false, false}}
	for _, e := range events {
		if err := c.Observe(e); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := c.Probabilities(), []float64{2.0 / 3, 0, 1.0 / 3}; LearningError(got, want) > 1e-12 {
		t.Errorf("probabilities %v, want %v", got, want)
	}
	if c.Events != 5 || c.Ambiguous != 1 || c.Unexplained != 1 {
		t.Errorf("events %d ambiguous %d unexplained %d, want 5 1 1", c.Events, c.Ambiguous, c.Unexplained)
	}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back TypeCounts
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if LearningError(back.Probabilities(), c.Probabilities()) != 0 || back.Events != 5 || !back.IgnoreAmbiguous {
		t.Errorf("round trip gave %+v from %s", back, data)
	}
	if err := c.Observe([]bool{true}); err == nil {
		t.Error("an event with one agreement for three types was accepted")
	}
	for _, bad := range []string{`{"agreements":[]}`, `{"agreements":[3],"events":2}`, `{"agreements":[1.5],"events":2}`,
		`{"agreements":[1],"events":1,"ambiguous":1,"unexplained":1}`, `[1,2]`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("bad state %s was accepted", bad)
		}
	}
}

func FuzzTypeCountsUnmarshal(f *testing.F) {
	f.Add([]byte(`{"agreements":[2,0,1],"events":5,"ambiguous":1,"unexplained":1,"ignoreAmbiguous":true}`))
	f.Add([]byte(`{"agreements":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c TypeCounts
		if err := json.Unmarshal(data, &c); err != nil {
			return
		}
		p := c.Probabilities()
		sum := 0.0
		for _, x := range p {
			if x < 0 || math.IsNaN(x) {
				t.Fatalf("probability %v from %s", x, data)
			}
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("probabilities sum to %v from %s", sum, data)
		}
		if err := c.Observe(make([]bool, len(c.Agreements))); err != nil {
			t.Fatalf("a checked state refused an event: %v", err)
		}
	})
}
