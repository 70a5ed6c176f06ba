// Migrations of stores written with an older schema to the current one.

package memory

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// nan is the evaluation of a move record that has none.
var nan = math.NaN()

// opponentV1 is a profile as schema version 1 stored it: one name, the latest rating without its source or
// date. Version 2 keeps every name an opponent was seen under and each rating with its source and date.
type opponentV1 struct {
	Key   string    `json:"key"`
	Name  string    `json:"name,omitempty"`
	Elo   int       `json:"elo,omitempty"`
	Title string    `json:"title,omitempty"`
	Kind  string    `json:"kind,omitempty"`
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`
}

// ratingSourceV1 is the source of a rating carried over from a version 1 profile, which did not record one.
const ratingSourceV1 = "schema v1"

// upgrade returns the version 2 form of a version 1 profile.
func (p *opponentV1) upgrade() *opponentRec {
	rec := &opponentRec{Key: p.Key, Title: p.Title, Kind: p.Kind, First: p.First, Last: p.Last}
	if p.Name != "" {
		rec.Names = []string{p.Name}
	}
	if p.Elo > 0 {
		rec.Ratings = []ratingRec{{Elo: p.Elo, Source: ratingSourceV1, At: p.Last}}
	}
	return rec
}

// migrate brings the store from version up to schemaVersion, one step at a time. Each step rewrites records in
// idempotent transactions and writes its version last, so a migration cut short by a crash is run again from the
// step it was in.
func (s *store) migrate(version int) error {
	steps := map[int]func() error{1: s.migrateV1, 2: s.migrateV2}
	for ; version < schemaVersion; version++ {
		step, ok := steps[version]
		if !ok {
			return fail(s.dir, ErrCorrupt, fmt.Errorf("no migration from schema version %d", version))
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// setVersion writes the schema version a migration step reached.
func setVersion(b batcher, version int) error {
	return b.do(func(txn kvTxn) error { return txn.set([]byte(keySchema), fmt.Appendf(nil, "%d", version)) })
}

// migrateV1 rewrites version 1's profiles in version 2's form.
func (s *store) migrateV1() error {
	var old []*opponentV1
	err := s.kv.view(func(txn kvTxn) error {
		return txn.scan([]byte(prefProfile), nil, true, func(key, v []byte) error {
			p := &opponentV1{}
			if err := decodeStrict(v, p); err != nil {
				// A migration cut short left some profiles in the new form already.
				if _, err2 := decodeValue(key, v); err2 == nil {
					return nil
				}
				return fail(s.dir, ErrCorrupt, fmt.Errorf("version 1 profile %q: %w", key, err))
			}
			if string(profileKey(p.Key)) != string(key) {
				return fail(s.dir, ErrCorrupt, fmt.Errorf("version 1 profile %q names key %q", key, p.Key))
			}
			old = append(old, p)
			return nil
		})
	})
	if err != nil {
		return err
	}
	return s.batch(func(b batcher) error {
		for _, p := range old {
			rec := p.upgrade()
			if err := rec.check(); err != nil {
				return fail(s.dir, ErrCorrupt, fmt.Errorf("version 1 profile %q: %w", p.Key, err))
			}
			if err := b.do(func(txn kvTxn) error { return txn.set(profileKey(p.Key), encodeValue(rec)) }); err != nil {
				return err
			}
		}
		return setVersion(b, 2)
	})
}

// errLocked says another process holds the store.
var errLocked = errors.New("another process holds the store")
