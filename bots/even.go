// The even-game mode's learning: a handicap per opponent and time control, adjusted after every result as
// dynamic scripting with top culling adjusts its weight cap, with a rating estimate of the opponent, kept in
// the memory as the "even" model.
package bots

import (
	"encoding/json"
	"fmt"
	"math"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/play"

	"go.uber.org/zap"
)

// EvenModel is the memory's model name of the even-game state.
const EvenModel = "even"

// evenStateVersion is the version of EvenState's JSON form.
const evenStateVersion = 1

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
	rec := &EvenRecord{Handicap: evenInitialHandicap, Rating: searchers.EloForHandicap(evenInitialHandicap)}
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
		rec.Handicap = searchers.HandicapForElo(int(math.Round(rec.Rating)))
	}
	return rec
}

// record returns the record of a time control, made when missing.
func (s *EvenState) record(tc string) *EvenRecord {
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

// update applies one result (our score 1, 0.5 or 0) as dynamic scripting does: a win raises the handicap, a
// loss lowers it, by a step that shrinks as games accumulate; a draw moves it a quarter step toward an even
// score (up when we scored more than half so far, down when less). The handicap stays in [0, max]. The
// rating estimate follows the Elo rule, our strength being the rating the handicap played at.
func (r *EvenRecord) update(score, maxHandicap float64) {
	played := searchers.EloForHandicap(r.Handicap)
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

// parseEvenState reads an "even" model state; an unknown version is an error, so that an older dossier
// does not misread a newer state.
func parseEvenState(raw json.RawMessage) (*EvenState, error) {
	var s EvenState
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("even state: %w", err)
	}
	if s.Version != evenStateVersion {
		return nil, fmt.Errorf("even state: version %d, want %d", s.Version, evenStateVersion)
	}
	for tc, r := range s.TimeControls {
		if r == nil || math.IsNaN(r.Handicap) || math.IsNaN(r.Rating) || r.Handicap < 0 || r.Games < 0 {
			return nil, fmt.Errorf("even state: a bad record for time control %q", tc)
		}
	}
	return &s, nil
}

// evenState returns the even-game state of the opponent key, read from the memory when first needed (a
// fresh state when the memory has none or cannot be read, which is logged). p.mu must be held.
func (p *Player) evenState(key string) *EvenState {
	if s, ok := p.even[key]; ok {
		return s
	}
	s := &EvenState{Version: evenStateVersion}
	raw, err := p.dossier.latestModel(key, EvenModel)
	if err == nil && raw != nil {
		var stored *EvenState
		if stored, err = parseEvenState(raw); err == nil {
			s = stored
		}
	}
	if err != nil {
		p.dossier.log.Warn("cannot read the even-game state; starting afresh", zap.String("opponent", key), zap.Error(err))
	}
	if p.even == nil {
		p.even = map[string]*EvenState{}
	}
	p.even[key] = s
	return s
}

// playsEven reports whether the configuration learns an even game (Mode even without UCI_LimitStrength).
func playsEven(cfg searchers.Config) bool {
	weak, _ := cfg.Weakens()
	return weak && !cfg.LimitStrength
}

// evenHandicap sets the weak searcher's handicap from the current opponent's record at the current time
// control. p.mu must be held.
func (p *Player) evenHandicap(s engine.Searcher) {
	w, ok := s.(*searchers.WeakSearcher)
	if !ok || !playsEven(p.cfg) {
		return
	}
	rec := p.evenState(p.current.Opponent.Key()).record(p.evenTC)
	w.SetHandicapPawns(rec.Handicap)
}

// evenResult updates the current opponent's even-game record with a finished game's result and files the
// new state in the memory after the game gameID. p.mu must be held.
func (p *Player) evenResult(score float64, gameID string) {
	if !playsEven(p.cfg) || score < 0 {
		return
	}
	key := p.current.Opponent.Key()
	state := p.evenState(key)
	state.record(p.evenTC).update(score, searchers.MaxLearnedHandicap(p.game))
	raw, err := json.Marshal(state)
	if err != nil {
		p.dossier.log.Error("cannot encode the even-game state", zap.Error(err))
		return
	}
	p.dossier.recordModel(key, EvenModel, raw, gameID)
}

// EvenRecord returns a copy of the even-game record against an opponent at a time control, as the Player
// knows it now (reading the memory when first needed).
func (p *Player) EvenRecord(o play.Opponent, timeControl string) EvenRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *p.evenState(o.Key()).record(timeControl)
}
