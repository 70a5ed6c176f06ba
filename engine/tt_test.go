// Tests of the transposition table: round trips, mate-distance adjustment, replacement, sharing.
package engine

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"dossier/games"
)

func TestTTRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		score     float64
		storePly  int
		probePly  int
		wantScore float64
		eval      float64
		draft     int
		bound     Bound
	}{
		{"plain score", 1.25, 3, 7, 1.25, 0.1, 4, BoundExact},
		{"negative score", -3.5, 0, 0, -3.5, -2, 1, BoundUpper},
		{"unknown eval", 0.1, 2, 2, 0.1, math.NaN(), 0, BoundLower},
		{"solved draft", 7, 1, 1, 7, 1, SolvedDraft, BoundExact},
		// A win 5 plies below a node at ply 3 (MateScore-8 from the root) is a win 5 plies below the same
		// position met at ply 1: MateScore-6.
		{"win moves with the ply", MateScore - 8, 3, 1, MateScore - 6, 0, 9, BoundExact},
		{"loss moves with the ply", -(MateScore - 8), 3, 5, -(MateScore - 10), 0, 9, BoundLower},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := NewTT(1)
			key := uint64(0x9e3779b97f4a7c15)
			tt.Store(key, tc.storePly, 42, tc.score, tc.eval, tc.draft, tc.bound)
			e, ok := tt.Probe(key, tc.probePly)
			if !ok {
				t.Fatal("stored entry not found")
			}
			if e.Move != 42 || e.Score != tc.wantScore || e.Draft != tc.draft || e.Bound != tc.bound {
				t.Errorf("got %+v, want move 42 score %v draft %d bound %d", e, tc.wantScore, tc.draft, tc.bound)
			}
			if e.Eval != tc.eval && !(math.IsNaN(e.Eval) && math.IsNaN(tc.eval)) {
				t.Errorf("eval %v, want %v", e.Eval, tc.eval)
			}
			if _, ok := tt.Probe(key^1, tc.probePly); ok {
				t.Error("a different key hits")
			}
		})
	}
}

func TestTTReplacement(t *testing.T) {
	tt := NewTT(1)
	// Three keys in one bucket: same high bits, different low bits.
	a, b, c := uint64(1)<<40|1, uint64(1)<<40|2, uint64(1)<<40|3
	tt.Store(a, 0, 1, 1, 0, 10, BoundExact)
	tt.Store(b, 0, 2, 2, 0, 2, BoundExact)
	tt.Store(c, 0, 3, 3, 0, 5, BoundExact)
	if _, ok := tt.Probe(a, 0); !ok {
		t.Error("the deepest entry was replaced")
	}
	if _, ok := tt.Probe(b, 0); ok {
		t.Error("the shallowest entry survived")
	}
	if _, ok := tt.Probe(c, 0); !ok {
		t.Error("the new entry is missing")
	}
	// A shallow bound does not overwrite a much deeper entry of the same position...
	tt.Store(a, 0, 7, 9, 0, 1, BoundLower)
	if e, _ := tt.Probe(a, 0); e.Draft != 10 || e.Move != 1 {
		t.Errorf("deep entry overwritten by a shallow bound: %+v", e)
	}
	// ...and a store without a move keeps the known one.
	tt.Store(c, 0, games.NoMove, 4, 0, 6, BoundUpper)
	if e, _ := tt.Probe(c, 0); e.Move != 3 || e.Score != 4 {
		t.Errorf("store without a move: %+v", e)
	}
	// Entries of an earlier search go first, however deep.
	tt.NewSearch()
	tt.Store(b, 0, 2, 2, 0, 1, BoundExact)
	if _, ok := tt.Probe(b, 0); !ok {
		t.Error("a new entry did not replace an old one")
	}
}

func TestTTNilAndSize(t *testing.T) {
	var tt *TT
	tt.Store(1, 0, 1, 1, 1, 1, BoundExact)
	if _, ok := tt.Probe(1, 0); ok || tt.HashFull() != 0 {
		t.Error("a nil table stores")
	}
	tt.Clear()
	tt.NewSearch()
	if NewTT(0) != nil {
		t.Error("NewTT(0) is not nil")
	}
	for _, mb := range []int{1, 3, 16} {
		if got := len(NewTT(mb).words) * 8; got > mb<<20 || got <= mb<<19 {
			t.Errorf("NewTT(%d) uses %d bytes", mb, got)
		}
	}
	full := NewTT(1)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1<<16; i++ {
		full.Store(rng.Uint64(), 0, 1, 0, 0, 1, BoundExact)
	}
	if hf := full.HashFull(); hf < 900 {
		t.Errorf("HashFull %d after filling the table", hf)
	}
	full.NewSearch()
	if hf := full.HashFull(); hf != 0 {
		t.Errorf("HashFull %d in a new search", hf)
	}
}

func TestTTConcurrent(t *testing.T) {
	// Writers race on few buckets; every hit must be an entry some writer stored whole.
	tt := NewTT(1)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Go(func() {
			for i := 0; i < 20000; i++ {
				key := uint64(i%64) * 0x9e3779b97f4a7c15
				v := float64(key % 1000)
				tt.Store(key, 0, games.Move(key|1), v, v, w+1, BoundExact)
				if e, ok := tt.Probe(key, 0); ok && (e.Move != games.Move(key|1) || e.Score != v) {
					t.Errorf("torn entry for %x: %+v", key, e)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestTTClear(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := make([]uint64, 1<<15)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	fill := func(tt *TT, salt uint64) {
		for i, k := range keys {
			tt.Store(k^salt, i%7, games.Move(i+1), float64(i), 0, 1+i%9, BoundExact)
		}
	}
	tests := []struct {
		name          string
		before, after int  // Clears before the table is filled and after
		wrap          bool // the epoch counter wraps around at the last Clear
		likeNew       bool // the cleared table must then behave exactly as a new one
	}{
		{"one clear", 0, 1, false, true},
		{"epoch counter wraps around", 0, 1, true, true},
		// The metadata's bits of the epoch are those of the epoch of the entries: only the check
		// (which holds the whole epoch) rejects them.
		{"epoch whose low bits repeat the entries'", 0, epochMask + 1, false, false},
		{"many clears", 5, 300, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := NewTT(1)
			for range tc.before {
				tt.Clear()
			}
			if tc.wrap {
				tt.clears = math.MaxUint32 - 1
				tt.Clear()
			}
			fill(tt, 0)
			tt.NewSearch()
			for range tc.after {
				tt.Clear()
			}
			for _, k := range keys {
				if e, ok := tt.Probe(k, 0); ok {
					t.Fatalf("key %x found after Clear: %+v", k, e)
				}
			}
			if hf := tt.HashFull(); hf != 0 {
				t.Errorf("HashFull %d after Clear", hf)
			}
			if !tc.likeNew {
				return
			}
			// The same stores leave the same entries in the cleared table as in a new one, since the
			// entries of the old epoch count as empty.
			fresh := NewTT(1)
			fill(tt, 0x5555)
			fill(fresh, 0x5555)
			for _, k := range keys {
				got, gotOK := tt.Probe(k^0x5555, 0)
				want, wantOK := fresh.Probe(k^0x5555, 0)
				if gotOK != wantOK || got != want {
					t.Fatalf("key %x: cleared table %+v %v, new table %+v %v", k^0x5555, got, gotOK, want, wantOK)
				}
			}
		})
	}
}

// BenchmarkTTClear clears a 1 GiB table, as ucinewgame does; the table is written once so that its pages
// are mapped (what a game leaves).
func BenchmarkTTClear(b *testing.B) {
	tt := NewTT(1024)
	for i := 0; i < len(tt.words); i += 512 {
		tt.words[i] = 1
	}
	b.ResetTimer()
	for b.Loop() {
		tt.Clear()
	}
}
