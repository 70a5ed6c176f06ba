// CECP sessions as xboard, cutechess-cli and lichess-bot drive them: the handshake, games in and out of force
// mode, clocks, take-backs, set-up positions, result claims, analysis, options, the opponent, bad input.

package protocol

import (
	"slices"
	"strings"
	"testing"

	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/play"
)

// cecpConfig is the configuration of the CECP tests: testConfig in xboard mode.
func cecpConfig() Config {
	cfg := testConfig()
	cfg.Protocol = ProtocolCECP
	return cfg
}

// firstMove returns the fake engine's move in p (its first legal move) as the session writes it.
func firstMove(t *testing.T, p games.Position) string {
	t.Helper()
	moves := p.AppendMoves(nil)
	if len(moves) == 0 {
		t.Fatalf("no legal move in %s", p.FEN())
	}
	return p.FormatMove(moves[0])
}

// after returns the start position of g with the moves played.
func after(t *testing.T, g games.Game, fen string, moves ...string) games.Position {
	t.Helper()
	p := g.Start()
	if fen != "" {
		var err error
		if p, err = g.ParsePosition(fen); err != nil {
			t.Fatal(err)
		}
	}
	for _, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("move %s: %v", text, err)
		}
		p.Play(m)
	}
	return p
}

func TestCECPHandshake(t *testing.T) {
	out := runScript(t, newFakeEngine(0), chess.Game{}, testConfig(), "xboard\nprotover 2\nquit\n")
	want := []string{
		"feature done=0",
		"feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 reuse=1 analyze=1 colors=0 name=1 ics=1 nps=1 debug=1 pause=0",
		`feature myname="dossier"`,
		`feature variants="normal,checkers,cfour,tictactoe"`,
		"feature memory=1",
		`feature option="MoveOverhead -spin 30 0 5000"`,
		`feature option="Hash -spin 16 1 4096"`,
		`feature option="ClearHash -button"`,
		`feature option="OwnBook -check 0"`,
		`feature option="Style -combo Solid /// *Normal /// Risky"`,
		`feature option="BookFile -string "`,
		`feature option="Resign -spin 0 0 10000"`,
		"feature done=1",
	}
	if !slices.Equal(out, want) {
		t.Errorf("handshake:\n%s\nwant:\n%s", strings.Join(out, "\n"), strings.Join(want, "\n"))
	}
}

func TestProtocolChoice(t *testing.T) {
	tests := []struct {
		name, protocol, input, want string
	}{
		{"auto: xboard first is CECP", "", "\n  xboard\nping 3\n", "pong 3"},
		{"auto: uci first is UCI", "", "uci\nisready\n", "readyok"},
		{"auto: a UCI command first is UCI", "", "isready\n", "readyok"},
		{"uci: xboard is an unknown command", ProtocolUCI, "xboard\n", `info string error: unknown command "xboard" ignored`},
		{"xboard: without the xboard line", ProtocolCECP, "ping 9\n", "pong 9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Protocol = tc.protocol
			out := runScript(t, newFakeEngine(0), chess.Game{}, cfg, tc.input)
			if !slices.Contains(out, tc.want) {
				t.Errorf("output %q lacks %q", out, tc.want)
			}
		})
	}
}

func TestCECPGame(t *testing.T) {
	eng := newFakeEngine(0)
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	tr.send("xboard", "protover 2")
	tr.expect("feature done=1")
	tr.send("new", "random", "level 40 5 0", "post", "hard", "name Fairy-Max 5.0b", "rating 2100 1850", "computer",
		"time 30000", "otim 30000", "usermove e2e4")
	reply := firstMove(t, after(t, chess.Game{}, "", "e2e4"))
	lines := tr.expect("move ")
	if got := lines[len(lines)-1]; got != "move "+reply {
		t.Fatalf("got %q, want move %s", got, reply)
	}
	if thinking := lines[len(lines)-2]; thinking != "1 12 0 100 "+reply {
		t.Errorf("thinking line %q, want ply score time nodes pv", thinking)
	}
	tr.send("ping 1")
	tr.expect("pong 1")
	// The opponent thought 2 s: its clock lost 2 s from one move to the next.
	tr.send("time 29500", "otim 29800", "usermove e2e5")
	if got := tr.expect("Illegal move"); got[len(got)-1] != `Illegal move (chess: move "e2e5": no piece on e2): e2e5` {
		t.Errorf("illegal move answered %q", got)
	}
	tr.send("usermove d2d4")
	second := firstMove(t, after(t, chess.Game{}, "", "e2e4", reply, "d2d4"))
	if got := tr.expect("move "); got[len(got)-1] != "move "+second {
		t.Errorf("got %q, want move %s", got, second)
	}
	tr.send("result 0-1 {White resigns}", "ping 2")
	tr.expect("pong 2")
	tr.quit()
	const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	want := []string{
		"start chess normal as second from " + startFEN + " (40/300+0)",
		"observe 0 e2e4 -1ns",
		"observe 2 d2d4 2s",
		"over 0-1 White resigns after 4 moves",
		"close",
	}
	if got := eng.events(); !slices.Equal(got, want) {
		t.Errorf("life cycle:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	last := eng.opponents[len(eng.opponents)-1]
	if want := (play.Opponent{Name: "Fairy-Max 5.0b", Elo: 1850, OurElo: 2100, Kind: play.Computer, Source: "cecp"}); last != want {
		t.Errorf("opponent %+v, want %+v", last, want)
	}
	if lim := eng.limits[0]; lim.Time[games.Second] != 300e9 || lim.Time[games.First] != 300e9 || lim.MovesToGo != 40 {
		t.Errorf("first search's limits %+v, want 300 s each and 40 moves to go", lim)
	}
	if lim := eng.limits[1]; lim.Time[games.Second] != 295e9 || lim.Time[games.First] != 298e9 || lim.MovesToGo != 39 {
		t.Errorf("second search's limits %+v, want 295 s and 298 s, 39 moves to go", lim)
	}
}

func TestCECPResults(t *testing.T) {
	const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	tests := []struct {
		name     string
		commands []string
		want     []string
	}{
		{"a result the position shows keeps the rule's outcome and takes the GUI's words", []string{
			"new", "force", "usermove f2f3", "usermove e7e5", "usermove g2g4", "go", "result 0-1 {Black mates}",
		}, []string{
			"start chess normal as second from " + startFEN + " (40/300+0)",
			"observe 0 f2f3 -1ns", "observe 2 g2g4 -1ns",
			"over 0-1 Black mates after 4 moves", "close",
		}},
		{"a time forfeit", []string{
			"new", "st 1", "sd 3", "usermove e2e4", "result 1-0 {Black forfeits on time}",
		}, []string{
			"start chess normal as second from " + startFEN + " (movetime 1000 depth 3)",
			"observe 0 e2e4 -1ns",
			"over 1-0 Black forfeits on time after 2 moves", "close",
		}},
		{"a result without words is the rule's, else unknown", []string{
			"new", "level 0 2:30 1.5", "usermove e2e4", "result 1/2-1/2",
		}, []string{
			"start chess normal as second from " + startFEN + " (150+1.5)",
			"observe 0 e2e4 -1ns",
			"over 1/2-1/2 unknown after 2 moves", "close",
		}},
		{"new without a result infers it", []string{
			"new", "usermove e2e4", "new",
		}, []string{
			"start chess normal as second from " + startFEN + " (40/300+0)",
			"observe 0 e2e4 -1ns",
			"over * unknown after 2 moves", "close",
		}},
		{"undo and remove take moves back", []string{
			"new", "usermove e2e4", "force", "usermove d2d4", "remove", "undo", "usermove d2d4", "go",
		}, []string{
			"start chess normal as second from " + startFEN + " (40/300+0)",
			"observe 0 e2e4 -1ns",
			"takeback to 1", "takeback to 0",
			"observe 0 d2d4 -1ns", // played in force mode, and the engine still plays Black
			"over * unknown after 2 moves", "close",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := newFakeEngine(0)
			tr := startSession(t, eng, chess.Game{}, cecpConfig())
			for _, c := range tc.commands {
				tr.send(c, "ping 0")
				tr.expect("pong 0")
			}
			tr.quit()
			if got := eng.events(); !slices.Equal(got, tc.want) {
				t.Errorf("life cycle:\n%s\nwant:\n%s\ntranscript:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"),
					strings.Join(tr.seen, "\n"))
			}
		})
	}
}

func TestCECPClaims(t *testing.T) {
	const mateInOne = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
	const mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
	t.Run("our mate", func(t *testing.T) {
		eng := newFakeEngine(0)
		mate, err := after(t, chess.Game{}, mateInOne).ParseMove("d8h4")
		if err != nil {
			t.Fatal(err)
		}
		eng.result = &engine.Result{Move: mate}
		tr := startSession(t, eng, chess.Game{}, cecpConfig())
		tr.send("new", "force", "setboard "+mateInOne, "go")
		got := tr.expect("0-1")
		if want := []string{"move d8h4", "0-1 {Black mates}"}; !slices.Equal(got[len(got)-2:], want) {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("mated before moving", func(t *testing.T) {
		tr := startSession(t, newFakeEngine(0), chess.Game{}, cecpConfig())
		tr.send("new", "force", "setboard "+mated, "go", "ping 1")
		got := tr.expect("pong 1")
		if want := []string{"0-1 {Black mates}", "pong 1"}; !slices.Equal(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("Connect-Four, checkers and tic-tac-toe", func(t *testing.T) {
		tr := startSession(t, newFakeEngine(0), chess.Game{}, cecpConfig())
		// cfour's first player fills column a four times: the fourth stone wins.
		tr.send("new", "variant cfour", "force", "usermove P@a1", "usermove P@b1", "usermove P@a2", "usermove P@b2",
			"usermove P@a3", "usermove P@b3", "usermove P@a4", "go", "ping 1")
		if got := tr.expect("pong 1"); !slices.Equal(got, []string{"1-0 {White wins (line completed)}", "pong 1"}) {
			t.Errorf("Connect-Four: %q", got)
		}
		tr.send("new", "variant checkers", "go")
		checkersMove := firstMove(t, after(t, lookupGame(t, "checkers"), ""))
		if got := tr.expect("move "); got[len(got)-1] != "move "+checkersMove {
			t.Errorf("checkers: %q, want move %s", got, checkersMove)
		}
		tr.send("new", "variant tictactoe", "usermove b2")
		tttMove := firstMove(t, after(t, lookupGame(t, "tictactoe"), "", "b2"))
		if got := tr.expect("move "); got[len(got)-1] != "move "+tttMove {
			t.Errorf("tic-tac-toe: %q, want move %s", got, tttMove)
		}
	})
}

// lookupGame returns a game of the test lookup.
func lookupGame(t *testing.T, name string) games.Game {
	t.Helper()
	g, err := testLookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestCECPPingWaitsForTheMove(t *testing.T) {
	eng := newFakeEngine(0)
	eng.waitForStop.Store(true)
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	tr.send("new", "force", "go")
	waitFor(t, eng.started, "the search")
	tr.send("ping 7", "?")
	got := tr.expect("pong 7")
	if want := []string{"move " + firstMove(t, chess.Game{}.Start()), "pong 7"}; !slices.Equal(got[len(got)-2:], want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCECPForceDiscardsTheMove(t *testing.T) {
	eng := newFakeEngine(0)
	eng.waitForStop.Store(true)
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	tr.send("new", "go")
	waitFor(t, eng.started, "the search")
	tr.send("force", "ping 1")
	if got := tr.expect("pong 1"); containsPrefix(got, "move ") {
		t.Errorf("force let the move through: %q", got)
	}
	// The move was never played: the engine is still at the start, White to move.
	tr.send("usermove e2e4", "ping 2")
	if got := tr.expect("pong 2"); containsPrefix(got, "Illegal") {
		t.Errorf("e2e4 after force: %q", got)
	}
}

func TestCECPAnalyze(t *testing.T) {
	eng := newFakeEngine(0)
	eng.waitForStop.Store(true) // the fake engine reports its one line when told to stop
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	tr.send("new", "force", "analyze")
	waitFor(t, eng.started, "the analysis")
	tr.send(".")
	if got := tr.expect("stat01:"); got[len(got)-1] != "stat01: 0 0 0 0 20" {
		t.Errorf("status %q", got)
	}
	tr.send("usermove e2e4")
	tr.expect("1 12 0 100 " + firstMove(t, chess.Game{}.Start()))
	waitFor(t, eng.started, "the analysis after e2e4")
	tr.send("ping 3")
	tr.expect("pong 3") // at once: an analysis is no command in progress
	tr.send("exit", "ping 4")
	tr.expect("1 12 0 100 " + firstMove(t, after(t, chess.Game{}, "", "e2e4")))
	tr.expect("pong 4")
	for _, l := range tr.seen {
		if strings.HasPrefix(l, "move ") {
			t.Errorf("analysis moved: %q", l)
		}
	}
	if events := eng.events(); len(events) != 0 {
		t.Errorf("an analysis is no game: %q", events)
	}
}

func TestCECPOptions(t *testing.T) {
	eng := newFakeEngine(0)
	out := runScript(t, eng, chess.Game{}, cecpConfig(), strings.Join([]string{
		"xboard", "option Hash=64", "option Own Book=1", "option Style=Risky", "option Book File=my book.bin",
		"option Clear Hash", "memory 999999", "option Hash=0", "option Nothing=1", "cores 4",
	}, "\n")+"\n")
	want := []string{
		`Error (option Hash: value 0 is outside 1..4096): option Hash=0`,
		`Error (no option named "Nothing"): option Nothing=1`,
		`Error (want one number (for the Threads option)): cores 4`,
	}
	if !slices.Equal(out, want) {
		t.Errorf("output %q, want %q", out, want)
	}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if eng.hash != 4096 {
		t.Errorf("hash %d, want memory 999999 clamped to 4096", eng.hash)
	}
	if want := []string{"own book true", "style Risky", "book file my book.bin", "clear hash"}; !slices.Equal(eng.log, want) {
		t.Errorf("options set %q, want %q", eng.log, want)
	}
}

func TestCECPBadInput(t *testing.T) {
	tests := []struct{ input, want string }{
		{"frobnicate", "Error (unknown command): frobnicate"},
		{"level 40 x 0", `Error (level: base "x": minutes are not a number): level 40 x 0`},
		{"level 40", "Error (level wants MPS BASE INC, e.g. level 40 5 0 or level 0 2:30 1): level 40"},
		{"st -1", `Error (st: "-1" is not a positive number of seconds): st -1`},
		{"sd 0", "Error (sd needs a depth in 1..1000): sd 0"},
		{"time soon", "Error (want a clock in centiseconds): time soon"},
		{"variant shogi", "Error (unsupported variant; this engine plays normal, checkers, cfour, tictactoe): variant shogi"},
		{"result 2-0", `Error (result "2-0" is not 1-0, 0-1, 1/2-1/2 or *): result 2-0`},
		{"rating 2000", "Error (rating wants two ratings in 0..9999: ours, the opponent's): rating 2000"},
		{"usermove", "Error (usermove needs one move): usermove"},
		{"usermove e7e5", `Illegal move (chess: move "e7e5": the piece on e7 is black's, and white is to move): e7e5`},
		{"undo", "Error (only 0 moves to take back): undo"},
		{"exit", "Error (not analysing): exit"},
		{"setboard 8/8/8 w", "tellusererror Illegal position"},
	}
	for _, tc := range tests {
		t.Run(tc.input, func(t *testing.T) {
			out := runScript(t, newFakeEngine(0), chess.Game{}, cecpConfig(), tc.input+"\nping 5\n")
			if len(out) < 2 || out[0] != tc.want || out[len(out)-1] != "pong 5" {
				t.Errorf("output %q, want %q and then pong 5", out, tc.want)
			}
		})
	}
}

func FuzzCECP(f *testing.F) {
	for _, seed := range []string{
		"xboard\nprotover 2\nnew\nusermove e2e4\n",
		"new\nforce\nsetboard 8/8/8/8/8/8/8/K6k w - - 0 1\ngo\n",
		"level 0 0:01 0\ntime -5\notim 99999999999999\ngo\n",
		"variant cfour\nusermove P@d1\nundo\nremove\nresult *\n",
		"analyze\n.\nusermove e2e4\nexit\n",
		"option Hash=\noption =\nrating 1 2\nname \x00\nst 0.001\nsd 1\ngo\n?\nping\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		eng := newFakeEngine(3)
		out := runScript(t, eng, chess.Game{}, cecpConfig(), input)
		for _, line := range out {
			if strings.Contains(line, "internal error") {
				t.Fatalf("input %q: %q", input, line)
			}
		}
	})
}

// scoredGame starts a CECP chess game (the engine plays Black) with a fake engine whose every search scores
// score.
func scoredGame(t *testing.T, score float64) (*fakeEngine, *transcript) {
	eng := newFakeEngine(0)
	eng.score = score
	tr := startSession(t, eng, chess.Game{}, cecpConfig())
	tr.send("xboard", "protover 2", "new")
	return eng, tr
}

func TestCECPResigns(t *testing.T) {
	tests := []struct {
		name   string
		resign string  // the Resign option's value, "" to leave its default
		score  float64 // every search's score, the engine's view
		want   string  // the engine's answers to White's moves, one letter each: m(ove), r(esign)
	}{
		{"never by default", "", -5000, "mmmmm"},
		{"after three searches at the margin or below", "300", -300, "mmr"},
		{"not while the position is above the margin", "300", -299, "mmmmm"},
		{"a mate found against the engine counts", "300", -engine.MateScore + 9, "mmr"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng, tr := scoredGame(t, tc.score)
			if tc.resign != "" {
				tr.send("option Resign=" + tc.resign)
			}
			p := chess.Game{}.Start()
			var got strings.Builder
			for len(got.String()) < len(tc.want) {
				white := firstMove(t, p)
				p = after(t, chess.Game{}, p.FEN(), white)
				tr.send("usermove "+white, "ping 1")
				lines := tr.expect("pong 1")
				switch {
				case containsPrefix(lines, "resign"):
					got.WriteString("r")
				case containsPrefix(lines, "move "):
					reply := linesWith(lines, "move ")[0]
					got.WriteString("m")
					p = after(t, chess.Game{}, p.FEN(), strings.TrimPrefix(reply, "move "))
				default:
					t.Fatalf("no answer to %s: %q", white, lines)
				}
				if strings.HasSuffix(got.String(), "r") {
					break
				}
			}
			if got.String() != tc.want {
				t.Fatalf("answers %q, want %q\n%s", got.String(), tc.want, strings.Join(tr.seen, "\n"))
			}
			if !strings.HasSuffix(tc.want, "r") {
				return
			}
			tr.send("result 1-0 {Black resigns}")
			tr.quit()
			events := eng.events()
			if over := events[len(events)-2]; !strings.HasPrefix(over, "over 1-0 Black resigns") {
				t.Errorf("the resignation reached the life cycle as %q", over)
			}
		})
	}
}

func TestCECPDrawOffers(t *testing.T) {
	tests := []struct {
		name     string
		score    float64
		searched bool
		accepts  bool
	}{
		{"declined before the engine searched", -50, false, false},
		{"accepted when not ahead", 0, true, true},
		{"accepted when behind", -120, true, true},
		{"declined when ahead", 35, true, false},
		{"declined with a mate for the engine", engine.MateScore - 5, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, tr := scoredGame(t, tc.score)
			if tc.searched {
				tr.send("usermove e2e4")
				tr.expect("move ")
			}
			tr.send("draw", "ping 2")
			lines := tr.expect("pong 2")
			if got := containsPrefix(lines, "offer draw"); got != tc.accepts {
				t.Errorf("offer draw sent: %v, want %v (%q)", got, tc.accepts, lines)
			}
		})
	}
}
