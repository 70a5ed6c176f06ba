// Package protocol speaks to a GUI in UCI (and its dialects for checkers, Connect-Four and tic-tac-toe) or in
// CECP, the xboard/WinBoard protocol version 2: cutechess-cli, xboard (directly or through polyglot),
// lichess-bot and dossier's own match runner all reach dossier through a Session.
//
// A Session is a shared core and one dialect. The core (this file, search.go, position.go, lifecycle.go) holds
// the game, the position and its record, runs searches on a goroutine of their own while it keeps reading,
// checks moves, and reports the game's life cycle to the engine; a dialect (uci.go, cecp.go) reads the
// commands of its protocol and writes its replies. The dialect is chosen by Config.Protocol, or by the first
// line the GUI sends ("xboard" for CECP, anything else UCI). Bad input never stops the session: UCI answers it
// with "info string error: ...", CECP with "Error (...): ...", and the last good state is kept.
//
// # Opponent moves
//
// The engine keeps a dossier on its opponent, so the session hands it every move the opponent plays
// (Engine.ObserveMove), exactly once. The session keeps a game record: its start position, its moves, and
// how many of them are already accounted for. Under UCI the position commands build it:
//   - A position command whose start position is the record's and whose moves repeat the accounted-for
//     moves of the record extends the record; any other position (another start, a diverging or shorter
//     move list, another game) starts a new record with no move accounted for. ucinewgame and a change of
//     UCI_Variant start an empty record.
//   - At go, the engine's side is the side to move. Every move of the record not yet accounted for that the
//     other side played is observed, in order, and all moves become accounted for.
//   - At go ponder the last move is the GUI's guess of the opponent's reply, not a move played: it stays
//     unaccounted for. A ponderhit confirms it, and it is observed once the ponder search has finished; a
//     ponder search that ends without ponderhit (stop) drops it from the record, as it was never played:
//     the next position command brings the move actually played, or the game ended while the engine
//     pondered (a resignation, an agreed draw, a flag) and is reported over without it.
//
// Under CECP the moves themselves build it (new, setboard, usermove, the engine's own moves, undo and
// remove), and the same rule observes them when the engine starts thinking.
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
	// Protocol is "uci", "xboard" (CECP), or "" to choose by the first line the GUI sends: "xboard" is CECP,
	// anything else UCI.
	Protocol string
}

// dialect is one protocol spoken over the session core: it reads command lines and writes the replies.
// Its methods run on the session's goroutine, except the reporters that searchOutput returns.
type dialect interface {
	// handle runs one input line (not empty) and reports whether it was the command that ends the session.
	handle(line string) (quit bool)
	// report writes a message to the GUI: an error about the input, or a note.
	report(isError bool, text string)
	// searchOutput returns how the search about to start reports progress and its result; they run on the
	// search goroutine. best writes the move (and what follows it in the protocol) and returns the move
	// written, NoMove when none.
	searchOutput() (info func(view games.Position, chk *moveChecker, info engine.Info),
		best func(view games.Position, chk *moveChecker, res engine.Result) games.Move)
	// joined is told on the session goroutine that a search has finished and been collected.
	joined(r *runningSearch)
	// recovered is told that the handler of word failed with a panic, so that the GUI still gets the
	// answer it waits for.
	recovered(word string)
}

// The Config.Protocol values that fix the dialect.
const (
	// ProtocolUCI is UCI and its game dialects.
	ProtocolUCI = "uci"
	// ProtocolCECP is CECP, the xboard protocol ("cecp" is accepted too).
	ProtocolCECP = "xboard"
)

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

	dialect dialect // nil until the first line chose it (Config.Protocol "")
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
	switch strings.ToLower(cfg.Protocol) {
	case ProtocolUCI:
		s.dialect = uciDialect{s}
	case ProtocolCECP, "cecp":
		s.dialect = newCECP(s)
	}
	return s
}

// refreshOptions rebuilds the option list, whose choices and defaults follow the game (the presets of the
// game being played): at uci and after a change of game.
func (s *Session) refreshOptions() {
	s.safely("Options", func() {
		s.options = append(append(s.sessionOptions(), s.cfg.Options...), s.engine.Options()...)
	})
}

// chooseDialect picks the dialect from the first line the GUI sent, when Config.Protocol left it open.
func (s *Session) chooseDialect(line string) {
	if s.dialect != nil {
		return
	}
	if first := tokenize(line); len(first) > 0 && strings.EqualFold(first[0].text, "xboard") {
		s.dialect = newCECP(s)
		return
	}
	s.dialect = uciDialect{s}
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

// handleLine runs one input line in the session's dialect (choosing it at the first line that is not blank)
// and reports whether it ended the session.
func (s *Session) handleLine(line string) (quit bool) {
	if len(tokenize(line)) == 0 {
		return false
	}
	s.chooseDialect(line)
	return s.dialect.handle(line)
}

// runHandler runs a command handler and turns a panic (a bug, here or in a game package) into an error
// report, so that the session goes on serving.
func (s *Session) runHandler(word string, handler func()) {
	defer func() {
		if r := recover(); r != nil {
			s.errorf("internal error in %s: %v", word, r)
			s.dialect.recovered(word)
		}
	}()
	handler()
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

// infof sends a note to the GUI ("info string ..." in UCI, "# ..." in CECP).
func (s *Session) infof(format string, args ...any) {
	s.reporter().report(false, clip(fmt.Sprintf(format, args...)))
}

// maxInfoBytes bounds the text of one message.
const maxInfoBytes = 1000

// clip shortens a message to maxInfoBytes and makes it one line: whatever an error quotes, a GUI's log
// gets a line, not a megabyte.
func clip(text string) string {
	if len(text) > maxInfoBytes {
		text = strings.ToValidUTF8(text[:maxInfoBytes], "") + "..."
	}
	return sanitize(text)
}

// errorf reports bad input to the GUI ("info string error: ..." in UCI, "Error (...): ..." in CECP).
func (s *Session) errorf(format string, args ...any) {
	s.reporter().report(true, clip(fmt.Sprintf(format, args...)))
}

// debugf sends a note only in debug mode.
func (s *Session) debugf(format string, args ...any) {
	if s.debug.Load() {
		s.infof("debug: "+format, args...)
	}
}

// reporter returns the dialect that writes messages: UCI's until the first line chose one (an over-long
// first line is reported before any dialect is known).
func (s *Session) reporter() dialect {
	if s.dialect == nil {
		return uciDialect{s}
	}
	return s.dialect
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
