// The Player's side of the per-opponent memory: opening it when first needed, filing the game's life cycle as
// memory events in the background, and waiting for a move's commit only when the search is over.
package bots

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/memory"
	"dossier/play"

	"go.uber.org/zap"
)

// MemoryConfig says whether and where the Player keeps its dossier on each opponent.
type MemoryConfig struct {
	// Enabled turns the memory on.
	Enabled bool
	// Dir is the memory's location: a directory ("" is memory.DefaultDir()) or a postgres:// URL.
	Dir string
	// Logger receives the memory's messages; nil discards them.
	Logger *zap.Logger
}

// commitWait bounds how long a search's answer waits for the commit of the moves observed before it: the
// commit runs while the search does and is nearly always done first; a memory slower than this costs the
// move no more, and the event stays queued.
const commitWait = time.Second

// closeWait bounds how long Close waits for the memory to acknowledge what it was sent.
const closeWait = 5 * time.Second

// dossier is the memory's side of a Player; the Player's lock guards it.
type dossier struct {
	cfg     MemoryConfig
	log     *zap.Logger
	mem     *memory.Memory
	tried   bool        // whether opening was tried under cfg
	notice  string      // a failure to tell the front end once, in the next search's info
	openErr error       // why the memory could not be opened
	alerts  chan string // the memory's own notices (a database unreachable, back), told in the next search's info

	pending []*memory.Pending // events not known to be committed yet

	gameID  string
	game    games.Game
	start   games.Position
	ourSide games.Side
	// prediction is our expected reply to our last move: the move we predicted for ply predictedPly and our
	// evaluation then.
	predicted    string
	predictedPly int
	eval         float64
}

// UseMemory turns the memory on or off or moves it; the memory opens when first needed (a new game, the
// opponent's name, a game's start). A memory the Player opened before is closed first.
func (p *Player) UseMemory(cfg MemoryConfig) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	err := p.dossier.close()
	p.dossier = dossier{cfg: cfg, log: cfg.Logger}
	if p.dossier.log == nil {
		p.dossier.log = zap.NewNop()
	}
	return err
}

// memoryConfig returns the memory's configuration.
func (p *Player) memoryConfig() MemoryConfig {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dossier.cfg
}

// changeMemory changes the memory's configuration (the Memory and MemoryPath options); the memory reopens when
// next needed.
func (p *Player) changeMemory(change func(*MemoryConfig)) {
	p.mu.Lock()
	cfg := p.dossier.cfg
	p.mu.Unlock()
	change(&cfg)
	if err := p.UseMemory(cfg); err != nil {
		p.mu.Lock()
		p.dossier.notice = fmt.Sprintf("error: closing the memory: %v", err)
		p.mu.Unlock()
	}
}

// Memory returns the memory the Player files into, or nil when it has none (off, or it failed to open).
func (p *Player) Memory() *memory.Memory {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dossier.mem
}

// OpenMemory opens the memory now if it is on and not open yet, and returns why it cannot be opened (nil when
// it is open or off); the Player plays on without it either way.
func (p *Player) OpenMemory() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dossier.ensureOpen()
	if p.dossier.cfg.Enabled && p.dossier.mem == nil {
		return p.dossier.openErr
	}
	return nil
}

// memoryNotice returns, once, what the front end should be told about the memory.
func (p *Player) memoryNotice() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.dossier.notice
	p.dossier.notice = ""
	for more := true; more; {
		select {
		case a := <-p.dossier.alerts:
			n = strings.TrimPrefix(n+"; "+a, "; ")
		default:
			more = false
		}
	}
	return n
}

// ensureOpen opens the memory if it is on and was not tried yet; a failure is logged and told once, and the
// Player plays on without memory.
func (d *dossier) ensureOpen() {
	if !d.cfg.Enabled || d.tried {
		return
	}
	d.tried = true
	d.alerts = make(chan string, 16)
	alerts := d.alerts
	m, err := memory.Open(memory.Options{Dir: d.cfg.Dir, Logger: d.log, Notify: func(msg string) {
		select {
		case alerts <- msg:
		default: // the front end has not heard the last ones yet; the log has them all
		}
	}})
	if err != nil {
		d.openErr = err
		d.log.Error("memory unavailable; playing without it", zap.Error(err))
		d.notice = fmt.Sprintf("error: %v; playing without memory", err)
		return
	}
	d.mem = m
	d.log.Info("memory open", zap.String("dir", m.Dir()), zap.Bool("owner", m.Owner()))
}

// record queues an event, keeping its Pending until it is known to be committed.
func (d *dossier) record(ev memory.Event) {
	if d.mem == nil {
		return
	}
	d.pending = append(d.pending, d.mem.Record(ev))
}

// sighting files the opponent as the front end named it.
func (d *dossier) sighting(o play.Opponent) {
	d.ensureOpen()
	d.record(memory.Event{Sighting: &memory.Sighting{Opponent: o, At: time.Now()}})
}

// startGame files the start of a game and returns its identifier ("" without a memory).
func (d *dossier) startGame(gs play.GameStart, o play.Opponent) string {
	d.ensureOpen()
	d.game, d.start, d.ourSide = gs.Game, gs.Start.Clone(), gs.OurSide
	d.gameID, d.predicted = "", ""
	if d.mem == nil {
		return ""
	}
	d.gameID = memory.NewGameID()
	d.record(memory.Event{Start: &memory.GameStart{GameID: d.gameID, OpponentKey: o.Key(), Opponent: o,
		Game: gs.Game.Name(), Variant: gs.Variant, OurSide: int(gs.OurSide), TimeControl: gs.TimeControl,
		StartFEN: gs.Start.FEN(), At: time.Now()}})
	return d.gameID
}

// observe files one opponent move with what we predicted for it, and returns its record (nil: not filed).
func (d *dossier) observe(om play.ObservedMove, obs Observation) *memory.MoveRecord {
	if d.gameID == "" {
		return nil
	}
	rec := &memory.MoveRecord{GameID: d.gameID, Ply: om.Ply, ByOpponent: true, PositionKey: om.Before.Hash(),
		FEN: obs.FEN, Move: obs.Move, TimeMS: -1, Probability: -1, Eval: math.NaN(), At: time.Now()}
	if om.Elapsed >= 0 {
		rec.TimeMS = om.Elapsed.Milliseconds()
	}
	if d.predicted != "" && d.predictedPly == om.Ply {
		rec.Predicted, rec.Eval = d.predicted, d.eval
	}
	d.record(memory.Event{Move: rec})
	return rec
}

// takeBack files a take-back to the game's first keep moves.
func (d *dossier) takeBack(keep int) {
	if d.gameID == "" {
		return
	}
	d.predicted = ""
	d.record(memory.Event{TakeBack: &memory.TakeBack{GameID: d.gameID, ToPly: keep}})
}

// gameOver files the game's end with its moves and our score.
func (d *dossier) gameOver(end play.GameEnd) {
	if d.gameID == "" {
		return
	}
	final := d.start.Clone()
	moves := make([]string, 0, len(end.Moves))
	for _, m := range end.Moves {
		moves = append(moves, final.FormatMove(m))
		final.Play(m)
	}
	score := -1.0
	if end.Outcome.Result.Over() {
		score = end.Outcome.Result.PointsFor(d.ourSide)
	}
	d.record(memory.Event{End: &memory.GameEnd{GameID: d.gameID, Result: end.Outcome.Result.String(),
		Reason: end.Reason, OurScore: score, Moves: moves, FinalFEN: final.FEN(), At: time.Now()}})
	d.gameID, d.predicted = "", ""
}

// afterSearch keeps the search's expected reply for the opponent's next move, then waits (briefly, see
// commitWait) for the events recorded before it, so that an observed move is committed before the bestmove
// that answers it.
func (p *Player) afterSearch(pos games.Position, res engine.Result) {
	p.mu.Lock()
	d := &p.dossier
	if d.gameID != "" && d.start != nil {
		reply := res.Ponder
		if reply == games.NoMove && len(res.PV) > 1 && res.PV[0] == res.Move {
			reply = res.PV[1]
		}
		d.predicted = ""
		if reply != games.NoMove && res.Move != games.NoMove {
			after := pos.Clone()
			after.Play(res.Move)
			d.predicted, d.predictedPly, d.eval = after.FormatMove(reply), pos.Ply()-d.start.Ply()+1, res.Score
		}
	}
	pending, log := d.pending, d.log
	d.pending = nil
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), commitWait)
	defer cancel()
	for _, pe := range pending {
		if err := pe.Wait(ctx); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				log.Warn("memory commit still pending after the search; answering anyway", zap.Duration("waited", commitWait))
				return
			}
			log.Error("memory write failed", zap.Error(err))
		}
	}
}

// close waits for what was recorded and closes the memory.
func (d *dossier) close() error {
	if d.mem == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	flushErr := d.mem.Flush(ctx)
	closeErr := d.mem.Close()
	d.mem, d.pending, d.tried = nil, nil, false
	return errors.Join(flushErr, closeErr)
}

// latestModel returns the latest state of a learned model for an opponent key, nil when the memory has none
// (no memory, a new opponent, a model never recorded).
func (d *dossier) latestModel(key, model string) (json.RawMessage, error) {
	d.ensureOpen()
	if d.mem == nil {
		return nil, nil
	}
	prof, err := d.mem.Profile(key)
	if errors.Is(err, memory.ErrUnknownOpponent) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	points := prof.Models[model]
	if len(points) == 0 {
		return nil, nil
	}
	return points[len(points)-1].State, nil
}

// recordModel files a learned model's new state for an opponent key, after the game gameID ("" mid-game).
func (d *dossier) recordModel(key, model string, state json.RawMessage, gameID string) {
	d.record(memory.Event{Model: &memory.ModelUpdate{OpponentKey: key, Model: model, State: state, GameID: gameID,
		At: time.Now()}})
}

// shownLocation is the memory's location as the MemoryPath option shows it: a PostgreSQL URL without its
// password.
func shownLocation(dir string) string { return memory.RedactURL(dir) }
