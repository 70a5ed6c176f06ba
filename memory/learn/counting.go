// Donkers et al.'s offline learning of opponent-type probabilities by counting agreements (their equation 1).

package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// ModelTypeCounts names TypeCounts' state in memory.ModelUpdate events.
const ModelTypeCounts = "typecounts"

// TypeCounts estimates the probabilities of N opponent types from observed events: in each event some of
// the types agree with the opponent (their best move is the move it played). Donkers et al.'s equation 1
// counts, for each type, the events it agreed in and divides by the sum of all the types' counts:
//
//	P(w_i) = #(m_i = m_opp) / sum_j #(m_j = m_opp)
//
// An event in which several types agree is ambiguous: counting it for each of them biases the estimate
// towards equal probabilities (with five independent types choosing among 20 numbers and one type always
// played, the error is 0.1864 however long one learns). Donkers et al. conclude that the only correct
// estimate disregards ambiguous events; IgnoreAmbiguous does so. The zero value is not usable: use
// NewTypeCounts.
type TypeCounts struct {
	// Agreements[i] counts the events that type i agreed in (and that were counted).
	Agreements []float64 `json:"agreements"`
	// Events counts every observed event; Ambiguous those in which more than one type agreed, Unexplained
	// those in which none did.
	Events      int `json:"events"`
	Ambiguous   int `json:"ambiguous"`
	Unexplained int `json:"unexplained"`
	// IgnoreAmbiguous leaves ambiguous events out of Agreements.
	IgnoreAmbiguous bool `json:"ignoreAmbiguous"`
}

// NewTypeCounts returns empty counts for n types.
func NewTypeCounts(n int, ignoreAmbiguous bool) (*TypeCounts, error) {
	if n < 1 || n > maxTypes {
		return nil, fmt.Errorf("type counts: %d types, want 1..%d", n, maxTypes)
	}
	return &TypeCounts{Agreements: make([]float64, n), IgnoreAmbiguous: ignoreAmbiguous}, nil
}

// maxTypes bounds the number of opponent types a learner keeps (Donkers et al. tried up to 20).
const maxTypes = 64

// Observe counts one event; agree[i] says whether type i agreed with the opponent.
func (c *TypeCounts) Observe(agree []bool) error {
	if len(agree) != len(c.Agreements) {
		return fmt.Errorf("type counts: %d agreements for %d types", len(agree), len(c.Agreements))
	}
	n := 0
	for _, a := range agree {
		if a {
			n++
		}
	}
	c.Events++
	switch {
	case n == 0:
		c.Unexplained++
		return nil
	case n > 1:
		c.Ambiguous++
		if c.IgnoreAmbiguous {
			return nil
		}
	}
	for i, a := range agree {
		if a {
			c.Agreements[i]++
		}
	}
	return nil
}

// Probabilities returns the estimate of equation 1, or equal probabilities before any event was counted.
func (c *TypeCounts) Probabilities() []float64 {
	out := make([]float64, len(c.Agreements))
	sum := 0.0
	for _, a := range c.Agreements {
		sum += a
	}
	for i, a := range c.Agreements {
		if sum == 0 {
			out[i] = 1 / float64(len(out))
		} else {
			out[i] = a / sum
		}
	}
	return out
}

// LearningError is Donkers et al.'s learning error: the Euclidean distance between the estimated and the
// true probabilities (at most the square root of 2).
func LearningError(estimate, truth []float64) float64 {
	sum := 0.0
	for i := range estimate {
		d := estimate[i] - truth[i]
		sum += d * d
	}
	return math.Sqrt(sum)
}

// check reports an error unless the counts are a consistent state.
func (c *TypeCounts) check() error {
	if len(c.Agreements) < 1 || len(c.Agreements) > maxTypes {
		return fmt.Errorf("type counts: %d types, want 1..%d", len(c.Agreements), maxTypes)
	}
	if c.Events < 0 || c.Ambiguous < 0 || c.Unexplained < 0 || c.Ambiguous+c.Unexplained > c.Events {
		return errors.New("type counts: the event counts are negative or do not add up")
	}
	for i, a := range c.Agreements {
		if a < 0 || a > float64(c.Events) || a != math.Trunc(a) {
			return fmt.Errorf("type counts: type %d agreed %v times in %d events", i+1, a, c.Events)
		}
	}
	return nil
}

// UnmarshalJSON reads a state written by encoding/json and checks it.
func (c *TypeCounts) UnmarshalJSON(data []byte) error {
	type plain TypeCounts
	var s plain
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("type counts: %w", err)
	}
	if err := (*TypeCounts)(&s).check(); err != nil {
		return err
	}
	*c = TypeCounts(s)
	return nil
}
