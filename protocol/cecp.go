// CECP, the xboard/WinBoard protocol version 2: the dialect's state, its command table and error reports.

package protocol

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// CECP's defaults: the time control before any level command (the protocol's own default), and the score
// magnitude that writes a mate in n moves as 100000+n, as xboard reads it.
const (
	cecpDefaultMPS  = 40
	cecpDefaultBase = 5 * time.Minute
	cecpMateBase    = 100000
	// maxCentis bounds time and otim (centiseconds): beyond any real clock, far from overflowing.
	maxCentis = maxMillis / 10
)

// cecp is the CECP dialect of a session: the state xboard's commands change.
type cecp struct {
	s *Session
	// defaultGame is the game new returns to (the --game of the engine, chess unless told otherwise).
	defaultGame games.Game

	// newPending says that new chose the default game and the engine is yet to be told (NewGame): a
	// variant command usually follows at once, and each NewGame of another game builds the engine's tables.
	newPending bool
	// force is force mode: the engine plays neither side and only records the moves it is sent.
	force bool
	// engineSide is the side the engine plays when not in force mode.
	engineSide games.Side
	// analyzing is analyze mode: the engine searches the position without end and never moves.
	analyzing bool
	// post is the thinking output, read by the search goroutine; hard is pondering (hard and easy), read by
	// it once the engine's move is written.
	post atomic.Bool
	hard atomic.Bool

	// The time control: level's moves per period (0: the whole game), base and increment; st's fixed time
	// a move (0: none, the clock rules); sd's depth limit (0: none). ourTime and oppTime are the clocks of
	// the last time and otim commands (-1: none was sent since new).
	mps              int
	base, inc        time.Duration
	moveTime         time.Duration
	depth            int
	ourTime, oppTime time.Duration
	// nps is the nps command's node rate: the engine's clock counts nodes, nps of them a second (0: off).
	nps int64

	// line is the command being handled, for error messages written from either goroutine.
	line atomic.Pointer[string]

	// lastInfo is the latest progress report of the running search, for the "." status command; lastPost
	// the analysis's latest thinking line, which postDeeper repeats.
	infoMu   sync.Mutex
	lastInfo engine.Info
	lastPost thinkingLine
	// verdict is what the engine's searches of this game said of its chances, for draw offers and
	// resigning; infoMu guards it, as the search goroutine writes it.
	verdict verdict
	// resign is the Resign option, read by the search goroutine.
	resign atomic.Int64
}

// verdict is what the engine's own searches of a game said of its position.
type verdict struct {
	// searched says whether the engine has searched in this game; last is its latest score, the engine's view.
	searched bool
	last     float64
	// losing counts the engine's latest searches in a row that valued its position at -Resign or below.
	losing int
}

// resignAfter is how many searches in a row must find the position lost by the Resign margin before the
// engine resigns: one bad value may be a horizon effect that the next search corrects.
const resignAfter = 3

// maxResign bounds the Resign option (centipawns).
const maxResign = 10000

// newCECP returns the CECP dialect of s, at the start of a game of s's game with the engine playing second.
func newCECP(s *Session) *cecp {
	c := &cecp{s: s, defaultGame: s.game, engineSide: games.Second, mps: cecpDefaultMPS, base: cecpDefaultBase,
		ourTime: -1, oppTime: -1}
	c.newRecord(s.pos)
	return c
}

// options returns the options CECP offers: the program's and the engine's, as the session has them for the
// game being played (UCI's own are UCI's business: CECP has variant, name, rating and its own pondering).
//
// CECP adds Resign: resign when the engine's own search values its position this far below even (the game's
// units: centipawns, hundredths of a man), or finds itself mated, in resignAfter searches in a row; 0, the
// default, never resigns (tournaments and GUIs adjudicate, and a game played out teaches the memory more).
func (c *cecp) options() []play.Option {
	var options []play.Option
	for _, o := range c.s.options {
		if !strings.HasPrefix(o.Name, "UCI_") && o.Name != "Ponder" {
			options = append(options, o)
		}
	}
	return append(options, play.SpinOption("Resign", int(c.resign.Load()), 0, maxResign,
		func(n int) { c.resign.Store(int64(n)) }))
}

// cecpCommands maps each CECP command to its handler; quit is handled by handle itself.
var cecpCommands = map[string]func(*cecp, command){
	"xboard":    func(*cecp, command) {},
	"protover":  (*cecp).cmdProtover,
	"accepted":  func(*cecp, command) {},
	"rejected":  func(*cecp, command) {},
	"new":       (*cecp).cmdNew,
	"variant":   (*cecp).cmdVariant,
	"force":     (*cecp).cmdForce,
	"go":        (*cecp).cmdGo,
	"playother": (*cecp).cmdPlayOther,
	"usermove":  (*cecp).cmdUserMove,
	"?":         (*cecp).cmdMoveNow,
	"ping":      (*cecp).cmdPing,
	"draw":      (*cecp).cmdDraw,
	"result":    (*cecp).cmdResult,
	"setboard":  (*cecp).cmdSetBoard,
	"undo":      func(c *cecp, _ command) { c.takeBack(1) },
	"remove":    func(c *cecp, _ command) { c.takeBack(2) },
	"hard":      func(c *cecp, _ command) { c.hard.Store(true) },
	"easy":      (*cecp).cmdEasy,
	"random":    func(*cecp, command) {},
	"post":      func(c *cecp, _ command) { c.post.Store(true) },
	"nopost":    func(c *cecp, _ command) { c.post.Store(false) },
	"analyze":   (*cecp).cmdAnalyze,
	"exit":      (*cecp).cmdExit,
	".":         (*cecp).cmdStatus,
	"level":     (*cecp).cmdLevel,
	"st":        (*cecp).cmdST,
	"sd":        (*cecp).cmdSD,
	"nps":       (*cecp).cmdNPS,
	"time":      func(c *cecp, cmd command) { c.cmdClock(cmd, &c.ourTime) },
	"otim":      func(c *cecp, cmd command) { c.cmdClock(cmd, &c.oppTime) },
	"name":      (*cecp).cmdName,
	"rating":    (*cecp).cmdRating,
	"computer":  (*cecp).cmdComputer,
	"ics":       func(*cecp, command) {},
	"option":    (*cecp).cmdOption,
	"memory":    func(c *cecp, cmd command) { c.cmdResource(cmd, "Hash") },
	"cores":     func(c *cecp, cmd command) { c.cmdResource(cmd, "Threads") },
}

// handle runs one CECP command line. A line that is no command but a legal move is a move, as protocol
// version 1 GUIs send them.
func (c *cecp) handle(line string) bool {
	toks := tokenize(line)
	c.line.Store(&line)
	word := toks[0].text
	if word == "quit" {
		return true
	}
	cmd := command{line: line, args: toks[1:]}
	handler, ok := cecpCommands[word]
	if !ok {
		if len(toks) == 1 && c.isMove(word) {
			handler = (*cecp).cmdUserMove
			cmd.args = toks
		} else {
			c.s.send("Error (unknown command): " + sanitize(line))
			return false
		}
	}
	if c.newPending && word != "variant" && word != "new" {
		c.newPending = false
		c.s.safely("NewGame", func() { c.s.engine.NewGame(c.s.game) })
	}
	c.s.runHandler(word, func() { handler(c, cmd) })
	return false
}

// isMove reports whether word is a legal move in the current position.
func (c *cecp) isMove(word string) bool {
	_, err := c.s.checker.parse(c.s.pos, word)
	return err == nil
}

// report writes an error as "Error (what): command", as the protocol asks, and a note as a comment line,
// which GUIs show in their debug output and otherwise ignore.
func (c *cecp) report(isError bool, text string) {
	if !isError {
		c.s.send("# " + text)
		return
	}
	line := ""
	if p := c.line.Load(); p != nil {
		line = *p
	}
	c.s.send("Error (" + text + "): " + sanitize(line))
}

// recovered has nothing to add: a CECP GUI waits for no particular line after a failed command.
func (*cecp) recovered(string) {}

// cmdEasy turns pondering off, ending a ponder search that runs (the engine's move, already written, is
// played in the session's game as the search is collected); a search for the engine's own move goes on.
func (c *cecp) cmdEasy(command) {
	c.hard.Store(false)
	if r := c.s.search; r != nil && r.isPondering() {
		c.s.finishSearch()
	}
}
