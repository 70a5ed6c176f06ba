// CECP's game commands (new, variant, force, go, moves, result, setboard, take-backs, draws) and result claims.

package protocol

import (
	"fmt"
	"strings"
	"time"

	"dossier/engine"
	"dossier/games"
)

// newRecord makes p the start of a new, empty game record and the current position.
func (c *cecp) newRecord(p games.Position) {
	s := c.s
	start := p.Clone()
	s.pos = p.Clone()
	s.record = s.openRecord(start)
	c.infoMu.Lock()
	c.verdict = verdict{}
	c.infoMu.Unlock()
}

// cmdNew starts a new game of the default game: the engine plays second, force mode and sd are off, and
// the clocks wait for the next time and otim.
func (c *cecp) cmdNew(command) {
	s := c.s
	s.discardSearch()
	s.endGame()
	s.game, c.newPending = c.defaultGame, true // the engine is told with the next command but variant
	c.newRecord(c.defaultGame.Start())
	c.force, c.engineSide, c.depth, c.nps = false, games.Second, 0, 0
	c.ourTime, c.oppTime = -1, -1
	if c.analyzing {
		c.analyze()
	}
}

// cmdVariant switches to another game, which starts afresh.
func (c *cecp) cmdVariant(cmd command) {
	s := c.s
	w := cmd.words()
	if len(w) != 1 {
		s.errorf("variant needs one name")
		return
	}
	name := strings.ToLower(w[0])
	var g games.Game
	for _, playable := range c.playableGames() {
		if games.VariantsOf(playable).CECP == name {
			g = playable
		}
	}
	if g == nil {
		s.errorf("unsupported variant; this engine plays %s", strings.Join(c.variants(), ", "))
		return
	}
	s.discardSearch()
	if c.newPending || !sameGame(g, s.game) {
		c.newPending = false
		s.resetGame(g)
	}
	c.newRecord(g.Start())
	if c.analyzing {
		c.analyze()
	}
}

// cmdForce enters force mode: the engine stops thinking (its move is not sent) and plays neither side.
func (c *cecp) cmdForce(command) {
	c.s.discardSearch()
	c.force = true
}

// cmdGo makes the engine play the side to move and think now.
func (c *cecp) cmdGo(command) {
	c.s.discardSearch()
	c.force, c.engineSide = false, c.s.pos.ToMove()
	c.think()
}

// cmdPlayOther makes the engine play the side not to move; it waits for the opponent's move.
func (c *cecp) cmdPlayOther(command) {
	c.s.discardSearch()
	c.force, c.engineSide = false, c.s.pos.ToMove().Other()
}

// cmdUserMove plays the opponent's move (or, in force mode, either side's); the engine answers it when it
// plays the side to move next. An illegal move is answered "Illegal move (why): move" and changes nothing.
func (c *cecp) cmdUserMove(cmd command) {
	s := c.s
	w := cmd.words()
	if len(w) != 1 {
		s.errorf("usermove needs one move")
		return
	}
	s.discardSearch() // a search still running here is an analysis, or the GUI broke the protocol
	m, err := s.checker.parse(s.pos, w[0])
	if err != nil {
		s.send(fmt.Sprintf("Illegal move (%s): %s", sanitize(err.Error()), sanitize(w[0])))
		if c.analyzing {
			c.analyze()
		}
		return
	}
	s.pos.Play(m)
	s.record.moves = append(s.record.moves, m)
	switch {
	case c.analyzing:
		c.analyze()
	case !c.force && s.pos.ToMove() == c.engineSide:
		c.think()
	}
}

// cmdMoveNow (?) makes the engine move at once with the best move found so far.
func (c *cecp) cmdMoveNow(command) {
	if s := c.s; s.search != nil && !c.analyzing {
		s.search.ctl.Stop()
	}
}

// cmdPing answers pong N once every command before it is done: at once, or after the move being thought
// about. An analysis is not a command in progress.
func (c *cecp) cmdPing(cmd command) {
	s := c.s
	reply := "pong"
	if w := cmd.words(); len(w) > 0 {
		reply += " " + sanitize(w[0])
	}
	s.collectFinished()
	s.waitPrepared() // as UCI's isready: the GUI waits for the pong
	if c.analyzing {
		s.send(reply)
		return
	}
	s.afterMove(reply)
}

// cmdResult ends the game with the GUI's result and reason ("1-0 {White mates}", "0-1 {White resigns}"):
// the engine stops thinking and waits in force mode for the next game.
func (c *cecp) cmdResult(cmd command) {
	s := c.s
	w := cmd.words()
	if len(w) == 0 {
		s.errorf("result needs a result: 1-0, 0-1, 1/2-1/2 or *")
		return
	}
	var result games.Result
	white, black := games.WinFor(games.WhiteSide(s.game)), games.WinFor(games.WhiteSide(s.game).Other())
	switch w[0] {
	case "1-0":
		result = white
	case "0-1":
		result = black
	case "1/2-1/2":
		result = games.Draw
	case "*":
		result = games.Ongoing
	default:
		s.errorf("result %s is not 1-0, 0-1, 1/2-1/2 or *", quoteToken(w[0]))
		return
	}
	reason := strings.TrimSpace(cmd.rawFrom(1))
	reason = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(reason, "{"), "}"))
	s.discardSearch()
	c.analyzing = false
	s.endGameAs(result, reason)
	c.force = true
}

// cmdSetBoard sets up a position: a new game record from it (force mode is kept, as xboard sends setboard
// in force mode).
func (c *cecp) cmdSetBoard(cmd command) {
	s := c.s
	fen := cmd.rawFrom(0)
	if fen == "" {
		s.errorf("setboard needs a position")
		return
	}
	p, err := s.game.ParsePosition(fen)
	if err != nil {
		s.send("tellusererror Illegal position")
		s.errorf("illegal position: %v", err)
		return
	}
	s.discardSearch()
	s.endGame()
	c.newRecord(p)
	if c.analyzing {
		c.analyze()
	}
}

// takeBack undoes the last plies moves (undo: one, remove: two), telling the engine.
func (c *cecp) takeBack(plies int) {
	s := c.s
	s.discardSearch()
	if len(s.record.moves) < plies {
		s.errorf("only %d moves to take back", len(s.record.moves))
		return
	}
	for range plies {
		s.pos.Undo()
	}
	s.takeBack(len(s.record.moves) - plies)
	if c.analyzing {
		c.analyze()
	}
}

// noteScore keeps the score of one of the engine's searches and says whether the engine should resign.
func (c *cecp) noteScore(score float64) (resign bool) {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	v := &c.verdict
	v.searched, v.last = true, score
	margin := float64(c.resign.Load())
	moves, mate := engine.IsMate(score)
	if margin > 0 && ((mate && moves < 0) || score <= -margin) {
		v.losing++
	} else {
		v.losing = 0
	}
	return margin > 0 && v.losing >= resignAfter
}

// cmdDraw answers the opponent's draw offer: the engine accepts ("offer draw") when its latest search of the
// game found it not ahead (a score of 0 or below); otherwise it declines by playing on. An offer before the
// engine has searched in the game is declined.
func (c *cecp) cmdDraw(command) {
	c.infoMu.Lock()
	v := c.verdict
	c.infoMu.Unlock()
	if c.analyzing || !v.searched {
		return
	}
	if moves, mate := engine.IsMate(v.last); (mate && moves < 0) || (!mate && v.last <= 0) {
		c.s.send("offer draw")
	}
}

// think starts the search for the engine's move in the position, or claims the result when the game is
// over there. The game starts for the engine at its first search, and the opponent's moves are observed.
func (c *cecp) think() {
	s := c.s
	o := games.OutcomeOf(s.pos)
	if o.Result.Over() && !(claimable(o) && s.checker.first(s.pos) != games.NoMove) {
		s.send(resultLine(s.game, o))
		return
	}
	ours := s.pos.ToMove()
	lim := c.limits(ours)
	s.startGame(games.VariantsOf(s.game).CECP, c.timeControl())
	elapsed := time.Duration(-1)
	if s.record.hasLimits && c.oppTime >= 0 { // only clocks the GUI sent tell
		elapsed = opponentElapsed(s.record.lastLimits, lim, ours.Other())
	}
	s.record.lastLimits, s.record.hasLimits = lim, true
	s.observe(len(s.record.moves), ours, elapsed)
	s.startSearchThenPonder(lim, c.hard.Load)
}

// joined plays the engine's move, once written, in the session's position and record.
func (c *cecp) joined(r *runningSearch) {
	s := c.s
	if r.best == games.NoMove || r.perft {
		return
	}
	s.pos.Play(r.best)
	s.record.moves = append(s.record.moves, r.best)
	s.record.tracker.Played(len(s.record.moves))
}

// resultLine writes the result claim of a finished game of g: "1-0 {White mates}", "1/2-1/2 {Stalemate}".
func resultLine(g games.Game, o games.Outcome) string {
	white := games.WhiteSide(g)
	colour := func(side games.Side) string {
		if side == white {
			return "White"
		}
		return "Black"
	}
	result := "1/2-1/2"
	winner, won := o.Result.Winner()
	if won {
		result = "1-0"
		if winner != white {
			result = "0-1"
		}
	}
	var why string
	switch o.Reason {
	case games.Checkmate:
		why = colour(winner) + " mates"
	case games.Stalemate:
		why = "Stalemate"
	case games.Repetition:
		why = "Draw by repetition"
	case games.MoveRule:
		why = "Draw by move rule"
	case games.InsufficientMaterial:
		why = "Draw by insufficient material"
	case games.BoardFull:
		why = "Draw: the board is full"
	default:
		if won {
			why = colour(winner) + " wins (" + o.Reason.String() + ")"
		} else {
			why = "Draw (" + o.Reason.String() + ")"
		}
	}
	return result + " {" + why + "}"
}
