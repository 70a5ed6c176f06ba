// Test helpers: a fake engine that records what the session tells it, and transcripts of sessions.

package protocol

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
	"dossier/play"
)

// testLookup resolves the UCI_Variant names to the games, as catalog.Lookup does.
func testLookup(name string) (games.Game, error) {
	switch strings.ToLower(name) {
	case "chess", "standard":
		return chess.Game{}, nil
	case "checkers":
		return checkers.Game{}, nil
	case "cfour", "connect4":
		return connect4.Game{}, nil
	case "tictactoe":
		return tictactoe.Game{}, nil
	}
	return nil, fmt.Errorf("unknown game %q", name)
}

// testConfig is the configuration most tests use.
func testConfig() Config { return Config{Lookup: testLookup, MaxPerftDepth: 6} }

// fakeEngine plays the first legal move (or a seeded random one) and records what the session told it.
type fakeEngine struct {
	rng *rand.Rand // nil: the first legal move
	// waitForStop makes Search run until the control says stop (or a limit is reached).
	waitForStop atomic.Bool
	// info, when set, is reported by every search instead of the default report.
	info *engine.Info
	// result, when set, is returned by every search instead of the chosen move.
	result *engine.Result
	// score is the score of every search's result (set before the session starts).
	score float64
	// expectsReply makes every result's principal variation name the reply it expects (the first legal one).
	expectsReply bool
	// panics makes Search panic; panicIn names another method to panic in ("ObserveMove", "NewGame",
	// "SetOpponent", "Hash").
	panics  bool
	panicIn string

	started  chan struct{} // receives (if not full) when a search starts
	finished chan struct{} // receives (if not full) when a search returns

	mu        sync.Mutex
	newGames  []string
	opponents []play.Opponent
	observed  []string // the observed moves
	lifecycle []string // StartGame, ObserveMove, TakeBack, GameOver and Close calls, one line each
	limits    []engine.Limits
	roots     []string // the FEN of every searched position
	hash      int
	log       []string
}

// newFakeEngine returns a fake engine choosing moves with the given seed (0: always the first legal move).
func newFakeEngine(seed uint64) *fakeEngine {
	e := &fakeEngine{started: make(chan struct{}, 1), finished: make(chan struct{}, 1), hash: 16}
	if seed != 0 {
		e.rng = rand.New(rand.NewPCG(seed, seed*7+1))
	}
	return e
}

func (e *fakeEngine) Options() []play.Option {
	return []play.Option{
		play.SpinOption("Hash", 16, 1, 4096, func(n int) {
			e.mustNotPanic("Hash")
			e.mu.Lock()
			e.hash = n
			e.mu.Unlock()
		}),
		play.ButtonOption("Clear Hash", func() { e.note("clear hash") }),
		play.CheckOption("Own Book", false, func(b bool) { e.note(fmt.Sprint("own book ", b)) }),
		play.ComboOption("Style", "Normal", []string{"Solid", "Normal", "Risky"}, func(v string) { e.note("style " + v) }),
		play.StringOption("Book File", "", func(v string) { e.note("book file " + v) }),
	}
}

func (e *fakeEngine) note(s string) {
	e.mu.Lock()
	e.log = append(e.log, s)
	e.mu.Unlock()
}

// mustNotPanic panics when the test asked for a panic in method.
func (e *fakeEngine) mustNotPanic(method string) {
	if e.panicIn == method {
		panic("fake engine failure in " + method)
	}
}

func (e *fakeEngine) NewGame(g games.Game) {
	e.mustNotPanic("NewGame")
	e.mu.Lock()
	e.newGames = append(e.newGames, g.Name())
	e.mu.Unlock()
}

func (e *fakeEngine) SetOpponent(o play.Opponent) {
	e.mustNotPanic("SetOpponent")
	e.mu.Lock()
	e.opponents = append(e.opponents, o)
	e.mu.Unlock()
}

func (e *fakeEngine) ObserveMove(m play.ObservedMove) {
	e.mustNotPanic("ObserveMove")
	e.mu.Lock()
	e.observed = append(e.observed, m.Before.FormatMove(m.Move))
	e.lifecycle = append(e.lifecycle, fmt.Sprintf("observe %d %s %v", m.Ply, m.Before.FormatMove(m.Move), m.Elapsed))
	e.mu.Unlock()
}

func (e *fakeEngine) StartGame(g play.GameStart) {
	e.mustNotPanic("StartGame")
	e.mu.Lock()
	e.lifecycle = append(e.lifecycle, fmt.Sprintf("start %s %s as %s from %s (%s)", g.Game.Name(), g.Variant, g.OurSide, g.Start.FEN(), g.TimeControl))
	e.mu.Unlock()
}

func (e *fakeEngine) TakeBack(keep int) {
	e.mustNotPanic("TakeBack")
	e.mu.Lock()
	e.lifecycle = append(e.lifecycle, fmt.Sprintf("takeback to %d", keep))
	e.mu.Unlock()
}

func (e *fakeEngine) GameOver(end play.GameEnd) {
	e.mustNotPanic("GameOver")
	e.mu.Lock()
	e.lifecycle = append(e.lifecycle, fmt.Sprintf("over %s %s after %d moves", end.Outcome.Result, end.Reason, len(end.Moves)))
	e.mu.Unlock()
}

func (e *fakeEngine) Close() error {
	e.mustNotPanic("Close")
	e.mu.Lock()
	e.lifecycle = append(e.lifecycle, "close")
	e.mu.Unlock()
	return nil
}

// events returns the life-cycle calls so far, one line each.
func (e *fakeEngine) events() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.lifecycle...)
}

// observedMoves returns the moves observed so far.
func (e *fakeEngine) observedMoves() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.observed...)
}

func (e *fakeEngine) Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result {
	e.mu.Lock()
	e.limits = append(e.limits, ctl.Limits())
	e.roots = append(e.roots, p.FEN())
	e.mu.Unlock()
	signal(e.started)
	defer signal(e.finished)
	if e.panics {
		panic("fake engine failure")
	}
	// A depth-limited search of the fake engine reaches its depth at once; others run until stopped.
	if e.waitForStop.Load() && ctl.Limits().Depth == 0 {
		<-ctl.Done()
	}
	var buf [games.MaxMoves]games.Move
	moves := p.AppendMoves(buf[:0])
	if lim := ctl.Limits(); len(lim.SearchMoves) > 0 {
		moves = lim.SearchMoves
	}
	if len(moves) == 0 {
		return engine.Result{}
	}
	m := moves[0]
	if e.rng != nil {
		m = moves[e.rng.IntN(len(moves))]
	}
	if e.result != nil {
		return *e.result
	}
	if e.info != nil {
		report(*e.info)
	} else {
		report(engine.Info{Depth: 1, SelDepth: 1, Score: 12.4, Nodes: 100, TimeMS: 2, PV: []games.Move{m}})
	}
	pv := []games.Move{m}
	if e.expectsReply {
		p.Play(m)
		if replies := p.AppendMoves(nil); len(replies) > 0 {
			pv = append(pv, replies[0])
		}
		p.Undo()
	}
	return engine.Result{Move: m, Score: e.score, Depth: 1, Nodes: 100, PV: pv}
}

// signal sends on a one-slot channel without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// waitFor waits for a signal from c, failing the test after a generous timeout.
func waitFor(t *testing.T, c chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// runScript feeds a whole input to a new session and returns its output lines once Run has returned.
func runScript(t *testing.T, eng play.Engine, g games.Game, cfg Config, input string) []string {
	t.Helper()
	var out bytes.Buffer
	s := NewSession(eng, g, strings.NewReader(input), &out, cfg)
	done := make(chan error, 1)
	go func() { done <- s.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("session did not end on input %q", input)
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// transcript is a live session driven line by line, as a GUI drives an engine.
type transcript struct {
	t       *testing.T
	session *Session
	in      *io.PipeWriter
	lines   chan string
	done    chan error
	seen    []string // every line read so far
}

// startSession runs a session on pipes; the test closes it (or it is closed at cleanup).
func startSession(t *testing.T, eng play.Engine, g games.Game, cfg Config) *transcript {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &transcript{t: t, in: inW, lines: make(chan string, 1<<16), done: make(chan error, 1)}
	tr.session = NewSession(eng, g, inR, outW, cfg)
	go func() {
		err := tr.session.Run()
		outW.Close()
		inR.Close()
		tr.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			tr.lines <- sc.Text()
		}
		close(tr.lines)
	}()
	t.Cleanup(func() { tr.in.Close() })
	return tr
}

// send writes command lines to the session.
func (tr *transcript) send(lines ...string) {
	tr.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(tr.in, l+"\n"); err != nil {
			tr.t.Fatalf("sending %q: %v", l, err)
		}
	}
}

// expect reads lines until one starts with prefix and returns the lines read, that one last.
func (tr *transcript) expect(prefix string) []string {
	tr.t.Helper()
	var got []string
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-tr.lines:
			if !ok {
				tr.t.Fatalf("session output ended while waiting for %q; read %q", prefix, got)
			}
			tr.seen = append(tr.seen, line)
			got = append(got, line)
			if strings.HasPrefix(line, prefix) {
				return got
			}
		case <-timeout:
			tr.t.Fatalf("timed out waiting for %q; read %q", prefix, got)
		}
	}
}

// quit ends the session and returns the lines it wrote after the last expect.
func (tr *transcript) quit() []string {
	tr.t.Helper()
	tr.send("quit")
	return tr.close()
}

// close ends the input, waits for Run to return, and returns the remaining output.
func (tr *transcript) close() []string {
	tr.t.Helper()
	tr.in.Close()
	select {
	case err := <-tr.done:
		if err != nil {
			tr.t.Errorf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		tr.t.Fatalf("session did not end")
	}
	var rest []string
	for line := range tr.lines {
		rest = append(rest, line)
	}
	tr.seen = append(tr.seen, rest...)
	return rest
}

// containsPrefix reports whether a line starts with prefix.
func containsPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// linesWith returns the lines that contain sub.
func linesWith(lines []string, sub string) []string {
	var out []string
	for _, l := range lines {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return out
}
