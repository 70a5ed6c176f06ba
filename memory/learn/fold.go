// Learned states as folds over the stored games: the fold's order and its mark (which games a stored state
// has folded, so that any process can check it against the store and go on from it), and the even-game
// ledger's per-game results and their fold.

package learn

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"
)

// FoldVersion is the version of FoldMark's form.
const FoldVersion = 1

// FoldMark says what a stored state folded: the base it started from and the first Games games of the fold's
// order, by a chained digest of their identifiers. It is stored inside the state's JSON object as its
// "fold" field; a state without one is a snapshot of an older dossier (a legacy base).
type FoldMark struct {
	Version int `json:"version"`
	// Base names the state the fold started from (a game, our preset, and a legacy snapshot or none).
	Base string `json:"base"`
	// Games counts the games folded; Digest chains their identifiers (FoldDigests).
	Games  int    `json:"games"`
	Digest string `json:"digest"`
}

// FoldItem is one game (or one game's contribution) in a fold: its identifier and when it ended.
type FoldItem struct {
	ID  string
	End time.Time
}

// SortFold sorts items into the fold's order: by end time (to the nanosecond), then by identifier. Every
// process sorts the same stored items alike, whatever order they were written in.
func SortFold(items []FoldItem) {
	sort.Slice(items, func(i, j int) bool {
		a, b := items[i].End.UnixNano(), items[j].End.UnixNano()
		if a != b {
			return a < b
		}
		return items[i].ID < items[j].ID
	})
}

// FoldDigests returns the chained digests of a fold: out[0] digests the base alone, out[k] the base and the
// first k items' identifiers, so that a mark is checked against a prefix of the order in constant time.
func FoldDigests(base string, items []FoldItem) []string {
	out := make([]string, len(items)+1)
	h := sha256.Sum256([]byte("fold\x00" + base))
	out[0] = hex.EncodeToString(h[:])
	for i, it := range items {
		h = sha256.Sum256(append(append(h[:len(h):len(h)], 0), it.ID...))
		out[i+1] = hex.EncodeToString(h[:])
	}
	return out
}

// Fits reports whether a mark folded a prefix of items from base (digests from FoldDigests(base, items)).
func (m *FoldMark) Fits(base string, digests []string) bool {
	return m != nil && m.Version == FoldVersion && m.Base == base && m.Games >= 0 && m.Games < len(digests) &&
		m.Digest == digests[m.Games]
}

// ReadFoldMark returns the mark of a stored state, nil when it has none (a legacy snapshot); a "fold" field
// that does not read is an error.
func ReadFoldMark(state json.RawMessage) (*FoldMark, error) {
	var wrap struct {
		Fold *FoldMark `json:"fold"`
	}
	if err := json.Unmarshal(state, &wrap); err != nil {
		return nil, fmt.Errorf("fold mark: %w", err)
	}
	return wrap.Fold, nil
}

// WithFoldMark returns a state's JSON object with the mark added as its "fold" field (replacing one it had).
func WithFoldMark(state json.RawMessage, mark FoldMark) (json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(state, &fields); err != nil || fields == nil {
		return nil, errors.New("fold mark: the state is not a JSON object")
	}
	m, err := json.Marshal(mark)
	if err != nil {
		return nil, err
	}
	fields["fold"] = m
	return json.Marshal(fields)
}

// EvenResultModel is the memory's model name of one game's even-game result: the ledger's contribution of
// that game, stored once under the game's identifier and folded with every other process's.
const EvenResultModel = "even-result"

// EvenResultVersion is the version of EvenResult's form. Version 1 also held the largest handicap the
// game allowed ("max"), which version 2's level needs no more: it is read and ignored.
const EvenResultVersion = 2

// EvenResult is one finished even game: the time control it was played at and our score.
type EvenResult struct {
	Version     int     `json:"version"`
	TimeControl string  `json:"tc"`
	Score       float64 `json:"score"`
	// MaxHandicap is version 1's largest handicap, read and not used.
	MaxHandicap float64 `json:"max,omitempty"`
}

// ParseEvenResult reads a stored even-game result and checks it.
func ParseEvenResult(raw json.RawMessage) (EvenResult, error) {
	var r EvenResult
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("even result: %w", err)
	}
	switch {
	case r.Version != 1 && r.Version != EvenResultVersion:
		return r, fmt.Errorf("even result: version %d, want %d", r.Version, EvenResultVersion)
	case math.IsNaN(r.Score) || r.Score < 0 || r.Score > 1:
		return r, fmt.Errorf("even result: score %v is not in [0, 1]", r.Score)
	case math.IsNaN(r.MaxHandicap) || math.IsInf(r.MaxHandicap, 0) || r.MaxHandicap < 0:
		return r, fmt.Errorf("even result: largest handicap %v", r.MaxHandicap)
	}
	r.Version, r.MaxHandicap = EvenResultVersion, 0
	return r, nil
}

// FoldEven applies results, in the order given, to a copy of base (nil: a new state), as the ledger of one
// process playing those games in sequence would; base is not changed.
func FoldEven(base *EvenState, results []EvenResult) *EvenState {
	s := &EvenState{Version: EvenStateVersion, TimeControls: map[string]*EvenRecord{}}
	if base != nil {
		for tc, r := range base.TimeControls {
			c := *r
			s.TimeControls[tc] = &c
		}
	}
	for _, r := range results {
		s.Record(r.TimeControl).Update(r.Score)
	}
	return s
}

// LearnedGameModel is the memory's model name of a game filed under another opponent key than the one its
// learners learned for (an unnamed opponent identified as a stored one): stored under the learners' key with
// the game's ID, it puts the game into that key's fold.
const LearnedGameModel = "learned-game"

// LearnedGameVersion is the version of LearnedGame's form.
const LearnedGameVersion = 1

// LearnedGame names the opponent key a game is filed under.
type LearnedGame struct {
	Version int    `json:"version"`
	From    string `json:"from"`
}
