// UCI, the dialect GUIs and lichess-bot speak by default: its command table, the go command and its output
// (info and bestmove lines).

package protocol

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// uciDialect speaks UCI over a session core.
type uciDialect struct{ s *Session }

// handle runs one UCI command line.
func (d uciDialect) handle(line string) bool { return d.s.handleUCI(line) }

// report writes a message as an info string.
func (d uciDialect) report(isError bool, text string) {
	if isError {
		text = "error: " + text
	}
	d.s.send("info string " + text)
}

// searchOutput writes info lines (with the WDL estimate as UCI_ShowWDL says at the go) and the bestmove.
func (d uciDialect) searchOutput() (func(games.Position, *moveChecker, engine.Info), func(games.Position, *moveChecker, engine.Result) games.Move) {
	s, showWDL := d.s, d.s.showWDL
	return func(view games.Position, chk *moveChecker, info engine.Info) { s.sendInfo(view, chk, info, showWDL) },
		s.sendBestMove
}

// joined has nothing to do: under UCI the GUI sends the position after the bestmove itself.
func (uciDialect) joined(*runningSearch) {}

// recovered answers a go that failed before its search started with bestmove 0000, as the GUI waits for one.
func (d uciDialect) recovered(word string) {
	if word == "go" && d.s.search == nil {
		d.s.send("bestmove 0000")
	}
}

// commands maps each command word to its handler; quit is handled by handleLine itself.
var commands = map[string]func(*Session, command){
	"uci":        (*Session).cmdUCI,
	"debug":      (*Session).cmdDebug,
	"isready":    (*Session).cmdIsReady,
	"setoption":  (*Session).cmdSetOption,
	"register":   func(*Session, command) {},
	"ucinewgame": (*Session).cmdNewGame,
	"position":   (*Session).cmdPosition,
	"go":         (*Session).cmdGo,
	"stop":       (*Session).cmdStop,
	"ponderhit":  (*Session).cmdPonderHit,
	"d":          (*Session).cmdDisplay,
}

// handleUCI runs one UCI command line and reports whether it was quit. As the UCI specification asks, unknown
// words before a command are skipped, so "xyz isready" is isready.
func (s *Session) handleUCI(line string) (quit bool) {
	toks := tokenize(line)
	if len(toks) == 0 {
		return false
	}
	for i, t := range toks {
		word := strings.ToLower(t.text)
		if word == "quit" {
			return true
		}
		if handler, ok := commands[word]; ok {
			if i > 0 {
				s.debugf("skipped unknown words before %q", t.text)
			}
			s.runHandler(word, func() { handler(s, command{line: line, args: toks[i+1:]}) })
			return false
		}
	}
	s.errorf("unknown command %s ignored", quoteToken(toks[0].text))
	return false
}

// cmdUCI answers the uci handshake: identity, options, uciok.
func (s *Session) cmdUCI(command) {
	s.refreshOptions()
	s.send("id name " + s.cfg.Name)
	s.send("id author " + s.cfg.Author)
	for _, o := range s.options {
		s.send(uciLine(o))
	}
	s.send("uciok")
}

// cmdDebug switches the debug reports (more info strings) on or off.
func (s *Session) cmdDebug(c command) {
	w := c.words()
	switch {
	case len(w) == 0:
		s.debug.Store(!s.debug.Load())
	case strings.EqualFold(w[0], "on"):
		s.debug.Store(true)
	case strings.EqualFold(w[0], "off"):
		s.debug.Store(false)
	default:
		s.errorf("debug: want on or off, not %s", quoteToken(w[0]))
	}
}

// cmdNewGame starts a new game of the current game.
func (s *Session) cmdNewGame(command) {
	s.finishSearch()
	s.resetGame(s.game)
}

// cmdStop asks a running search to finish; its bestmove follows from the search goroutine.
func (s *Session) cmdStop(command) {
	if s.search != nil {
		s.search.ctl.Stop()
	}
}

// cmdPonderHit tells a pondering search that the opponent played the expected move.
func (s *Session) cmdPonderHit(command) {
	if s.search == nil || !s.search.ponder || s.search.ponderHit {
		s.debugf("ponderhit ignored: no ponder search is running")
		return
	}
	s.search.ponderHit = true
	s.search.ctl.PonderHit()
}

// diagrammer is implemented by positions that draw their board in text (checkers, whose String is its FEN).
type diagrammer interface {
	Diagram() string
}

// cmdDisplay prints the position: the board if the position can draw itself (a Diagram method, or a String
// method that is more than the position string), the position string, the hash and the legal moves.
func (s *Session) cmdDisplay(command) {
	fen := s.pos.FEN()
	board := ""
	if d, ok := s.pos.(diagrammer); ok {
		board = d.Diagram()
	} else if str, ok := s.pos.(fmt.Stringer); ok && str.String() != fen {
		board = str.String()
	}
	if board = strings.TrimRight(board, "\n"); board != "" {
		for _, line := range strings.Split(board, "\n") {
			s.send(sanitize(line))
		}
	}
	s.send("Fen: " + sanitize(fen))
	s.send(fmt.Sprintf("Key: %016X", s.pos.Hash()))
	moves := s.pos.AppendMoves(nil)
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = s.pos.FormatMove(m)
	}
	s.send("Legal moves: " + sanitize(strings.Join(names, " ")))
	if o := games.OutcomeOf(s.pos); o.Result.Over() {
		s.send(fmt.Sprintf("Result: %s (%s)", o.Result, o.Reason))
	}
}

// goKeywords are the words of a go command that are not values.
var goKeywords = map[string]bool{
	"wtime": true, "btime": true, "winc": true, "binc": true, "movestogo": true, "depth": true, "nodes": true,
	"mate": true, "movetime": true, "infinite": true, "ponder": true, "searchmoves": true, "perft": true,
}

// cmdGo starts a search of the current position (or a perft). Bad values are reported and replaced by the
// nearest sensible ones rather than refusing the go, since a GUI would wait forever for the bestmove.
// In a finished game (no legal move, or a Status that ends the game) it answers bestmove 0000 at once, with
// the reason; a draw that must be claimed (repetition, move rule) with legal moves left is searched, with
// a note.
func (s *Session) cmdGo(c command) {
	s.finishSearch()
	lim, perftDepth := s.parseGo(c.words())
	if perftDepth > 0 {
		s.startPerft(perftDepth)
		return
	}
	ours := s.pos.ToMove()
	s.startGame(s.variantOf(s.game), play.DescribeTimeControl(lim, ours))
	elapsed := time.Duration(-1)
	if s.record.hasLimits {
		elapsed = opponentElapsed(s.record.lastLimits, lim, ours.Other())
	}
	s.record.lastLimits, s.record.hasLimits = lim, true
	if lim.Ponder {
		s.observe(len(s.record.moves)-1, ours, -1)
	} else {
		s.observe(len(s.record.moves), ours, elapsed)
	}
	status := s.pos.Status()
	if claimable(status) && s.checker.first(s.pos) != games.NoMove {
		// Draws by repetition or a move rule must be claimed in chess (lichess plays on until fivefold
		// repetition): a GUI that still asks for a move must get one, or the engine forfeits the game.
		s.infof("the game could end here (%s, %s), but moves are legal: searching", status.Result, status.Reason)
		s.startSearch(lim)
		return
	}
	if status.Result.Over() {
		s.infof("no move to search: the game is over (%s, %s)", status.Result, status.Reason)
		s.send("bestmove 0000")
		return
	}
	if s.checker.first(s.pos) == games.NoMove {
		if o := s.pos.NoMovesOutcome(); o.Result.Over() {
			s.infof("no move to search: the game is over (%s, %s)", o.Result, o.Reason)
		} else {
			s.infof("no move to search: no legal move")
		}
		s.send("bestmove 0000")
		return
	}
	s.startSearch(lim)
}

// parseGo reads the go arguments into limits, or a perft depth.
func (s *Session) parseGo(words []string) (lim engine.Limits, perftDepth int) {
	white := games.WhiteSide(s.game)
	mateDepth := 0
	for i := 0; i < len(words); i++ {
		key := strings.ToLower(words[i])
		switch key {
		case "infinite":
			lim.Infinite = true
			continue
		case "ponder":
			lim.Ponder = true
			continue
		case "searchmoves":
			for i+1 < len(words) && !goKeywords[strings.ToLower(words[i+1])] {
				i++
				m, err := s.checker.parse(s.pos, words[i])
				if err != nil {
					s.errorf("go: searchmoves %s: %v", quoteToken(words[i]), err)
					continue
				}
				lim.SearchMoves = append(lim.SearchMoves, m)
			}
			continue
		}
		if !goKeywords[key] {
			s.errorf("go: unknown word %s ignored", quoteToken(words[i]))
			continue
		}
		if i+1 >= len(words) || goKeywords[strings.ToLower(words[i+1])] {
			s.errorf("go: %s needs a value", key)
			continue
		}
		i++
		text := words[i]
		switch key {
		case "wtime", "btime":
			side := white
			if key == "btime" {
				side = white.Other()
			}
			if n, err := strconv.ParseInt(text, 10, 64); err == nil && n <= 0 {
				// Not an error: a GUI sends what is left on the clock, and it can be overdrawn.
				s.debugf("%s %d: no time left, moving at once", key, n)
				text = "1"
			}
			if n, ok := s.goValue(key, text, 1, maxMillis); ok {
				lim.Time[side] = millis(n)
			}
		case "winc", "binc":
			side := white
			if key == "binc" {
				side = white.Other()
			}
			if n, ok := s.goValue(key, text, 0, maxMillis); ok {
				lim.Inc[side] = millis(n)
			}
		case "movestogo":
			if n, ok := s.goValue(key, text, 1, maxMovesToGo); ok {
				lim.MovesToGo = int(n)
			}
		case "depth":
			if n, ok := s.goValue(key, text, 1, maxDepth); ok {
				lim.Depth = int(n)
			}
		case "nodes":
			if n, ok := s.goValue(key, text, 1, math.MaxInt64); ok {
				lim.Nodes = uint64(n)
			}
		case "mate":
			if n, ok := s.goValue(key, text, 1, maxDepth/2); ok {
				mateDepth = int(2*n - 1)
			}
		case "movetime":
			if n, ok := s.goValue(key, text, 1, maxMillis); ok {
				lim.MoveTime = millis(n)
			}
		case "perft":
			if n, ok := s.goValue(key, text, 1, maxDepth); ok {
				perftDepth = int(n)
			}
			if s.cfg.MaxPerftDepth > 0 && perftDepth > s.cfg.MaxPerftDepth {
				s.errorf("go: perft %d is deeper than this session allows; using %d", perftDepth, s.cfg.MaxPerftDepth)
				perftDepth = s.cfg.MaxPerftDepth
			}
		}
	}
	if mateDepth > 0 && (lim.Depth == 0 || mateDepth < lim.Depth) {
		// A mate in n moves is found by a search of 2n-1 plies.
		lim.Depth = mateDepth
	}
	return lim, perftDepth
}

// limitKeys are the go words whose value ends a search: one the GUI wrote unreadably ("go nodes abc") is
// taken at its smallest, since dropping it could leave a search without end, and a GUI waiting for its
// bestmove.
var limitKeys = map[string]bool{"wtime": true, "btime": true, "depth": true, "nodes": true, "mate": true,
	"movetime": true, "perft": true}

// goValue reads a go value and clamps it into [lo, hi], reporting a value outside (a number too large for
// 64 bits included) rather than refusing it. Text that is not a whole number is reported too: a limit
// (limitKeys) is then lo, and ok is false for the others (increments, movestogo), which are left out.
func (s *Session) goValue(key, text string, lo, hi int64) (n int64, ok bool) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if ne, isNum := err.(*strconv.NumError); !isNum || ne.Err != strconv.ErrRange {
			if limitKeys[key] {
				s.errorf("go: %s %s is not a whole number; using %d", key, quoteToken(text), lo)
				return lo, true
			}
			s.errorf("go: %s %s is not a whole number", key, quoteToken(text))
			return 0, false
		}
		if strings.HasPrefix(text, "-") {
			n = math.MinInt64
		} else {
			n = math.MaxInt64
		}
	}
	switch {
	case n < lo:
		s.errorf("go: %s %s is below %d; using %d", key, text, lo, lo)
		return lo, true
	case n > hi || err != nil:
		s.errorf("go: %s %s is out of range; using %d", key, text, hi)
		return hi, true
	}
	return n, true
}

// sendBestMove writes the bestmove line and returns its move (NoMove for 0000). A move the engine got wrong
// (none, or not legal) is replaced by the first legal move, since a GUI forfeits an engine that sends an
// illegal one.
func (s *Session) sendBestMove(view games.Position, chk *moveChecker, res engine.Result) games.Move {
	move := res.Move
	if !chk.legal(view, move) {
		move = chk.first(view)
		if move == games.NoMove {
			s.send("bestmove 0000")
			return games.NoMove
		}
		s.errorf("the engine returned no legal move; playing the first legal move")
	}
	line := "bestmove " + view.FormatMove(move)
	view.Play(move)
	ponder := res.Ponder
	if ponder == games.NoMove && len(res.PV) > 1 && res.PV[0] == move {
		ponder = res.PV[1]
	}
	if chk.legal(view, ponder) {
		line += " ponder " + view.FormatMove(ponder)
	}
	view.Undo()
	s.send(line)
	return move
}

// sendInfo writes one progress report: the info line, then its text and the predicted reply as info strings.
func (s *Session) sendInfo(view games.Position, chk *moveChecker, info engine.Info, showWDL bool) {
	pv := chk.formatLine(view, info.PV)
	if info.Depth > 0 || info.Nodes > 0 || len(pv) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "info depth %d seldepth %d", max(info.Depth, 0), max(info.SelDepth, info.Depth, 0))
		if info.MultiPV > 0 {
			fmt.Fprintf(&b, " multipv %d", info.MultiPV)
		}
		score := clampScore(info.Score)
		if moves, ok := engine.IsMate(score); ok {
			fmt.Fprintf(&b, " score mate %d", moves)
		} else {
			fmt.Fprintf(&b, " score cp %d", int64(math.Round(score)))
		}
		if showWDL {
			w, d, l := WDL(score)
			fmt.Fprintf(&b, " wdl %d %d %d", w, d, l)
		}
		timeMS := max(info.TimeMS, 0)
		nps := info.Nodes * 1000 / uint64(max(timeMS, 1))
		fmt.Fprintf(&b, " nodes %d nps %d time %d", info.Nodes, nps, timeMS)
		if info.HashFull > 0 {
			fmt.Fprintf(&b, " hashfull %d", min(info.HashFull, 1000))
		}
		if len(pv) > 0 {
			b.WriteString(" pv " + strings.Join(pv, " "))
		}
		s.send(b.String())
	}
	for _, text := range strings.Split(info.Text, "\n") {
		if text = strings.TrimSpace(text); text != "" {
			s.infof("%s", text)
		}
	}
	if info.Predicted != games.NoMove && len(info.PV) > 0 && len(pv) > 0 {
		view.Play(info.PV[0])
		if chk.legal(view, info.Predicted) {
			s.infof("predicted reply %s", view.FormatMove(info.Predicted))
		}
		view.Undo()
	}
}

// cmdIsReady answers isready once the engine's preparation for the game (play.Preparer) is done: a GUI that
// asks waits for the answer before it starts the clock, so the preparation costs no time of the game.
func (s *Session) cmdIsReady(command) {
	s.waitPrepared()
	s.send("readyok")
}

// waitPrepared waits for the engine's preparation for the game (play.Preparer) unless a search runs: isready
// and ping are answered at once during a search (pondering, go infinite), as UCI asks.
func (s *Session) waitPrepared() {
	s.collectFinished()
	if s.search == nil {
		s.safely("WaitPrepared", func() { play.WaitPrepared(s.engine) })
	}
}
