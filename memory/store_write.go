// Applying events to the store in transactions, batching them into as few commits as fit, and compaction.

package memory

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
)

// mergeInto adds what rec knows to the profile under rec.Key, creating it when absent.
func (s *store) mergeInto(txn kvTxn, rec *opponentRec) (bool, error) {
	cur, err := s.getProfile(txn, rec.Key)
	if err != nil {
		return false, err
	}
	if cur == nil {
		cur = &opponentRec{Key: rec.Key}
	}
	mergeProfile(cur, rec)
	return s.put(txn, profileKey(cur.Key), cur)
}

// apply applies one checked event in txn. Every event is idempotent: applying it twice leaves what applying it
// once left, so a client may resend any event it has no acknowledgement for.
func (s *store) apply(txn kvTxn, ev *eventRec) error {
	switch ev.Type {
	case typeSighting:
		return s.applySighting(txn, ev.Sighting)
	case eventStart:
		return s.applyStart(txn, ev.Sighting, ev.Game)
	case eventEnd:
		return s.applyEnd(txn, ev.Game)
	case typeMove:
		key := moveKey(ev.Move.Game, ev.Move.Ply, ev.Move.Opp)
		if bw, ok := txn.(blindWriter); ok {
			// A move record is its own: no other record merges into it, so it need not be read first.
			return bw.setBlind(key, encodeValue(ev.Move))
		}
		_, err := s.put(txn, key, ev.Move)
		return err
	case typeTakeBack:
		return s.takeBack(txn, ev.TakeBack)
	case typeModel:
		_, err := s.putModel(txn, ev.Model)
		return err
	case typeAnalysis:
		return s.applyAnalysis(txn, ev.Analysis)
	case typeJob:
		return s.fileJob(txn, ev.Job)
	}
	return fail(s.dir, ErrBadEvent, fmt.Errorf("event type %q", ev.Type))
}

func (s *store) applySighting(txn kvTxn, r *sightingRec) error {
	key, err := s.resolve(txn, r.Key)
	if err != nil {
		return err
	}
	cur, err := s.getProfile(txn, key)
	if err != nil {
		return err
	}
	if cur == nil {
		cur = &opponentRec{Key: key}
	}
	seen := &opponentRec{Key: key, Title: r.Title, Kind: r.Kind, First: r.At, Last: r.At}
	if name := strings.TrimSpace(r.Name); name != "" {
		seen.Names = []string{name}
	}
	if r.Elo > 0 && newRating(cur.Ratings, r.Elo, r.Source, r.At) {
		seen.Ratings = []ratingRec{{Elo: r.Elo, Source: r.Source, At: r.At}}
	}
	mergeProfile(cur, seen)
	_, err = s.put(txn, profileKey(key), cur)
	return err
}

// newRating reports whether a sighting's rating is history to keep: a rating is kept when it changes, so the
// same rating named at every game is kept once, dated by the earliest sighting of the run of equal ratings it
// belongs to. A sighting that arrives after later ones (another host's, a replayed spool) falls into the run
// before or after its time: one of the same rating before it absorbs it; one of the same rating right after it
// starts earlier (ratings is changed in place); else it starts a run of its own. So sightings of one rating
// give the same history in whatever order they are filed.
func newRating(ratings []ratingRec, elo int, source string, at time.Time) bool {
	prev, next := -1, -1
	for i, r := range ratings {
		if r.Source != source {
			continue
		}
		if !r.At.After(at) {
			prev = i
		} else if next < 0 {
			next = i
		}
	}
	switch {
	case prev >= 0 && ratings[prev].Elo == elo:
		return false
	case next >= 0 && ratings[next].Elo == elo:
		ratings[next].At = at
		return false
	}
	return true
}

func (s *store) applyStart(txn kvTxn, who *sightingRec, start *gameRec) error {
	key, err := s.resolve(txn, start.Key)
	if err != nil {
		return err
	}
	seen := *who
	seen.Key = key
	if err := s.applySighting(txn, &seen); err != nil {
		return err
	}
	cur, err := s.getGame(txn, start.ID)
	if err != nil {
		return err
	}
	if cur == nil {
		cur = &gameRec{ID: start.ID}
	}
	if cur.Key != "" && cur.Key != key {
		if err := txn.del(indexKey(cur.Key, cur.ID)); err != nil {
			return err
		}
	}
	cur.Key, cur.Game, cur.Variant, cur.Side, cur.TC = key, start.Game, start.Variant, start.Side, start.TC
	cur.StartFEN, cur.Start = start.StartFEN, start.Start
	if _, err := s.put(txn, gameKey(cur.ID), cur); err != nil {
		return err
	}
	return txn.set(indexKey(key, cur.ID), nil)
}

func (s *store) applyEnd(txn kvTxn, end *gameRec) error {
	cur, err := s.getGame(txn, end.ID)
	if err != nil {
		return err
	}
	if cur == nil {
		cur = &gameRec{ID: end.ID}
	}
	cur.Result, cur.Reason, cur.Score, cur.Moves, cur.FinalFEN, cur.End =
		end.Result, end.Reason, end.Score, end.Moves, end.FinalFEN, end.End
	_, err = s.put(txn, gameKey(cur.ID), cur)
	return err
}

func (s *store) takeBack(txn kvTxn, tb *takeBackRec) error {
	prefix := movePrefix(tb.Game)
	var doomed [][]byte
	err := txn.scan(prefix, fmt.Appendf(bytes.Clone(prefix), "%05d", tb.ToPly), false, func(k, _ []byte) error {
		doomed = append(doomed, k)
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range doomed {
		if err := txn.del(k); err != nil {
			return err
		}
	}
	return nil
}

// putModel stores a model state under the opponent it resolves to, creating a bare profile when the opponent
// was never named.
func (s *store) putModel(txn kvTxn, m *modelRec) (bool, error) {
	key, err := s.resolve(txn, m.Key)
	if err != nil {
		return false, err
	}
	if _, err := s.mergeInto(txn, &opponentRec{Key: key}); err != nil {
		return false, err
	}
	rec := *m
	rec.Key, rec.Type = key, ""
	return s.put(txn, modelKey(key, rec.Model, rec.At, rec.Game), &rec)
}

// commitEvents applies a group of events and commits them together (group commit), returning each event's
// error. When one fails, the others are applied again one transaction each, so one bad event fails alone.
func (s *store) commitEvents(evs []*eventRec) []error {
	errs := make([]error, len(evs))
	fillAll := func(err error) []error {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	err := s.batch(func(b batcher) error {
		for _, ev := range evs {
			if err := b.do(func(txn kvTxn) error { return s.apply(txn, ev) }); err != nil {
				return err
			}
		}
		return nil
	})
	switch {
	case err == nil:
		return errs
	case errors.Is(err, ErrDiskFull) || errors.Is(err, ErrUnavailable) || len(evs) == 1:
		return fillAll(err)
	}
	for i, ev := range evs {
		errs[i] = s.batch(func(b batcher) error {
			return b.do(func(txn kvTxn) error { return s.apply(txn, ev) })
		})
	}
	return errs
}
