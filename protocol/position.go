// The position command, the game record it builds, and the opponent moves the record hands to the engine.

package protocol

import (
	"fmt"
	"strings"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// gameRecord is the game as the position commands describe it; see the package comment for how it decides
// which moves the engine observes.
type gameRecord struct {
	gameName string         // "" for an empty record
	start    games.Position // the record's start position, never played on
	startKey string         // start.FEN(), to recognise the same start however the GUI wrote it
	moves    []games.Move
	// tracker tells the engine of this game: its start at the first search, the opponent's moves, take-backs
	// and its end. Its Observed counts the moves at the front of moves that were observed or found to be the
	// engine's own.
	tracker play.Tracker
	// lastBest is the engine's last bestmove, played after the first lastBestAt moves: the move that may
	// have ended the game when no position command follows it. lastScore is the value its search gave the
	// position it was played in.
	lastBest   games.Move
	lastBestAt int
	lastScore  float64
	// lastLimits are the limits of the last search (hasLimits once there was one), whose clocks tell how
	// long the opponent thought about its reply.
	lastLimits engine.Limits
	hasLimits  bool
}

// maxTakeBack is the most plies a position command may drop from the record and still be read as a
// take-back of the same game; a position that drops more is a new game sent without ucinewgame (whose first
// moves happen to repeat the last game's).
const maxTakeBack = 4

// openRecord returns a new, empty game record of the session's game from start.
func (s *Session) openRecord(start games.Position) gameRecord {
	return gameRecord{gameName: s.game.Name(), start: start, startKey: start.FEN(),
		tracker: play.NewTracker(s.engine, s.safely)}
}

// shortenedBy reports whether a position command with this start and these moves takes back the record's
// last few moves: the same game and start, and a strict prefix of the accounted-for moves.
func (r *gameRecord) shortenedBy(gameName, startKey string, moves []games.Move) bool {
	accounted := r.tracker.Observed()
	if r.gameName == "" || r.gameName != gameName || r.startKey != startKey || len(moves) >= accounted ||
		accounted-len(moves) > maxTakeBack {
		return false
	}
	for i := range moves {
		if moves[i] != r.moves[i] {
			return false
		}
	}
	return true
}

// extendedBy reports whether a position command with this start and these moves continues the record.
func (r *gameRecord) extendedBy(gameName, startKey string, moves []games.Move) bool {
	accounted := r.tracker.Observed()
	if r.gameName == "" || r.gameName != gameName || r.startKey != startKey || len(moves) < accounted {
		return false
	}
	for i := 0; i < accounted; i++ {
		if moves[i] != r.moves[i] {
			return false
		}
	}
	return true
}

// cmdPosition reads "position startpos|fen <position string> [moves m1 m2 ...]". The position string runs
// up to the moves keyword, so it may contain spaces (chess and Connect-Four FENs do). A bad position string
// or move is reported and leaves the previous position in place.
func (s *Session) cmdPosition(c command) {
	s.finishSearch()
	words := c.words()
	if len(words) == 0 {
		s.errorf("position: want startpos or fen, got nothing")
		return
	}
	movesAt := len(words)
	for i, w := range words {
		if strings.EqualFold(w, "moves") {
			movesAt = i
			break
		}
	}
	var start games.Position
	switch base := strings.ToLower(words[0]); base {
	case "startpos":
		if movesAt > 1 {
			s.errorf("position: unexpected %s after startpos", quoteToken(words[1]))
			return
		}
		start = s.game.Start()
	case "fen":
		if movesAt == 1 {
			s.errorf("position: fen needs a position string")
			return
		}
		fen := strings.Join(words[1:movesAt], " ")
		p, err := s.game.ParsePosition(fen)
		if err != nil {
			s.errorf("position: bad %s position %s: %v", s.game.Name(), quoteToken(fen), err)
			return
		}
		start = p
	default:
		s.errorf("position: want startpos or fen, not %s", quoteToken(words[0]))
		return
	}
	p := start.Clone()
	var moves []games.Move
	if movesAt < len(words) {
		moves = make([]games.Move, 0, len(words)-movesAt-1)
		for i, text := range words[movesAt+1:] {
			m, err := s.checker.parse(p, text)
			if err != nil {
				s.errorf("position: move %d %s: %v", i+1, quoteToken(text), err)
				return
			}
			p.Play(m)
			moves = append(moves, m)
		}
	}
	s.pos = p
	key := start.FEN()
	switch {
	case s.record.extendedBy(s.game.Name(), key, moves):
	case s.record.shortenedBy(s.game.Name(), key, moves):
		s.takeBack(len(moves))
	default:
		s.endGame()
		s.record = s.openRecord(start)
	}
	s.record.moves = moves
}

// moveChecker checks moves against the legal moves of a position. It reuses one buffer (move generation
// through the interface would otherwise allocate one per move of a position line), so each goroutine needs
// its own.
type moveChecker struct {
	buf []games.Move
}

// parse reads a move and checks that it is among the legal moves of p, so that a game's ParseMove that let
// an illegal move through could not corrupt the position.
func (c *moveChecker) parse(p games.Position, text string) (games.Move, error) {
	m, err := p.ParseMove(text)
	if err == nil && !c.legal(p, m) {
		err = fmt.Errorf("not a legal move here")
	}
	if err != nil {
		if o := games.OutcomeOf(p); o.Result.Over() {
			return games.NoMove, fmt.Errorf("the game is already over (%s, %s)", o.Result, o.Reason)
		}
		return games.NoMove, err
	}
	return m, nil
}

// legal reports whether m is one of the legal moves of p.
func (c *moveChecker) legal(p games.Position, m games.Move) bool {
	if m == games.NoMove {
		return false
	}
	c.buf = p.AppendMoves(c.buf[:0])
	for _, legal := range c.buf {
		if legal == m {
			return true
		}
	}
	return false
}

// first returns the first legal move of p, or NoMove.
func (c *moveChecker) first(p games.Position) games.Move {
	c.buf = p.AppendMoves(c.buf[:0])
	if len(c.buf) == 0 {
		return games.NoMove
	}
	return c.buf[0]
}

// observe hands the engine the record's moves up to (not including) index end that the side other than ours
// played and it was not told of yet, then counts them accounted for. lastElapsed is the opponent's thinking
// time for the last of them (-1: unknown).
func (s *Session) observe(end int, ours games.Side, lastElapsed time.Duration) {
	for _, o := range s.record.tracker.Observe(s.record.moves, end, ours, lastElapsed) {
		s.debugf("opponent move %d: %s", o.Ply+1, o.Before.FormatMove(o.Move))
	}
}
