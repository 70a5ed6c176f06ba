// The stored records: their JSON forms (one form serves the store's values, the dump's lines and the socket's
// events), the keys they live under, and the decoder that checks every one of them.

package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"dossier/play/opponent"
)

// schemaVersion is the version of the layout below; stores written with an older one are migrated on open.
const schemaVersion = 3

// Key prefixes; each record kind lives under its own (see the package comment).
const (
	keySchema   = "v/schema"
	prefAlias   = "a/"
	prefIndex   = "g/"
	prefGame    = "h/"
	prefMove    = "m/"
	prefProfile = "o/"
	prefModel   = "s/"
)

// Limits on what a record may hold; they keep a bad front end from filling the disk with one event.
const (
	maxNameLen  = 256
	maxIDLen    = 128
	maxFieldLen = 1024
	maxPly      = 99999
	maxStateLen = 1 << 20
	maxGameMove = 100000
)

// The record types, as the dump's "type" field and the socket's event kinds name them.
const (
	typeSchema   = "schema"
	typeOpponent = "opponent"
	typeAlias    = "alias"
	typeGame     = "game"
	typeMove     = "move"
	typeModel    = "model"
	typeSighting = "sighting"
	typeTakeBack = "takeback"
)

// escape makes s usable as one component of a key: '/' separates components, so it and '%' are escaped.
func escape(s string) string {
	if !strings.ContainsAny(s, "%/") {
		return s
	}
	return strings.NewReplacer("%", "%25", "/", "%2F").Replace(s)
}

// unescape undoes escape.
func unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	return strings.NewReplacer("%2F", "/", "%25", "%").Replace(s)
}

func profileKey(key string) []byte   { return []byte(prefProfile + escape(key)) }
func aliasKey(alias string) []byte   { return []byte(prefAlias + escape(alias)) }
func indexPrefix(key string) []byte  { return []byte(prefIndex + escape(key) + "/") }
func indexKey(key, id string) []byte { return append(indexPrefix(key), escape(id)...) }
func gameKey(id string) []byte       { return []byte(prefGame + escape(id)) }
func movePrefix(id string) []byte    { return []byte(prefMove + escape(id) + "/") }
func modelPrefix(key string) []byte  { return []byte(prefModel + escape(key) + "/") }
func moveKey(id string, ply int, byOpponent bool) []byte {
	side := "0"
	if byOpponent {
		side = "1"
	}
	return fmt.Appendf(movePrefix(id), "%05d/%s", ply, side)
}
func modelKey(key, model string, at time.Time, id string) []byte {
	return fmt.Appendf(modelPrefix(key), "%s/%020d/%s", escape(model), at.UnixNano(), escape(id))
}

// opponentRec is an opponent's profile, stored under o/<key>.
type opponentRec struct {
	Type    string      `json:"type,omitempty"`
	Key     string      `json:"key"`
	Names   []string    `json:"names,omitempty"`
	Aliases []string    `json:"aliases,omitempty"`
	Title   string      `json:"title,omitempty"`
	Kind    string      `json:"kind,omitempty"`
	Ratings []ratingRec `json:"ratings,omitempty"`
	First   time.Time   `json:"first,omitzero"`
	Last    time.Time   `json:"last,omitzero"`
}

// ratingRec is one rating of an opponent.
type ratingRec struct {
	Elo    int       `json:"elo"`
	Source string    `json:"source,omitempty"`
	At     time.Time `json:"at,omitzero"`
}

// aliasRec says the key Alias was merged into Key; stored under a/<alias>.
type aliasRec struct {
	Type  string `json:"type,omitempty"`
	Alias string `json:"alias"`
	Key   string `json:"key"`
}

// gameRec is a game's header and, once it ended, its end; stored under h/<id> and indexed by g/<key>/<id>.
type gameRec struct {
	Type     string    `json:"type,omitempty"`
	ID       string    `json:"id"`
	Key      string    `json:"key,omitempty"` // the opponent; "" when only the end is known
	Game     string    `json:"game,omitempty"`
	Variant  string    `json:"variant,omitempty"`
	Side     int       `json:"side"`
	TC       string    `json:"tc,omitempty"`
	StartFEN string    `json:"fen,omitempty"`
	Start    time.Time `json:"start,omitzero"`
	Result   string    `json:"result,omitempty"` // "" until the game ended
	Reason   string    `json:"reason,omitempty"`
	Score    *float64  `json:"score,omitempty"` // nil when unknown
	Moves    []string  `json:"moves,omitempty"`
	FinalFEN string    `json:"final,omitempty"`
	End      time.Time `json:"end,omitzero"`
}

// moveRec is one observed move, stored under m/<id>/<ply>/<0 ours|1 the opponent's>.
type moveRec struct {
	Type string    `json:"type,omitempty"`
	Game string    `json:"game"`
	Ply  int       `json:"ply"`
	Opp  bool      `json:"opp,omitempty"`
	Hash string    `json:"hash,omitempty"` // the Zobrist key, 16 hex digits
	FEN  string    `json:"fen,omitempty"`
	Move string    `json:"move"`
	MS   *int64    `json:"ms,omitempty"`
	Pred string    `json:"pred,omitempty"`
	Prob *float64  `json:"prob,omitempty"`
	Eval *float64  `json:"eval,omitempty"`
	At   time.Time `json:"at,omitzero"`
}

// modelRec is one state of a learned model, stored under s/<key>/<model>/<time>/<game>.
type modelRec struct {
	Type  string          `json:"type,omitempty"`
	Key   string          `json:"key"`
	Model string          `json:"model"`
	At    time.Time       `json:"at"`
	Game  string          `json:"game,omitempty"`
	State json.RawMessage `json:"state"`
}

// schemaRec is the dump's first line.
type schemaRec struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
}

// sightingRec is an opponent as a front end named it (the socket form of Sighting, and GameStart's opponent).
type sightingRec struct {
	Key    string    `json:"key"`
	Name   string    `json:"name,omitempty"`
	Title  string    `json:"title,omitempty"`
	Kind   string    `json:"kind,omitempty"`
	Elo    int       `json:"elo,omitempty"`
	Source string    `json:"source,omitempty"`
	At     time.Time `json:"at"`
}

// takeBackRec removes a game's moves from ToPly on.
type takeBackRec struct {
	Game  string `json:"game"`
	ToPly int    `json:"to_ply"`
}

// errField is the error of a record that breaks a rule; it is wrapped into ErrBadEvent or ErrBadImport.
func errField(format string, args ...any) error { return fmt.Errorf(format, args...) }

// checkText checks a free text field: valid UTF-8 and not too long.
func checkText(what, s string, limit int) error {
	if len(s) > limit {
		return errField("%s is %d bytes long, more than %d", what, len(s), limit)
	}
	if !utf8.ValidString(s) {
		return errField("%s is not UTF-8", what)
	}
	return nil
}

// checkID checks a game identifier or a model name: non-empty, short, printable.
func checkID(what, s string) error {
	if s == "" {
		return errField("%s is empty", what)
	}
	if err := checkText(what, s, maxIDLen); err != nil {
		return err
	}
	for _, r := range s {
		if r < ' ' || r == 0x7f {
			return errField("%s %q holds a control character", what, s)
		}
	}
	return nil
}

// checkKey checks an opponent key: what opponent.NameKey makes of some name.
func checkKey(what, key string) error {
	if err := checkText(what, key, maxNameLen); err != nil {
		return err
	}
	if key != opponent.UnknownKey && opponent.NameKey(key) != key {
		return errField("%s %q is not a normalised name key (opponent.NameKey gives %q)", what, key, opponent.NameKey(key))
	}
	return nil
}

// checkTime checks a time fits the store's forms: RFC 3339, and nanoseconds since 1970 in an int64 (which
// ends in 2262).
func checkTime(what string, t time.Time) error {
	if !t.IsZero() && (t.Year() < 1970 || t.Year() > 2261) {
		return errField("%s %v is out of range", what, t)
	}
	return nil
}

// finite reports whether f is an ordinary number (JSON has no NaN or infinity).
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func (r *opponentRec) check() error {
	if err := checkKey("opponent key", r.Key); err != nil {
		return err
	}
	for _, n := range r.Names {
		if n == "" {
			return errField("opponent %q has an empty name", r.Key)
		}
		if err := checkText("name", n, maxNameLen); err != nil {
			return err
		}
	}
	for _, a := range r.Aliases {
		if err := checkKey("alias", a); err != nil {
			return err
		}
		if a == r.Key || a == opponent.UnknownKey {
			return errField("alias %q of %q cannot be merged", a, r.Key)
		}
	}
	if err := checkText("title", r.Title, maxIDLen); err != nil {
		return err
	}
	switch r.Kind {
	case "", "computer", "human":
	default:
		return errField("kind %q is not computer or human", r.Kind)
	}
	for _, rt := range r.Ratings {
		if rt.Elo <= 0 || rt.Elo > 9999 {
			return errField("rating %d is out of range", rt.Elo)
		}
		if err := checkText("rating source", rt.Source, maxIDLen); err != nil {
			return err
		}
		if err := checkTime("rating time", rt.At); err != nil {
			return err
		}
	}
	if err := checkTime("first seen", r.First); err != nil {
		return err
	}
	return checkTime("last seen", r.Last)
}

func (r *aliasRec) check() error {
	if err := checkKey("alias", r.Alias); err != nil {
		return err
	}
	if err := checkKey("alias target", r.Key); err != nil {
		return err
	}
	if r.Alias == r.Key || r.Alias == opponent.UnknownKey || r.Key == opponent.UnknownKey {
		return errField("alias %q of %q cannot be merged", r.Alias, r.Key)
	}
	return nil
}

func (r *gameRec) check() error {
	if err := checkID("game id", r.ID); err != nil {
		return err
	}
	if r.Key != "" {
		if err := checkKey("opponent key", r.Key); err != nil {
			return err
		}
	}
	if r.Side != 0 && r.Side != 1 {
		return errField("our side %d is not 0 or 1", r.Side)
	}
	for what, s := range map[string]string{"game": r.Game, "variant": r.Variant, "time control": r.TC,
		"result": r.Result, "reason": r.Reason} {
		if err := checkText(what, s, maxIDLen); err != nil {
			return err
		}
	}
	for what, s := range map[string]string{"start FEN": r.StartFEN, "final FEN": r.FinalFEN} {
		if err := checkText(what, s, maxFieldLen); err != nil {
			return err
		}
	}
	if r.Score != nil && (!finite(*r.Score) || *r.Score < 0 || *r.Score > 1) {
		return errField("our score %v is not in [0, 1]", *r.Score)
	}
	if len(r.Moves) > maxGameMove {
		return errField("the game has %d moves, more than %d", len(r.Moves), maxGameMove)
	}
	for _, mv := range r.Moves {
		if mv == "" {
			return errField("a move of game %s is empty", r.ID)
		}
		if err := checkText("move", mv, maxIDLen); err != nil {
			return err
		}
	}
	if err := checkTime("start time", r.Start); err != nil {
		return err
	}
	return checkTime("end time", r.End)
}

func (r *moveRec) check() error {
	if err := checkID("game id", r.Game); err != nil {
		return err
	}
	if r.Ply < 0 || r.Ply > maxPly {
		return errField("ply %d is not in [0, %d]", r.Ply, maxPly)
	}
	if r.Hash != "" {
		if _, err := parseHash(r.Hash); err != nil {
			return err
		}
	}
	if r.Move == "" {
		return errField("the move of game %s ply %d is empty", r.Game, r.Ply)
	}
	for what, s := range map[string]string{"move": r.Move, "predicted move": r.Pred} {
		if err := checkText(what, s, maxIDLen); err != nil {
			return err
		}
	}
	if err := checkText("FEN", r.FEN, maxFieldLen); err != nil {
		return err
	}
	if r.MS != nil && *r.MS < 0 {
		return errField("thinking time %d ms is negative", *r.MS)
	}
	if r.Prob != nil && (!finite(*r.Prob) || *r.Prob < 0 || *r.Prob > 1) {
		return errField("probability %v is not in [0, 1]", *r.Prob)
	}
	if r.Eval != nil && !finite(*r.Eval) {
		return errField("evaluation %v is not a number", *r.Eval)
	}
	return checkTime("move time", r.At)
}

func (r *modelRec) check() error {
	if err := checkKey("opponent key", r.Key); err != nil {
		return err
	}
	if err := checkID("model name", r.Model); err != nil {
		return err
	}
	if r.Game != "" {
		if err := checkID("game id", r.Game); err != nil {
			return err
		}
	}
	if r.At.IsZero() {
		return errField("model %s has no time", r.Model)
	}
	if err := checkTime("model time", r.At); err != nil {
		return err
	}
	if len(r.State) > maxStateLen {
		return errField("model state is %d bytes, more than %d", len(r.State), maxStateLen)
	}
	if !json.Valid(r.State) || len(bytes.TrimSpace(r.State)) == 0 {
		return errField("model state is not JSON")
	}
	return nil
}

func (r *sightingRec) check() error {
	if err := checkKey("opponent key", r.Key); err != nil {
		return err
	}
	if err := checkText("name", r.Name, maxNameLen); err != nil {
		return err
	}
	rec := opponentRec{Key: r.Key, Title: r.Title, Kind: r.Kind}
	if r.Elo != 0 {
		rec.Ratings = []ratingRec{{Elo: r.Elo, Source: r.Source, At: r.At}}
	}
	if err := rec.check(); err != nil {
		return err
	}
	return checkTime("sighting time", r.At)
}

// parseHash reads a Zobrist key written as 16 hex digits.
func parseHash(s string) (uint64, error) {
	if len(s) != 16 {
		return 0, errField("position hash %q is not 16 hex digits", s)
	}
	h, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return 0, errField("position hash %q is not 16 hex digits", s)
	}
	return h, nil
}

// formatHash writes a Zobrist key as parseHash reads it.
func formatHash(h uint64) string { return fmt.Sprintf("%016x", h) }

// decodeStrict decodes one JSON value into v, refusing unknown fields and trailing data.
//
// Its decoders are reused: a new json.Decoder copies each value into a buffer it grows from nothing, which
// was a fifth of what reading a memory of 1,000 games allocated (session 29's profile of `dossier bench
// --memory-cost`), and the collection that allocation wakes runs beside our search. A decoder that met an
// error is dropped, and the value is decoded again by a new one, so that what a reused decoder holds can never
// change an answer.
func decodeStrict(data []byte, v any) error {
	sd, _ := strictDecoders.Get().(*strictDecoder)
	if sd == nil {
		sd = newStrictDecoder()
	}
	if err := sd.decodeFrom(data, v); err != nil {
		return newStrictDecoder().decodeFrom(data, v)
	}
	strictDecoders.Put(sd)
	return nil
}

// strictDecoders are the decoders decodeStrict reuses.
var strictDecoders sync.Pool

// strictDecoder is a JSON decoder refusing unknown fields over a reader that is given each value in turn.
type strictDecoder struct {
	in  *bytes.Reader
	dec *json.Decoder
}

func newStrictDecoder() *strictDecoder {
	in := bytes.NewReader(nil)
	dec := json.NewDecoder(in)
	dec.DisallowUnknownFields()
	return &strictDecoder{in: in, dec: dec}
}

// decodeFrom decodes data, the decoder's first value.
func (sd *strictDecoder) decodeFrom(data []byte, v any) error {
	sd.in.Reset(data)
	return sd.decode(v)
}

// decode decodes the next value, which must be the last: after it, More finds the reader's end (without
// making the decoder's error sticky: Decoder.More peeks, and the next value read after Reset starts afresh).
func (sd *strictDecoder) decode(v any) error {
	if err := sd.dec.Decode(v); err != nil {
		return err
	}
	if sd.dec.More() {
		return errors.New("data after the record")
	}
	return nil
}

// decodeValue decodes and checks the value stored under key: the one decoder of every stored record, which
// the store's reads, the dump and the fuzz test go through. It returns a *opponentRec, *aliasRec, *gameRec,
// *moveRec, *modelRec, *mistakeRec, *experienceRec or *jobRec, and checks that the record agrees with its key.
func decodeValue(key, value []byte) (any, error) {
	k := string(key)
	var rec interface{ check() error }
	var keyOf func() []byte
	switch {
	case strings.HasPrefix(k, prefProfile):
		r := &opponentRec{}
		rec, keyOf = r, func() []byte { return profileKey(r.Key) }
	case strings.HasPrefix(k, prefAlias):
		r := &aliasRec{}
		rec, keyOf = r, func() []byte { return aliasKey(r.Alias) }
	case strings.HasPrefix(k, prefGame):
		r := &gameRec{}
		rec, keyOf = r, func() []byte { return gameKey(r.ID) }
	case strings.HasPrefix(k, prefMove):
		r := &moveRec{}
		rec, keyOf = r, func() []byte { return moveKey(r.Game, r.Ply, r.Opp) }
	case strings.HasPrefix(k, prefModel):
		r := &modelRec{}
		rec, keyOf = r, func() []byte { return modelKey(r.Key, r.Model, r.At, r.Game) }
	case strings.HasPrefix(k, prefMistake):
		r := &mistakeRec{}
		rec, keyOf = r, func() []byte { return mistakeKey(r.Key, r.ID) }
	case strings.HasPrefix(k, prefExperience), strings.HasPrefix(k, prefCommonExperience):
		r := &experienceRec{}
		rec, keyOf = r, func() []byte { return experienceKey(r.Key, r.Game, r.Hash) }
	case strings.HasPrefix(k, prefJob):
		r := &jobRec{}
		rec, keyOf = r, func() []byte { return jobKey(r.ID) }
	default:
		return nil, fmt.Errorf("key %q holds no record", k)
	}
	if err := decodeStrict(value, rec); err != nil {
		return nil, fmt.Errorf("record %q: %v", k, err)
	}
	if err := rec.check(); err != nil {
		return nil, fmt.Errorf("record %q: %v", k, err)
	}
	if !bytes.Equal(keyOf(), key) {
		return nil, fmt.Errorf("record %q belongs under %q", k, keyOf())
	}
	return rec, nil
}

// encodeValue encodes a record for the store (without its dump type).
func encodeValue(rec any) []byte {
	data, err := json.Marshal(rec)
	if err != nil {
		// Every record is checked to hold only finite numbers and valid JSON states before it is encoded.
		panic(fmt.Sprintf("memory: encoding a checked record: %v", err))
	}
	return data
}

// mergeProfile adds what src knows to dst: names, aliases and ratings are unions, the first and last
// sightings widen, and the title and kind follow the later of the two.
func mergeProfile(dst, src *opponentRec) {
	for _, n := range src.Names {
		if !slices.Contains(dst.Names, n) {
			dst.Names = append(dst.Names, n)
		}
	}
	for _, a := range src.Aliases {
		if !slices.Contains(dst.Aliases, a) && a != dst.Key {
			dst.Aliases = append(dst.Aliases, a)
		}
	}
	for _, r := range src.Ratings {
		dup := false
		for _, d := range dst.Ratings {
			if d.Elo == r.Elo && d.Source == r.Source && d.At.Equal(r.At) {
				dup = true
				break
			}
		}
		if !dup {
			dst.Ratings = append(dst.Ratings, r)
		}
	}
	sort.SliceStable(dst.Ratings, func(i, j int) bool { return dst.Ratings[i].At.Before(dst.Ratings[j].At) })
	later := !src.Last.Before(dst.Last)
	if src.Title != "" && (later || dst.Title == "") {
		dst.Title = src.Title
	}
	if src.Kind != "" && (later || dst.Kind == "") {
		dst.Kind = src.Kind
	}
	if !src.First.IsZero() && (dst.First.IsZero() || src.First.Before(dst.First)) {
		dst.First = src.First
	}
	if src.Last.After(dst.Last) {
		dst.Last = src.Last
	}
}
