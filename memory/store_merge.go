// Merging one opponent into another and forgetting one, with every record filed under it.

package memory

import (
	"bytes"
	"errors"
	"fmt"

	"dossier/play/opponent"
)

// forget deletes an opponent with everything filed under it, in as many transactions as it takes.
func (s *store) forget(keyOrName string) error {
	var doomed [][]byte
	err := s.kv.view(func(txn kvTxn) error {
		key, p, err := s.lookup(txn, keyOrName)
		if err != nil {
			return err
		}
		for _, a := range p.Aliases {
			doomed = append(doomed, aliasKey(a))
		}
		games, err := s.gamesOf(txn, key)
		if err != nil {
			return err
		}
		for _, g := range games {
			if err := s.scan(txn, movePrefix(g.ID), false, func(k []byte, _ any) error {
				doomed = append(doomed, bytes.Clone(k))
				return nil
			}); err != nil {
				return err
			}
			doomed = append(doomed, gameKey(g.ID), indexKey(key, g.ID))
		}
		if err := s.scan(txn, modelPrefix(key), false, func(k []byte, _ any) error {
			doomed = append(doomed, bytes.Clone(k))
			return nil
		}); err != nil {
			return err
		}
		analysed, err := s.analysisKeysOf(txn, key)
		if err != nil {
			return err
		}
		doomed = append(doomed, analysed...)
		jobs, err := s.jobKeysOf(txn, key)
		if err != nil {
			return err
		}
		doomed = append(doomed, jobs...)
		// The profile goes last, so an interrupted forget can be run again.
		doomed = append(doomed, profileKey(key))
		return nil
	})
	if err != nil {
		return err
	}
	return s.batch(func(b batcher) error {
		for _, k := range doomed {
			if err := b.do(func(txn kvTxn) error { return txn.del(k) }); err != nil {
				return err
			}
		}
		return nil
	})
}

// merge makes alias an alias of into: its names, aliases, games and models move to into. Merging an opponent
// into the one it is already an alias of changes nothing.
func (s *store) merge(b batcher, alias, into string) (bool, error) {
	if alias == opponent.UnknownKey || into == opponent.UnknownKey {
		return false, fail(s.dir, ErrMerge, errors.New("the unnamed opponent is never merged"))
	}
	var src *opponentRec
	var games [][]byte
	var models []*modelRec
	err := b.do(func(txn kvTxn) error {
		target, err := s.resolve(txn, into)
		if err != nil {
			return err
		}
		from, err := s.resolve(txn, alias)
		if err != nil {
			return err
		}
		if from == target {
			if alias == target {
				return fail(s.dir, ErrMerge, fmt.Errorf("%q cannot be merged into itself", alias))
			}
			return nil // already merged
		}
		into = target
		if src, err = s.getProfile(txn, alias); err != nil {
			return err
		}
		if src == nil {
			src = &opponentRec{Key: alias}
		}
		games, models = nil, nil
		if err := s.scan(txn, indexPrefix(alias), false, func(k []byte, _ any) error {
			games = append(games, bytes.Clone(k[len(indexPrefix(alias)):]))
			return nil
		}); err != nil {
			return err
		}
		return s.scan(txn, modelPrefix(alias), true, func(_ []byte, rec any) error {
			models = append(models, rec.(*modelRec))
			return nil
		})
	})
	if err != nil || src == nil {
		return false, err
	}
	for _, id := range games {
		id := unescape(string(id))
		if err := b.do(func(txn kvTxn) error {
			g, err := s.getGame(txn, id)
			if err != nil {
				return err
			}
			if g != nil {
				g.Key = into
				if _, err := s.put(txn, gameKey(id), g); err != nil {
					return err
				}
			}
			if err := txn.set(indexKey(into, id), nil); err != nil {
				return err
			}
			return txn.del(indexKey(alias, id))
		}); err != nil {
			return false, err
		}
	}
	for _, m := range models {
		if err := b.do(func(txn kvTxn) error {
			moved := *m
			moved.Key = into
			if err := txn.set(modelKey(into, m.Model, m.At, m.Game), encodeValue(&moved)); err != nil {
				return err
			}
			return txn.del(modelKey(alias, m.Model, m.At, m.Game))
		}); err != nil {
			return false, err
		}
	}
	if err := s.moveAnalysisRecords(b, alias, into); err != nil {
		return false, err
	}
	if err := s.moveJobs(b, alias, into); err != nil {
		return false, err
	}
	err = b.do(func(txn kvTxn) error {
		moved := *src
		moved.Key = into
		moved.Aliases = append([]string{alias}, src.Aliases...)
		if _, err := s.mergeInto(txn, &moved); err != nil {
			return err
		}
		for _, a := range moved.Aliases {
			if _, err := s.put(txn, aliasKey(a), &aliasRec{Alias: a, Key: into}); err != nil {
				return err
			}
		}
		return txn.del(profileKey(alias))
	})
	return err == nil, err
}
