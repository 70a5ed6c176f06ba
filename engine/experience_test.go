// Experience read by alpha-beta: an entry deeper than the search settles its node, changing the move and the
// value; a shallower entry, or a bound that does not cut, leaves the search as it was.
package engine

import (
	"testing"

	"dossier/games/chess"
)

// mapExperience is an Experience over a map filled before the search.
type mapExperience map[uint64]ExperienceEntry

func (m mapExperience) Lookup(hash uint64) (ExperienceEntry, bool) {
	e, ok := m[hash]
	return e, ok
}

func TestExperienceSettlesNodesAsADeeperTableEntry(t *testing.T) {
	g := chess.Game{}
	start := g.Start()
	plain := searchDepth(NewAlphaBeta(g, chessMaterial(), DefaultAlphaBetaOptions(g)), start.Clone(), 4)
	after := func(move string) uint64 {
		p := start.Clone()
		m, err := p.ParseMove(move)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
		return p.Hash()
	}
	if start.FormatMove(plain.Move) == "a2a3" {
		t.Fatalf("the plain search already plays a2a3; the test needs another move")
	}
	cases := []struct {
		name      string
		entry     ExperienceEntry
		wantMove  string // "" is the plain search's move
		wantScore float64
		wantHits  bool
	}{
		// Black to move after a2a3 is lost by five pawns at depth 20: White plays it, at that value.
		{"deeper exact entry", ExperienceEntry{Score: -5, Depth: 20, Bound: BoundExact}, "a2a3", 5, true},
		// The same value without a search behind it (depth 0) is shallower than every node searched: ignored.
		{"shallower entry", ExperienceEntry{Score: -5, Depth: 0, Bound: BoundExact}, "", plain.Score, false},
		// A lower bound of -5 for Black says only that Black is not worse than that: no cut below beta.
		{"lower bound that does not cut", ExperienceEntry{Score: -5, Depth: 20, Bound: BoundLower}, "", plain.Score, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewAlphaBeta(g, chessMaterial(), DefaultAlphaBetaOptions(g))
			s.SetExperience(mapExperience{after("a2a3"): tc.entry})
			res := searchDepth(s, start.Clone(), 4)
			want := tc.wantMove
			if want == "" {
				want = start.FormatMove(plain.Move)
			}
			if got := start.FormatMove(res.Move); got != want || res.Score != tc.wantScore {
				t.Errorf("played %s at %v, want %s at %v", got, res.Score, want, tc.wantScore)
			}
			if hits := s.ExperienceHits(); (hits > 0) != tc.wantHits {
				t.Errorf("%d nodes settled by experience", hits)
			}
		})
	}
	t.Run("no experience again", func(t *testing.T) {
		s := NewAlphaBeta(g, chessMaterial(), DefaultAlphaBetaOptions(g))
		s.SetExperience(mapExperience{after("a2a3"): {Score: -5, Depth: 20, Bound: BoundExact}})
		s.SetExperience(nil)
		if res := searchDepth(s, start.Clone(), 4); res.Move != plain.Move || res.Score != plain.Score {
			t.Errorf("played %s at %v after the experience was taken away, want %s at %v",
				start.FormatMove(res.Move), res.Score, start.FormatMove(plain.Move), plain.Score)
		}
	})
}
