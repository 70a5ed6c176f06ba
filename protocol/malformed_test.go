// Bad input of every kind: reported, never a panic or a hang, and the session still answers isready.

package protocol

import (
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/games/chess"
)

// malformedLines are bad or odd input lines, each with a piece of the error report it must cause ("" when
// the line must pass without an error report).
var malformedLines = []struct {
	line, wantErr string
}{
	{"", ""},
	{" \t \r", ""},
	{"\x00\x01\xff\xfe", `unknown command "\x01\xff\xfe" ignored`},
	{"xyzzy", `unknown command "xyzzy" ignored`},
	{"xyzzy plugh", `unknown command "xyzzy" ignored`},
	{"xyzzy isready", ""},
	{"ISREADY", ""},
	{"isready\r", ""},
	{strings.Repeat("x", 200), `unknown command "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"... ignored`},
	{"position", "position: want startpos or fen, got nothing"},
	{"position kiwi", `position: want startpos or fen, not "kiwi"`},
	{"position moves e2e4", `position: want startpos or fen, not "moves"`},
	{"position startpos moves", ""},
	{"position startpos e2e4", `position: unexpected "e2e4" after startpos`},
	{"position fen", "position: fen needs a position string"},
	{"position fen moves e2e4", "position: fen needs a position string"},
	{"position fen garbage", `position: bad chess position "garbage"`},
	{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "position: bad chess position"},
	{"position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position: bad chess position"},
	{"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e2e4", "position: bad chess position"},
	{"position startpos moves e2e4 e7e5 e1e3", `position: move 3 "e1e3"`},
	{"position startpos moves e2e4 e2e4", `position: move 2 "e2e4"`},
	{"position startpos moves 0000", `position: move 1 "0000"`},
	{"position startpos moves e7e5", `position: move 1 "e7e5"`},
	{"position startpos moves e2e4 \xff\xfe", `position: move 2 "\xff\xfe"`},
	{"position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3", `position: move 5 "a2a3": the game is already over (0-1, checkmate)`},
	{"position startpos moves" + strings.Repeat(" g1f3 g8f6 f3g1 f6g8", 1000), ""}, // claimable draws do not end the move list
	{"go depth", "go: depth needs a value"},
	{"go depth infinite", "go: depth needs a value"},
	{"go depth -1", "go: depth -1 is below 1; using 1"},
	{"go depth abc", `go: depth "abc" is not a whole number`},
	{"go depth 3.5", `go: depth "3.5" is not a whole number`},
	{"go nodes 18446744073709551616", "go: nodes 18446744073709551616 is out of range; using 9223372036854775807"},
	{"go wtime -1000 btime -1000", ""},
	{"go movetime 0", "go: movetime 0 is below 1; using 1"},
	{"go searchmoves", ""},
	{"go searchmoves zz", `go: searchmoves "zz"`},
	{"go bogus 5", `go: unknown word "bogus" ignored`},
	{"go perft", "go: perft needs a value"},
	{"go perft 0", "go: perft 0 is below 1; using 1"},
	{"go perft -3", "go: perft -3 is below 1; using 1"},
	{"go perft 99", "go: perft 99 is deeper than this session allows; using 2"},
	{"setoption name Hash value", `setoption Hash: value "" is not a whole number`},
	{"setoption name Hash value 1 2", `setoption Hash: value "1 2" is not a whole number`},
	{"setoption name UCI_ShowWDL", "setoption UCI_ShowWDL: a check option needs a value"},
	{"setoption name UCI_Variant", "setoption UCI_Variant: a combo option needs a value"},
	{"debug maybe", `debug: want on or off, not "maybe"`},
	{"debug", ""},
	{"register later", ""},
	{"register name x code y", ""},
	{"ponderhit", ""},
	{"stop", ""},
	{"ucinewgame extra words", ""},
	{"d", ""},
}

func TestMalformedInput(t *testing.T) {
	for _, tc := range malformedLines {
		name := tc.line
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			cfg := testConfig()
			cfg.MaxPerftDepth = 2
			out := runScript(t, newFakeEngine(0), chess.Game{}, cfg, tc.line+"\nisready\nposition startpos\ngo depth 1\n")
			errs := linesWith(out, "info string error")
			switch {
			case tc.wantErr == "" && len(errs) > 0:
				t.Errorf("unexpected error reports %q", errs)
			case tc.wantErr != "" && (len(errs) == 0 || !strings.Contains(errs[0], tc.wantErr)):
				t.Errorf("error reports %q, want one containing %q", errs, tc.wantErr)
			}
			out = slices.DeleteFunc(out, func(line string) bool { return strings.HasPrefix(line, "info string debug: ") })
			if len(linesWith(out, "readyok")) == 0 || !strings.HasPrefix(out[len(out)-1], "bestmove ") {
				t.Errorf("the session stopped answering: %q", out)
			}
		})
	}
}

func TestLongLines(t *testing.T) {
	cfg := testConfig()
	cfg.MaxLineBytes = 100
	long := "position startpos moves" + strings.Repeat(" e2e4", 100)
	out := runScript(t, newFakeEngine(0), chess.Game{}, cfg, long+"\nisready\n"+strings.Repeat("y", 300)+"\n"+long)
	want := []string{"info string error: input line longer than 100 bytes ignored", "readyok",
		"info string error: input line longer than 100 bytes ignored", "info string error: input line longer than 100 bytes ignored"}
	if strings.Join(out, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", out, want)
	}
	// A line of exactly the limit is read, whatever its line ending; one byte more is too long.
	line := "isready" + strings.Repeat(" ", 93)
	if out := runScript(t, newFakeEngine(0), chess.Game{}, cfg, line+"\r\n"+line+"\n"+line); strings.Join(out, ",") != "readyok,readyok,readyok" {
		t.Errorf("lines at the limit: %q", out)
	}
	if out := runScript(t, newFakeEngine(0), chess.Game{}, cfg, line+" \n"+line+" "); len(linesWith(out, "longer than 100 bytes")) != 2 {
		t.Errorf("lines one byte over the limit: %q", out)
	}
	// The default bound is a megabyte.
	huge := "position startpos moves " + strings.Repeat("a", 2<<20) + "\nisready\n"
	if out := runScript(t, newFakeEngine(0), chess.Game{}, testConfig(), huge); strings.Join(out, ",") != "info string error: input line longer than 1048576 bytes ignored,readyok" {
		t.Errorf("2 MB line: %q", out)
	}
}

// FuzzSession feeds arbitrary input to a session, then isready: it must answer readyok, never panic,
// never hang, and never report an internal error.
func FuzzSession(f *testing.F) {
	for _, tc := range malformedLines {
		if len(tc.line) < 200 {
			f.Add(tc.line)
		}
	}
	f.Add("uci\nsetoption name UCI_Variant value cfour\nucinewgame\nposition startpos moves P@d1 P@d2\ngo wtime 100 btime 100\n")
	f.Add("setoption name UCI_Variant value checkers\nposition fen B:W21,22:B1,2 moves 1-5\ngo depth 2\nd\n")
	f.Add("position startpos moves e2e4 e7e5\ngo ponder\nponderhit\nposition startpos moves e2e4 e7e5 g1f3\ngo infinite\nstop\n")
	f.Add("setoption name UCI_Opponent value BOT 2000 computer x y z\nsetoption name UCI_ShowWDL value true\ngo mate 2 searchmoves e2e4\n")
	f.Fuzz(func(t *testing.T, input string) {
		var kept []string
		for _, line := range strings.Split(input, "\n") {
			quits := false
			for _, tok := range tokenize(line) {
				quits = quits || strings.EqualFold(tok.text, "quit")
			}
			if !quits {
				kept = append(kept, line)
			}
		}
		cfg := testConfig()
		cfg.MaxPerftDepth = 3
		cfg.MaxLineBytes = 1 << 12
		start := time.Now()
		out := runScript(t, newFakeEngine(0), chess.Game{}, cfg, strings.Join(kept, "\n")+"\nisready\n")
		if len(linesWith(out, "readyok")) == 0 {
			t.Fatalf("no readyok after %q: %q", kept, out)
		}
		if bad := linesWith(out, "internal error"); len(bad) > 0 {
			t.Fatalf("%q after %q", bad, kept)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Logf("slow input (%v): %q", d, kept)
		}
	})
}
