// The game's life cycle through a UCI session: when a game starts, what is observed, take-backs, and the
// results the session infers at ucinewgame, at a new game without it, and at quit or the end of the input.

package protocol

import (
	"slices"
	"strings"
	"testing"

	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/games/connect4"
)

func TestLifecycle(t *testing.T) {
	const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	tests := []struct {
		name     string
		commands []string
		want     []string
	}{
		{"the opponent mates us: result at ucinewgame", []string{
			"position startpos", "go wtime 300000 btime 300000 winc 2000 binc 2000",
			"position startpos moves f2f3 e7e5", "go wtime 299000 btime 300000 winc 2000 binc 2000",
			"position startpos moves f2f3 e7e5 g2g4 d8h4", "ucinewgame",
		}, []string{
			"start chess chess as first from " + startFEN + " (300+2)",
			"observe 1 e7e5 2s",   // its clock kept 300 s though it gained the 2 s increment
			"observe 3 d8h4 -1ns", // the mate, seen only in the last position command
			"over 0-1 checkmate after 4 moves",
			"close",
		}},
		{"the opponent's thinking time from its clock", []string{
			"position startpos", "go wtime 60000 btime 60000 winc 1000 binc 1000",
			"position startpos moves a2a3 e7e5", "go wtime 60000 btime 55000 winc 1000 binc 1000",
		}, []string{
			"start chess chess as first from " + startFEN + " (60+1)",
			"observe 1 e7e5 6s",
			"over * unknown after 2 moves",
			"close",
		}},
		{"cutechess's first go of a 2+0.05 game holds one increment more than the base", []string{
			"position startpos moves e2e4", "go wtime 2100 btime 2050 winc 50 binc 50", "quit",
		}, []string{
			"start chess chess as second from " + startFEN + " (2+0.05)",
			"observe 0 e2e4 -1ns",
			"over * unknown after 1 moves",
			"close",
		}},
		{"an unfinished game is over with an unknown result at quit", []string{
			"position startpos moves e2e4", "go movetime 10", "quit",
		}, []string{
			"start chess chess as second from " + startFEN + " (movetime 10)",
			"observe 0 e2e4 -1ns",
			"over * unknown after 1 moves",
			"close",
		}},
		{"a take-back", []string{
			"position startpos moves e2e4", "go depth 1",
			"position startpos moves e2e4 a7a6 d2d4", "go depth 1",
			"position startpos moves e2e4", "go depth 1",
			"position startpos moves e2e4 a7a6 g1f3", "go depth 1",
		}, []string{
			"start chess chess as second from " + startFEN + " (depth 1)",
			"observe 0 e2e4 -1ns",
			"observe 2 d2d4 -1ns",
			"takeback to 1",
			"observe 2 g1f3 -1ns",
			"over * unknown after 3 moves",
			"close",
		}},
		{"a new game without ucinewgame ends the last one", []string{
			"position startpos moves e2e4", "go depth 1",
			"position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1", "go depth 1",
		}, []string{
			"start chess chess as second from " + startFEN + " (depth 1)",
			"observe 0 e2e4 -1ns",
			"over * unknown after 1 moves",
			"start chess chess as first from 4k3/8/8/8/8/8/8/4K2R w K - 0 1 (depth 1)",
			"over * unknown after 0 moves",
			"close",
		}},
		// lichess-bot ponders (Ponder on) and stops the ponder search when the game ends while it runs
		// (a resignation, an agreed draw, a flag): the guessed reply was never played (issue #34).
		{"a game that ends while we ponder is filed without the guess", []string{
			"position startpos moves e2e4", "go wtime 60000 btime 60000",
			"position startpos moves e2e4 e7e5 g1f3", "go ponder wtime 60000 btime 60000", "stop", "ucinewgame",
		}, []string{
			"start chess chess as second from " + startFEN + " (60+0)",
			"observe 0 e2e4 -1ns",
			"over * unknown after 2 moves",
			"close",
		}},
		{"a game that ends while we ponder, then quit", []string{
			"position startpos", "go wtime 60000 btime 60000",
			"position startpos moves e2e4 e7e5", "go ponder wtime 60000 btime 60000", "stop", "quit",
		}, []string{
			"start chess chess as first from " + startFEN + " (60+0)",
			"over * unknown after 1 moves",
			"close",
		}},
		{"a guess confirmed by ponderhit was played", []string{
			"position startpos", "go wtime 60000 btime 60000",
			"position startpos moves e2e4 e7e5", "go ponder wtime 60000 btime 60000", "ponderhit", "ucinewgame",
		}, []string{
			"start chess chess as first from " + startFEN + " (60+0)",
			"observe 1 e7e5 -1ns",
			"over * unknown after 2 moves",
			"close",
		}},
		{"perft and a position without go start no game", []string{
			"position startpos moves e2e4", "go perft 1", "ucinewgame", "quit",
		}, []string{"close"}},
		{"a variant change ends the game", []string{
			"position startpos moves e2e4", "go depth 1",
			"setoption name UCI_Variant value cfour", "position startpos moves P@d1 P@d2", "go depth 1",
		}, []string{
			"start chess chess as second from " + startFEN + " (depth 1)",
			"observe 0 e2e4 -1ns",
			"over * unknown after 1 moves",
			"start connect4 cfour as first from " + connect4.Game{}.Start().FEN() + " (depth 1)",
			"observe 1 P@d2 -1ns",
			"over * unknown after 2 moves",
			"close",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine(0)
			runScript(t, eng, chess.Game{}, testConfig(), strings.Join(tc.commands, "\n")+"\n")
			if got := eng.events(); !slices.Equal(got, tc.want) {
				t.Errorf("life cycle\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestLifecycleOurMateEndsTheGame: when our bestmove mates, the GUI sends no position after it; the session
// plays it on the final position and records the win.
func TestLifecycleOurMateEndsTheGame(t *testing.T) {
	eng := newFakeEngine(0)
	mated := "position startpos moves f2f3 e7e5 g2g4"
	p, err := chess.Game{}.ParsePosition("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.ParseMove("d8h4")
	if err != nil {
		t.Fatal(err)
	}
	eng.result = &engine.Result{Move: m}
	out := runScript(t, eng, chess.Game{}, testConfig(), "position startpos moves f2f3\ngo depth 1\n"+mated+"\ngo depth 1\nucinewgame\n")
	if got := linesWith(out, "bestmove"); len(got) != 2 || got[1] != "bestmove d8h4" {
		t.Fatalf("bestmoves %q", got)
	}
	events := eng.events()
	if !slices.Contains(events, "over 0-1 checkmate after 4 moves") {
		t.Errorf("life cycle %q: no win by our mate", events)
	}
}

// TestLifecycleInferredLoss: the opponent's mating move never reaches a UCI engine; when our last search saw
// a loss in one whatever we played, the game is filed lost, its reason saying it was inferred (issue #34).
// A mate or stalemate we deliver is the final position's own result.
func TestLifecycleInferredLoss(t *testing.T) {
	const (
		matedNext   = "6k1/8/8/8/8/1r6/r7/4K3 w - - 0 1"      // White has Kd1 and Kf1, both met by Rb1#
		blunder     = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1" // Kh8 allows Rd8#, h6 does not
		stalemating = "k7/8/1Q6/8/8/8/8/7K w - - 0 1"         // Qc7 stalemates
	)
	const inferred = "checkmate (inferred: our last search saw a loss in one whatever we played, and no position followed our move)"
	move := func(fen, text string) games.Move {
		p, err := chess.Game{}.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name     string
		result   *engine.Result
		commands []string
		want     string
	}{
		{"every move is mated: the loss is inferred at ucinewgame", nil,
			[]string{"position fen " + matedNext, "go depth 2", "ucinewgame"}, "over 0-1 " + inferred + " after 1 moves"},
		{"and at quit", nil,
			[]string{"position fen " + matedNext, "go depth 2", "quit"}, "over 0-1 " + inferred + " after 1 moves"},
		{"and at a position of another game", nil,
			[]string{"position fen " + matedNext, "go depth 2", "position startpos", "go depth 1"}, "over 0-1 " + inferred + " after 1 moves"},
		{"a search that says mate -1", &engine.Result{Move: move(blunder, "g8h8"), Score: -(engine.MateScore - 2)},
			[]string{"position fen " + blunder, "go depth 2", "ucinewgame"}, "over 1-0 " + inferred + " after 1 moves"},
		{"a blunder the search did not see coming is not inferred", &engine.Result{Move: move(blunder, "g8h8"), Score: -50},
			[]string{"position fen " + blunder, "go depth 2", "ucinewgame"}, "over * unknown after 0 moves"},
		{"the GUI sent the mate: a plain checkmate", nil,
			[]string{"position fen " + matedNext, "go depth 2", "position fen " + matedNext + " moves e1d1 b3b1", "isready", "ucinewgame"},
			"over 0-1 checkmate after 2 moves"},
		{"our stalemate", &engine.Result{Move: move(stalemating, "b6c7")},
			[]string{"position fen " + stalemating, "go depth 1", "ucinewgame"}, "over 1/2-1/2 stalemate after 1 moves"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine(0)
			eng.result = tc.result
			runScript(t, eng, chess.Game{}, testConfig(), strings.Join(tc.commands, "\n")+"\n")
			events := eng.events()
			if !slices.Contains(events, tc.want) {
				t.Errorf("life cycle %q, want %q", events, tc.want)
			}
		})
	}
}
