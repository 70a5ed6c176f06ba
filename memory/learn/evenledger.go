// The even-game ledger: a rating to play at (a level) per opponent and time control, adjusted after every
// result as dynamic scripting adjusts its weight cap, kept in the memory as the "even" model.

package learn

import (
	"encoding/json"
	"fmt"
	"math"
)

// EvenModel is the memory's model name of the even-game state.
const EvenModel = "even"

// EvenStateVersion is the version of EvenState's JSON form. Version 1 learned a handicap in pawns (top
// culling); its records are read with the level set to their rating estimate.
const EvenStateVersion = 2

// The level's learning rule, on the rating scale: the first game's level (a new opponent), the step of the
// first games, the smallest step it decays to, and the share of a step a draw moves. The smallest step is
// large on purpose: the issue asks for half of the points over the last 20 of 40 games, and 20 games
// scored by chance alone are within 5% of a half only a third of the time; a step that moves our expected
// score by about a fifth makes a win likelier after a loss and a loss after a win. In a simulation of
// opponents that score by the Elo formula (TestEvenRecordConvergence), 300 decaying to 120 scored within
// 50 +- 5% over games 21-40 in 90% of runs against opponents from 800 to 2000 (40 decaying from 200:
// 80%), 98% where our strength changes twice as fast with the level, 79% where half as fast.
const (
	evenInitialLevel = 1800
	evenFirstStep    = 300
	evenMinStep      = 120
	evenDrawShare    = 0.25
	// evenRecentWeight is the weight of the latest game in EvenRecord.Recent, the standing the rules look at.
	// In the simulation above, games 21-40 within 50 +- 5% against an opponent at full strength in 62% of runs
	// (0.15: 61%, 0.2: 60%, 0.3: 58%, the mean of all games: 57%), 300 below it 83% (80%), 150 below 79% (75%);
	// from 800 to 2000 unchanged (91%).
	evenRecentWeight = 0.1
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
	// Level is the rating the even mode plays at (MinLevel..FullLevel): where it scores half of the points,
	// it is also the estimate of the opponent's rating.
	Level float64 `json:"level"`
	// Games, Wins, Draws and Losses count the results from our side.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Recent is our score over the latest games: their mean for the first games, then an exponential mean in
	// which the latest weighs evenRecentWeight. RecentGames is how many games it covers: Games, or 0 in a state
	// written before session 29, which has none (the mean of all games stands in for it).
	Recent      float64 `json:"recent,omitempty"`
	RecentGames int     `json:"recent_games,omitempty"`
}

// standing is our score as the rules see it: the recent score, the mean of all games in a state that has
// none, a half before the first game.
func (r *EvenRecord) standing() float64 {
	switch {
	case r.RecentGames > 0:
		return r.Recent
	case r.Games > 0:
		return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games)
	}
	return 0.5
}

// newEvenRecord starts a record at evenInitialLevel, or, when the opponent has records at other time
// controls, at their levels' mean weighted by games: the opponent's rating is the best guess at another
// clock too.
func (s *EvenState) newEvenRecord() *EvenRecord {
	rec := &EvenRecord{Level: evenInitialLevel}
	var sum float64
	n := 0
	for _, r := range s.TimeControls {
		if r.Games > 0 {
			sum += r.Level * float64(r.Games)
			n += r.Games
		}
	}
	if n > 0 {
		rec.Level = sum / float64(n)
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

// Update applies one result (our score 1, 0.5 or 0) as dynamic scripting adjusts its weight cap: a win
// lowers the level, a loss raises it, by a step that shrinks as games accumulate (so that the first games
// find the opponent's rating fast and the later ones settle on it); a draw moves it a quarter step toward
// an even score (down when we stand above half, up when below). A win at full strength while we stand below
// half keeps the level: against an opponent as strong as full strength, every step down lost points that no
// step up could win back (session 24: 40-45% against Toga II and Glaurung; simulated against an opponent at
// full strength, games 21-40 scored 47.6% on average instead of 38.1%, within 50 +- 5% in 57% of runs instead
// of 29%; against one 150 below it, 52.7% instead of 46.5%). Where we stand is the recent score (standing):
// with the mean of all games a bad start kept full strength until the later games had made it up, and they
// scored far above half (session 29: 72.5% over games 21-40 against Connect-Four's sophisticated preset, full
// strength from game 5 to 29). The level stays in MinLevel..FullLevel.
func (r *EvenRecord) Update(score float64) {
	step := max(evenMinStep, evenFirstStep/math.Sqrt(1+float64(r.Games)/4))
	sofar := r.standing()
	r.Recent = sofar + max(evenRecentWeight, 1/float64(r.Games+1))*(score-sofar)
	r.RecentGames = r.Games + 1
	switch {
	case score > 0.5:
		r.Wins++
		if r.Level < FullLevel || sofar >= 0.5 {
			r.Level -= step
		}
	case score < 0.5:
		r.Losses++
		r.Level += step
	default:
		r.Draws++
		switch {
		case sofar > 0.5:
			r.Level -= evenDrawShare * step
		case sofar < 0.5:
			r.Level += evenDrawShare * step
		}
	}
	r.Games++
	r.Level = max(MinLevel, min(r.Level, FullLevel))
}

// evenRecordV1 is a record of EvenState version 1.
type evenRecordV1 struct {
	Handicap float64 `json:"handicap"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Rating   float64 `json:"rating"`
}

// ParseEvenState reads an "even" model state; an unknown version is an error, so that an older dossier
// does not misread a newer state. A version 1 state is read with each level at its rating estimate.
func ParseEvenState(raw json.RawMessage) (*EvenState, error) {
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("even state: %w", err)
	}
	var s EvenState
	switch head.Version {
	case 1:
		var v1 struct {
			TimeControls map[string]*evenRecordV1 `json:"time_controls"`
		}
		if err := json.Unmarshal(raw, &v1); err != nil {
			return nil, fmt.Errorf("even state: %w", err)
		}
		s = EvenState{Version: EvenStateVersion, TimeControls: map[string]*EvenRecord{}}
		for tc, r := range v1.TimeControls {
			if r == nil || math.IsNaN(r.Rating) || r.Games < 0 {
				return nil, fmt.Errorf("even state: a bad record for time control %q", tc)
			}
			s.TimeControls[tc] = &EvenRecord{Level: max(MinLevel, min(r.Rating, FullLevel)), Games: r.Games,
				Wins: r.Wins, Draws: r.Draws, Losses: r.Losses}
		}
		return &s, nil
	case EvenStateVersion:
	default:
		return nil, fmt.Errorf("even state: version %d, want %d", head.Version, EvenStateVersion)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("even state: %w", err)
	}
	for tc, r := range s.TimeControls {
		if r == nil || math.IsNaN(r.Level) || r.Level < MinLevel || r.Level > FullLevel || r.Games < 0 ||
			!(r.Recent >= 0 && r.Recent <= 1) || r.RecentGames < 0 || r.RecentGames > r.Games {
			return nil, fmt.Errorf("even state: a bad record for time control %q", tc)
		}
	}
	return &s, nil
}
