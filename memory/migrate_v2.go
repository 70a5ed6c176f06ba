// The migration from schema version 2 to 3: the analyses that version 2 kept as "mistakes" model states become
// mistake records.

package memory

import (
	"encoding/json"
	"fmt"

	"go.uber.org/zap"
)

// mistakesModelV2 is the model name under which version 2 filed each analysed game's report.
const mistakesModelV2 = "mistakes"

// mistakesStateV2 is a "mistakes" model state as version 2 stored it (the analysis package's Report then).
type mistakesStateV2 struct {
	Moves []struct {
		Ply              int
		Before           string
		Played, Best     string
		Value, BestValue float64
		Depth            int
	}
	Mistake  int
	Complete bool
}

// migrateV2 turns every "mistakes" model state into the mistake record of its game, and removes the state.
// A state that blamed no move, that names no game, whose game is not stored (its game's name unknown) or that
// does not read is dropped with a warning saying why. The values of the other moves analysed are dropped too:
// experience entries are keyed by the hash of their position, which only the game's rules compute, and the
// store does not hold them; the next analyses learn them again.
func (s *store) migrateV2() error {
	type change struct {
		model []byte
		rec   *mistakeRec // nil: the state is dropped
	}
	var changes []change
	err := s.kv.view(func(txn kvTxn) error {
		return s.scan(txn, []byte(prefModel), true, func(k []byte, rec any) error {
			m := rec.(*modelRec)
			if m.Model != mistakesModelV2 {
				return nil
			}
			c := change{model: append([]byte(nil), k...)}
			why := ""
			var st mistakesStateV2
			switch err := json.Unmarshal(m.State, &st); {
			case err != nil:
				why = "the state does not read: " + err.Error()
			case st.Mistake < 0 || st.Mistake >= len(st.Moves):
				why = "the analysis blamed no move"
			case m.Game == "":
				why = "the state names no game"
			}
			if why == "" {
				g, err := s.getGame(txn, m.Game)
				switch {
				case err != nil:
					return err
				case g == nil || g.Game == "":
					why = "its game is not stored"
				default:
					mv := st.Moves[st.Mistake]
					r := &mistakeRec{Key: m.Key, ID: m.Game, Game: g.Game, Ply: mv.Ply, FEN: mv.Before, Move: mv.Played,
						Value: mv.Value, Best: mv.Best, BestValue: mv.BestValue, Depth: mv.Depth, At: m.At}
					if err := r.check(); err != nil {
						why = err.Error()
					} else {
						c.rec = r
					}
				}
			}
			if c.rec == nil {
				s.log.Warn("memory: migration to schema 3 drops an analysis that gives no mistake record",
					zap.String("record", string(k)), zap.String("why", why))
			}
			changes = append(changes, c)
			return nil
		})
	})
	if err != nil {
		return err
	}
	converted := 0
	err = s.batch(func(b batcher) error {
		converted = 0
		for _, c := range changes {
			if err := b.do(func(txn kvTxn) error {
				if c.rec != nil {
					if _, err := s.put(txn, mistakeKey(c.rec.Key, c.rec.ID), c.rec); err != nil {
						return err
					}
				}
				return txn.del(c.model)
			}); err != nil {
				return err
			}
			if c.rec != nil {
				converted++
			}
		}
		return setVersion(b, 3)
	})
	if err == nil && len(changes) > 0 {
		s.log.Info("memory: migrated analyses to mistake records", zap.Int("converted", converted),
			zap.Int("dropped", len(changes)-converted), zap.String("store", s.dir))
	}
	if err != nil {
		return fmt.Errorf("migrating to schema 3: %w", err)
	}
	return nil
}
