// Helpers for the UCI transcript tests: the handshake, a game replayed with the game packages, bestmove checks.

package tests

import (
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/catalog"
)

// handshake runs uci and isready and returns the lines between uci and uciok.
func handshake(p *proc) []string {
	p.t.Helper()
	p.send("uci")
	lines := p.expectLine(promptTimeout, "uciok")
	p.send("isready")
	p.expectLine(promptTimeout, "readyok")
	return lines
}

// ready sends isready and returns the lines that came before readyok.
func ready(p *proc) []string {
	p.t.Helper()
	p.send("isready")
	return p.expectLine(promptTimeout, "readyok")
}

// replay is a game as the test sees it: replayed move by move with dossier's game packages, so that every
// move the engine sends is checked against the rules independently of the session that printed it.
type replay struct {
	game  games.Game
	pos   games.Position
	moves []string
}

// newReplay starts a game from the start position; name is any name the catalog knows.
func newReplay(t testing.TB, name string) *replay {
	t.Helper()
	g, err := catalog.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return &replay{game: g, pos: g.Start()}
}

// legalMove returns the move text names in pos and whether it is one of the legal moves there.
func legalMove(pos games.Position, text string) (games.Move, bool) {
	m, err := pos.ParseMove(text)
	if err != nil {
		return games.NoMove, false
	}
	return m, slices.Contains(pos.AppendMoves(nil), m)
}

// play plays a move the engine sent, failing the test (with the transcript) if it is not legal.
func (r *replay) play(p *proc, text string) {
	p.t.Helper()
	m, ok := legalMove(r.pos, text)
	if !ok {
		p.fatalf("move %d %q is not legal in %s", len(r.moves)+1, text, r.pos.FEN())
	}
	r.pos.Play(m)
	r.moves = append(r.moves, text)
}

// positionCommand returns the position command of the game so far.
func (r *replay) positionCommand() string {
	if len(r.moves) == 0 {
		return "position startpos"
	}
	return "position startpos moves " + strings.Join(r.moves, " ")
}

// bestMove reads lines up to the next bestmove within timeout and returns its move, checking that the move
// (and the ponder move, if any) is legal in pos; it returns "0000" for a null move without checking.
func bestMove(p *proc, pos games.Position, timeout time.Duration) (string, []string) {
	p.t.Helper()
	line, before := p.expectPrefix(timeout, "bestmove")
	return checkBestMove(p, pos, line), before
}

// timedGo sends a go command and returns the bestmove that answers it within timeout (checked as bestMove
// checks it) and how long after the command it came.
func timedGo(p *proc, pos games.Position, goCmd string, timeout time.Duration) (string, time.Duration) {
	p.t.Helper()
	sent := p.send(goCmd)
	line, _ := p.expect(timeout, "bestmove", func(s string) bool { return strings.HasPrefix(s, "bestmove") })
	return checkBestMove(p, pos, line.text), line.at.Sub(sent)
}

// checkBestMove returns the move of a bestmove line, failing the test unless the line is well formed and
// its move (and ponder move) legal in pos; a null move "0000" is returned unchecked.
func checkBestMove(p *proc, pos games.Position, line string) string {
	p.t.Helper()
	fields := strings.Fields(line)
	if len(fields) != 2 && !(len(fields) == 4 && fields[2] == "ponder") {
		p.fatalf("malformed bestmove line %q", line)
	}
	if fields[1] == "0000" {
		return fields[1]
	}
	m, ok := legalMove(pos, fields[1])
	if !ok {
		p.fatalf("bestmove %q is not legal in %s", fields[1], pos.FEN())
	}
	if len(fields) == 4 {
		pos.Play(m)
		_, ponderOK := legalMove(pos, fields[3])
		pos.Undo()
		if !ponderOK {
			p.fatalf("ponder move %q is not legal after %s in %s", fields[3], fields[1], pos.FEN())
		}
	}
	return fields[1]
}

// errorLines returns the "info string error:" lines among lines.
func errorLines(lines []string) []string {
	var errs []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string error:") {
			errs = append(errs, l)
		}
	}
	return errs
}

// claimable reports whether an outcome is a draw the rules let a player claim but do not impose (repetition,
// a move rule): dossier's session still answers go with a move there, as lichess plays on.
func claimable(o games.Outcome) bool {
	return o.Result == games.Draw && (o.Reason == games.Repetition || o.Reason == games.MoveRule)
}
