// The go command: its limits, the search goroutine, info and bestmove lines, and go perft.
package protocol

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"dossier/engine"
	"dossier/games"
)

// Bounds that keep absurd go values from overflowing the time arithmetic or the engine's tables.
const (
	maxMillis    = 1_000_000_000 // 11.6 days: beyond any real clock, far from overflowing a time.Duration
	maxDepth     = 1000
	maxMovesToGo = 10_000
)

// runningSearch is a search (or perft) running on its own goroutine.
type runningSearch struct {
	ctl  *engine.Control
	done chan struct{} // closed once the goroutine has written its last line
	// ponder is set for go ponder; ponderHit once the GUI confirmed the guessed move. Both belong to Run.
	ponder    bool
	ponderHit bool
	// perft is set for go perft, a count that the end of the input lets finish (Stockfish counts before
	// it reads on).
	perft bool
	// best is the move the bestmove line gave (NoMove for 0000 or a perft); set before done is closed.
	best games.Move
}

// finishSearch stops a running search, waits for its bestmove, and settles what it left pending.
func (s *Session) finishSearch() {
	if s.search == nil {
		return
	}
	s.search.ctl.Stop()
	s.joinSearch()
}

// endOfInput stops a running search at once, as quit does, so that the engine exits with its move
// printed whatever the search's limits; a perft is let finish.
func (s *Session) endOfInput() {
	if s.search != nil && s.search.perft {
		s.joinSearch()
		return
	}
	s.finishSearch()
}

// joinSearch waits for the search goroutine and observes a guessed move the GUI confirmed with ponderhit.
func (s *Session) joinSearch() {
	r := s.search
	<-r.done
	s.search = nil
	if r.best != games.NoMove {
		s.record.lastBest, s.record.lastBestAt = r.best, len(s.record.moves)
	}
	if r.ponder && r.ponderHit {
		s.observe(len(s.record.moves), s.pos.ToMove(), -1)
	}
}

// goKeywords are the words of a go command that are not values.
var goKeywords = map[string]bool{
	"wtime": true, "btime": true, "winc": true, "binc": true, "movestogo": true, "depth": true, "nodes": true,
	"mate": true, "movetime": true, "infinite": true, "ponder": true, "searchmoves": true, "perft": true,
}

// whiteSide returns the side whose clock wtime and winc give. White moves first in chess, and cutechess
// calls the first player White in its other variants (Connect-Four, tic-tac-toe); in checkers Black moves
// first and White second.
func whiteSide(g games.Game) games.Side {
	if g.Name() == "checkers" {
		return games.Second
	}
	return games.First
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
	s.startGame(lim)
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

// claimable reports whether a game end is a draw a player must claim (repetition, a move rule) rather than
// one that ends the game by itself.
func claimable(o games.Outcome) bool {
	return o.Result == games.Draw && (o.Reason == games.Repetition || o.Reason == games.MoveRule)
}

// parseGo reads the go arguments into limits, or a perft depth.
func (s *Session) parseGo(words []string) (lim engine.Limits, perftDepth int) {
	white := whiteSide(s.game)
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

// goValue reads a go value and clamps it into [lo, hi], reporting a value outside (a number too large for
// 64 bits included) rather than refusing it; ok is false for text that is not a whole number.
func (s *Session) goValue(key, text string, lo, hi int64) (n int64, ok bool) {
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if ne, isNum := err.(*strconv.NumError); !isNum || ne.Err != strconv.ErrRange {
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

// millis converts a count of milliseconds, already bounded, to a duration.
func millis(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// startSearch runs the engine's search of the current position on a goroutine of its own.
func (s *Session) startSearch(lim engine.Limits) {
	root := s.pos.Clone()
	view := s.pos.Clone() // for writing moves while the engine plays on root
	chk := &moveChecker{}
	lim.MoveOverhead = s.moveOverhead
	ctl := engine.NewControl(lim, root.ToMove())
	r := &runningSearch{ctl: ctl, done: make(chan struct{}), ponder: lim.Ponder}
	s.search = r
	showWDL := s.showWDL
	go func() {
		defer close(r.done)
		// A report arriving after Search returned (from a helper goroutine the engine left behind) is
		// dropped: view belongs to the bestmove then.
		var reportMu sync.Mutex
		searching := true
		res := s.callSearch(root, ctl, func(info engine.Info) {
			reportMu.Lock()
			defer reportMu.Unlock()
			if searching {
				s.sendInfo(view, chk, info, showWDL)
			}
		})
		reportMu.Lock()
		searching = false
		reportMu.Unlock()
		<-ctl.Released()
		r.best = s.sendBestMove(view, chk, res)
	}()
}

// callSearch runs the engine's search, turning a panic into an error report and an empty result, for which
// sendBestMove still finds a legal move.
func (s *Session) callSearch(root games.Position, ctl *engine.Control, report func(engine.Info)) (res engine.Result) {
	defer func() {
		if r := recover(); r != nil {
			s.errorf("internal error in the search: %v", r)
			res = engine.Result{}
		}
	}()
	return s.engine.Search(root, ctl, report)
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

// clampScore keeps an engine's score finite and within the mate range, so that nothing downstream
// converts NaN or infinity to an integer.
func clampScore(score float64) float64 {
	if math.IsNaN(score) {
		return 0
	}
	return max(-engine.MateScore, min(score, engine.MateScore))
}

// formatLine writes the moves of a line from view, stopping at the first move that is not legal there
// (a line from the engine is checked, not trusted); view is left as it was.
func (c *moveChecker) formatLine(view games.Position, line []games.Move) []string {
	out := make([]string, 0, len(line))
	for _, m := range line {
		if !c.legal(view, m) {
			break
		}
		out = append(out, view.FormatMove(m))
		view.Play(m)
	}
	for range out {
		view.Undo()
	}
	return out
}

// perftChunk is the depth below which perft runs the game's own fast counter without checking for stop.
const perftChunk = 4

// startPerft runs "go perft N" on the search goroutine: the count below each root move, then the total,
// as Stockfish prints them. stop interrupts it.
func (s *Session) startPerft(depth int) {
	pos := s.pos.Clone()
	ctl := engine.NewControl(engine.Limits{}, pos.ToMove())
	r := &runningSearch{ctl: ctl, done: make(chan struct{}), perft: true}
	s.search = r
	go func() {
		defer close(r.done)
		defer func() {
			if r := recover(); r != nil {
				s.errorf("internal error in perft: %v", r)
			}
		}()
		start := time.Now()
		var buf [games.MaxMoves]games.Move
		var total uint64
		for _, m := range pos.AppendMoves(buf[:0]) {
			name := pos.FormatMove(m)
			pos.Play(m)
			n, ok := stoppablePerft(pos, depth-1, ctl)
			pos.Undo()
			if !ok {
				s.infof("perft stopped")
				return
			}
			s.send(fmt.Sprintf("%s: %d", name, n))
			total += n
		}
		elapsed := time.Since(start)
		s.send("")
		s.send(fmt.Sprintf("Nodes searched: %d", total))
		s.infof("perft %d: %d nodes in %d ms", depth, total, elapsed.Milliseconds())
	}()
}

// stoppablePerft counts the leaves below p to depth, checking for stop above the last perftChunk plies;
// ok is false when it was stopped.
func stoppablePerft(p games.Position, depth int, ctl *engine.Control) (nodes uint64, ok bool) {
	if depth <= 0 {
		return 1, true
	}
	if depth <= perftChunk {
		return games.Perft(p, depth), !ctl.Stopped()
	}
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		p.Play(m)
		n, ok := stoppablePerft(p, depth-1, ctl)
		p.Undo()
		if !ok {
			return 0, false
		}
		nodes += n
	}
	return nodes, true
}
