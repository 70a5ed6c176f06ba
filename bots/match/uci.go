// A UCI client for external engines: chess, and dossier's dialects for the other games (UCI_Variant).

package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
)

// uciEngine is an external engine run as a subprocess and spoken to in UCI.
//
// notnil/chess's uci package is not used for chess: its reads have no timeout, and an engine that hangs or
// dies there blocks the caller for good (the process cannot be killed through it), while a match must
// forfeit such an engine and go on. One client serves every game instead.
type uciEngine struct {
	*engineProcess
	game games.Game

	// options maps each announced option's lower-case name to its combo values (nil for other types).
	options map[string][]string
	idName  string
	// opponent is the other player's name, told through UCI_Opponent at every game when the engine has it.
	opponent string
}

// SetOpponentName keeps the opponent's name, which an engine with a UCI_Opponent option is told at the start of
// every game (as cutechess-cli does: a computer, no title or rating).
func (e *uciEngine) SetOpponentName(name string) { e.opponent = name }

// engineProcess is an external engine's process, spoken to line by line whatever the protocol: its input,
// its output as a channel of lines read with time-outs, the end of its error output, and its exit.
type engineProcess struct {
	name  string
	cmd   *exec.Cmd
	stdin io.WriteCloser

	lines   chan string   // the engine's output, line by line; closed once the process has exited
	closing chan struct{} // closed by Close: output is discarded from then on
	exited  chan struct{} // closed once Wait has returned; exitErr is set then
	exitErr error
	stderr  *tailWriter

	closeOnce sync.Once
}

// startProcess runs the engine program of spec, named after its file until the protocol tells its name.
func startProcess(spec PlayerSpec) (*engineProcess, error) {
	path, err := exec.LookPath(spec.Command)
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", spec.Command, err)
	}
	p := &engineProcess{name: filepath.Base(spec.Command), lines: make(chan string, 256), closing: make(chan struct{}),
		exited: make(chan struct{}), stderr: &tailWriter{limit: 2048}}
	p.cmd = exec.Command(path, spec.Args...)
	p.cmd.Stdout = &lineWriter{lines: p.lines, closing: p.closing}
	p.cmd.Stderr = p.stderr
	p.cmd.WaitDelay = engineWaitDelay
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("engine %s: %w", spec.Command, err)
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("engine %s: %w", spec.Command, err)
	}
	go func() {
		p.exitErr = p.cmd.Wait()
		p.cmd.Stdout.(*lineWriter).flush()
		close(p.lines)
		close(p.exited)
	}()
	return p, nil
}

// isChess960 reports whether g is chess played as Chess960 (castling written as the king taking its rook).
func isChess960(g games.Game) bool {
	cg, ok := g.(chess.Game)
	return ok && cg.Chess960
}

// nameAfter names the engine as the spec does, else as it announced itself, else (as it is) after its file.
func (e *engineProcess) nameAfter(spec PlayerSpec, announced string) {
	switch {
	case spec.Name != "":
		e.name = spec.Name
	case announced != "":
		e.name = announced
	}
}

// engineWaitDelay bounds how long the end of an engine's output is awaited after the process exited (a
// child process of the engine could hold its pipes open).
const engineWaitDelay = 2 * time.Second

// StartEngine runs the external engine of spec for game g, in CECP when the spec says cecp=, else in UCI: the uci handshake, UCI_Variant for a game other
// than chess, UCI_Chess960 for Chess960, the spec's options, and isready, each answered within timeout.
func StartEngine(ctx context.Context, g games.Game, spec PlayerSpec, timeout time.Duration) (Contestant, error) {
	if spec.Protocol == CECP {
		return startCECP(ctx, g, spec, timeout)
	}
	proc, err := startProcess(spec)
	if err != nil {
		return nil, err
	}
	e := &uciEngine{engineProcess: proc, game: g, options: map[string][]string{}}
	if err := e.handshake(ctx, spec, timeout); err != nil {
		e.Close()
		return nil, fmt.Errorf("engine %s: %w", spec.Command, err)
	}
	e.nameAfter(spec, e.idName)
	return e, nil
}

// handshake sends uci and the options, and waits for readyok.
func (e *uciEngine) handshake(ctx context.Context, spec PlayerSpec, timeout time.Duration) error {
	if err := e.send("uci"); err != nil {
		return err
	}
	err := e.readUntil(ctx, timeout, "uciok", func(line string) bool {
		words := strings.Fields(line)
		switch {
		case len(words) > 0 && words[0] == "uciok":
			return true
		case len(words) > 2 && words[0] == "id" && words[1] == "name":
			e.idName = strings.Join(words[2:], " ")
		case len(words) > 0 && words[0] == "option":
			name, vars := parseOptionLine(words)
			if name != "" {
				e.options[strings.ToLower(name)] = vars
			}
		}
		return false
	})
	if err != nil {
		return err
	}
	var setup []string
	if g, variant := e.game, games.VariantsOf(e.game).UCI; variant != "" {
		vars, ok := e.options["uci_variant"]
		if !ok {
			return fmt.Errorf("the engine has no UCI_Variant option, so it cannot play %s", g.Name())
		}
		if !containsFold(vars, variant) {
			return fmt.Errorf("the engine's UCI_Variant does not offer %s (it offers %s)", variant, strings.Join(vars, ", "))
		}
		setup = append(setup, "setoption name UCI_Variant value "+variant)
	}
	if isChess960(e.game) {
		if _, ok := e.options["uci_chess960"]; !ok {
			return fmt.Errorf("the engine has no UCI_Chess960 option, so it cannot play Chess960")
		}
		setup = append(setup, "setoption name UCI_Chess960 value true")
	}
	for _, o := range spec.Options {
		if _, ok := e.options[strings.ToLower(o.Name)]; !ok {
			return fmt.Errorf("the engine has no option %q", o.Name)
		}
		if o.Value == "" {
			setup = append(setup, "setoption name "+o.Name)
		} else {
			setup = append(setup, "setoption name "+o.Name+" value "+o.Value)
		}
	}
	for _, line := range setup {
		if err := e.send(line); err != nil {
			return err
		}
	}
	return e.sync(ctx, timeout)
}

// parseOptionLine reads "option name N type T ... var V ..." and returns the name and the combo values.
func parseOptionLine(words []string) (name string, vars []string) {
	nameAt, typeAt := -1, -1
	for i, w := range words {
		if w == "name" && nameAt < 0 {
			nameAt = i
		} else if w == "type" && nameAt >= 0 && typeAt < 0 {
			typeAt = i
		}
	}
	if nameAt < 0 || typeAt < 0 {
		return "", nil
	}
	name = strings.Join(words[nameAt+1:typeAt], " ")
	for i := typeAt; i < len(words); i++ {
		if words[i] != "var" {
			continue
		}
		j := i + 1
		for j < len(words) && words[j] != "var" {
			j++
		}
		vars = append(vars, strings.Join(words[i+1:j], " "))
		i = j - 1
	}
	return name, vars
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// sync sends isready and waits for readyok.
func (e *uciEngine) sync(ctx context.Context, timeout time.Duration) error {
	if err := e.send("isready"); err != nil {
		return err
	}
	return e.readUntil(ctx, timeout, "readyok", func(line string) bool { return strings.TrimSpace(line) == "readyok" })
}

// Name is the engine's display name: its spec's name=, else the name it gave, else its program's file name.
func (p *engineProcess) Name() string { return p.name }

// newGameTimeout bounds the engine's answer to ucinewgame (clearing a large hash table takes a while).
const newGameTimeout = 30 * time.Second

// NewGame sends ucinewgame (and the opponent's name) and waits for the engine to be ready.
func (e *uciEngine) NewGame(ctx context.Context) error {
	if err := e.send("ucinewgame"); err != nil {
		return err
	}
	if _, ok := e.options["uci_opponent"]; ok && e.opponent != "" {
		if err := e.send("setoption name UCI_Opponent value none none computer " + e.opponent); err != nil {
			return err
		}
	}
	return e.sync(ctx, newGameTimeout)
}

// Move sends the position and a go command and reads the engine's bestmove.
func (e *uciEngine) Move(ctx context.Context, req MoveRequest) (Reply, error) {
	e.drain()
	if err := e.send(positionCommand(e.game, req.Start, req.Moves)); err != nil {
		return Reply{}, err
	}
	if err := e.send(goCommand(e.game, req.Limits)); err != nil {
		return Reply{}, err
	}
	var reply Reply
	var best string
	err := e.readUntil(ctx, req.Timeout, "bestmove", func(line string) bool {
		words := strings.Fields(line)
		if len(words) == 0 {
			return false
		}
		switch words[0] {
		case "info":
			readInfo(words[1:], &reply)
		case "bestmove":
			if len(words) > 1 {
				best = words[1]
			}
			return true
		}
		return false
	})
	if err != nil {
		return Reply{}, e.killIfStalled(err)
	}
	if best == "" || best == "0000" || best == "(none)" {
		return Reply{}, playerErrorf(IllegalMove, "%s answered bestmove %q in a position with legal moves", e.name, best)
	}
	m, err := e.legalMove(req.Position, best)
	if err != nil {
		return Reply{}, err
	}
	reply.Move = m
	return reply, nil
}

// readInfo takes the score, depth and nodes of an info line (without its first word) into reply.
func readInfo(words []string, reply *Reply) {
	for i := 0; i+1 < len(words); i++ {
		switch words[i] {
		case "string":
			return
		case "depth":
			if n, err := strconv.Atoi(words[i+1]); err == nil {
				reply.Depth = n
			}
		case "nodes":
			if n, err := strconv.ParseUint(words[i+1], 10, 64); err == nil {
				reply.Nodes = n
			}
		case "score":
			if i+2 >= len(words) {
				return
			}
			n, err := strconv.ParseInt(words[i+2], 10, 64)
			if err != nil {
				continue
			}
			switch words[i+1] {
			case "cp":
				reply.Score, reply.HasScore = float64(n), true
			case "mate":
				reply.Score, reply.HasScore = mateScore(n), true
			}
		}
	}
}

// mateScore converts UCI's "score mate N" (moves of the winner, negative when the engine is mated) to
// dossier's score: engine.MateScore less the plies to the mate.
func mateScore(moves int64) float64 {
	moves = max(min(moves, 1000), -1000)
	if moves > 0 {
		return engine.MateScore - float64(2*moves-1)
	}
	return -(engine.MateScore - float64(-2*moves))
}

// positionCommand writes the position command of a game: startpos when it began at the initial position.
func positionCommand(g games.Game, start games.Position, moves []games.Move) string {
	var b strings.Builder
	if start.FEN() == g.Start().FEN() {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position fen " + start.FEN())
	}
	if len(moves) > 0 {
		b.WriteString(" moves")
		p := start.Clone()
		for _, m := range moves {
			b.WriteString(" " + p.FormatMove(m))
			p.Play(m)
		}
	}
	return b.String()
}

// goCommand writes the go command of the limits, clocks by colour (see games.WhiteSide).
func goCommand(g games.Game, lim engine.Limits) string {
	ms := func(d time.Duration) string { return strconv.FormatInt(max(d.Milliseconds(), 1), 10) }
	white := games.WhiteSide(g)
	words := []string{"go"}
	if t := lim.Time[white]; t > 0 {
		words = append(words, "wtime", ms(t))
	}
	if t := lim.Time[white.Other()]; t > 0 {
		words = append(words, "btime", ms(t))
	}
	if t := lim.Inc[white]; t > 0 {
		words = append(words, "winc", ms(t))
	}
	if t := lim.Inc[white.Other()]; t > 0 {
		words = append(words, "binc", ms(t))
	}
	if lim.MovesToGo > 0 {
		words = append(words, "movestogo", strconv.Itoa(lim.MovesToGo))
	}
	if lim.Depth > 0 {
		words = append(words, "depth", strconv.Itoa(lim.Depth))
	}
	if lim.Nodes > 0 {
		words = append(words, "nodes", strconv.FormatUint(lim.Nodes, 10))
	}
	if lim.MoveTime > 0 {
		words = append(words, "movetime", ms(lim.MoveTime))
	}
	if len(words) == 1 {
		words = append(words, "infinite")
	}
	return strings.Join(words, " ")
}

// send writes one command line; a failed write means the engine has gone.
func (e *engineProcess) send(line string) error {
	if _, err := io.WriteString(e.stdin, line+"\n"); err != nil {
		return e.diedError()
	}
	return nil
}

// drain drops output left over from earlier commands (info lines after a bestmove).
func (e *engineProcess) drain() {
	for {
		select {
		case _, ok := <-e.lines:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// readUntil passes output lines to handle until it returns true. It fails with a PlayerError when the
// engine exits (EngineDied) or says nothing that ends the wait within timeout (EngineStalled), and with
// ctx's error when ctx ends first.
func (e *engineProcess) readUntil(ctx context.Context, timeout time.Duration, waitingFor string, handle func(string) bool) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return e.diedError()
			}
			if handle(line) {
				return nil
			}
		case <-timer.C:
			return playerErrorf(EngineStalled, "%s sent no %s within %v", e.name, waitingFor, timeout.Round(time.Millisecond))
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// diedError describes the engine's exit, with the end of what it wrote to stderr.
func (e *engineProcess) diedError() error {
	status := "no exit status: killed"
	select {
	case <-e.exited:
		status = "exit status 0"
		if e.exitErr != nil {
			status = e.exitErr.Error()
		}
	case <-time.After(engineWaitDelay + time.Second):
		e.kill()
	}
	msg := fmt.Sprintf("%s exited (%s)", e.name, status)
	if tail := e.stderr.String(); tail != "" {
		msg += "; its last error output: " + tail
	}
	return &PlayerError{Kind: EngineDied, Err: errors.New(msg)}
}

// killIfStalled kills the engine when err says it stalled (its process may still be thinking, and would
// answer into the next game), and returns err.
func (e *engineProcess) killIfStalled(err error) error {
	var pe *PlayerError
	if errors.As(err, &pe) && pe.Kind == EngineStalled {
		e.kill()
	}
	return err
}

// legalMove reads the engine's move in p; a move that does not parse or is not legal there loses the
// engine the game.
func (e *engineProcess) legalMove(p games.Position, text string) (games.Move, error) {
	m, err := p.ParseMove(text)
	if err != nil || !games.IsLegal(p, m) {
		why := "not a legal move"
		if err != nil {
			why = err.Error()
		}
		return games.NoMove, playerErrorf(IllegalMove, "%s played the illegal move %s (%s) in %s", e.name, text, why, p.FEN())
	}
	return m, nil
}

// kill ends the process at once.
func (e *engineProcess) kill() {
	if e.cmd.Process != nil {
		e.cmd.Process.Kill()
	}
}

// quitGrace is how long an engine has to exit after quit before it is killed.
const quitGrace = 2 * time.Second

// Close sends quit and waits for the engine to exit, killing it if it does not.
func (e *engineProcess) Close() error {
	e.closeOnce.Do(func() {
		close(e.closing)
		io.WriteString(e.stdin, "quit\n")
		e.stdin.Close()
		select {
		case <-e.exited:
		case <-time.After(quitGrace):
			e.kill()
			<-e.exited
		}
	})
	return nil
}

// lineWriter splits an engine's output into lines for the client; it drops them once the client closes.
type lineWriter struct {
	lines   chan<- string
	closing <-chan struct{}
	partial []byte
}

// Write passes complete lines on and keeps a partial one for the next call.
func (w *lineWriter) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimRight(string(w.partial[:i]), "\r")
		w.partial = w.partial[i+1:]
		select {
		case w.lines <- line:
		case <-w.closing:
		}
	}
	if len(w.partial) > maxLineBytes {
		// A line this long is not UCI; it is cut rather than held in memory.
		w.partial = w.partial[:0]
	}
	return len(p), nil
}

// maxLineBytes bounds a line of engine output.
const maxLineBytes = 1 << 20

// flush hands over a last line without a newline.
func (w *lineWriter) flush() {
	if len(w.partial) > 0 {
		select {
		case w.lines <- string(w.partial):
		case <-w.closing:
		}
		w.partial = nil
	}
}

// tailWriter keeps the last bytes written to it (an engine's stderr, for the report of its death).
type tailWriter struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

// Write keeps the last bytes written, for the error message of a dead engine.
func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.limit {
		w.buf = append([]byte(nil), w.buf[len(w.buf)-w.limit:]...)
	}
	return len(p), nil
}

// String returns the kept bytes on one line.
func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(strings.Fields(string(w.buf)), " ")
}
