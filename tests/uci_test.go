// UCI transcript tests of the built binary: handshake, whole games of every game, isready/stop/ponder timing, malformed input, end of input.

package tests

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/internal/testdeep"
)

// TestHandshake checks the start-up line and the uci reply: identity, the session's options (UCI_Variant as a combo of the four
// games, UCI_Opponent as a string) and the Player's, then uciok and readyok.
func TestHandshake(t *testing.T) {
	p := startDossier(t)
	lines := handshake(p)
	// The start-up line comes first, before uci is answered, so that a first run does not look hung.
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "dossier ") || !strings.HasSuffix(lines[0], " by the dossier authors") {
		p.fatalf("the first line is not the start-up line \"dossier <version> by the dossier authors\"")
	}
	if !slices.Contains(lines, "id name dossier") {
		p.fatalf("no \"id name dossier\" line")
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "id author ") }) {
		p.fatalf("no id author line")
	}
	wantOptions := []struct{ name, typ string }{
		{"UCI_Variant", "combo"}, {"UCI_Chess960", "check"}, {"UCI_Opponent", "string"}, {"UCI_ShowWDL", "check"}, {"Ponder", "check"},
		{"Hash", "spin"}, {"Threads", "spin"}, {"Search", "combo"}, {"Preset", "combo"}, {"Depth", "spin"},
		{"Contempt", "spin"},
	}
	options := map[string]string{}
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "option name "); ok {
			name, def, _ := strings.Cut(rest, " type ")
			options[name] = def
		}
	}
	for _, o := range wantOptions {
		t.Run(o.name, func(t *testing.T) {
			def, ok := options[o.name]
			if !ok {
				t.Fatalf("option %s missing; options: %v", o.name, options)
			}
			if !strings.HasPrefix(def, o.typ+" ") && def != o.typ {
				t.Errorf("option %s is %q, want type %s", o.name, def, o.typ)
			}
		})
	}
	variant := strings.Fields(options["UCI_Variant"])
	for _, v := range []string{"chess", "checkers", "cfour", "tictactoe"} {
		if !slices.Contains(variant, v) {
			t.Errorf("UCI_Variant %v does not offer %s", variant, v)
		}
	}
}

// TestFullGames has dossier play both sides of a whole game of each game, one position and go per ply, until
// the game packages say it is over: every bestmove must be legal, and the go after the end must be answered
// bestmove 0000 (or, after a draw a player may claim, with a legal move and a note). Unequal depths make
// chess and checkers end decisively rather than by a move rule.
func TestFullGames(t *testing.T) {
	cases := []struct {
		name    string
		variant string
		goFirst string // the first mover's go command
		goOther string // the second mover's
		// wantDraw asks for a drawn end (tic-tac-toe with both sides at full depth).
		wantDraw bool
	}{
		{"chess depth 4 vs 1", "chess", "go depth 4", "go depth 1", false},
		{"chess depth 6 vs 3", "chess", "go depth 6", "go depth 3", false},
		{"chess depth 5 both", "chess", "go depth 5", "go depth 5", false},
		{"chess movetime", "chess", "go movetime 40", "go movetime 40", false},
		{"checkers depth 6 vs 1", "checkers", "go depth 6", "go depth 1", false},
		{"checkers depth 8 both", "checkers", "go depth 8", "go depth 8", false},
		{"cfour depth 6 vs movetime", "cfour", "go depth 6", "go movetime 30", false},
		{"cfour movetime both", "cfour", "go movetime 30", "go movetime 30", false},
		{"tictactoe full depth", "tictactoe", "go depth 9", "go depth 9", true},
		{"tictactoe movetime", "tictactoe", "go movetime 20", "go movetime 20", false},
	}
	slow := map[string]bool{"chess depth 6 vs 3": true, "chess depth 5 both": true, "chess movetime": true}
	const maxPlies = 1000 // move rules end every game long before; a runaway is a failure
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if slow[c.name] && testing.Short() {
				t.Skip("a long game")
			}
			p := startDossier(t)
			handshake(p)
			p.send("setoption name UCI_Variant value "+c.variant, "ucinewgame")
			if errs := errorLines(ready(p)); len(errs) > 0 {
				p.fatalf("setting the variant: %v", errs)
			}
			r := newReplay(t, c.variant)
			start := time.Now()
			for !games.OutcomeOf(r.pos).Result.Over() {
				if len(r.moves) >= maxPlies {
					p.fatalf("no end after %d plies", maxPlies)
				}
				goCmd := c.goOther
				if r.pos.ToMove() == games.First {
					goCmd = c.goFirst
				}
				p.send(r.positionCommand(), goCmd)
				move, _ := bestMove(p, r.pos, searchTimeout)
				if move == "0000" {
					p.fatalf("bestmove 0000 in %s, where the game is not over", r.pos.FEN())
				}
				r.play(p, move)
			}
			outcome := games.OutcomeOf(r.pos)
			t.Logf("%s: %d plies, %s (%s), %v", c.name, len(r.moves), outcome.Result, outcome.Reason,
				time.Since(start).Round(time.Millisecond))

			p.send(r.positionCommand(), "go depth 1")
			move, before := bestMove(p, r.pos, searchTimeout)
			if claimable(outcome) {
				if move == "0000" {
					p.fatalf("bestmove 0000 after a claimable draw (%s) with moves left", outcome.Reason)
				}
				if !slices.ContainsFunc(before, func(l string) bool { return strings.Contains(l, "the game could end here") }) {
					p.fatalf("no note that the game could end by %s", outcome.Reason)
				}
				if errs := errorLines(before); len(errs) > 0 {
					t.Logf("known issue (see TestGameOverPositions): %v", errs)
				}
			} else if move != "0000" {
				p.fatalf("the game is over (%s, %s) but the last go was answered %q, want 0000",
					outcome.Result, outcome.Reason, move)
			}
			if c.wantDraw && outcome.Result != games.Draw {
				t.Errorf("%s at full depth ended %s (%s), want a draw; moves %v", c.name, outcome.Result,
					outcome.Reason, r.moves)
			}
		})
	}
}

// TestIsReadyDuringSearch measures how fast isready is answered while go infinite runs: the median of
// several tries must be under 50 ms (each try has only a generous hard bound, as the machine is shared), no
// bestmove may come before stop, and stop must be answered by a legal bestmove.
func TestIsReadyDuringSearch(t *testing.T) {
	const (
		tries      = 9
		wantMedian = 50 * time.Millisecond
		hardBound  = 2 * time.Second
	)
	p := startDossier(t)
	handshake(p)
	r := newReplay(t, "chess")
	r.play(p, "e2e4")
	r.play(p, "e7e5")
	p.send(r.positionCommand(), "go infinite")
	p.expectPrefix(promptTimeout, "info depth") // the search is under way
	var latencies []time.Duration
	for range tries {
		time.Sleep(60 * time.Millisecond)
		sent := p.send("isready")
		line, before := p.expect(hardBound, "readyok within the hard bound",
			func(s string) bool { return s == "readyok" })
		if slices.ContainsFunc(before, func(l string) bool { return strings.HasPrefix(l, "bestmove") }) {
			p.fatalf("go infinite sent a bestmove before stop")
		}
		latencies = append(latencies, line.at.Sub(sent))
	}
	slices.Sort(latencies)
	median := latencies[tries/2]
	t.Logf("isready during go infinite: median %v, min %v, max %v over %d tries", median, latencies[0],
		latencies[tries-1], tries)
	if median >= wantMedian {
		t.Errorf("median isready latency %v, want under %v (all: %v)", median, wantMedian, latencies)
	}
	sent := p.send("stop")
	bestMove(p, r.pos, promptTimeout)
	t.Logf("stop answered by bestmove after %v", time.Since(sent).Round(time.Millisecond))
	ready(p)
}

// TestStop sends stop to searches that would otherwise run for a long time (or for ever) and wants a legal
// bestmove each time, soon.
func TestStop(t *testing.T) {
	cases := []struct{ name, goCmd string }{
		{"infinite", "go infinite"},
		{"deep", "go depth 200"},
		{"long movetime", "go movetime 600000"},
		{"long clock", "go wtime 3600000 btime 3600000 movestogo 1"},
		{"many nodes", "go nodes 1000000000000"},
		{"ponder miss", "go ponder wtime 60000 btime 60000"},
		{"infinite searchmoves", "go infinite searchmoves a2a3 h2h4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := startDossier(t)
			handshake(p)
			r := newReplay(t, "chess")
			r.play(p, "d2d4")
			r.play(p, "g8f6")
			p.send(r.positionCommand(), c.goCmd)
			p.quiet(200*time.Millisecond, "bestmove before stop", func(s string) bool { return strings.HasPrefix(s, "bestmove") })
			sent := p.send("stop")
			move, _ := bestMove(p, r.pos, promptTimeout)
			t.Logf("%s: bestmove %s %v after stop", c.goCmd, move, time.Since(sent).Round(time.Millisecond))
			if move == "0000" {
				p.fatalf("stop answered with 0000 in a position with legal moves")
			}
			if strings.Contains(c.goCmd, "searchmoves") && move != "a2a3" && move != "h2h4" {
				p.fatalf("bestmove %s is not one of the searchmoves a2a3 h2h4", move)
			}
			ready(p)
		})
	}
}

// TestPonderHit plays the GUI's side of pondering: go ponder on the guessed reply must not answer before
// ponderhit, even with little time on the clock, and must answer with a legal move soon after it; after a
// ponder miss (stop, then the move actually played) the next search answers in the real position.
func TestPonderHit(t *testing.T) {
	t.Run("hit", func(t *testing.T) {
		p := startDossier(t)
		handshake(p)
		p.send("setoption name Ponder value true")
		r := newReplay(t, "chess")
		r.play(p, "e2e4")
		r.play(p, "e7e5") // the guess dossier ponders on
		p.send(r.positionCommand(), "go ponder wtime 2000 btime 2000")
		p.quiet(500*time.Millisecond, "bestmove while pondering", func(s string) bool { return strings.HasPrefix(s, "bestmove") })
		sent := p.send("ponderhit")
		move, _ := bestMove(p, r.pos, promptTimeout)
		t.Logf("ponderhit answered by bestmove %s after %v", move, time.Since(sent).Round(time.Millisecond))
		if move == "0000" {
			p.fatalf("ponderhit answered with 0000")
		}
		// The game goes on from the pondered position: the session keeps its record.
		r.play(p, move)
		r.play(p, firstLegal(t, r.pos))
		p.send(r.positionCommand(), "go depth 2")
		if move, _ := bestMove(p, r.pos, searchTimeout); move == "0000" {
			p.fatalf("bestmove 0000 after the ponder hit")
		}
	})
	t.Run("miss", func(t *testing.T) {
		p := startDossier(t)
		handshake(p)
		guess := newReplay(t, "chess")
		guess.play(p, "e2e4")
		guess.play(p, "e7e5")
		p.send(guess.positionCommand(), "go ponder wtime 2000 btime 2000")
		p.quiet(300*time.Millisecond, "bestmove while pondering", func(s string) bool { return strings.HasPrefix(s, "bestmove") })
		p.send("stop")
		bestMove(p, guess.pos, promptTimeout) // the GUI ignores this move
		actual := newReplay(t, "chess")
		actual.play(p, "e2e4")
		actual.play(p, "c7c5")
		p.send(actual.positionCommand(), "go depth 3")
		if move, _ := bestMove(p, actual.pos, searchTimeout); move == "0000" {
			p.fatalf("bestmove 0000 after the ponder miss")
		}
	})
}

// firstLegal returns the first legal move of pos in the game's notation.
func firstLegal(t testing.TB, pos games.Position) string {
	t.Helper()
	moves := pos.AppendMoves(nil)
	if len(moves) == 0 {
		t.Fatalf("no legal move in %s", pos.FEN())
	}
	return pos.FormatMove(moves[0])
}

// malformedCase is a line (or lines) of bad input and what the session must do with it.
type malformedCase struct {
	name string
	// variant is the game the case is played in (chess when empty).
	variant string
	lines   []string
	// wantError asks for an "info string error:" line; mention, if set, must appear in it.
	wantError bool
	mention   string
	// then is what the input starts that must be waited for before going on: "bestmove" (a go, ended by
	// stop if it has no limit of its own), "Nodes searched" (a perft) or "" (nothing).
	then string
}

// malformedCases are bad lines of every kind a GUI, a human at a terminal or a broken pipe could send.
func malformedCases() []malformedCase {
	long := strings.Repeat("e2e4 ", 20000) // 100 kB, under the line limit
	return []malformedCase{
		// junk and unknown commands
		{name: "junk word", lines: []string{"xyzzy"}, wantError: true, mention: "xyzzy"},
		{name: "junk words", lines: []string{"foo bar baz 12 -3"}, wantError: true, mention: "foo"},
		{name: "unknown eval", lines: []string{"eval"}, wantError: true},
		{name: "unknown bench", lines: []string{"bench 16 1 5"}, wantError: true},
		{name: "command glued", lines: []string{"go2 depth 1"}, wantError: true},
		{name: "empty line", lines: []string{""}},
		{name: "blank line", lines: []string{" \t  \t"}},
		{name: "carriage return", lines: []string{"\r"}},
		{name: "junk before position", lines: []string{"xyzzy position startpos moves e2e5"}, wantError: true, mention: "e2e5"},
		{name: "debug maybe", lines: []string{"debug maybe"}, wantError: true, mention: "maybe"},
		{name: "ponderhit alone", lines: []string{"ponderhit"}},
		{name: "stop alone", lines: []string{"stop"}},
		{name: "register", lines: []string{"register later"}},
		// binary bytes
		{name: "nul bytes", lines: []string{"\x00\x00\x00"}},
		{name: "high bytes", lines: []string{"\xff\xfe\xfd\x80"}, wantError: true},
		{name: "escape sequence", lines: []string{"\x1b[2J\x1b[31m"}, wantError: true},
		{name: "binary move", lines: []string{"position startpos moves \xff\xfe"}, wantError: true},
		{name: "binary fen", lines: []string{"position fen \x01\x02\x03 w - - 0 1"}, wantError: true},
		{name: "utf8 move", lines: []string{"position startpos moves é2é4"}, wantError: true},
		// very long lines
		{name: "line over the limit", lines: []string{strings.Repeat("a", 2<<20)}, wantError: true, mention: "longer than"},
		{name: "long position over the limit", lines: []string{"position startpos moves " + strings.Repeat("e2e4 e7e5 ", 120000)},
			wantError: true, mention: "longer than"},
		{name: "long illegal move list", lines: []string{"position startpos moves " + long}, wantError: true, mention: "move 2"},
		{name: "long word", lines: []string{"position fen " + strings.Repeat("p", 100000)}, wantError: true},
		// bad position commands
		{name: "position alone", lines: []string{"position"}, wantError: true},
		{name: "position fen alone", lines: []string{"position fen"}, wantError: true},
		{name: "position fen moves", lines: []string{"position fen moves e2e4"}, wantError: true},
		{name: "position start", lines: []string{"position start"}, wantError: true, mention: "start"},
		{name: "startpos extra", lines: []string{"position startpos e2e4"}, wantError: true, mention: "e2e4"},
		{name: "fen garbage", lines: []string{"position fen garbage"}, wantError: true, mention: "garbage"},
		{name: "fen no kings", lines: []string{"position fen 8/8/8/8/8/8/8/8 w - - 0 1"}, wantError: true, mention: "king"},
		{name: "fen bad side", lines: []string{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}, wantError: true},
		{name: "fen nine files", lines: []string{"position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, wantError: true},
		{name: "fen seven ranks", lines: []string{"position fen rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, wantError: true},
		{name: "fen bad piece", lines: []string{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"}, wantError: true},
		{name: "fen side not to move in check", lines: []string{"position fen 4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"}, wantError: true, mention: "check"},
		{name: "fen bad en passant", lines: []string{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1"}, wantError: true},
		{name: "fen bad castling", lines: []string{"position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"}, wantError: true},
		{name: "fen negative clock", lines: []string{"position fen 4k3/8/8/8/8/8/8/4K2R w K - -5 1"}, wantError: true},
		{name: "checkers fen in chess", lines: []string{"position fen B:W21,22:B1,2"}, wantError: true},
		{name: "illegal first move", lines: []string{"position startpos moves e2e5"}, wantError: true, mention: "e2e5"},
		{name: "illegal later move", lines: []string{"position startpos moves e2e4 e7e5 e4e5"}, wantError: true, mention: "move 3"},
		{name: "same move twice", lines: []string{"position startpos moves e2e4 e2e4"}, wantError: true},
		{name: "null move", lines: []string{"position startpos moves 0000"}, wantError: true},
		{name: "wrong colour", lines: []string{"position startpos moves e7e5"}, wantError: true},
		{name: "bad promotion", lines: []string{"position startpos moves e2e4q"}, wantError: true},
		{name: "checkers move in chess", lines: []string{"position startpos moves 11-15"}, wantError: true},
		{name: "drop in chess", lines: []string{"position startpos moves P@d1"}, wantError: true},
		{name: "moves after mate", lines: []string{"position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3"}, wantError: true, mention: "over"},
		// bad setoption commands
		{name: "setoption alone", lines: []string{"setoption"}, wantError: true},
		{name: "setoption name alone", lines: []string{"setoption name"}, wantError: true},
		{name: "setoption value only", lines: []string{"setoption value 3"}, wantError: true},
		{name: "unknown option", lines: []string{"setoption name NoSuchOption value 1"}, wantError: true, mention: "NoSuchOption"},
		{name: "hash negative", lines: []string{"setoption name Hash value -1"}, wantError: true},
		{name: "hash word", lines: []string{"setoption name Hash value lots"}, wantError: true, mention: "lots"},
		{name: "hash huge", lines: []string{"setoption name Hash value 99999999999999999999999"}, wantError: true},
		{name: "hash no value", lines: []string{"setoption name Hash"}, wantError: true},
		{name: "threads zero", lines: []string{"setoption name Threads value 0"}, wantError: true},
		{name: "depth float", lines: []string{"setoption name Depth value 1e3"}, wantError: true},
		{name: "contempt too big", lines: []string{"setoption name Contempt value 10001"}, wantError: true},
		{name: "unknown variant", lines: []string{"setoption name UCI_Variant value shogi"}, wantError: true, mention: "shogi"},
		{name: "empty variant", lines: []string{"setoption name UCI_Variant value"}, wantError: true},
		{name: "unknown preset", lines: []string{"setoption name Preset value nonsense"}, wantError: true, mention: "nonsense"},
		{name: "unknown search", lines: []string{"setoption name Search value minimax"}, wantError: true, mention: "minimax"},
		{name: "check maybe", lines: []string{"setoption name UCI_ShowWDL value maybe"}, wantError: true, mention: "maybe"},
		// go with bad numbers: the session searches anyway (a GUI waits for a bestmove), so each is stopped
		{name: "go depth word", lines: []string{"go depth abc"}, wantError: true, mention: "abc", then: "bestmove"},
		{name: "go depth negative", lines: []string{"go depth -3"}, wantError: true, then: "bestmove"},
		{name: "go depth zero", lines: []string{"go depth 0"}, wantError: true, then: "bestmove"},
		{name: "go depth huge", lines: []string{"go depth 99999999999999999999999"}, wantError: true, then: "bestmove"},
		{name: "go depth missing", lines: []string{"go depth"}, wantError: true, then: "bestmove"},
		{name: "go movetime negative", lines: []string{"go movetime -10"}, wantError: true, then: "bestmove"},
		{name: "go movetime float", lines: []string{"go movetime 1e3"}, wantError: true, mention: "1e3", then: "bestmove"},
		{name: "go clock words", lines: []string{"go wtime abc btime def"}, wantError: true, then: "bestmove"},
		{name: "go clock overdrawn", lines: []string{"go wtime -500 btime -500"}, then: "bestmove"},
		{name: "go nodes zero", lines: []string{"go nodes 0"}, wantError: true, then: "bestmove"},
		{name: "go mate negative", lines: []string{"go mate -2"}, wantError: true, then: "bestmove"},
		{name: "go movestogo zero", lines: []string{"go movestogo 0 wtime 1000 btime 1000"}, wantError: true, then: "bestmove"},
		{name: "go increments words", lines: []string{"go winc x binc y depth 2"}, wantError: true, then: "bestmove"},
		{name: "go unknown words", lines: []string{"go fast please depth 1"}, wantError: true, mention: "fast", then: "bestmove"},
		{name: "go bad searchmoves", lines: []string{"go searchmoves e2e5 a1a1 depth 1"}, wantError: true, mention: "e2e5", then: "bestmove"},
		{name: "go perft negative", lines: []string{"go perft -2"}, wantError: true, then: "Nodes searched"},
		{name: "go binary", lines: []string{"go \xff\xfe depth 1"}, wantError: true, then: "bestmove"},
		// the other games' dialects
		{name: "cfour floating stone", variant: "cfour", lines: []string{"position startpos moves P@d2"}, wantError: true, mention: "P@d2"},
		{name: "cfour off the board", variant: "cfour", lines: []string{"position startpos moves P@h1"}, wantError: true, mention: "off"},
		{name: "cfour full column", variant: "cfour", lines: []string{"position startpos moves P@d1 P@d2 P@d3 P@d4 P@d5 P@d6 P@d7"}, wantError: true, mention: "full"},
		{name: "cfour chess move", variant: "cfour", lines: []string{"position startpos moves e2e4"}, wantError: true},
		{name: "cfour wide rank", variant: "cfour", lines: []string{"position fen 7/7/7/7/7/8[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1"}, wantError: true},
		{name: "cfour short hand", variant: "cfour", lines: []string{"position fen 7/7/7/7/7/7[PPPP] w - - 0 1"}, wantError: true},
		{name: "cfour moves after a win", variant: "cfour", lines: []string{"position startpos moves P@a1 P@b1 P@a2 P@b2 P@a3 P@b3 P@a4 P@b4"}, wantError: true, mention: "over"},
		{name: "checkers not a capture", variant: "checkers", lines: []string{"position startpos moves 9x18"}, wantError: true, mention: "9x18"},
		{name: "checkers square 33", variant: "checkers", lines: []string{"position fen W:W33:B1"}, wantError: true, mention: "33"},
		{name: "checkers four fields", variant: "checkers", lines: []string{"position fen B:W21:B1:K"}, wantError: true},
		{name: "checkers man on its crowning row", variant: "checkers", lines: []string{"position fen B:W1:B1"}, wantError: true},
		{name: "checkers castling", variant: "checkers", lines: []string{"position startpos moves 0-0"}, wantError: true},
		{name: "checkers empty square", variant: "checkers", lines: []string{"position startpos moves 9-13 9-14"}, wantError: true, mention: "9-14"},
		{name: "tictactoe taken square", variant: "tictactoe", lines: []string{"position startpos moves P@b2 P@b2"}, wantError: true, mention: "taken"},
		{name: "tictactoe off the board", variant: "tictactoe", lines: []string{"position startpos moves P@d4"}, wantError: true},
		{name: "tictactoe bad side", variant: "tictactoe", lines: []string{"position fen 3/3/3[PPPPPpppp] x - - 0 1"}, wantError: true},
		{name: "tictactoe wide row", variant: "tictactoe", lines: []string{"position fen 4/3/3[PPPPPpppp] w - - 0 1"}, wantError: true},
		{name: "tictactoe moves after a win", variant: "tictactoe", lines: []string{"position startpos moves P@a1 P@b1 P@a2 P@b2 P@a3 P@c3"}, wantError: true, mention: "over"},
		{name: "tictactoe go with chess searchmoves", variant: "tictactoe", lines: []string{"go depth 2 searchmoves e2e4"}, wantError: true, then: "bestmove"},
		// several bad lines in a row
		{name: "burst", lines: []string{"position fen x", "setoption name Hash value x", "go depth x", "stop", "xyzzy"},
			wantError: true, then: "bestmove"},
	}
}

// TestMalformedInput sends each bad input to a fresh engine after a good position: the engine must report
// it (where the input is wrong rather than merely odd), stay up, answer isready, and still search the last
// good position with a legal move. The whole table is then sent again to one engine, so that no bad line
// leaves state that spoils a later one. A fresh engine a case is the deep run's (DOSSIER_DEEP_TESTS=1); the
// plain run starts one for every 10th case and sends every case to the one engine.
func TestMalformedInput(t *testing.T) {
	cases := malformedCases()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testdeep.Quick() && i%10 != 0 {
				t.Skip("a fresh engine for every case is the deep run's; all in one session sends this case")
			}
			p := startDossier(t)
			handshake(p)
			runMalformed(t, p, c)
			p.closeInput()
			if code := p.wait(promptTimeout); code != 0 {
				p.fatalf("exit code %d after the end of input", code)
			}
		})
	}
	t.Run("all in one session", func(t *testing.T) {
		p := startDossier(t)
		handshake(p)
		for _, c := range cases {
			runMalformed(t, p, c)
		}
	})
}

// runMalformed sets a known position of the case's game (two plies in), sends the case's lines and checks
// the engine's answers.
func runMalformed(t *testing.T, p *proc, c malformedCase) {
	t.Helper()
	variant := c.variant
	if variant == "" {
		variant = "chess"
	}
	r := newReplay(t, variant)
	r.play(p, firstLegal(t, r.pos))
	r.play(p, firstLegal(t, r.pos))
	p.send("setoption name UCI_Variant value "+variant, "ucinewgame", r.positionCommand())
	if errs := errorLines(ready(p)); len(errs) > 0 {
		p.fatalf("%s: the good position was rejected: %v", c.name, errs)
	}
	p.send(c.lines...)
	var answers []string
	switch c.then {
	case "bestmove":
		p.send("stop") // for the searches a bad limit left without one
		_, answers = bestMove(p, r.pos, promptTimeout)
	case "Nodes searched":
		_, answers = p.expectPrefix(promptTimeout, "Nodes searched")
	}
	answers = append(answers, ready(p)...)
	errs := errorLines(answers)
	switch {
	case c.wantError && len(errs) == 0:
		p.fatalf("%s: no error reported", c.name)
	case !c.wantError && len(errs) > 0:
		p.fatalf("%s: unexpected errors %v", c.name, errs)
	case c.mention != "" && !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, c.mention) }):
		p.fatalf("%s: no error mentions %q: %v", c.name, c.mention, errs)
	}
	if slices.ContainsFunc(answers, func(l string) bool { return strings.HasPrefix(l, "bestmove") }) && c.then != "bestmove" {
		p.fatalf("%s: a bestmove nobody asked for", c.name)
	}
	p.send("go depth 1")
	if move, _ := bestMove(p, r.pos, searchTimeout); move == "0000" {
		p.fatalf("%s: go depth 1 answered 0000 in %s", c.name, r.pos.FEN())
	}
}

// TestEndOfInput closes stdin in several states: the engine must exit 0, and a search it was given first
// must still print its bestmove at once, whatever its limits: the end of the input is quit, as in Stockfish
// (a perft finishes its count).
func TestEndOfInput(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		raw   string // written after lines, without a line ending
		want  string // a line that must come before the exit (a prefix)
	}{
		{name: "nothing"},
		{name: "after uci", lines: []string{"uci"}, want: "uciok"},
		{name: "last line without newline", raw: "isready", want: "readyok"},
		{name: "search with a limit", lines: []string{"position startpos", "go depth 4"}, want: "bestmove"},
		{name: "deep search", lines: []string{"position startpos", "go depth 1000"}, want: "bestmove"},
		{name: "long movetime", lines: []string{"position startpos", "go movetime 600000"}, want: "bestmove"},
		{name: "long clock", lines: []string{"position startpos", "go wtime 3600000 btime 3600000 movestogo 1"}, want: "bestmove"},
		{name: "many nodes", lines: []string{"position startpos", "go nodes 1000000000000"}, want: "bestmove"},
		{name: "infinite search", lines: []string{"position startpos", "go infinite"}, want: "bestmove"},
		{name: "pondering", lines: []string{"position startpos moves e2e4", "go ponder wtime 1000 btime 1000"}, want: "bestmove"},
		{name: "perft", lines: []string{"position startpos", "go perft 3"}, want: "Nodes searched: 8902"},
		{name: "after bad input", lines: []string{"position fen junk", "\xff\xfe"}},
		{name: "quit", lines: []string{"quit"}},
		{name: "quit while searching", lines: []string{"go infinite", "quit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := startDossier(t)
			p.send(c.lines...)
			if c.raw != "" {
				p.record("> ", c.raw+" (no line ending)")
				if _, err := p.stdin.Write([]byte(c.raw)); err != nil {
					p.fatalf("writing: %v", err)
				}
			}
			if !slices.Contains(c.lines, "quit") {
				p.closeInput()
			}
			if strings.HasPrefix(c.want, "bestmove") {
				r := newReplay(t, "chess")
				for _, m := range strings.Fields(strings.TrimPrefix(c.lines[0], "position startpos moves")) {
					if m != "position" && m != "startpos" {
						r.play(p, m)
					}
				}
				bestMove(p, r.pos, promptTimeout)
			} else if c.want != "" {
				p.expectPrefix(promptTimeout, c.want)
			}
			if code := p.wait(promptTimeout); code != 0 {
				p.fatalf("exit code %d, want 0", code)
			}
		})
	}
}

// TestVariantSwitching plays a few moves of every game in one session, switching with UCI_Variant and
// ucinewgame as cutechess does before each game, and back again: each search must answer in the game just
// chosen, whose start position d shows.
func TestVariantSwitching(t *testing.T) {
	p := startDossier(t)
	handshake(p)
	for _, variant := range []string{"tictactoe", "cfour", "checkers", "chess", "cfour", "tictactoe", "chess"} {
		p.send("setoption name UCI_Variant value "+variant, "ucinewgame", "position startpos", "d")
		fen, _ := p.expectPrefix(promptTimeout, "Fen: ")
		r := newReplay(t, variant)
		if want := "Fen: " + r.pos.FEN(); fen != want {
			p.fatalf("after choosing %s: %q, want %q", variant, fen, want)
		}
		for range 4 {
			p.send(r.positionCommand(), "go depth 3")
			move, _ := bestMove(p, r.pos, searchTimeout)
			r.play(p, move)
		}
		if errs := errorLines(ready(p)); len(errs) > 0 {
			p.fatalf("%s: %v", variant, errs)
		}
	}
}

// TestObservedOpponentMoves checks the session's rule for opponent moves from outside, through its debug
// reports: dossier plays White against a GUI that sends the whole game each move, and at each go exactly the
// opponent's new move is observed, once; a position sent again observes nothing, a ponder move is observed
// only after ponderhit, and a new game starts counting again.
func TestObservedOpponentMoves(t *testing.T) {
	p := startDossier(t)
	handshake(p)
	p.send("debug on")
	observed := func(lines []string) []string {
		var moves []string
		for _, l := range lines {
			if rest, ok := strings.CutPrefix(l, "info string debug: opponent move "); ok {
				moves = append(moves, rest)
			}
		}
		return moves
	}
	r := newReplay(t, "chess")
	replies := []string{"e7e5", "b8c6", "g8f6", "f8c5", "d7d6"}
	for i, reply := range append([]string{""}, replies...) {
		if reply != "" {
			if _, ok := legalMove(r.pos, reply); !ok {
				reply = firstLegal(t, r.pos)
			}
			r.play(p, reply)
		}
		p.send(r.positionCommand(), "go depth 2")
		move, before := bestMove(p, r.pos, searchTimeout)
		want := []string{}
		if reply != "" {
			want = []string{fmt.Sprintf("%d: %s", len(r.moves), reply)}
		}
		if got := observed(before); !slices.Equal(got, want) {
			p.fatalf("go %d observed %v, want %v", i+1, got, want)
		}
		r.play(p, move)
	}
	// The GUI asks again in the same position: nothing new to observe.
	r.play(p, firstLegal(t, r.pos))
	p.send(r.positionCommand(), "go depth 1")
	bestMove(p, r.pos, searchTimeout)
	p.send(r.positionCommand(), "go depth 1")
	move, before := bestMove(p, r.pos, searchTimeout)
	if got := observed(before); len(got) != 0 {
		p.fatalf("the repeated position observed %v", got)
	}
	// Pondering: the guessed reply is not observed by go ponder, but once the search that ponderhit
	// confirmed has ended (at the next command), before the opponent's next move.
	r.play(p, move)
	guess := firstLegal(t, r.pos)
	r.play(p, guess)
	p.send(r.positionCommand(), "go ponder wtime 5000 btime 5000")
	p.quiet(200*time.Millisecond, "bestmove while pondering", func(s string) bool { return strings.HasPrefix(s, "bestmove") })
	p.send("ponderhit")
	move, before = bestMove(p, r.pos, searchTimeout)
	if got := observed(before); len(got) != 0 {
		p.fatalf("go ponder observed %v before the ponder search ended", got)
	}
	r.play(p, move)
	reply := firstLegal(t, r.pos)
	r.play(p, reply)
	p.send(r.positionCommand(), "go depth 1")
	_, before = bestMove(p, r.pos, searchTimeout)
	want := []string{fmt.Sprintf("%d: %s", len(r.moves)-2, guess), fmt.Sprintf("%d: %s", len(r.moves), reply)}
	if got := observed(before); !slices.Equal(got, want) {
		p.fatalf("after the ponder hit observed %v, want %v", got, want)
	}
	// A new game, with dossier as Black: counting starts again from the first move.
	next := newReplay(t, "chess")
	next.play(p, "e2e4")
	p.send("ucinewgame", next.positionCommand(), "go depth 1")
	_, before = bestMove(p, next.pos, searchTimeout)
	if got := observed(before); !slices.Equal(got, []string{"1: e2e4"}) {
		p.fatalf("the new game observed %v, want [1: e2e4]", got)
	}
}

// TestGameOverPositions sends positions where the game has ended, or could be claimed drawn, and checks the
// answer to go: bestmove 0000 with the reason where the rules end the game (mate, stalemate, no piece that
// can move, a completed line, a full board, bare kings), and a legal move with a note where a draw is only
// claimable (threefold repetition, the fifty-move rule), since the GUI would not ask unless play goes on.
func TestGameOverPositions(t *testing.T) {
	cases := []struct {
		name, variant, fen string // fen empty: the start position
		moves              []string
		reason             games.Reason
	}{
		{name: "chess checkmate", variant: "chess", moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}, reason: games.Checkmate},
		{name: "chess stalemate", variant: "chess", fen: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", reason: games.Stalemate},
		{name: "chess bare kings", variant: "chess", fen: "4k3/8/8/8/3K4/8/8/8 w - - 0 1", reason: games.InsufficientMaterial},
		{name: "chess threefold repetition", variant: "chess", moves: []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"},
			reason: games.Repetition},
		{name: "chess fifty-move rule", variant: "chess", fen: "4k3/8/8/8/8/8/8/4K2R w K - 100 80", reason: games.MoveRule},
		{name: "checkers no pieces", variant: "checkers", fen: "B:W14,15:B", reason: games.NoLegalMove},
		{name: "checkers blocked", variant: "checkers", fen: "B:W29,30:B25", reason: games.NoLegalMove},
		{name: "cfour vertical four", variant: "cfour", moves: []string{"P@a1", "P@b1", "P@a2", "P@b2", "P@a3", "P@b3", "P@a4"}, reason: games.Connection},
		{name: "tictactoe column", variant: "tictactoe", moves: []string{"P@a1", "P@b1", "P@a2", "P@b2", "P@a3"}, reason: games.Connection},
		{name: "tictactoe full board", variant: "tictactoe",
			moves: []string{"P@b2", "P@a1", "P@c1", "P@a3", "P@a2", "P@c2", "P@b1", "P@b3", "P@c3"}, reason: games.BoardFull},
	}
	p := startDossier(t)
	handshake(p)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newReplay(t, c.variant)
			command := "position startpos"
			if c.fen != "" {
				pos, err := r.game.ParsePosition(c.fen)
				if err != nil {
					t.Fatalf("the test's FEN: %v", err)
				}
				r.pos, command = pos, "position fen "+c.fen
			}
			for _, m := range c.moves {
				r.play(p, m)
			}
			if len(c.moves) > 0 {
				command += " moves " + strings.Join(c.moves, " ")
			}
			outcome := games.OutcomeOf(r.pos)
			if outcome.Reason != c.reason {
				t.Fatalf("the test's position ends by %v, not %v", outcome.Reason, c.reason)
			}
			p.send("setoption name UCI_Variant value "+c.variant, "ucinewgame", command, "go depth 3")
			move, before := bestMove(p, r.pos, searchTimeout)
			note := "the game is over (" + outcome.Result.String() + ", " + outcome.Reason.String() + ")"
			if claimable(outcome) {
				note = "the game could end here (" + outcome.Result.String() + ", " + outcome.Reason.String() + ")"
			}
			if !slices.ContainsFunc(before, func(l string) bool { return strings.Contains(l, note) }) {
				p.fatalf("no note %q", note)
			}
			if !claimable(outcome) {
				if move != "0000" {
					p.fatalf("bestmove %s, want 0000", move)
				}
				return
			}
			if move == "0000" {
				p.fatalf("bestmove 0000 where moves are legal and the draw is only claimable")
			}
			if errs := errorLines(before); len(errs) > 0 {
				p.fatalf("errors before the bestmove: %v", errs)
			}
		})
	}
}
