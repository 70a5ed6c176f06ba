// The even-game ledger: a handicap per opponent and time control, adjusted after every result as dynamic
// scripting with top culling adjusts its weight cap, with a rating estimate of the opponent, kept in the
// memory as the "even" model.
package learn

import (
	"encoding/json"
	"fmt"
	"math"
)

// EvenModel is the memory's model name of the even-game state.
const EvenModel = "even"

// EvenStateVersion is the version of EvenState's JSON form.
const EvenStateVersion = 1

// The handicap's learning rule, in pawns (times the game's unit): the first game's handicap, the step of
// the first games, the smallest step it decays to, and the share of a step a draw moves.
const (
	evenInitialHandicap = 0.5
	evenFirstStep       = 0.3
	evenMinStep         = 0.08
	evenDrawShare       = 0.25
	// evenEloK is the Elo K-factor of the rating estimate.
	evenEloK = 32
)

// EvenState is what the even-game mode knows of one opponent: a record per time control.
type EvenState struct {
	Version int `json:"version"`
	// TimeControls maps a time control as the front end described it ("10+0.1", "movetime 100", "") to
	// its record.
	TimeControls map[string]*EvenRecord `json:"time_controls"`
}

// EvenRecord is the even-game mode's state against one opponent at one time control.
type EvenRecord struct {
	// Handicap is the handicap in pawns (the game's unit): how far below the best the moves are aimed.
	Handicap float64 `json:"handicap"`
	// Games, Wins, Draws and Losses count the results from our side.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Rating is the opponent's estimated rating on the UCI_Elo scale of dossier's calibration table (where
	// dossier at full strength is MaxElo), updated by the Elo rule after every result.
	Rating float64 `json:"rating"`
}

// newEvenRecord starts a record; another time control's record of the same opponent, when there is one,
// gives its rating estimate, and the handicap that plays at that rating.
func (s *EvenState) newEvenRecord() *EvenRecord {
	rec := &EvenRecord{Handicap: evenInitialHandicap, Rating: EloForHandicap(evenInitialHandicap)}
	var sum float64
	n := 0
	for _, r := range s.TimeControls {
		if r.Games > 0 {
			sum += r.Rating * float64(r.Games)
			n += r.Games
		}
	}
	if n > 0 {
		rec.Rating = sum / float64(n)
		rec.Handicap = HandicapForElo(int(math.Round(rec.Rating)))
	}
	return rec
}

// Record returns the Record of a time control, made when missing.
func (s *EvenState) Record(tc string) *EvenRecord {
	if s.TimeControls == nil {
		s.TimeControls = map[string]*EvenRecord{}
	}
	r, ok := s.TimeControls[tc]
	if !ok {
		r = s.newEvenRecord()
		s.TimeControls[tc] = r
	}
	return r
}

// Update applies one result (our score 1, 0.5 or 0) as dynamic scripting does: a win raises the handicap, a
// loss lowers it, by a step that shrinks as games accumulate; a draw moves it a quarter step toward an even
// score (up when we scored more than half so far, down when less). The handicap stays in [0, max]. The
// rating estimate follows the Elo rule, our strength being the rating the handicap played at.
func (r *EvenRecord) Update(score, maxHandicap float64) {
	played := EloForHandicap(r.Handicap)
	expected := 1 / (1 + math.Pow(10, (r.Rating-played)/400))
	r.Rating -= evenEloK * (score - expected)
	step := max(evenMinStep, evenFirstStep/math.Sqrt(1+float64(r.Games)/4))
	sofar := 0.5
	if r.Games > 0 {
		sofar = (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games)
	}
	switch {
	case score > 0.5:
		r.Wins++
		r.Handicap += step
	case score < 0.5:
		r.Losses++
		r.Handicap -= step
	default:
		r.Draws++
		switch {
		case sofar > 0.5:
			r.Handicap += evenDrawShare * step
		case sofar < 0.5:
			r.Handicap -= evenDrawShare * step
		}
	}
	r.Games++
	r.Handicap = max(0, min(r.Handicap, maxHandicap))
}

// ParseEvenState reads an "even" model state; an unknown version is an error, so that an older dossier
// does not misread a newer state.
func ParseEvenState(raw json.RawMessage) (*EvenState, error) {
	var s EvenState
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("even state: %w", err)
	}
	if s.Version != EvenStateVersion {
		return nil, fmt.Errorf("even state: version %d, want %d", s.Version, EvenStateVersion)
	}
	for tc, r := range s.TimeControls {
		if r == nil || math.IsNaN(r.Handicap) || math.IsNaN(r.Rating) || r.Handicap < 0 || r.Games < 0 {
			return nil, fmt.Errorf("even state: a bad record for time control %q", tc)
		}
	}
	return &s, nil
}
