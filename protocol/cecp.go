// CECP, the xboard/WinBoard protocol version 2: the feature handshake, the game state machine (force mode, the
// engine's side, clocks from level/st/sd/time/otim), thinking output, moves and result claims, analyze mode,
// and the opponent's name and ratings for the memory.
package protocol

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// cecpVariants maps the CECP variant names dossier offers to the game names a lookup resolves: xboard's and
// cutechess's names for chess, Chess960, Connect-Four and tic-tac-toe, and dossier's own for checkers (no
// GUI has one).
var cecpVariants = []struct{ cecp, game string }{
	{"normal", "chess"},
	{"fischerandom", "chess960"},
	{"checkers", "checkers"},
	{"cfour", "connect4"},
	{"tictactoe", "tictactoe"},
}

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
	// post is the thinking output, read by the search goroutine.
	post atomic.Bool

	// The time control: level's moves per period (0: the whole game), base and increment; st's fixed time
	// a move (0: none, the clock rules); sd's depth limit (0: none). ourTime and oppTime are the clocks of
	// the last time and otim commands (-1: none was sent since new).
	mps              int
	base, inc        time.Duration
	moveTime         time.Duration
	depth            int
	ourTime, oppTime time.Duration

	// line is the command being handled, for error messages written from either goroutine.
	line atomic.Pointer[string]

	// lastInfo is the latest progress report of the running search, for the "." status command.
	infoMu   sync.Mutex
	lastInfo engine.Info
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
	"hard":      func(*cecp, command) {}, // dossier does not ponder, so pondering on or off changes nothing
	"easy":      func(*cecp, command) {},
	"random":    func(*cecp, command) {},
	"post":      func(c *cecp, _ command) { c.post.Store(true) },
	"nopost":    func(c *cecp, _ command) { c.post.Store(false) },
	"analyze":   (*cecp).cmdAnalyze,
	"exit":      (*cecp).cmdExit,
	".":         (*cecp).cmdStatus,
	"level":     (*cecp).cmdLevel,
	"st":        (*cecp).cmdST,
	"sd":        (*cecp).cmdSD,
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

// cmdProtover answers the feature handshake: what dossier supports, its options, and done=1.
func (c *cecp) cmdProtover(command) {
	s := c.s
	s.refreshOptions()
	s.send("feature done=0")
	s.send("feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 sigterm=0 reuse=1 " +
		"analyze=1 colors=0 name=1 ics=1 nps=0 debug=1 pause=0")
	s.send(fmt.Sprintf("feature myname=%q", s.cfg.Name))
	s.send(fmt.Sprintf("feature variants=%q", strings.Join(c.variants(), ",")))
	var resources []string
	if c.option("Hash") != nil {
		resources = append(resources, "memory=1")
	}
	if c.option("Threads") != nil {
		resources = append(resources, "smp=1")
	}
	if len(resources) > 0 {
		s.send("feature " + strings.Join(resources, " "))
	}
	for _, o := range c.options() {
		s.send("feature option=\"" + cecpOptionLine(o) + "\"")
	}
	s.send("feature done=1")
}

// variants returns the CECP names of the games the session can play.
func (c *cecp) variants() []string {
	var names []string
	for _, v := range cecpVariants {
		if _, err := c.s.lookup(v.game); err == nil {
			names = append(names, v.cecp)
		}
	}
	if len(names) == 0 {
		names = []string{c.variantName(c.s.game)}
	}
	return names
}

// variantName returns the CECP name of g.
func (c *cecp) variantName(g games.Game) string {
	name := g.Name()
	if v, ok := g.(interface{ Variant() string }); ok && name == "chess" && v.Variant() == "chess960" {
		name = "chess960"
	}
	for _, v := range cecpVariants {
		if v.game == name {
			return v.cecp
		}
	}
	return name
}

// cecpOptionLine writes an option as the value of feature option="...".
func cecpOptionLine(o play.Option) string {
	name := strings.ReplaceAll(o.Name, `"`, "'")
	switch o.Type {
	case play.CheckType:
		if o.Default == "true" {
			return name + " -check 1"
		}
		return name + " -check 0"
	case play.SpinType:
		return fmt.Sprintf("%s -spin %s %d %d", name, o.Default, o.Min, o.Max)
	case play.ComboType:
		choices := make([]string, len(o.Vars))
		for i, v := range o.Vars {
			if v == o.Default {
				v = "*" + v
			}
			choices[i] = v
		}
		return name + " -combo " + strings.Join(choices, " /// ")
	case play.ButtonType:
		return name + " -button"
	}
	return name + " -string " + o.Default
}

// option returns the announced option called name (case-insensitively), or nil.
func (c *cecp) option(name string) *play.Option {
	options := c.options()
	for i := range options {
		if strings.EqualFold(options[i].Name, name) {
			return &options[i]
		}
	}
	return nil
}

// newRecord makes p the start of a new, empty game record and the current position.
func (c *cecp) newRecord(p games.Position) {
	s := c.s
	start := p.Clone()
	s.pos = p.Clone()
	s.record = gameRecord{gameName: s.game.Name(), start: start, startKey: start.FEN()}
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
	c.force, c.engineSide, c.depth = false, games.Second, 0
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
	game := ""
	for _, v := range cecpVariants {
		if v.cecp == name {
			game = v.game
		}
	}
	g, err := s.lookup(game)
	if game == "" || err != nil {
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
	white, black := games.WinFor(whiteSide(s.game)), games.WinFor(whiteSide(s.game).Other())
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

// cmdStatus (.) reports the analysis's progress as stat01: time nodes depth moves-left moves-total.
func (c *cecp) cmdStatus(command) {
	if !c.analyzing || c.s.search == nil {
		return
	}
	c.infoMu.Lock()
	info := c.lastInfo
	c.infoMu.Unlock()
	total := len(c.s.pos.AppendMoves(nil))
	c.s.send(fmt.Sprintf("stat01: %d %d %d %d %d", max(info.TimeMS, 0)/10, info.Nodes, max(info.Depth, 0), 0, total))
}

// analyze starts an endless search of the position, unless the game is over there.
func (c *cecp) analyze() {
	s := c.s
	if o := games.OutcomeOf(s.pos); o.Result.Over() {
		s.infof("the game is over (%s, %s)", o.Result, o.Reason)
		return
	}
	c.infoMu.Lock()
	c.lastInfo = engine.Info{}
	c.infoMu.Unlock()
	s.startSearch(engine.Limits{Infinite: true})
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
	s.startGame(c.variantName(s.game), c.timeControl())
	elapsed := time.Duration(-1)
	if s.record.hasLimits && c.oppTime >= 0 { // only clocks the GUI sent tell
		elapsed = opponentElapsed(s.record.lastLimits, lim, ours.Other())
	}
	s.record.lastLimits, s.record.hasLimits = lim, true
	s.observe(len(s.record.moves), ours, elapsed)
	s.startSearch(lim)
}

// limits returns the limits of the engine's next search: st's fixed time, or the clocks of time and otim
// (the level's base before they are sent) with the level's increment and moves to go; sd's depth on top.
func (c *cecp) limits(ours games.Side) engine.Limits {
	lim := engine.Limits{Depth: c.depth}
	if c.moveTime > 0 {
		lim.MoveTime = c.moveTime
		return lim
	}
	clock := func(t time.Duration) time.Duration {
		if t < 0 {
			return c.base
		}
		return max(t, time.Millisecond) // an overdrawn clock: move at once
	}
	lim.Time[ours], lim.Time[ours.Other()] = clock(c.ourTime), clock(c.oppTime)
	lim.Inc[ours], lim.Inc[ours.Other()] = c.inc, c.inc
	if c.mps > 0 {
		played := 0
		p := c.s.record.start.Clone()
		for _, m := range c.s.record.moves {
			if p.ToMove() == ours {
				played++
			}
			p.Play(m)
		}
		lim.MovesToGo = c.mps - played%c.mps
	}
	return lim
}

// timeControl describes the time control for the memory: "40/300+0" from level 40 5 0, "300+2" from
// level 0 5 2, "movetime 1000" from st 1; sd adds " depth N".
func (c *cecp) timeControl() string {
	seconds := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	var tc string
	switch {
	case c.moveTime > 0:
		tc = fmt.Sprintf("movetime %d", c.moveTime.Milliseconds())
	case c.mps > 0:
		tc = fmt.Sprintf("%d/%s+%s", c.mps, seconds(c.base), seconds(c.inc))
	default:
		tc = seconds(c.base) + "+" + seconds(c.inc)
	}
	if c.depth > 0 {
		tc += fmt.Sprintf(" depth %d", c.depth)
	}
	return tc
}

// cmdLevel reads "level MPS BASE INC": MPS moves per period (0: the whole game), BASE minutes or
// minutes:seconds, INC seconds. It replaces st.
func (c *cecp) cmdLevel(cmd command) {
	w := cmd.words()
	if len(w) != 3 {
		c.s.errorf("level wants MPS BASE INC, e.g. level 40 5 0 or level 0 2:30 1")
		return
	}
	mps, err := strconv.Atoi(w[0])
	if err != nil || mps < 0 || mps > maxMovesToGo {
		c.s.errorf("level: moves per period %s is not a whole number in 0..%d", quoteToken(w[0]), maxMovesToGo)
		return
	}
	base, err := parseLevelBase(w[1])
	if err != nil {
		c.s.errorf("level: base %s: %v", quoteToken(w[1]), err)
		return
	}
	inc, err := parseSeconds(w[2])
	if err != nil {
		c.s.errorf("level: increment %s: %v", quoteToken(w[2]), err)
		return
	}
	if base == 0 && inc == 0 {
		c.s.errorf("level: no time at all")
		return
	}
	c.mps, c.base, c.inc, c.moveTime = mps, base, inc, 0
}

// parseLevelBase reads level's base time: minutes ("5", "0.5") or minutes:seconds ("2:30").
func parseLevelBase(text string) (time.Duration, error) {
	minutes, secs, hasSecs := strings.Cut(text, ":")
	m, err := strconv.ParseFloat(minutes, 64)
	if err != nil || m < 0 || math.IsNaN(m) || math.IsInf(m, 0) {
		return 0, fmt.Errorf("minutes are not a number")
	}
	total := m * 60
	if hasSecs {
		sec, err := parseSeconds(secs)
		if err != nil {
			return 0, err
		}
		total += sec.Seconds()
	}
	if total*1000 > maxMillis {
		return 0, fmt.Errorf("out of range")
	}
	return time.Duration(total * float64(time.Second)).Round(time.Millisecond), nil
}

// parseSeconds reads a non-negative number of seconds ("2", "0.5").
func parseSeconds(text string) (time.Duration, error) {
	sec, err := strconv.ParseFloat(text, 64)
	if err != nil || sec < 0 || math.IsNaN(sec) || math.IsInf(sec, 0) {
		return 0, fmt.Errorf("%s is not a number of seconds", quoteToken(text))
	}
	if sec*1000 > maxMillis {
		return 0, fmt.Errorf("%s seconds is out of range", text)
	}
	return time.Duration(sec * float64(time.Second)).Round(time.Millisecond), nil
}

// cmdST reads "st SECONDS", a fixed time for every move, which replaces level.
func (c *cecp) cmdST(cmd command) {
	w := cmd.words()
	if len(w) != 1 {
		c.s.errorf("st needs a number of seconds")
		return
	}
	d, err := parseSeconds(w[0])
	if err != nil || d <= 0 {
		c.s.errorf("st: %s is not a positive number of seconds", quoteToken(w[0]))
		return
	}
	c.moveTime = d
}

// cmdSD reads "sd DEPTH", a depth limit on top of the clock.
func (c *cecp) cmdSD(cmd command) {
	w := cmd.words()
	n := 0
	var err error
	if len(w) == 1 {
		n, err = strconv.Atoi(w[0])
	}
	if len(w) != 1 || err != nil || n < 1 || n > maxDepth {
		c.s.errorf("sd needs a depth in 1..%d", maxDepth)
		return
	}
	c.depth = n
}

// cmdClock reads time or otim: a clock in centiseconds (negative when overdrawn).
func (c *cecp) cmdClock(cmd command, clock *time.Duration) {
	w := cmd.words()
	n := int64(0)
	var err error
	if len(w) == 1 {
		n, err = strconv.ParseInt(w[0], 10, 64)
	}
	if len(w) != 1 || err != nil {
		c.s.errorf("want a clock in centiseconds")
		return
	}
	*clock = time.Duration(max(min(n, maxCentis), -maxCentis)) * 10 * time.Millisecond
}

// cmdName names the opponent for the memory.
func (c *cecp) cmdName(cmd command) {
	name := cmd.rawFrom(0)
	if name == "" {
		c.s.errorf("name needs a name")
		return
	}
	c.setOpponent(func(o *play.Opponent) { o.Name = name })
}

// cmdRating reads "rating OURS THEIRS", the two players' ratings (0 for unknown).
func (c *cecp) cmdRating(cmd command) {
	w := cmd.words()
	var ours, theirs int
	var err1, err2 error
	if len(w) == 2 {
		ours, err1 = strconv.Atoi(w[0])
		theirs, err2 = strconv.Atoi(w[1])
	}
	if len(w) != 2 || err1 != nil || err2 != nil || ours < 0 || theirs < 0 || ours > 9999 || theirs > 9999 {
		c.s.errorf("rating wants two ratings in 0..9999: ours, the opponent's")
		return
	}
	c.setOpponent(func(o *play.Opponent) { o.OurElo, o.Elo = ours, theirs })
}

// cmdComputer says the opponent is a program.
func (c *cecp) cmdComputer(command) {
	c.setOpponent(func(o *play.Opponent) { o.Kind = play.Computer })
}

// setOpponent changes the opponent's description and tells the engine.
func (c *cecp) setOpponent(change func(*play.Opponent)) {
	s := c.s
	change(&s.opponent)
	s.opponent.Source = "cecp"
	s.safely("SetOpponent", func() { s.engine.SetOpponent(s.opponent) })
}

// cmdOption reads "option NAME=VALUE" (or "option NAME" for a button) for an announced option; a check
// takes 1 or 0.
func (c *cecp) cmdOption(cmd command) {
	s := c.s
	text := cmd.rawFrom(0)
	name, value, hasValue := strings.Cut(text, "=")
	name = strings.TrimSpace(name)
	o := c.option(name)
	if o == nil {
		s.errorf("no option named %s", quoteToken(name))
		return
	}
	if o.Type == play.CheckType {
		switch strings.TrimSpace(value) {
		case "1":
			value = "true"
		case "0":
			value = "false"
		}
	}
	s.finishSearch()
	if err := o.Set(value, hasValue); err != nil {
		s.errorf("option %s: %v", o.Name, err)
	}
}

// cmdResource reads memory (megabytes) or cores into the option that sizes them.
func (c *cecp) cmdResource(cmd command, option string) {
	s := c.s
	w := cmd.words()
	o := c.option(option)
	if len(w) != 1 || o == nil {
		s.errorf("want one number (for the %s option)", option)
		return
	}
	s.finishSearch()
	n, err := strconv.ParseInt(w[0], 10, 64)
	if err == nil && o.Type == play.SpinType {
		n = max(min(n, o.Max), o.Min) // a GUI offers what the machine has, not what the engine takes
	}
	if err := o.Set(strconv.FormatInt(n, 10), err == nil); err != nil {
		s.errorf("%s: %v", option, err)
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
		s.send(fmt.Sprintf("%d %d %d %d %s", max(info.Depth, 0), cecpScore(info.Score), max(info.TimeMS, 0)/10,
			info.Nodes, strings.Join(pv, " ")))
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

// joined plays the engine's move, once written, in the session's position and record.
func (c *cecp) joined(r *runningSearch) {
	s := c.s
	if r.best == games.NoMove || r.perft {
		return
	}
	s.pos.Play(r.best)
	s.record.moves = append(s.record.moves, r.best)
	s.record.accounted = len(s.record.moves)
}

// resultLine writes the result claim of a finished game of g: "1-0 {White mates}", "1/2-1/2 {Stalemate}".
func resultLine(g games.Game, o games.Outcome) string {
	white := whiteSide(g)
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
