// Transcript tests of the session: handshake, whole games, and the commands that reach a running search.

package protocol

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/gametest"
	"dossier/games/tictactoe"
	"dossier/play"
)

func TestHandshake(t *testing.T) {
	out := runScript(t, newFakeEngine(0), chess.Game{}, testConfig(), "uci\nisready\n")
	want := []string{
		"id name dossier",
		"id author the dossier authors",
		"option name UCI_Variant type combo default chess var chess var checkers var cfour var tictactoe",
		"option name UCI_Opponent type string default <empty>",
		"option name UCI_RatingAdv type spin default 0 min -10000 max 10000",
		"option name UCI_ShowWDL type check default false",
		"option name Ponder type check default false",
		"option name Move Overhead type spin default 30 min 0 max 5000",
		"option name Hash type spin default 16 min 1 max 4096",
		"option name Clear Hash type button",
		"option name Own Book type check default false",
		"option name Style type combo default Normal var Solid var Normal var Risky",
		"option name Book File type string default <empty>",
		"uciok",
		"readyok",
	}
	if !slices.Equal(out, want) {
		t.Errorf("handshake:\n got %q\nwant %q", out, want)
	}
}

func TestHandshakeNamesTheDefaultGame(t *testing.T) {
	tests := []struct {
		game    games.Game
		cfg     Config
		variant string
	}{
		{connect4.Game{}, testConfig(), "option name UCI_Variant type combo default cfour var chess var checkers var cfour var tictactoe"},
		{checkers.Game{}, testConfig(), "option name UCI_Variant type combo default checkers var chess"},
		{checkers.Game{}, Config{Name: "x"}, "option name UCI_Variant type combo default checkers var checkers"},
	}
	for _, tc := range tests {
		t.Run(tc.game.Name(), func(t *testing.T) {
			out := runScript(t, newFakeEngine(0), tc.game, tc.cfg, "uci\n")
			if got := linesWith(out, "UCI_Variant"); len(got) != 1 || !strings.HasPrefix(got[0], tc.variant) {
				t.Errorf("got %q, want a line starting %q", got, tc.variant)
			}
		})
	}
}

// playGame plays one game between two sessions (each with its own fake engine choosing random moves), as
// cutechess does: each move is asked of the side to move with the whole move list, the first session from
// startpos and the second from the start position's FEN. It checks that every bestmove is legal, that the
// session to move at the end answers bestmove 0000 with the reason (or, for a draw by rule with legal moves
// left, a move with a note), and that each engine observed exactly the moves of the other.
func playGame(t *testing.T, g games.Game, variant string, seed uint64, maxPlies int) int {
	var engines [2]*fakeEngine
	var sessions [2]*transcript
	for side := range sessions {
		engines[side] = newFakeEngine(seed + uint64(side))
		sessions[side] = startSession(t, engines[side], chess.Game{}, testConfig())
		tr := sessions[side]
		tr.send("uci")
		tr.expect("uciok")
		tr.send("setoption name UCI_Variant value "+variant, fmt.Sprintf("setoption name UCI_Opponent value none none computer fake %d", 1-side), "ucinewgame", "isready")
		tr.expect("readyok")
	}
	ref := g.Start()
	startFEN := ref.FEN()
	var moves []string
	var played [2][]string // moves by side
	for ply := 0; ; ply++ {
		if ply > maxPlies {
			t.Fatalf("game not over after %d plies: %s", maxPlies, strings.Join(moves, " "))
		}
		side := ref.ToMove()
		tr := sessions[side]
		list := ""
		if len(moves) > 0 {
			list = " moves " + strings.Join(moves, " ")
		}
		if side == games.First {
			tr.send("position startpos" + list)
		} else {
			tr.send("position fen " + startFEN + list)
		}
		tr.send("go wtime 60000 btime 60000 winc 100 binc 100")
		got := tr.expect("bestmove")
		if errs := linesWith(got, "error"); len(errs) > 0 {
			t.Fatalf("ply %d: %q", ply, errs)
		}
		fields := strings.Fields(got[len(got)-1])
		var buf [games.MaxMoves]games.Move
		if len(ref.AppendMoves(buf[:0])) == 0 {
			if fields[1] != "0000" || !containsPrefix(got, "info string no move to search: the game is over") {
				t.Fatalf("game over (%v) but the session answered %q", games.OutcomeOf(ref), got)
			}
			break
		}
		if o := ref.Status(); claimable(o) {
			// A draw to be claimed: the session plays on with a note; the GUI (this test, like
			// cutechess) adjudicates.
			if fields[1] == "0000" || !containsPrefix(got, "info string the game could end here") {
				t.Fatalf("game over (%v) with legal moves; the session answered %q", o, got)
			}
			break
		} else if o.Result.Over() {
			if fields[1] != "0000" || !containsPrefix(got, "info string no move to search: the game is over") {
				t.Fatalf("game over (%v) but the session answered %q", o, got)
			}
			break
		}
		if !containsPrefix(got, "info depth 1 ") {
			t.Errorf("ply %d: no info line in %q", ply, got)
		}
		m, err := ref.ParseMove(fields[1])
		if err != nil {
			t.Fatalf("ply %d: bestmove %q: %v", ply, fields[1], err)
		}
		ref.Play(m)
		moves = append(moves, fields[1])
		played[side] = append(played[side], fields[1])
	}
	for side, tr := range sessions {
		tr.quit()
		if got, want := engines[side].observedMoves(), played[1-side]; !slices.Equal(got, want) {
			t.Errorf("%s engine observed %q, want the opponent's moves %q", games.Side(side), got, want)
		}
		if got := engines[side].newGames; !slices.Equal(got, []string{g.Name(), g.Name()}[:len(got)]) || len(got) == 0 {
			t.Errorf("%s engine NewGame calls %q", games.Side(side), got)
		}
		if ops := engines[side].opponents; len(ops) != 1 || ops[0].Name != fmt.Sprintf("fake %d", 1-side) || ops[0].Kind != play.Computer {
			t.Errorf("%s engine opponents %+v", games.Side(side), ops)
		}
	}
	return len(moves)
}

func TestWholeGames(t *testing.T) {
	tests := []struct {
		game       games.Game
		variant    string
		games      int
		maxPlies   int
		shortGames int
	}{
		{tictactoe.Game{}, "tictactoe", 6, 9, 3},
		{connect4.Game{}, "cfour", 6, 42, 3},
		{checkers.Game{}, "checkers", 4, 1000, 2},
		{chess.Game{}, "chess", 3, 3000, 1},
	}
	for _, tc := range tests {
		t.Run(tc.variant, func(t *testing.T) {
			n := tc.games
			if testing.Short() {
				n = tc.shortGames
			}
			for i := range n {
				plies := playGame(t, tc.game, tc.variant, uint64(10*i+1), tc.maxPlies)
				t.Logf("game %d: %d plies", i+1, plies)
			}
		})
	}
}

func TestIsReadyDuringSearch(t *testing.T) {
	eng := newFakeEngine(0)
	eng.waitForStop.Store(true)
	tr := startSession(t, eng, chess.Game{}, testConfig())
	tr.send("position startpos", "go infinite")
	waitFor(t, eng.started, "the search to start")
	worst := time.Duration(0)
	for range 20 {
		start := time.Now()
		tr.send("isready")
		got := tr.expect("readyok")
		worst = max(worst, time.Since(start))
		if containsPrefix(got, "bestmove") {
			t.Fatalf("bestmove before stop: %q", got)
		}
	}
	t.Logf("slowest readyok during a search: %v", worst)
	if worst > 2*time.Second {
		t.Errorf("readyok took %v during a search", worst)
	}
	tr.send("stop")
	got := tr.expect("bestmove")
	if last, want := got[len(got)-1], "bestmove "+firstLegal(t, chess.Game{}); last != want {
		t.Errorf("stop answered %q", last)
	}
	tr.quit()
}

func TestStopAnswersBestMove(t *testing.T) {
	for _, goLine := range []string{"go infinite", "go movetime 600000", "go wtime 600000 btime 600000", "go", "go depth 50"} {
		t.Run(goLine, func(t *testing.T) {
			eng := newFakeEngine(0)
			eng.waitForStop.Store(true)
			tr := startSession(t, eng, connect4.Game{}, testConfig())
			tr.send("position startpos moves d1", goLine)
			waitFor(t, eng.started, "the search to start")
			tr.send("stop")
			got := tr.expect("bestmove")
			if last := got[len(got)-1]; !strings.HasPrefix(last, "bestmove ") || strings.Contains(last, "0000") {
				t.Errorf("stop answered %q", last)
			}
			if rest := tr.quit(); containsPrefix(rest, "bestmove") {
				t.Errorf("second bestmove after quit: %q", rest)
			}
		})
	}
}

// TestBestMoveWaitsForRelease: a search that ends by itself in infinite or ponder mode holds its bestmove
// until stop or ponderhit, as UCI requires.
func TestBestMoveWaitsForRelease(t *testing.T) {
	tests := []struct {
		goLine, release string
	}{
		{"go infinite", "stop"},
		{"go ponder wtime 1000 btime 1000", "ponderhit"},
		{"go ponder movetime 500", "stop"},
	}
	for _, tc := range tests {
		t.Run(tc.goLine+"/"+tc.release, func(t *testing.T) {
			eng := newFakeEngine(0)
			tr := startSession(t, eng, chess.Game{}, testConfig())
			tr.send("position startpos moves e2e4 e7e5", tc.goLine)
			waitFor(t, eng.finished, "the search to return")
			tr.send("isready")
			if got := tr.expect("readyok"); containsPrefix(got, "bestmove") {
				t.Fatalf("bestmove before %s: %q", tc.release, got)
			}
			tr.send(tc.release)
			got := tr.expect("bestmove")
			if last := got[len(got)-1]; !strings.HasPrefix(last, "bestmove ") {
				t.Errorf("%s answered %q", tc.release, last)
			}
			tr.quit()
		})
	}
}

func TestPonderHitRunsUnderNormalLimits(t *testing.T) {
	eng := newFakeEngine(0)
	eng.waitForStop.Store(true)
	tr := startSession(t, eng, chess.Game{}, testConfig())
	tr.send("position startpos moves e2e4 e7e5", "go ponder movetime 50")
	waitFor(t, eng.started, "the search to start")
	tr.send("isready")
	if got := tr.expect("readyok"); containsPrefix(got, "bestmove") {
		t.Fatalf("bestmove while pondering: %q", got)
	}
	tr.send("ponderhit")
	// The fake engine stops only when its control reports the move time used up after the ponderhit.
	got := tr.expect("bestmove")
	if last, want := got[len(got)-1], "bestmove "+firstLegal(t, chess.Game{}, "e2e4", "e7e5"); last != want {
		t.Errorf("ponderhit answered %q", last)
	}
	tr.quit()
	if lim := eng.limits[0]; !lim.Ponder || lim.MoveTime != 50*time.Millisecond {
		t.Errorf("limits %+v", lim)
	}
}

func TestStateChangesStopTheSearchFirst(t *testing.T) {
	for _, cmd := range []string{"position startpos moves e2e4", "ucinewgame", "setoption name Hash value 32", "go depth 1", "go perft 1"} {
		t.Run(cmd, func(t *testing.T) {
			eng := newFakeEngine(0)
			eng.waitForStop.Store(true)
			tr := startSession(t, eng, chess.Game{}, testConfig())
			tr.send("position startpos", "go infinite")
			waitFor(t, eng.started, "the search to start")
			eng.waitForStop.Store(false)
			tr.send(cmd, "isready")
			got := tr.expect("readyok")
			if !slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "bestmove") }) {
				t.Fatalf("%s during a search: no bestmove before readyok: %q", cmd, got)
			}
			tr.quit()
		})
	}
}

func TestEndOfInput(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{"position startpos\ngo depth 3\n", "bestmove FIRST"},
		// The end of the input is quit: a search with a time limit stops at once too.
		{"position startpos\ngo movetime 600000\n", "bestmove FIRST"},
		{"position startpos\ngo wtime 600000 btime 600000\n", "bestmove FIRST"},
		{"position startpos\ngo infinite\n", "bestmove FIRST"},
		{"position startpos\ngo ponder\n", "bestmove FIRST"},
		{"position startpos\ngo\n", "bestmove FIRST"},
		{"position startpos\ngo perft 2\n", "Nodes searched: 400"},
		{"position startpos\ngo depth 3\nquit\n", "bestmove FIRST"},
		{"position startpos\ngo infinite\nquit\ngo\n", "bestmove FIRST"},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.input, "\n", ";"), func(t *testing.T) {
			eng := newFakeEngine(0)
			eng.waitForStop.Store(true)
			out := runScript(t, eng, chess.Game{}, testConfig(), tc.input)
			want := strings.Replace(tc.want, "FIRST", firstLegal(t, chess.Game{}), 1)
			if n := len(linesWith(out, "bestmove")) + len(linesWith(out, "Nodes searched")); n != 1 || !slices.Contains(out, want) {
				t.Errorf("got %q, want one %q", out, want)
			}
		})
	}
}

func TestGameOverAnswersNullMove(t *testing.T) {
	tests := []struct {
		game     games.Game
		position string
		reason   string
	}{
		{chess.Game{}, "position startpos moves f2f3 e7e5 g2g4 d8h4", "info string no move to search: the game is over (0-1, checkmate)"},
		{chess.Game{}, "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "info string no move to search: the game is over (1/2-1/2, stalemate)"},
		{chess.Game{}, "position fen 8/8/4k3/8/8/4K3/8/8 w - - 0 1", "info string no move to search: the game is over (1/2-1/2, insufficient material)"},
		{connect4.Game{}, "position startpos moves P@a1 P@b1 P@a2 P@b2 P@a3 P@b3 P@a4", "info string no move to search: the game is over (1-0, line completed)"},
		{checkers.Game{}, "position fen B:WK4,K5,9,21,24,25,32:B", "info string no move to search: the game is over (0-1, no legal move)"},
		{tictactoe.Game{}, "position startpos moves P@a1 P@b1 P@a2 P@b2 P@a3", "info string no move to search: the game is over (1-0, line completed)"},
		{tictactoe.Game{}, "position startpos moves b2 a1 c1 a3 a2 c2 b3 b1 c3", "info string no move to search: the game is over (1/2-1/2, board full)"},
	}
	for _, tc := range tests {
		t.Run(tc.position, func(t *testing.T) {
			eng := newFakeEngine(0)
			out := runScript(t, eng, tc.game, testConfig(), tc.position+"\ngo infinite\ngo ponder\ngo depth 5\n")
			if n := len(linesWith(out, "bestmove 0000")); n != 3 || !strings.HasPrefix(out[0], tc.reason) || len(linesWith(out, "error")) > 0 {
				t.Errorf("got %q, want 3 times %q and bestmove 0000", out, tc.reason)
			}
			if len(eng.limits) != 0 {
				t.Errorf("the engine was asked to search a finished game")
			}
		})
	}
}

// TestClaimableDrawsAreSearched: a position a rule could end while moves stay legal (a chess draw that must
// be claimed) gets a move, with a note, since the GUI evidently plays on.
func TestClaimableDrawsAreSearched(t *testing.T) {
	tests := []struct{ position, note string }{
		{"position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "info string the game could end here (1/2-1/2, threefold repetition), but moves are legal: searching"},
		{"position fen 8/8/4k3/8/8/4K3/8/7R w - - 100 80", "info string the game could end here (1/2-1/2, move rule), but moves are legal: searching"},
	}
	for _, tc := range tests {
		t.Run(tc.position, func(t *testing.T) {
			out := runScript(t, newFakeEngine(0), chess.Game{}, testConfig(), tc.position+"\ngo depth 1\n")
			if !slices.Contains(out, tc.note) || !strings.HasPrefix(out[len(out)-1], "bestmove ") || strings.Contains(out[len(out)-1], "0000") {
				t.Errorf("got %q, want %q and a move", out, tc.note)
			}
		})
	}
}

func TestGoLimits(t *testing.T) {
	ms := time.Millisecond
	keep := engine.DefaultMoveOverhead // every search keeps back the Move Overhead option's value
	tests := []struct {
		game   games.Game
		input  string
		want   engine.Limits
		errors int
	}{
		{chess.Game{}, "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
			engine.Limits{Time: [2]time.Duration{1000 * ms, 2000 * ms}, Inc: [2]time.Duration{10 * ms, 20 * ms}, MovesToGo: 5, MoveOverhead: keep}, 0},
		{checkers.Game{}, "go wtime 1000 btime 2000 winc 10 binc 20",
			engine.Limits{Time: [2]time.Duration{2000 * ms, 1000 * ms}, Inc: [2]time.Duration{20 * ms, 10 * ms}, MoveOverhead: keep}, 0},
		{chess.Game{}, "go depth 7 nodes 5000 movetime 300", engine.Limits{Depth: 7, Nodes: 5000, MoveTime: 300 * ms, MoveOverhead: keep}, 0},
		{chess.Game{}, "go mate 3", engine.Limits{Depth: 5, MoveOverhead: keep}, 0},
		{chess.Game{}, "go mate 3 depth 2", engine.Limits{Depth: 2, MoveOverhead: keep}, 0},
		{chess.Game{}, "go infinite searchmoves e2e4 d2d4 e2e5 wtime 10", engine.Limits{Infinite: true, Time: [2]time.Duration{10 * ms}, MoveOverhead: keep}, 1},
		{chess.Game{}, "go wtime -500 btime 0", engine.Limits{Time: [2]time.Duration{ms, ms}, MoveOverhead: keep}, 0},
		{chess.Game{}, "go winc -5 depth -3 nodes 0 movetime -1", engine.Limits{Depth: 1, Nodes: 1, MoveTime: ms, MoveOverhead: keep}, 4},
		{chess.Game{}, "go wtime 99999999999999999999999 depth 1e9 movestogo 0", engine.Limits{Time: [2]time.Duration{maxMillis * ms}, Depth: 1, MovesToGo: 1, MoveOverhead: keep}, 3}, // depth 1e9 is no whole number: its smallest
		{chess.Game{}, "go depth depth 4 foo", engine.Limits{Depth: 4, MoveOverhead: keep}, 2},
		{chess.Game{}, "go ponder wtime 100 mate", engine.Limits{Ponder: true, Time: [2]time.Duration{100 * ms}, MoveOverhead: keep}, 1},
		{chess.Game{}, "setoption name Move Overhead value 250\ngo movetime 1000",
			engine.Limits{MoveTime: 1000 * ms, MoveOverhead: 250 * ms}, 0},
		{chess.Game{}, "setoption name Move Overhead value 0\ngo wtime 1000", engine.Limits{Time: [2]time.Duration{1000 * ms}, MoveOverhead: 0}, 0},
		{chess.Game{}, "setoption name Move Overhead value 5001\ngo wtime 1000", engine.Limits{Time: [2]time.Duration{1000 * ms}, MoveOverhead: keep}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.game.Name()+" "+tc.input, func(t *testing.T) {
			eng := newFakeEngine(0)
			out := runScript(t, eng, tc.game, testConfig(), tc.input+"\nstop\n")
			if len(eng.limits) != 1 {
				t.Fatalf("%d searches; output %q", len(eng.limits), out)
			}
			got := eng.limits[0]
			if strings.Contains(tc.input, "searchmoves") {
				if len(got.SearchMoves) != 2 {
					t.Errorf("search moves %v", got.SearchMoves)
				}
				got.SearchMoves = nil
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("limits\n got %+v\nwant %+v", got, tc.want)
			}
			if n := len(linesWith(out, "info string error")); n != tc.errors {
				t.Errorf("%d error reports, want %d: %q", n, tc.errors, out)
			}
		})
	}
}

func TestSearchMovesRestrictTheRoot(t *testing.T) {
	out := runScript(t, newFakeEngine(0), chess.Game{}, testConfig(), "position startpos\ngo searchmoves g1f3 b1c3\n")
	if out[len(out)-1] != "bestmove g1f3" {
		t.Errorf("got %q", out)
	}
}

func TestInfoLines(t *testing.T) {
	e2e4, e7e5, bad := movesOf(t, "e2e4", "e7e5")
	tests := []struct {
		name string
		info engine.Info
		wdl  bool
		want []string
	}{
		{"plain", engine.Info{Depth: 5, SelDepth: 9, Score: 31.6, Nodes: 12345, TimeMS: 100, HashFull: 12, PV: []games.Move{e2e4, e7e5}},
			false, []string{"info depth 5 seldepth 9 score cp 32 nodes 12345 nps 123450 time 100 hashfull 12 pv e2e4 e7e5"}},
		{"wdl", engine.Info{Depth: 2, Score: 0, Nodes: 10, PV: []games.Move{e2e4}},
			true, []string{"info depth 2 seldepth 2 score cp 0 wdl 119 762 119 nodes 10 nps 10000 time 0 pv e2e4"}},
		{"mate for", engine.Info{Depth: 3, Score: engine.MateScore - 3, Nodes: 1, TimeMS: 1, PV: []games.Move{e2e4}},
			true, []string{"info depth 3 seldepth 3 score mate 2 wdl 1000 0 0 nodes 1 nps 1000 time 1 pv e2e4"}},
		{"mated", engine.Info{Depth: 4, Score: -(engine.MateScore - 4), Nodes: 1, TimeMS: 1, PV: []games.Move{e2e4}},
			false, []string{"info depth 4 seldepth 4 score mate -2 nodes 1 nps 1000 time 1 pv e2e4"}},
		{"illegal pv cut", engine.Info{Depth: 1, Nodes: 1, TimeMS: 1, PV: []games.Move{e2e4, e2e4, e7e5}},
			false, []string{"info depth 1 seldepth 1 score cp 0 nodes 1 nps 1000 time 1 pv e2e4"}},
		{"text and prediction", engine.Info{Depth: 1, Score: -7, Nodes: 1, TimeMS: 1, PV: []games.Move{e2e4}, Predicted: e7e5, Text: "model f1\nsecond line"},
			false, []string{"info depth 1 seldepth 1 score cp -7 nodes 1 nps 1000 time 1 pv e2e4", "info string model f1", "info string second line", "info string predicted reply e7e5"}},
		{"text only", engine.Info{Text: "hello\r\x00there"}, false, []string{"info string hello  there"}},
		{"bad prediction", engine.Info{Depth: 1, Nodes: 1, TimeMS: 1, PV: []games.Move{e2e4}, Predicted: bad}, false,
			[]string{"info depth 1 seldepth 1 score cp 0 nodes 1 nps 1000 time 1 pv e2e4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine(0)
			eng.info = &tc.info
			input := "position startpos\ngo depth 1\n"
			if tc.wdl {
				input = "setoption name UCI_ShowWDL value true\n" + input
			}
			out := runScript(t, eng, chess.Game{}, testConfig(), input)
			if got := out[:len(out)-1]; !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// firstLegal returns the first legal move (the fake engine's choice) after moves from g's start.
func firstLegal(t *testing.T, g games.Game, moves ...string) string {
	t.Helper()
	p := gametest.After(t, g, moves...)
	var buf [games.MaxMoves]games.Move
	return p.FormatMove(p.AppendMoves(buf[:0])[0])
}

// movesOf parses chess moves from the start position (each from the start), and returns an illegal one last.
func movesOf(t *testing.T, first, reply string) (games.Move, games.Move, games.Move) {
	p := chess.Game{}.Start()
	a, err := p.ParseMove(first)
	if err != nil {
		t.Fatal(err)
	}
	p.Play(a)
	b, err := p.ParseMove(reply)
	if err != nil {
		t.Fatal(err)
	}
	p.Undo()
	return a, b, a
}

func TestBestMoveChecksTheEngine(t *testing.T) {
	e2e4, e7e5, _ := movesOf(t, "e2e4", "e7e5")
	tests := []struct {
		name   string
		result *engine.Result
		panics bool
		want   string
		errors int
	}{
		{"ponder from result", &engine.Result{Move: e2e4, Ponder: e7e5}, false, "bestmove e2e4 ponder e7e5", 0},
		{"ponder from pv", &engine.Result{Move: e2e4, PV: []games.Move{e2e4, e7e5}}, false, "bestmove e2e4 ponder e7e5", 0},
		{"illegal ponder dropped", &engine.Result{Move: e2e4, Ponder: e2e4}, false, "bestmove e2e4", 0},
		{"no move", &engine.Result{}, false, "bestmove FIRST", 1},
		{"illegal move", &engine.Result{Move: e7e5}, false, "bestmove FIRST", 1},
		{"panic", nil, true, "bestmove FIRST", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine(0)
			eng.result, eng.panics = tc.result, tc.panics
			out := runScript(t, eng, chess.Game{}, testConfig(), "position startpos\ngo depth 1\nisready\n")
			want := strings.Replace(tc.want, "FIRST", firstLegal(t, chess.Game{}), 1)
			if !slices.Contains(out, want) || !slices.Contains(out, "readyok") {
				t.Errorf("got %q, want %q", out, want)
			}
			if n := len(linesWith(out, "error")); n != tc.errors {
				t.Errorf("%d errors, want %d: %q", n, tc.errors, out)
			}
		})
	}
}

func TestEnginePanicsAreContained(t *testing.T) {
	input := strings.Join([]string{
		"setoption name Hash value 64",
		"setoption name UCI_Opponent value none none human bob",
		"setoption name UCI_Variant value cfour",
		"ucinewgame",
		"position startpos moves P@d1",
		"go depth 1",
		"isready",
	}, "\n") + "\n"
	tests := []struct{ method, report string }{
		{"Hash", "info string error: setoption Hash: internal error: fake engine failure in Hash"},
		{"SetOpponent", "info string error: internal error in the engine's SetOpponent: fake engine failure in SetOpponent"},
		{"NewGame", "info string error: internal error in the engine's NewGame: fake engine failure in NewGame"},
		{"ObserveMove", "info string error: internal error in the engine's ObserveMove: fake engine failure in ObserveMove"},
	}
	for _, tc := range tests {
		t.Run(tc.method, func(t *testing.T) {
			eng := newFakeEngine(0)
			eng.panicIn = tc.method
			out := runScript(t, eng, chess.Game{}, testConfig(), input)
			if !slices.Contains(out, tc.report) || !slices.Contains(out, "bestmove P@d2") || !slices.Contains(out, "readyok") {
				t.Errorf("got %q, want %q, then the move and readyok", out, tc.report)
			}
		})
	}
}

func TestPerft(t *testing.T) {
	tests := []struct {
		game     games.Game
		position string
		depth    int
		moves    int
		total    uint64
	}{
		{chess.Game{}, "startpos", 3, 20, 8902},
		{chess.Game{}, "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2, 48, 2039},
		{checkers.Game{}, "startpos", 5, 7, 7361},
		{checkers.Game{}, "fen B:W18,26,27,25,11,19:BK15", 6, 5, 5138},
		{connect4.Game{}, "startpos", 6, 7, 117649},
		{tictactoe.Game{}, "startpos", 9, 9, 127872},
		{tictactoe.Game{}, "startpos", 6, 9, 54720},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s %s %d", tc.game.Name(), tc.position, tc.depth), func(t *testing.T) {
			out := runScript(t, newFakeEngine(0), tc.game, Config{Lookup: testLookup}, fmt.Sprintf("position %s\ngo perft %d\n", tc.position, tc.depth))
			if len(out) != tc.moves+3 || out[tc.moves] != "" || out[tc.moves+1] != fmt.Sprintf("Nodes searched: %d", tc.total) {
				t.Errorf("got %q", out)
			}
			var sum uint64
			for _, line := range out[:tc.moves] {
				var n uint64
				if _, err := fmt.Sscanf(line[strings.Index(line, ": ")+2:], "%d", &n); err != nil {
					t.Fatalf("divide line %q: %v", line, err)
				}
				sum += n
			}
			if sum != tc.total {
				t.Errorf("divide lines add up to %d, want %d", sum, tc.total)
			}
		})
	}
}

func TestPerftStops(t *testing.T) {
	tr := startSession(t, newFakeEngine(0), chess.Game{}, Config{Lookup: testLookup})
	tr.send("position startpos", "go perft 7", "stop", "isready")
	got := tr.expect("readyok")
	tr.quit()
	if !slices.Contains(tr.seen, "info string perft stopped") || containsPrefix(got, "Nodes searched") {
		t.Errorf("stop during perft: %q", tr.seen)
	}
}

func TestDisplay(t *testing.T) {
	out := runScript(t, newFakeEngine(0), connect4.Game{}, testConfig(), "position startpos moves P@d1 P@d2 P@c1\nd\n")
	if !slices.Contains(out, "Fen: 7/7/7/7/3p3/2PP3[PPPPPPPPPPPPPPPPPPPpppppppppppppppppppp] b - - 0 2") {
		t.Errorf("d printed %q", out)
	}
	if !slices.Contains(out, "Legal moves: P@d3 P@c2 P@e1 P@b1 P@f1 P@a1 P@g1") {
		t.Errorf("d printed %q", out)
	}
}

func TestSetOption(t *testing.T) {
	tests := []struct {
		line  string
		log   string // what the fake engine noted, if anything
		hash  int
		error string // the error report, if any
	}{
		{"setoption name Hash value 128", "", 128, ""},
		{"setoption name hash VALUE 64", "", 64, ""},
		{"setoption name Hash value 0", "", 16, "info string error: setoption Hash: value 0 is outside 1..4096"},
		{"setoption name Hash value 99999999999999999999", "", 16, "info string error: setoption Hash: value \"99999999999999999999\" is not a whole number"},
		{"setoption name Hash value lots", "", 16, "info string error: setoption Hash: value \"lots\" is not a whole number"},
		{"setoption name Hash", "", 16, "info string error: setoption Hash: a spin option needs a value"},
		{"setoption name Clear Hash", "clear hash", 16, ""},
		{"setoption name clear hash value whatever", "clear hash", 16, ""},
		{"setoption name Own Book value TRUE", "own book true", 16, ""},
		{"setoption name Own Book value yes", "", 16, "info string error: setoption Own Book: value \"yes\" is not true or false"},
		{"setoption name Style value risky", "style Risky", 16, ""},
		{"setoption name Style value wild", "", 16, "info string error: setoption Style: value \"wild\" is not one of Solid, Normal, Risky"},
		{"setoption name Book File value C:\\my  books\\a.bin", "book file C:\\my  books\\a.bin", 16, ""},
		{"setoption name Book File value <empty>", "book file ", 16, ""},
		{"setoption name Book File", "book file ", 16, ""},
		{"setoption name Nonsense value 3", "", 16, "info string error: setoption: no option named \"Nonsense\""},
		{"setoption name", "", 16, "info string error: setoption: the option name is missing"},
		{"setoption name value 5", "", 16, "info string error: setoption: the option name is missing"},
		{"setoption Hash 5", "", 16, "info string error: setoption: want setoption name <name> [value <value>]"},
		{"setoption", "", 16, "info string error: setoption: want setoption name <name> [value <value>]"},
		{"setoption name UCI_Variant value go", "", 16, "info string error: setoption UCI_Variant: unknown game \"go\""},
		{"setoption name UCI_ShowWDL value maybe", "", 16, "info string error: setoption UCI_ShowWDL: value \"maybe\" is not true or false"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			eng := newFakeEngine(0)
			out := runScript(t, eng, chess.Game{}, testConfig(), tc.line+"\nisready\n")
			want := []string{"readyok"}
			if tc.error != "" {
				want = []string{tc.error, "readyok"}
			}
			if !slices.Equal(out, want) {
				t.Errorf("output %q, want %q", out, want)
			}
			if eng.hash != tc.hash {
				t.Errorf("hash %d, want %d", eng.hash, tc.hash)
			}
			if got := strings.Join(eng.log, ";"); got != tc.log {
				t.Errorf("engine noted %q, want %q", got, tc.log)
			}
		})
	}
}

func TestVariantSwitch(t *testing.T) {
	eng := newFakeEngine(0)
	out := runScript(t, eng, chess.Game{}, testConfig(), strings.Join([]string{
		"setoption name UCI_Variant value chess", // the game being played: nothing changes
		"setoption name UCI_Variant value cfour",
		"ucinewgame",
		"position startpos moves P@d1 P@d2",
		"go depth 1",
		"setoption name UCI_Variant value Checkers",
		"position fen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 moves 11-15 22-18 15x22",
		"go depth 1",
		"setoption name UCI_Variant value connect4", // an alias the lookup knows
		"position startpos",
		"go depth 1",
	}, "\n")+"\n")
	if got := linesWith(out, "bestmove"); !slices.Equal(got, []string{"bestmove P@d3", "bestmove 25x18", "bestmove P@d1"}) {
		t.Errorf("bestmoves %q; output %q", got, out)
	}
	if !slices.Equal(eng.newGames, []string{"connect4", "connect4", "checkers", "connect4"}) {
		t.Errorf("NewGame calls %q", eng.newGames)
	}
}
