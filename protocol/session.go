// Package protocol speaks UCI, and the UCI dialects of checkers, Connect-Four and tic-tac-toe, to a GUI:
// cutechess-cli, xboard through polyglot, lichess-bot and dossier's own match runner all reach dossier
// through a Session.
//
// A Session reads commands line by line and drives an Engine. Searches run on a goroutine of their own while
// the session keeps reading, so isready, stop and ponderhit are served at once. Bad input never stops the
// session: it is answered with "info string error: ..." and the last good state is kept.
//
// # Opponent moves
//
// The engine keeps a dossier on its opponent, so the session hands it every move the opponent plays
// (Engine.ObserveMove), exactly once. The session keeps a game record: the start position of the last
// position command, its moves, and how many of them are already accounted for. The rule:
//   - A position command whose start position is the record's and whose moves repeat the accounted-for
//     moves of the record extends the record; any other position (another start, a diverging or shorter
//     move list, another game) starts a new record with no move accounted for. ucinewgame and a change of
//     UCI_Variant start an empty record.
//   - At go, the engine's side is the side to move. Every move of the record not yet accounted for that the
//     other side played is observed, in order, and all moves become accounted for.
//   - At go ponder the last move is the GUI's guess of the opponent's reply, not a move played: it stays
//     unaccounted for. A ponderhit confirms it, and it is observed once the ponder search has finished; after
//     a ponder miss (stop) the next position command replaces it with the move actually played.
//
// So in a game against another program every opponent move is observed once, just before the search that
// answers it; moves in a position that is only a FEN (without a move list) are not seen.
package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// DefaultMaxLineBytes bounds an input line when Config.MaxLineBytes is zero: a position line of a very long
// chess game takes a few tens of kilobytes.
const DefaultMaxLineBytes = 1 << 20

// DefaultVariants returns the UCI_Variant choices a session offers when it has a game lookup (cutechess's
// names).
func DefaultVariants() []string { return []string{"chess", "checkers", "cfour", "tictactoe"} }

// Config holds a session's settings; the zero Config is usable.
type Config struct {
	// Name and Author are the "id" lines of the uci reply (default "dossier" and "the dossier authors").
	Name, Author string
	// Lookup resolves a UCI_Variant value to a game (catalog.Lookup). Without it the session plays only its
	// default game.
	Lookup func(name string) (games.Game, error)
	// Variants are the UCI_Variant choices announced (default DefaultVariants() with a Lookup, else only the
	// default game's name).
	Variants []string
	// MaxLineBytes bounds an input line (default DefaultMaxLineBytes); longer lines are reported and skipped.
	MaxLineBytes int
	// MaxPerftDepth bounds "go perft N" (0: no bound).
	MaxPerftDepth int
	// Options are the program's own options (LogFile), listed after the session's and before the engine's.
	Options []play.Option
}

// Session is one conversation with a GUI. Create it with NewSession and call Run once.
type Session struct {
	engine play.Engine
	cfg    Config
	in     *bufio.Reader
	out    io.Writer

	outMu    sync.Mutex
	writeErr error

	debug        atomic.Bool
	showWDL      bool
	moveOverhead time.Duration // kept back from every search's time (the Move Overhead option)
	// chess960 is UCI_Chess960: chess is played as the catalog's chess960 (castling written king takes rook).
	chess960 bool

	game     games.Game
	pos      games.Position
	record   gameRecord
	opponent play.Opponent
	options  []play.Option
	search   *runningSearch
	checker  moveChecker // for the Run goroutine
}

// NewSession returns a session that plays defaultGame with eng, reading commands from in and writing
// replies to out.
func NewSession(eng play.Engine, defaultGame games.Game, in io.Reader, out io.Writer, cfg Config) *Session {
	if cfg.Name == "" {
		cfg.Name = "dossier"
	}
	if cfg.Author == "" {
		cfg.Author = "the dossier authors"
	}
	if cfg.MaxLineBytes <= 0 {
		cfg.MaxLineBytes = DefaultMaxLineBytes
	}
	if len(cfg.Variants) == 0 {
		if cfg.Lookup != nil {
			cfg.Variants = DefaultVariants()
		} else {
			cfg.Variants = []string{defaultGame.Name()}
		}
	}
	s := &Session{engine: eng, cfg: cfg, in: bufio.NewReaderSize(in, 64<<10), out: out,
		game: defaultGame, pos: defaultGame.Start(), moveOverhead: engine.DefaultMoveOverhead}
	s.refreshOptions()
	return s
}

// refreshOptions rebuilds the option list, whose choices and defaults follow the game (the presets of the
// game being played): at uci and after a change of game.
func (s *Session) refreshOptions() {
	s.safely("Options", func() {
		s.options = append(append(s.sessionOptions(), s.cfg.Options...), s.engine.Options()...)
	})
}

// Opponent returns the opponent the GUI named last; call it only while Run is not running.
func (s *Session) Opponent() play.Opponent { return s.opponent }

// Game returns the game being played; call it only while Run is not running.
func (s *Session) Game() games.Game { return s.game }

// Run serves commands until quit or the end of the input, and returns nil then; it returns the error of a
// failed read or write. The end of the input is quit, as in Stockfish: a running search, whatever its
// limits, is stopped at once and reports its move (a perft finishes its count). Either way the game in
// progress is reported over (with the result its final position shows) and the engine is closed, which
// flushes what it keeps.
func (s *Session) Run() (err error) {
	defer func() {
		s.endGame()
		if closeErr := s.closeEngine(); err == nil && closeErr != nil {
			err = closeErr
		}
	}()
	for {
		line, tooLong, readErr := s.readLine()
		if tooLong {
			s.errorf("input line longer than %d bytes ignored", s.cfg.MaxLineBytes)
		} else if s.handleLine(line) {
			s.finishSearch()
			return s.outputError()
		}
		if readErr != nil {
			s.endOfInput()
			if readErr == io.EOF {
				return s.outputError()
			}
			return readErr
		}
		if err := s.outputError(); err != nil {
			s.finishSearch()
			return err
		}
	}
}

// closeEngine closes the engine, turning a panic into an error.
func (s *Session) closeEngine() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("protocol: internal error in the engine's Close: %v", r)
		}
	}()
	return s.engine.Close()
}

// readLine reads one line without its line ending. A line longer than MaxLineBytes is consumed and reported
// as tooLong instead of being returned.
func (s *Session) readLine() (line string, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := s.in.ReadSlice('\n')
		if !tooLong {
			content := chunk
			if err == nil { // the line ending does not count
				content = bytes.TrimSuffix(bytes.TrimSuffix(chunk, []byte("\n")), []byte("\r"))
			}
			if len(buf)+len(content) > s.cfg.MaxLineBytes {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, content...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return "", true, err
		}
		return string(buf), false, err
	}
}

// token is one whitespace-separated word of a command line and where it starts in the line.
type token struct {
	text  string
	start int
}

// tokenize splits a line into words at white space, remembering where each starts.
func tokenize(line string) []token {
	var toks []token
	start := -1
	for i, r := range line {
		if unicode.IsSpace(r) || r == 0 {
			if start >= 0 {
				toks = append(toks, token{line[start:i], start})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		toks = append(toks, token{line[start:], start})
	}
	return toks
}

// command is a command's arguments: the words after the command word, and the line they came from.
type command struct {
	line string
	args []token
}

// words returns the arguments as strings.
func (c command) words() []string {
	w := make([]string, len(c.args))
	for i, t := range c.args {
		w[i] = t.text
	}
	return w
}

// rawFrom returns the line from argument i on, as written (inner spacing kept).
func (c command) rawFrom(i int) string {
	if i >= len(c.args) {
		return ""
	}
	return strings.TrimRightFunc(c.line[c.args[i].start:], unicode.IsSpace)
}

// commands maps each command word to its handler; quit is handled by handleLine itself.
var commands = map[string]func(*Session, command){
	"uci":        (*Session).cmdUCI,
	"debug":      (*Session).cmdDebug,
	"isready":    func(s *Session, _ command) { s.send("readyok") },
	"setoption":  (*Session).cmdSetOption,
	"register":   func(*Session, command) {},
	"ucinewgame": (*Session).cmdNewGame,
	"position":   (*Session).cmdPosition,
	"go":         (*Session).cmdGo,
	"stop":       (*Session).cmdStop,
	"ponderhit":  (*Session).cmdPonderHit,
	"d":          (*Session).cmdDisplay,
}

// handleLine runs one input line and reports whether it was quit. As the UCI specification asks, unknown
// words before a command are skipped, so "xyz isready" is isready.
func (s *Session) handleLine(line string) (quit bool) {
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
			s.runHandler(handler, word, command{line: line, args: toks[i+1:]})
			return false
		}
	}
	s.errorf("unknown command %s ignored", quoteToken(toks[0].text))
	return false
}

// runHandler runs a command handler and turns a panic (a bug, here or in a game package) into an error
// report, so that the session goes on serving.
func (s *Session) runHandler(handler func(*Session, command), word string, c command) {
	defer func() {
		if r := recover(); r != nil {
			s.errorf("internal error in %s: %v", word, r)
			if word == "go" && s.search == nil {
				s.send("bestmove 0000") // the GUI waits for an answer to every go
			}
		}
	}()
	handler(s, c)
}

// safely runs a call into the engine, reporting a panic instead of letting it end the command half done.
func (s *Session) safely(what string, call func()) {
	defer func() {
		if r := recover(); r != nil {
			s.errorf("internal error in the engine's %s: %v", what, r)
		}
	}()
	call()
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

// resetGame ends the game in progress, makes g the game, its start the position and the record empty, and
// tells the engine.
func (s *Session) resetGame(g games.Game) {
	s.endGame()
	s.game = g
	s.pos = g.Start()
	s.record = gameRecord{}
	s.safely("NewGame", func() { s.engine.NewGame(g) })
	s.refreshOptions()
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

// send writes one line to the GUI; all output goes through it, so lines never interleave.
func (s *Session) send(line string) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if s.writeErr != nil {
		return
	}
	_, s.writeErr = io.WriteString(s.out, line+"\n")
}

// outputError returns the first failed write, after which the session ends.
func (s *Session) outputError() error {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if s.writeErr != nil {
		return fmt.Errorf("protocol: writing to the GUI: %w", s.writeErr)
	}
	return nil
}

// infof sends an "info string" line.
func (s *Session) infof(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	if len(text) > maxInfoBytes {
		// Whatever an error quotes, a GUI's log gets a line, not a megabyte.
		text = strings.ToValidUTF8(text[:maxInfoBytes], "") + "..."
	}
	s.send("info string " + sanitize(text))
}

// maxInfoBytes bounds the text of one info string.
const maxInfoBytes = 1000

// errorf reports bad input to the GUI as "info string error: ...".
func (s *Session) errorf(format string, args ...any) {
	s.infof("error: "+format, args...)
}

// debugf sends an info string only in debug mode.
func (s *Session) debugf(format string, args ...any) {
	if s.debug.Load() {
		s.infof("debug: "+format, args...)
	}
}

// sanitize replaces control characters, which would break the line protocol, by spaces.
func sanitize(text string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, text)
}

// maxQuotedToken bounds how much of a bad token an error message repeats.
const maxQuotedToken = 40

// quoteToken quotes a token for an error message, escaping binary junk and shortening long tokens.
func quoteToken(tok string) string {
	if len(tok) > maxQuotedToken {
		return fmt.Sprintf("%q...", tok[:maxQuotedToken])
	}
	return fmt.Sprintf("%q", tok)
}

// errNoLookup is the reason a session without a game lookup rejects another game.
var errNoLookup = errors.New("this session plays only its default game")
