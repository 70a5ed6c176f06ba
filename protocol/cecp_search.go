// CECP's analyze mode and thinking output: thinking lines, scores, and moves as xboard reads them.

package protocol

import (
	"fmt"
	"math"
	"strings"
	"time"

	"dossier/engine"
	"dossier/games"
)

// cmdAnalyze enters analyze mode and starts analysing the position.
func (c *cecp) cmdAnalyze(command) {
	c.s.discardSearch()
	c.analyzing = true
	c.analyze()
}

// cmdExit leaves analyze mode.
func (c *cecp) cmdExit(command) {
	if !c.analyzing {
		c.s.errorf("not analysing")
		return
	}
	c.s.discardSearch()
	c.analyzing = false
}

// statusDelay is how long the answer to "." waits for the analysis to be stopped: python-chess ends an
// analysis with ".", "exit" and "ping" at once, and takes a stat01 line then for unexpected output.
const statusDelay = 100 * time.Millisecond

// cmdStatus (.) reports the analysis's progress as stat01: time nodes depth moves-left moves-total. The line
// goes out statusDelay later, and only if the analysis still searches then: not after exit (or another
// command that ends it), nor once it has nothing left to search (its last lines are posted).
func (c *cecp) cmdStatus(command) {
	r := c.s.search
	if !c.analyzing || r == nil {
		return
	}
	c.infoMu.Lock()
	info := c.lastInfo
	c.infoMu.Unlock()
	total := len(c.s.pos.AppendMoves(nil))
	line := fmt.Sprintf("stat01: %d %d %d %d %d", max(info.TimeMS, 0)/10, info.Nodes, max(info.Depth, 0), 0, total)
	time.AfterFunc(statusDelay, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		select {
		case <-r.ctl.Idle():
			return
		default:
		}
		if !r.silent && !r.finished {
			c.s.send(line)
		}
	})
}

// analyze starts an endless search of the position, unless the game is over there.
func (c *cecp) analyze() {
	s := c.s
	if o := games.OutcomeOf(s.pos); o.Result.Over() {
		s.infof("the game is over (%s, %s)", o.Result, o.Reason)
		return
	}
	c.infoMu.Lock()
	c.lastInfo, c.lastPost = engine.Info{}, thinkingLine{}
	c.infoMu.Unlock()
	s.startSearch(engine.Limits{Infinite: true})
	go c.postDeeper(s.search)
}

// thinkingLine is a posted line of thinking output, its PV written out.
type thinkingLine struct {
	depth int
	score int64
	nodes uint64
	pv    string
}

// postDeeper posts the analysis's last line again at every depth up to engine.MaxDepth once the search has
// nothing left to search (a proven mate, a solved position): an analysis never moves, and a client that
// waits for a depth (python-chess's analyse with Limit(depth=N) waits for a line of depth N or more) would
// otherwise wait forever. A deeper search could only post the same line.
func (c *cecp) postDeeper(r *runningSearch) {
	select {
	case <-r.ctl.Idle():
	case <-r.ctl.Done():
		return
	}
	c.infoMu.Lock()
	last := c.lastPost
	c.infoMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if last.pv == "" || r.silent || r.finished {
		return
	}
	centis := r.ctl.Elapsed().Milliseconds() / 10
	for depth := last.depth + 1; depth <= engine.MaxDepth; depth++ {
		c.s.send(fmt.Sprintf("%d %d %d %d %s", depth, last.score, centis, last.nodes, last.pv))
	}
}

// searchOutput writes the thinking lines ("ply score time nodes pv", when post is on or analysing) and,
// outside analyze mode, "move M" followed by the result when the move ends the game.
func (c *cecp) searchOutput() (func(games.Position, *moveChecker, engine.Info), func(games.Position, *moveChecker, engine.Result) games.Move) {
	s, analyzing, game := c.s, c.analyzing, c.s.game
	info := func(view games.Position, chk *moveChecker, info engine.Info) {
		c.infoMu.Lock()
		c.lastInfo = info
		c.infoMu.Unlock()
		if !analyzing && !c.post.Load() {
			return
		}
		pv := chk.formatLine(view, info.PV)
		if info.Depth <= 0 && len(pv) == 0 {
			return
		}
		line := thinkingLine{depth: max(info.Depth, 0), score: cecpScore(info.Score), nodes: info.Nodes, pv: strings.Join(pv, " ")}
		if analyzing {
			c.infoMu.Lock()
			c.lastPost = line
			c.infoMu.Unlock()
		}
		s.send(fmt.Sprintf("%d %d %d %d %s", line.depth, line.score, max(info.TimeMS, 0)/10, line.nodes, line.pv))
	}
	best := func(view games.Position, chk *moveChecker, res engine.Result) games.Move {
		if analyzing {
			return games.NoMove
		}
		move := res.Move
		if !chk.legal(view, move) {
			if move = chk.first(view); move == games.NoMove {
				return games.NoMove
			}
			s.send("# the engine returned no legal move; playing the first legal move")
		} else if c.noteScore(res.Score) {
			s.send("resign") // the GUI answers with the result, which ends the game in the memory too
			return games.NoMove
		}
		s.send("move " + cecpMove(view, move))
		view.Play(move)
		if o := games.OutcomeOf(view); o.Result.Over() {
			s.send(resultLine(game, o))
		}
		view.Undo()
		return move
	}
	return info, best
}

// cecpScore writes a score in centipawns, a mate in n moves as ±(100000+n).
func cecpScore(score float64) int64 {
	score = clampScore(score)
	if moves, ok := engine.IsMate(score); ok {
		if moves > 0 {
			return cecpMateBase + int64(moves)
		}
		return -cecpMateBase + int64(moves)
	}
	return int64(math.Round(score))
}

// sanWriter is a chess position that writes SAN, for castling in Chess960, which xboard sends and reads as
// O-O and O-O-O.
type sanWriter interface {
	SAN(m games.Move) string
	Chess960() bool
}

// cecpMove writes a move as xboard reads it: the game's coordinate notation, castling in Chess960 as O-O.
func cecpMove(p games.Position, m games.Move) string {
	if w, ok := p.(sanWriter); ok && w.Chess960() {
		if san := w.SAN(m); strings.HasPrefix(san, "O-O") {
			return strings.TrimRight(san, "+#")
		}
	}
	return p.FormatMove(m)
}
