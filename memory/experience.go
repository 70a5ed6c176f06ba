// Analyses filed in the memory: the mistake the analysis of a finished game blamed, and the experience table of
// the deep values it learned, per opponent and for all opponents of a game; an analysis is one event, filed
// whole or not at all.

package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"time"
)

// Key prefixes of the analyses' records (see the package comment).
const (
	prefMistake          = "x/" // x/<key>/<game id>
	prefExperience       = "e/" // e/<key>/<game>/<hash>: one opponent's experience
	prefCommonExperience = "c/" // c/<game>/<hash>: every opponent's experience of a game
)

// The analyses' record types and event kind.
const (
	typeMistake    = "mistake"
	typeExperience = "experience"
	typeAnalysis   = "analysis"
)

// ExperienceVersion is the form of the experience entries this dossier writes: a deep value for the side to
// move, in the evaluation units of the game's presets, a mate counted in plies from the position. A reader
// ignores entries of another version (stale), with a warning.
const ExperienceVersion = 1

// The bounds an experience value may be, as the analysing search returned it.
const (
	BoundExact = "exact"
	BoundLower = "lower"
	BoundUpper = "upper"
)

// maxAnalysisEntries bounds the experience entries of one analysis (two for each of our moves in a long game).
const (
	maxAnalysisEntries = 4096
	maxDepth           = 1000
)

// Analysis is what the analysis of a finished game found against an opponent: the mistake it blamed (nil:
// none of our moves) and the deep values it learned. Recorded as one event, it is filed whole or not at all.
type Analysis struct {
	OpponentKey string
	// GameID is the game analysed; Game names its game ("chess").
	GameID string
	Game   string
	// Mistake is the move blamed, nil when the analysis blamed none.
	Mistake *Mistake
	// Experience are the deep values learned, filed in the opponent's table and in the game's table of every
	// opponent (where, for one position, the deeper entry, and at equal depth the later, is kept).
	Experience []Experience
	At         time.Time
}

// Mistake is the move an analysis blamed in a game.
type Mistake struct {
	GameID string
	Game   string
	// Ply is the move's index in the game since its start position; FEN the position it was played in.
	Ply int
	FEN string
	// Move is our move (protocol notation) and Value its deep value for us; Best the move the deep search
	// found best and BestValue its value.
	Move      string
	Value     float64
	Best      string
	BestValue float64
	// Depth is the depth both were searched to.
	Depth int
	At    time.Time
}

// Experience is one deep value learned of a position.
type Experience struct {
	// OpponentKey is the opponent whose table holds the entry, "" for the table of every opponent (read
	// only: an Analysis files each entry in both).
	OpponentKey string
	Game        string
	// FEN is the position; Hash its hash (games.Position.Hash) when filed, which a reader recomputes from FEN.
	FEN  string
	Hash uint64
	// Move is the best move found (protocol notation), "" when none is known (the position after our move,
	// valued as a whole).
	Move string
	// Value is the value for the side to move, searched to Depth, exact or a bound (BoundExact...).
	Value float64
	Depth int
	Bound string
	// Version is the entry's form (ExperienceVersion when this dossier wrote it).
	Version int
	// GameID is the game whose analysis learned it.
	GameID string
	At     time.Time
}

// mistakeRec is a mistake record, stored under x/<key>/<game id>.
type mistakeRec struct {
	Type      string    `json:"type,omitempty"`
	Key       string    `json:"key"`
	ID        string    `json:"id"`
	Game      string    `json:"game"`
	Ply       int       `json:"ply"`
	FEN       string    `json:"fen"`
	Move      string    `json:"move"`
	Value     float64   `json:"value"`
	Best      string    `json:"best"`
	BestValue float64   `json:"best_value"`
	Depth     int       `json:"depth"`
	At        time.Time `json:"at"`
}

// experienceRec is an experience entry, stored under e/<key>/<game>/<hash> (one opponent's) or c/<game>/<hash>
// (every opponent's, Key "").
type experienceRec struct {
	Type    string    `json:"type,omitempty"`
	Key     string    `json:"key,omitempty"`
	Game    string    `json:"game"`
	Hash    string    `json:"hash"`
	FEN     string    `json:"fen"`
	Move    string    `json:"move,omitempty"`
	Value   float64   `json:"value"`
	Depth   int       `json:"depth"`
	Bound   string    `json:"bound"`
	Version int       `json:"v"`
	ID      string    `json:"id,omitempty"`
	At      time.Time `json:"at"`
}

// analysisRec is an Analysis as an event carries it; its entries carry no key (they go to both tables).
type analysisRec struct {
	Key        string           `json:"key"`
	ID         string           `json:"id"`
	Game       string           `json:"game"`
	Mistake    *mistakeRec      `json:"mistake,omitempty"`
	Experience []*experienceRec `json:"experience,omitempty"`
}

func mistakePrefix(key string) []byte  { return []byte(prefMistake + escape(key) + "/") }
func mistakeKey(key, id string) []byte { return append(mistakePrefix(key), escape(id)...) }

// experiencePrefix is the prefix of one table of a game's entries: the opponent key's, or every opponent's
// for key "".
func experiencePrefix(key, game string) []byte {
	if key == "" {
		return []byte(prefCommonExperience + escape(game) + "/")
	}
	return []byte(prefExperience + escape(key) + "/" + escape(game) + "/")
}

// experienceOpponentPrefix is the prefix of every entry of an opponent's tables (all games).
func experienceOpponentPrefix(key string) []byte { return []byte(prefExperience + escape(key) + "/") }

func experienceKey(key, game, hash string) []byte {
	return append(experiencePrefix(key, game), hash...)
}

func (r *mistakeRec) check() error {
	if err := checkKey("opponent key", r.Key); err != nil {
		return err
	}
	if err := checkID("game id", r.ID); err != nil {
		return err
	}
	if err := checkID("game", r.Game); err != nil {
		return err
	}
	if r.Ply < 0 || r.Ply > maxPly {
		return errField("ply %d is not in [0, %d]", r.Ply, maxPly)
	}
	if r.FEN == "" || r.Move == "" || r.Best == "" {
		return errField("the mistake of game %s lacks its position, move or better move", r.ID)
	}
	for what, s := range map[string]string{"FEN": r.FEN, "move": r.Move, "better move": r.Best} {
		if err := checkText(what, s, maxFieldLen); err != nil {
			return err
		}
	}
	if !finite(r.Value) || !finite(r.BestValue) {
		return errField("the mistake's values %v, %v are not numbers", r.Value, r.BestValue)
	}
	if r.Depth < 1 || r.Depth > maxDepth {
		return errField("depth %d is not in [1, %d]", r.Depth, maxDepth)
	}
	if r.At.IsZero() {
		return errField("the mistake of game %s has no time", r.ID)
	}
	return checkTime("mistake time", r.At)
}

func (r *experienceRec) check() error {
	if r.Key != "" {
		if err := checkKey("opponent key", r.Key); err != nil {
			return err
		}
	}
	if err := checkID("game", r.Game); err != nil {
		return err
	}
	if _, err := parseHash(r.Hash); err != nil {
		return err
	}
	if r.FEN == "" {
		return errField("experience entry %s has no position", r.Hash)
	}
	for what, s := range map[string]string{"FEN": r.FEN, "move": r.Move} {
		if err := checkText(what, s, maxFieldLen); err != nil {
			return err
		}
	}
	if !finite(r.Value) {
		return errField("experience value %v is not a number", r.Value)
	}
	if r.Depth < 1 || r.Depth > maxDepth {
		return errField("depth %d is not in [1, %d]", r.Depth, maxDepth)
	}
	switch r.Bound {
	case BoundExact, BoundLower, BoundUpper:
	default:
		return errField("bound %q is not exact, lower or upper", r.Bound)
	}
	if r.Version < 1 {
		return errField("experience version %d is not positive", r.Version)
	}
	if r.ID != "" {
		if err := checkID("game id", r.ID); err != nil {
			return err
		}
	}
	if r.At.IsZero() {
		return errField("experience entry %s has no time", r.Hash)
	}
	return checkTime("experience time", r.At)
}

func (r *analysisRec) check() error {
	if err := checkKey("opponent key", r.Key); err != nil {
		return err
	}
	if err := checkID("game id", r.ID); err != nil {
		return err
	}
	if err := checkID("game", r.Game); err != nil {
		return err
	}
	if m := r.Mistake; m != nil {
		if m.Key != r.Key || m.ID != r.ID || m.Game != r.Game {
			return errField("the mistake names %s/%s/%s, the analysis %s/%s/%s", m.Key, m.ID, m.Game, r.Key, r.ID, r.Game)
		}
		if err := m.check(); err != nil {
			return err
		}
	}
	if len(r.Experience) > maxAnalysisEntries {
		return errField("the analysis has %d experience entries, more than %d", len(r.Experience), maxAnalysisEntries)
	}
	for _, e := range r.Experience {
		if e == nil || e.Key != "" || e.Game != r.Game || e.ID != r.ID {
			return errField("an experience entry of the analysis of game %s is not the analysis's", r.ID)
		}
		if err := e.check(); err != nil {
			return err
		}
	}
	return nil
}

// record turns an Analysis into the event the store applies.
func (a *Analysis) record(stamp func(time.Time) time.Time) *eventRec {
	at := stamp(a.At)
	rec := &analysisRec{Key: a.OpponentKey, ID: a.GameID, Game: a.Game}
	if m := a.Mistake; m != nil {
		mAt := at
		if !m.At.IsZero() {
			mAt = m.At.UTC()
		}
		rec.Mistake = &mistakeRec{Key: a.OpponentKey, ID: a.GameID, Game: a.Game, Ply: m.Ply, FEN: m.FEN, Move: m.Move,
			Value: m.Value, Best: m.Best, BestValue: m.BestValue, Depth: m.Depth, At: mAt}
	}
	for _, e := range a.Experience {
		version := e.Version
		if version == 0 {
			version = ExperienceVersion
		}
		eAt := at
		if !e.At.IsZero() {
			eAt = e.At.UTC()
		}
		rec.Experience = append(rec.Experience, &experienceRec{Game: a.Game, Hash: formatHash(e.Hash), FEN: e.FEN,
			Move: e.Move, Value: e.Value, Depth: e.Depth, Bound: e.Bound, Version: version, ID: a.GameID, At: eAt})
	}
	return &eventRec{Type: typeAnalysis, Analysis: rec}
}

// applyAnalysis files an analysis in one transaction: the mistake under the opponent it resolves to, each
// entry in the opponent's table and in the game's table of every opponent.
func (s *store) applyAnalysis(txn kvTxn, a *analysisRec) error {
	key, err := s.resolve(txn, a.Key)
	if err != nil {
		return err
	}
	if _, err := s.mergeInto(txn, &opponentRec{Key: key}); err != nil {
		return err
	}
	if a.Mistake != nil {
		m := *a.Mistake
		m.Key, m.Type = key, ""
		if _, err := s.put(txn, mistakeKey(key, m.ID), &m); err != nil {
			return err
		}
	}
	for _, e := range a.Experience {
		for _, table := range []string{key, ""} {
			if _, err := s.mergeExperience(txn, table, e); err != nil {
				return err
			}
		}
	}
	if len(a.Experience) > 0 {
		for _, table := range []string{key, ""} {
			if err := s.limitExperience(txn, table, a.Game); err != nil {
				return err
			}
		}
	}
	return nil
}

// defaultExperienceLimit is the entries an experience table keeps at most when Options.ExperienceLimit is 0:
// about a hundred analysed games' worth, which the Player reads at a game's start in well under a second.
const defaultExperienceLimit = 20000

// limitExperience keeps the table of key ("" every opponent's) of game within the store's limit: past it, the
// shallowest entries, the oldest first among equally deep, are removed until a tenth of the limit is free, so
// that the next analyses do not each pay for a removal.
func (s *store) limitExperience(txn kvTxn, key, game string) error {
	limit := s.experienceLimit
	if limit <= 0 {
		limit = defaultExperienceLimit
	}
	prefix := experiencePrefix(key, game)
	n := 0
	if err := s.scan(txn, prefix, false, func([]byte, any) error { n++; return nil }); err != nil {
		return err
	}
	if n <= limit {
		return nil
	}
	type held struct {
		key   []byte
		depth int
		at    time.Time
	}
	entries := make([]held, 0, n)
	err := s.scan(txn, prefix, true, func(k []byte, rec any) error {
		e := rec.(*experienceRec)
		entries = append(entries, held{k, e.Depth, e.At})
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].depth != entries[j].depth {
			return entries[i].depth < entries[j].depth
		}
		return entries[i].at.Before(entries[j].at)
	})
	keep := limit - limit/10
	for _, e := range entries[:max(len(entries)-keep, 0)] {
		if err := txn.del(e.key); err != nil {
			return errStorage(s.dir, "removing an experience entry", err)
		}
	}
	return nil
}

// mergeExperience files an entry in the table of key ("" every opponent's): it replaces what is there when it
// is of a newer version, deeper, or as deep and later; it reports whether it wrote.
func (s *store) mergeExperience(txn kvTxn, key string, e *experienceRec) (bool, error) {
	k := experienceKey(key, e.Game, e.Hash)
	rec, err := s.get(txn, k)
	if err != nil {
		return false, err
	}
	if cur, ok := rec.(*experienceRec); ok && !experienceBetter(e, cur) {
		return false, nil
	}
	c := *e
	c.Key, c.Type = key, ""
	return s.put(txn, k, &c)
}

// experienceBetter reports whether entry a should replace b, which holds the same position.
func experienceBetter(a, b *experienceRec) bool {
	switch {
	case a.Version != b.Version:
		return a.Version == ExperienceVersion || (b.Version != ExperienceVersion && a.Version > b.Version)
	case a.Depth != b.Depth:
		return a.Depth > b.Depth
	}
	return !a.At.Before(b.At)
}

// mistakes returns an opponent's mistake records, by game id (so, by time).
func (s *store) mistakes(txn kvTxn, key string) ([]Mistake, error) {
	var out []Mistake
	err := s.scan(txn, mistakePrefix(key), true, func(_ []byte, rec any) error {
		m := rec.(*mistakeRec)
		out = append(out, Mistake{GameID: m.ID, Game: m.Game, Ply: m.Ply, FEN: m.FEN, Move: m.Move, Value: m.Value,
			Best: m.Best, BestValue: m.BestValue, Depth: m.Depth, At: m.At})
		return nil
	})
	return out, err
}

// experience returns the entries of game in the opponent's table (none when the opponent is unknown or key is
// "") and in the table of every opponent.
func (s *store) experience(keyOrName, game string) ([]Experience, error) {
	var out []Experience
	err := s.kv.view(func(txn kvTxn) error {
		out = out[:0]
		var tables []string
		if keyOrName != "" {
			if key, _, err := s.lookup(txn, keyOrName); err == nil {
				tables = append(tables, key)
			} else if !errors.Is(err, ErrUnknownOpponent) {
				return err
			}
		}
		tables = append(tables, "")
		for _, table := range tables {
			err := s.scan(txn, experiencePrefix(table, game), true, func(_ []byte, rec any) error {
				e := rec.(*experienceRec)
				h, _ := parseHash(e.Hash) // checked by the decoder
				out = append(out, Experience{OpponentKey: e.Key, Game: e.Game, FEN: e.FEN, Hash: h, Move: e.Move,
					Value: e.Value, Depth: e.Depth, Bound: e.Bound, Version: e.Version, GameID: e.ID, At: e.At})
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// Experience returns the experience of a game: the opponent's entries (OpponentKey set; none for "" or an
// opponent the memory does not know) and those of every opponent (OpponentKey ""). The Player reads it at a
// game's start, off the clock.
func (m *Memory) Experience(key, game string) ([]Experience, error) {
	var out []Experience
	err := m.call(context.Background(), wireRequest{Op: opExperience, Key: key, Game: game}, &out)
	return out, err
}

// moveAnalysisRecords moves an opponent's mistakes and experience from alias to into (a merge): the mistakes
// keep their game ids, the experience entries merge by the table's rule.
func (s *store) moveAnalysisRecords(b batcher, alias, into string) error {
	var mistakes []*mistakeRec
	var entries []*experienceRec
	err := b.do(func(txn kvTxn) error {
		mistakes, entries = nil, nil
		if err := s.scan(txn, mistakePrefix(alias), true, func(_ []byte, rec any) error {
			mistakes = append(mistakes, rec.(*mistakeRec))
			return nil
		}); err != nil {
			return err
		}
		return s.scan(txn, experienceOpponentPrefix(alias), true, func(_ []byte, rec any) error {
			entries = append(entries, rec.(*experienceRec))
			return nil
		})
	})
	if err != nil {
		return err
	}
	for _, m := range mistakes {
		if err := b.do(func(txn kvTxn) error {
			moved := *m
			moved.Key = into
			if _, err := s.put(txn, mistakeKey(into, m.ID), &moved); err != nil {
				return err
			}
			return txn.del(mistakeKey(alias, m.ID))
		}); err != nil {
			return err
		}
	}
	for _, e := range entries {
		if err := b.do(func(txn kvTxn) error {
			if _, err := s.mergeExperience(txn, into, e); err != nil {
				return err
			}
			return txn.del(experienceKey(alias, e.Game, e.Hash))
		}); err != nil {
			return err
		}
	}
	return nil
}

// analysisKeysOf returns the keys of an opponent's mistakes and experience (for forget; the table of every
// opponent keeps what it learned, which names no opponent).
func (s *store) analysisKeysOf(txn kvTxn, key string) ([][]byte, error) {
	var out [][]byte
	for _, prefix := range [][]byte{mistakePrefix(key), experienceOpponentPrefix(key)} {
		if err := s.scan(txn, prefix, false, func(k []byte, _ any) error {
			out = append(out, bytes.Clone(k))
			return nil
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// String says a mistake in protocol notation ("ply 4: h5f7? -815 at depth 8, better b1c3 +35"); memory show
// writes it in the game's own notation.
func (m Mistake) String() string {
	return fmt.Sprintf("ply %d: %s? %+.0f at depth %d, better %s %+.0f", m.Ply, m.Move, m.Value, m.Depth, m.Best,
		m.BestValue)
}
