// Experience handed to the alpha-beta search inside a searcher of this package, through whatever wraps it
// (the preset's depth cap, the weak searcher, the Connect-Four solver's fallback, the guard's own search).

package searchers

import "dossier/engine"

// ExperienceReader is implemented by searchers built outside this package that hold an alpha-beta search
// (the Player's Search auto): SetExperience hands them the experience, ExperienceHits says what it settled.
type ExperienceReader interface {
	SetExperience(x engine.Experience) bool
	ExperienceHits() uint64
}

// SetExperience gives the alpha-beta search inside s the experience x (nil: none) for its next searches, and
// reports whether s has such a search (a model search has not: it values moves by its own opponent model).
// It must not be called while s searches.
func SetExperience(s engine.Searcher, x engine.Experience) bool {
	if ab := alphaBetaOf(s); ab != nil {
		ab.SetExperience(x)
		return true
	}
	if r, ok := s.(ExperienceReader); ok {
		return r.SetExperience(x)
	}
	return false
}

// ExperienceHits returns how many nodes the experience settled in s's last alpha-beta search (0 when s holds
// none).
func ExperienceHits(s engine.Searcher) uint64 {
	if ab := alphaBetaOf(s); ab != nil {
		return ab.ExperienceHits()
	}
	if r, ok := s.(ExperienceReader); ok {
		return r.ExperienceHits()
	}
	return 0
}

// alphaBetaOf returns the alpha-beta search s plays with, nil when it plays none.
func alphaBetaOf(s engine.Searcher) *engine.AlphaBeta {
	for range 8 { // the wrappers nest a few levels at most
		switch w := s.(type) {
		case *engine.AlphaBeta:
			return w
		case *presetSearcher:
			s = w.inner
		case *WeakSearcher:
			s = w.inner
		case *solverSearcher:
			s = w.fallback
		case *guardSearcher:
			s = w.own
		default:
			return nil
		}
	}
	return nil
}
