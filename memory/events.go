// The events a front end records into the memory, and the identifiers that tie them together.

package memory

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"dossier/play/opponent"
)

// Event is one change to the store; exactly one of its pointer fields is set.
type Event struct {
	// Sighting says an opponent was named (identity, rating): at UCI_Opponent, CECP name or match spec time.
	Sighting *Sighting
	// Start says a game began (at its first search, when our side is known).
	Start *GameStart
	// Move is one observed move, the opponent's or ours (see MoveRecord.ByOpponent).
	Move *MoveRecord
	// TakeBack says moves were taken back.
	TakeBack *TakeBack
	// End says the game ended.
	End *GameEnd
	// Model is a learner's new model state for an opponent.
	Model *ModelUpdate
	// Analysis is what the analysis of a finished game found (see experience.go).
	Analysis *Analysis
	// Job files work left after a game for whichever process takes it (see jobs.go); filing a job of the
	// same kind about the same opponent and game again keeps the one filed first.
	Job *Job
}

// Sighting is an opponent as a front end described it at one moment.
type Sighting struct {
	Opponent opponent.Opponent
	At       time.Time
}

// GameStart describes a game when it begins.
type GameStart struct {
	// GameID is the game's unique identifier, made by NewGameID.
	GameID string
	// OpponentKey is the opponent's store key (opponent.NameKey of its name); Opponent.Key() when empty.
	OpponentKey string
	// Opponent is the opponent as the front end knows it at the start; it is recorded as a sighting too.
	Opponent opponent.Opponent
	// Game names the game: "chess", "checkers", "connect4", "tictactoe".
	Game string
	// Variant names the variant, e.g. "standard" or "chess960"; "" when the game has one.
	Variant string
	// OurSide is 0 when we move first (White in chess, Black in checkers), 1 when second.
	OurSide int
	// TimeControl is the time control as the front end knows it, e.g. "40/60+0.5", "movetime 1000", "".
	TimeControl string
	// StartFEN is the start position in the game's FEN.
	StartFEN string
	At       time.Time
}

// MoveRecord is one move of a game as observed, with what we expected of it.
type MoveRecord struct {
	GameID string
	// Ply is the game's ply count in the position before the move.
	Ply int
	// ByOpponent says the opponent made the move (false: we did).
	ByOpponent bool
	// PositionKey is the Zobrist hash of the position before the move.
	PositionKey uint64
	// FEN is the position before the move.
	FEN string
	// Move is the move in the game's protocol notation.
	Move string
	// TimeMS is the mover's thinking time in milliseconds, -1 when unknown.
	TimeMS int64
	// Predicted is our predicted reply at that point, "" when none.
	Predicted string
	// Probability is the model's probability of the move actually played, -1 when none.
	Probability float64
	// Eval is our evaluation from our side (centipawns or the game's unit); NaN when none, stored as absent.
	Eval float64
	At   time.Time
}

// TakeBack removes a game's moves from ToPly on.
type TakeBack struct {
	GameID string
	ToPly  int
}

// GameEnd is how a game ended.
type GameEnd struct {
	GameID string
	// Result is "1-0", "0-1", "1/2-1/2", or "*" when unknown.
	Result string
	// Reason says why: "checkmate", "stalemate", "resignation", "time forfeit", "unknown", ...
	Reason string
	// OurScore is 1, 0.5 or 0, or -1 when unknown.
	OurScore float64
	// Moves are the whole game's moves in order, when the front end knows them.
	Moves    []string
	FinalFEN string
	At       time.Time
}

// ModelUpdate is a learner's state for an opponent after a game (or during one).
type ModelUpdate struct {
	OpponentKey string
	// Model names the learner, e.g. "typeprobs", "discrepancy", "depth".
	Model string
	// State is the learner's state, opaque to the store (it must be valid JSON).
	State json.RawMessage
	// GameID is the game after which the state was learned, "" for an online mid-game update.
	GameID string
	At     time.Time
}

// eventRec is an Event as the owner applies it: Type names the one field that is set.
type eventRec struct {
	Type     string       `json:"type"`
	Sighting *sightingRec `json:"sighting,omitempty"`
	Game     *gameRec     `json:"game,omitempty"` // start (its start fields) and end (its end fields)
	Move     *moveRec     `json:"move,omitempty"`
	TakeBack *takeBackRec `json:"takeback,omitempty"`
	Model    *modelRec    `json:"model,omitempty"`
	Analysis *analysisRec `json:"analysis,omitempty"`
	Job      *jobRec      `json:"job,omitempty"`
}

// The event kinds of eventRec.Type that have no record type of their own.
const (
	eventStart = "start"
	eventEnd   = "end"
)

func (r *eventRec) check() error {
	set := 0
	for _, p := range []bool{r.Sighting != nil, r.Game != nil, r.Move != nil, r.TakeBack != nil, r.Model != nil,
		r.Analysis != nil, r.Job != nil} {
		if p {
			set++
		}
	}
	if set == 0 || (set > 1 && !(r.Type == eventStart && set == 2 && r.Sighting != nil && r.Game != nil)) {
		return errField("event %q must carry exactly one record", r.Type)
	}
	switch {
	case r.Type == typeSighting && r.Sighting != nil:
		return r.Sighting.check()
	case r.Type == eventStart && r.Game != nil && r.Sighting != nil:
		if r.Game.Key == "" {
			return errField("game %s has no opponent", r.Game.ID)
		}
		if err := r.Sighting.check(); err != nil {
			return err
		}
		return r.Game.check()
	case r.Type == eventEnd && r.Game != nil && r.Sighting == nil:
		if r.Game.Key != "" {
			return errField("the end of game %s names an opponent", r.Game.ID)
		}
		return r.Game.check()
	case r.Type == typeMove && r.Move != nil:
		return r.Move.check()
	case r.Type == typeTakeBack && r.TakeBack != nil:
		if r.TakeBack.ToPly < 0 || r.TakeBack.ToPly > maxPly {
			return errField("take back to ply %d is not in [0, %d]", r.TakeBack.ToPly, maxPly)
		}
		return checkID("game id", r.TakeBack.Game)
	case r.Type == typeModel && r.Model != nil:
		return r.Model.check()
	case r.Type == typeAnalysis && r.Analysis != nil:
		return r.Analysis.check()
	case r.Type == typeJob && r.Job != nil:
		return r.Job.check()
	}
	return errField("event type %q does not match its record", r.Type)
}

// gameIDTime is the layout of NewGameID's time part: fixed width, so identifiers sort by time.
const gameIDTime = "20060102T150405.000000000Z"

// NewGameID returns a new game identifier, unique across processes and sortable by time: the UTC time to the
// nanosecond followed by 48 random bits.
func NewGameID() string {
	var r [6]byte
	_, _ = rand.Read(r[:]) // crypto/rand.Read never fails (it panics on a broken system source)
	return time.Now().UTC().Format(gameIDTime) + "-" + hex.EncodeToString(r[:])
}

// record checks an event and turns it into the form the store applies; a zero time becomes now, so that a
// resent event carries the time it was first recorded at.
func (ev Event) record(now time.Time) (*eventRec, error) {
	stamp := func(t time.Time) time.Time {
		if t.IsZero() {
			return now.UTC()
		}
		return t.UTC()
	}
	var rec *eventRec
	n := 0
	if s := ev.Sighting; s != nil {
		n++
		rec = &eventRec{Type: typeSighting, Sighting: sighting(s.Opponent, s.Opponent.Key(), stamp(s.At))}
	}
	if s := ev.Start; s != nil {
		n++
		key := s.OpponentKey
		if key == "" {
			key = s.Opponent.Key()
		}
		at := stamp(s.At)
		rec = &eventRec{Type: eventStart, Sighting: sighting(s.Opponent, key, at), Game: &gameRec{
			ID: s.GameID, Key: key, Game: s.Game, Variant: s.Variant, Side: s.OurSide, TC: s.TimeControl,
			StartFEN: s.StartFEN, Start: at}}
	}
	if mv := ev.Move; mv != nil {
		n++
		r := &moveRec{Game: mv.GameID, Ply: mv.Ply, Opp: mv.ByOpponent, Hash: formatHash(mv.PositionKey),
			FEN: mv.FEN, Move: mv.Move, Pred: mv.Predicted, At: stamp(mv.At)}
		if mv.TimeMS >= 0 {
			ms := mv.TimeMS
			r.MS = &ms
		}
		if mv.Probability >= 0 && !math.IsNaN(mv.Probability) {
			p := mv.Probability
			r.Prob = &p
		}
		if finite(mv.Eval) {
			e := mv.Eval
			r.Eval = &e
		}
		rec = &eventRec{Type: typeMove, Move: r}
	}
	if tb := ev.TakeBack; tb != nil {
		n++
		rec = &eventRec{Type: typeTakeBack, TakeBack: &takeBackRec{Game: tb.GameID, ToPly: tb.ToPly}}
	}
	if e := ev.End; e != nil {
		n++
		g := &gameRec{ID: e.GameID, Result: e.Result, Reason: e.Reason, Moves: e.Moves, FinalFEN: e.FinalFEN,
			End: stamp(e.At)}
		if e.OurScore >= 0 {
			score := e.OurScore
			g.Score = &score
		}
		if g.Result == "" {
			g.Result = "*"
		}
		if g.Reason == "" {
			g.Reason = "unknown"
		}
		rec = &eventRec{Type: eventEnd, Game: g}
	}
	if md := ev.Model; md != nil {
		n++
		rec = &eventRec{Type: typeModel, Model: &modelRec{Key: md.OpponentKey, Model: md.Model, State: md.State,
			Game: md.GameID, At: stamp(md.At)}}
	}
	if a := ev.Analysis; a != nil {
		n++
		rec = a.record(stamp)
	}
	if j := ev.Job; j != nil {
		n++
		rec = &eventRec{Type: typeJob, Job: j.record(stamp)}
	}
	if n != 1 {
		return nil, fmt.Errorf("an event must set exactly one of its fields; %d are set", n)
	}
	if err := rec.check(); err != nil {
		return nil, err
	}
	return rec, nil
}

// sighting is the stored form of an opponent named under key at a time.
func sighting(o opponent.Opponent, key string, at time.Time) *sightingRec {
	r := &sightingRec{Key: key, Name: strings.TrimSpace(o.Name), Title: o.Title, Elo: o.Elo, Source: o.Source, At: at}
	if o.Kind != opponent.UnknownKind {
		r.Kind = o.Kind.String()
	}
	return r
}
