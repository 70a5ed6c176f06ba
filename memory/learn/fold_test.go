// Tests of the fold over stored games: its order, its marks and digests, and the even-game ledger's fold.

package learn

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// foldItems returns n items ending a millisecond apart, two of them at the same instant.
func foldItems(n int) []FoldItem {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	items := make([]FoldItem, n)
	for i := range items {
		items[i] = FoldItem{ID: fmt.Sprintf("game-%02d", i), End: t0.Add(time.Duration(i) * time.Millisecond)}
	}
	if n > 3 {
		items[3].End = items[2].End // a tie: the identifier decides
	}
	return items
}

func TestSortFoldIsOrderIndependent(t *testing.T) {
	want := foldItems(12)
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 5 {
		t.Run(fmt.Sprint("shuffle ", trial), func(t *testing.T) {
			got := append([]FoldItem(nil), want...)
			rng.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
			SortFold(got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sorted %v, want %v", got, want)
			}
		})
	}
}

func TestFoldDigestsAndMarks(t *testing.T) {
	items := foldItems(6)
	digests := FoldDigests("chess/default", items)
	if len(digests) != len(items)+1 {
		t.Fatalf("%d digests for %d items", len(digests), len(items))
	}
	seen := map[string]bool{}
	for _, d := range digests {
		if seen[d] {
			t.Errorf("digest %s repeats", d)
		}
		seen[d] = true
	}
	// A prefix's digests are the whole order's first ones.
	if prefix := FoldDigests("chess/default", items[:3]); !reflect.DeepEqual(prefix, digests[:4]) {
		t.Errorf("a prefix digests to %v, want %v", prefix, digests[:4])
	}
	swapped := append([]FoldItem(nil), items...)
	swapped[1], swapped[2] = swapped[2], swapped[1]
	other := FoldDigests("chess/default", swapped)
	cases := []struct {
		name string
		mark *FoldMark
		base string
		in   []string
		want bool
	}{
		{"whole order", &FoldMark{Version: FoldVersion, Base: "chess/default", Games: 6, Digest: digests[6]}, "chess/default", digests, true},
		{"a prefix", &FoldMark{Version: FoldVersion, Base: "chess/default", Games: 2, Digest: digests[2]}, "chess/default", digests, true},
		{"another base", &FoldMark{Version: FoldVersion, Base: "chess/default", Games: 2, Digest: digests[2]}, "checkers/default", digests, false},
		{"another order", &FoldMark{Version: FoldVersion, Base: "chess/default", Games: 3, Digest: digests[3]}, "chess/default", other, false},
		{"the same games first", &FoldMark{Version: FoldVersion, Base: "chess/default", Games: 1, Digest: digests[1]}, "chess/default", other, true},
		{"more games than stored", &FoldMark{Version: FoldVersion, Base: "chess/default", Games: 7, Digest: digests[6]}, "chess/default", digests, false},
		{"a newer version", &FoldMark{Version: FoldVersion + 1, Base: "chess/default", Games: 6, Digest: digests[6]}, "chess/default", digests, false},
		{"no mark", nil, "chess/default", digests, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.mark.Fits(c.base, c.in); got != c.want {
				t.Errorf("Fits = %v, want %v", got, c.want)
			}
		})
	}
}

func TestFoldMarkInAState(t *testing.T) {
	mark := FoldMark{Version: FoldVersion, Base: "even", Games: 3, Digest: "abc"}
	state, err := json.Marshal(EvenState{Version: EvenStateVersion, TimeControls: map[string]*EvenRecord{"": {Level: 1500, Games: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	marked, err := WithFoldMark(state, mark)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("read back", func(t *testing.T) {
		got, err := ReadFoldMark(marked)
		if err != nil || got == nil || *got != mark {
			t.Errorf("read %+v, %v; want %+v", got, err, mark)
		}
	})
	t.Run("the state still reads", func(t *testing.T) {
		s, err := ParseEvenState(marked)
		if err != nil || s.TimeControls[""].Games != 3 {
			t.Errorf("read %+v, %v", s, err)
		}
	})
	t.Run("marked again", func(t *testing.T) {
		next := mark
		next.Games = 4
		again, err := WithFoldMark(marked, next)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ReadFoldMark(again); err != nil || got == nil || *got != next {
			t.Errorf("read %+v, %v; want %+v", got, err, next)
		}
	})
	t.Run("a legacy state has none", func(t *testing.T) {
		if got, err := ReadFoldMark(state); err != nil || got != nil {
			t.Errorf("read %+v, %v; want none", got, err)
		}
	})
	for _, bad := range []string{`[1,2]`, `"text"`, `null`, `{`} {
		t.Run("not an object "+bad, func(t *testing.T) {
			if _, err := WithFoldMark(json.RawMessage(bad), mark); err == nil {
				t.Errorf("marked %s", bad)
			}
		})
	}
	for _, bad := range []string{`{"fold":3}`, `{"fold":"x"}`, `{`} {
		t.Run("a bad mark "+bad, func(t *testing.T) {
			if _, err := ReadFoldMark(json.RawMessage(bad)); err == nil {
				t.Errorf("read a mark from %s", bad)
			}
		})
	}
}

func TestParseEvenResult(t *testing.T) {
	cases := []struct {
		raw  string
		want bool
	}{
		{`{"version":1,"tc":"10+0.1","score":0.5,"max":3}`, true},
		{`{"version":2,"tc":"10+0.1","score":0}`, true},
		{`{"version":3,"tc":"","score":1}`, false},
		{`{"version":1,"tc":"","score":1.5,"max":3}`, false},
		{`{"version":1,"tc":"","score":-1,"max":3}`, false},
		{`{"version":1,"tc":"","score":1,"max":-3}`, false},
		{`{"version":1,"tc":"","score":1,"max":3,"extra":1}`, false},
		{`{"version":1,`, false},
	}
	for _, c := range cases {
		t.Run(c.raw, func(t *testing.T) {
			_, err := ParseEvenResult(json.RawMessage(c.raw))
			if (err == nil) != c.want {
				t.Errorf("error %v, want ok %v", err, c.want)
			}
		})
	}
}

// sequentialEven is one ledger playing the results in order, as a process playing the games alone does.
func sequentialEven(results []EvenResult) *EvenState {
	s := &EvenState{Version: EvenStateVersion}
	for _, r := range results {
		s.Record(r.TimeControl).Update(r.Score)
	}
	return s
}

func TestFoldEven(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var results []EvenResult
	for i := range 24 {
		tc := "10+0.1"
		if i%5 == 4 {
			tc = "60+1"
		}
		results = append(results, EvenResult{Version: EvenResultVersion, TimeControl: tc,
			Score: []float64{0, 0.5, 1}[rng.IntN(3)]})
	}
	t.Run("24 results are 24 games", func(t *testing.T) {
		s := FoldEven(nil, results)
		if n := s.TimeControls["10+0.1"].Games + s.TimeControls["60+1"].Games; n != 24 {
			t.Errorf("%d games, want 24", n)
		}
		if !reflect.DeepEqual(s, sequentialEven(results)) {
			t.Errorf("the fold %+v differs from the sequential ledger %+v", s, sequentialEven(results))
		}
	})
	t.Run("a fold in two parts is the fold in one", func(t *testing.T) {
		first := FoldEven(nil, results[:10])
		snapshot, err := json.Marshal(first)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseEvenState(snapshot)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := FoldEven(again, results[10:]), FoldEven(nil, results); !reflect.DeepEqual(got, want) {
			t.Errorf("resumed %+v, want %+v", got, want)
		}
	})
	t.Run("the base is not changed", func(t *testing.T) {
		base := FoldEven(nil, results[:3])
		before, _ := json.Marshal(base)
		FoldEven(base, results[3:])
		after, _ := json.Marshal(base)
		if string(before) != string(after) {
			t.Errorf("the base changed from %s to %s", before, after)
		}
	})
	t.Run("nothing to fold", func(t *testing.T) {
		s := FoldEven(nil, nil)
		if s.Version != EvenStateVersion || len(s.TimeControls) != 0 {
			t.Errorf("an empty fold is %+v", s)
		}
	})
}
