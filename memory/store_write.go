// Applying events to the store in transactions, batching them into as few commits as fit, and compaction.

package memory

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	badger "github.com/dgraph-io/badger/v4"
)

// mergeInto adds what rec knows to the profile under rec.Key, creating it when absent.
func (s *store) mergeInto(txn *badger.Txn, rec *opponentRec) (bool, error) {
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
func (s *store) apply(txn *badger.Txn, ev *eventRec) error {
	switch ev.Type {
	case typeSighting:
		return s.applySighting(txn, ev.Sighting)
	case eventStart:
		return s.applyStart(txn, ev.Sighting, ev.Game)
	case eventEnd:
		return s.applyEnd(txn, ev.Game)
	case typeMove:
		_, err := s.put(txn, moveKey(ev.Move.Game, ev.Move.Ply, ev.Move.Opp), ev.Move)
		return err
	case typeTakeBack:
		return s.takeBack(txn, ev.TakeBack)
	case typeModel:
		_, err := s.putModel(txn, ev.Model)
		return err
	}
	return fail(s.dir, ErrBadEvent, fmt.Errorf("event type %q", ev.Type))
}

func (s *store) applySighting(txn *badger.Txn, r *sightingRec) error {
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
	// A rating is history when it changes; the same rating named at every game is kept once.
	if r.Elo > 0 && latestElo(cur.Ratings, r.Source) != r.Elo {
		seen.Ratings = []ratingRec{{Elo: r.Elo, Source: r.Source, At: r.At}}
	}
	mergeProfile(cur, seen)
	_, err = s.put(txn, profileKey(key), cur)
	return err
}

// latestElo returns the latest rating from source, 0 when none.
func latestElo(ratings []ratingRec, source string) int {
	for i := len(ratings) - 1; i >= 0; i-- {
		if ratings[i].Source == source {
			return ratings[i].Elo
		}
	}
	return 0
}

func (s *store) applyStart(txn *badger.Txn, who *sightingRec, start *gameRec) error {
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
		if err := txn.Delete(indexKey(cur.Key, cur.ID)); err != nil {
			return err
		}
	}
	cur.Key, cur.Game, cur.Variant, cur.Side, cur.TC = key, start.Game, start.Variant, start.Side, start.TC
	cur.StartFEN, cur.Start = start.StartFEN, start.Start
	if _, err := s.put(txn, gameKey(cur.ID), cur); err != nil {
		return err
	}
	return txn.Set(indexKey(key, cur.ID), nil)
}

func (s *store) applyEnd(txn *badger.Txn, end *gameRec) error {
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

func (s *store) takeBack(txn *badger.Txn, tb *takeBackRec) error {
	prefix := movePrefix(tb.Game)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	var doomed [][]byte
	for it.Seek(fmt.Appendf(bytes.Clone(prefix), "%05d", tb.ToPly)); it.Valid(); it.Next() {
		doomed = append(doomed, it.Item().KeyCopy(nil))
	}
	it.Close()
	for _, k := range doomed {
		if err := txn.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// putModel stores a model state under the opponent it resolves to, creating a bare profile when the opponent
// was never named.
func (s *store) putModel(txn *badger.Txn, m *modelRec) (bool, error) {
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

// batchTxn is a series of transactions that commits and starts anew when one grows too big for badger, for
// work made of idempotent steps that need not be atomic as a whole.
type batchTxn struct {
	s   *store
	txn *badger.Txn
}

// batch runs f over a batchTxn and commits what it leaves.
func (s *store) batch(f func(b *batchTxn) error) error {
	if err := s.checkSpace(); err != nil {
		return err
	}
	b := &batchTxn{s: s, txn: s.db.NewTransaction(true)}
	defer func() { b.txn.Discard() }()
	if err := f(b); err != nil {
		return err
	}
	return b.commit()
}

// do runs one step in the current transaction, or in a new one when the current is full.
func (b *batchTxn) do(step func(txn *badger.Txn) error) error {
	err := step(b.txn)
	if errors.Is(err, badger.ErrTxnTooBig) {
		if err := b.commit(); err != nil {
			return err
		}
		b.txn.Discard()
		b.txn = b.s.db.NewTransaction(true)
		err = step(b.txn)
	}
	return err
}

func (b *batchTxn) commit() error {
	if err := b.txn.Commit(); err != nil {
		return errStorage(b.s.dir, "writing the store", err)
	}
	return nil
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
	err := s.batch(func(b *batchTxn) error {
		for _, ev := range evs {
			if err := b.do(func(txn *badger.Txn) error { return s.apply(txn, ev) }); err != nil {
				return err
			}
		}
		return nil
	})
	switch {
	case err == nil:
		return errs
	case errors.Is(err, ErrDiskFull) || len(evs) == 1:
		return fillAll(err)
	}
	for i, ev := range evs {
		errs[i] = s.batch(func(b *batchTxn) error {
			return b.do(func(txn *badger.Txn) error { return s.apply(txn, ev) })
		})
	}
	return errs
}

// compact runs badger's value-log garbage collection until it finds nothing to rewrite, and returns how many
// bytes the value log shrank by.
func (s *store) compact() (int64, error) {
	_, before := s.db.Size()
	for {
		err := s.db.RunValueLogGC(0.5)
		if errors.Is(err, badger.ErrNoRewrite) || errors.Is(err, badger.ErrRejected) {
			break
		}
		if err != nil {
			return 0, errStorage(s.dir, "compacting the store", err)
		}
	}
	_, after := s.db.Size()
	return before - after, nil
}
