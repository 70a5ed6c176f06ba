// Tests of the command line of every subcommand, in process: exit codes, which stream gets help and errors,
// flags honoured or refused, extra arguments refused.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wacSuite is a one-position EPD suite, a back-rank mate in one that the first iteration solves however
// loaded the machine is.
const wacSuite = `6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8; id "mate1";` + "\n"

// runCase runs the binary's run in process and returns its exit code and both streams.
func runCase(args []string, stdin string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestCommandLines(t *testing.T) {
	suite := filepath.Join(t.TempDir(), "wac1.epd")
	if err := os.WriteFile(suite, []byte(wacSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		// out and errText must appear in stdout and stderr.
		out, errText string
	}{
		// Help: stdout, exit 0, in all three spellings.
		{"dossier --help", []string{"--help"}, 0, "usage: dossier [--game", ""},
		{"dossier -h", []string{"-h"}, 0, "dossier help [SUBCOMMAND]", ""},
		{"dossier help", []string{"help"}, 0, "usage: dossier [--game", ""},
		{"perft --help", []string{"perft", "--help"}, 0, "usage: dossier perft", ""},
		{"perft -h", []string{"perft", "-h"}, 0, "--divide", ""},
		{"help perft", []string{"help", "perft"}, 0, "usage: dossier perft", ""},
		{"bench --help", []string{"bench", "--help"}, 0, "--suite-time", ""},
		{"help bench", []string{"help", "bench"}, 0, "usage: dossier bench", ""},
		{"match --help", []string{"match", "--help"}, 0, "--player1", ""},
		{"match --help on SPRT", []string{"match", "--help"}, 0, "--sprt elo0,elo1 [--alpha A] [--beta B]", ""},
		{"help match", []string{"help", "match"}, 0, "usage: dossier match", ""},
		{"learn -h", []string{"learn", "-h"}, 0, "--opponent", ""},
		{"help learn", []string{"help", "learn"}, 0, "usage: dossier learn", ""},

		// Usage errors: stderr, exit 2, nothing on stdout.
		{"help of no subcommand", []string{"help", "nope"}, 2, "", `unknown subcommand "nope"`},
		{"help with two names", []string{"help", "perft", "bench"}, 2, "", `unexpected argument "bench"`},
		{"unknown subcommand", []string{"nope"}, 2, "", `dossier: unknown subcommand "nope"`},
		{"engine unknown game", []string{"--game", "go"}, 2, "", `unknown game "go"`},
		{"engine unknown flag", []string{"--bogus"}, 2, "", "unknown flag: --bogus"},
		{"engine mistyped memory URL", []string{"--memory", "postgres//dossier:S3cret@127.0.0.1:54329/chessmem"}, 2, "",
			"--memory: memory postgres//********@127.0.0.1:54329/chessmem: bad memory location"},
		{"match unknown flag", []string{"match", "--bogus"}, 2, "", "dossier match: unknown flag: --bogus"},
		{"match bad number", []string{"match", "--games", "abc"}, 2, "", `invalid argument "abc" for "--games"`},
		{"match extra argument", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "extra"}, 2, "", `unexpected argument "extra"`},
		{"match seed without random plies", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--seed", "3"}, 2, "", "--seed needs --random-plies"},
		{"match event without a record", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--event", "x"}, 2, "", "--event needs --pgn"},
		{"match alpha without sprt", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--alpha", "0.1"}, 2, "", "--alpha needs --sprt"},
		{"match sprt one bound", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--sprt", "5"}, 2, "", `--sprt 5 --alpha 0.05 --beta 0.05: "5": want elo0,elo1`},
		{"match sprt crossed", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--sprt", "5,0"}, 2, "", "elo0 (5) must be below elo1 (0)"},
		{"match sprt bad beta", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--sprt", "0,5", "--beta", "0"}, 2, "", "must be between 0 and 1"},
		{"match sprt rates too big", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--sprt", "0,5", "--alpha", "0.5", "--beta", "0.5"}, 2, "", "alpha + beta (1) must be below 1"},
		{"match sprt odd games", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--sprt", "0,5", "--games", "5"}, 2, "", "must be even, not 5"},
		{"match sprt bad alpha number", []string{"match", "--player1", "depth=1", "--player2", "depth=1", "--sprt", "0,5", "--alpha", "x"}, 2, "", `invalid argument "x" for "--alpha"`},
		{"learn unknown flag", []string{"learn", "--bogus"}, 2, "", "dossier learn: unknown flag: --bogus"},
		{"learn extra argument", []string{"learn", "--player", "depth=2", "--opponent", "preset=sp", "--out", "x", "extra"}, 2, "", `unexpected argument "extra"`},
		{"learn unknown learner", []string{"learn", "--learner", "nope"}, 2, "", `the learners are discrepancy and strategy`},
		{"learn strategy without records", []string{"learn", "--learner", "strategy", "--name", "x"}, 2, "", "--records and --name are required"},
		{"learn strategy with a player", []string{"learn", "--learner", "strategy", "--records", "x.pgn", "--name", "x", "--player", "depth=2"}, 2, "", "--player has no effect with --learner strategy"},
		{"learn strategy of checkers", []string{"learn", "--learner", "strategy", "--records", "x.pgn", "--name", "x", "--game", "checkers"}, 2, "", "reads chess games"},
		{"learn strategy too deep", []string{"learn", "--learner", "strategy", "--records", "x.pgn", "--name", "x", "--max-depth", "9"}, 2, "", "--max-depth must be 1.."},
		{"learn strategy missing records", []string{"learn", "--learner", "strategy", "--records", "/nonexistent.pgn", "--name", "x"}, 1, "", "nonexistent.pgn"},
		{"learn discrepancy with records", []string{"learn", "--player", "depth=2", "--opponent", "preset=sp", "--out", "x", "--records", "x.pgn"}, 2, "", "--records has no effect with --learner discrepancy"},
		{"perft extra argument", []string{"perft", "--depth", "2", "extra"}, 2, "", `unexpected argument "extra"`},
		{"perft no depth", []string{"perft"}, 2, "", "--depth must be at least 1"},
		{"perft unknown game", []string{"perft", "--game", "go", "--depth", "1"}, 2, "", `unknown game "go"`},
		{"perft bad fen", []string{"perft", "--depth", "1", "--fen", "8/8 w"}, 2, "", "bad position"},
		{"bench unknown game", []string{"bench", "--game", "nope"}, 2, "", `unknown game "nope"`},
		{"bench missing reference", []string{"bench", "--game", "chess", "--reference", "/nonexistent"}, 2, "", "--reference"},
		{"bench negative search time", []string{"bench", "--search-time", "-1s"}, 2, "", "--search-time must not be negative"},
		{"bench reference without chess", []string{"bench", "--game", "tictactoe", "--reference", "/usr/games/stockfish"}, 2, "", "--reference has no effect without chess"},
		{"bench search time without chess", []string{"bench", "--game", "connect4", "--search-time", "1s"}, 2, "", "--search-time has no effect without chess"},
		{"bench suite time without suite", []string{"bench", "--game", "tictactoe", "--suite-time", "1s"}, 2, "", "--suite-time has no effect without --suite"},
		{"bench suite with repeat", []string{"bench", "--suite", suite, "--repeat", "2"}, 2, "", "--repeat has no effect with --suite"},
		{"bench suite of checkers", []string{"bench", "--suite", suite, "--game", "checkers"}, 2, "", "--suite is a chess EPD suite"},
		{"bench missing suite", []string{"bench", "--suite", "/nonexistent.epd"}, 2, "", "--suite"},
		{"bench zero suite time", []string{"bench", "--suite", suite, "--suite-time", "0s"}, 2, "", "--suite-time must be positive"},
		{"bench suite nodes and time", []string{"bench", "--suite", suite, "--suite-nodes", "1000", "--suite-time", "1s"}, 2, "", "--suite-time has no effect with --suite-nodes"},
		{"bench suite nodes without suite", []string{"bench", "--suite-nodes", "1000"}, 2, "", "--suite-nodes has no effect without --suite"},
		{"bench memory cost baseline without memory cost", []string{"bench", "--memory-cost-baseline"}, 2, "", "--memory-cost-baseline has no effect without --memory-cost"},
		{"bench memory cost dir without memory cost", []string{"bench", "--signature", "--memory-cost-dir", "/tmp/x"}, 2, "", "--memory-cost-dir has no effect without --memory-cost"},
		{"bench signature with repeat", []string{"bench", "--signature", "--repeat", "2"}, 2, "", "--repeat has no effect with --signature"},
		{"bench extra argument", []string{"bench", "--game", "tictactoe", "extra"}, 2, "", `unexpected argument "extra"`},

		// Flags honoured.
		{"perft divide", []string{"perft", "--depth", "2", "--divide"}, 0, "e2e4: 20\n", ""},
		{"perft divide on two threads", []string{"perft", "--depth", "2", "--divide", "--threads", "2"}, 0, "nodes 400\n", ""},
		{"engine start-up line", []string{"--game", "tictactoe"}, 0, " by the dossier authors\n", ""},
		{"bench suite progress", []string{"bench", "--suite", suite, "--suite-time", "300ms"}, 0, "1 of 1 solved at 300ms", "position 1/1 mate1: solved (played Ra8#); 1 of 1 solved"},
		{"bench suite by nodes", []string{"bench", "--suite", suite, "--suite-nodes", "20000"}, 0, "1 of 1 solved at 20000 nodes per position", "1 of 1 solved"},
		{"bench one game", []string{"bench", "--game", "tictactoe", "--repeat", "1"}, 0, "tictactoe start perft(9)", ""},
		{"match sprt decides", []string{"match", "--game", "tictactoe", "--player1", "depth=9", "--player2", "depth=9", "--sprt", "0,200",
			"--random-plies", "2"}, 0, "LLR -3.", "H0 accepted"},
		{"match sprt json", []string{"match", "--game", "tictactoe", "--player1", "depth=9", "--player2", "depth=9", "--sprt", "0,200",
			"--random-plies", "2", "--json"}, 0, `"verdict":"H0"`, "pairs "},
		{"bench signature of one game", []string{"bench", "--signature", "--game", "tictactoe"}, 0, "tictactoe alphabeta              depth  9         7287 nodes  P@b2        0  start\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCase(c.args, "quit\n")
			if code != c.code || !strings.Contains(stdout, c.out) || !strings.Contains(stderr, c.errText) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
					code, stdout, stderr, c.code, c.out, c.errText)
			}
			switch {
			case code == 2:
				// A usage error says what was wrong, the usage line and where to read more; stdout stays clean.
				if stdout != "" || !strings.Contains(stderr, "usage: dossier") || !strings.Contains(stderr, "--help' for details") {
					t.Errorf("a usage error wrote stdout %q, stderr %q", stdout, stderr)
				}
			case c.errText == "" && stderr != "":
				t.Errorf("exit 0 wrote to stderr: %q", stderr)
			}
		})
	}
}

func TestJSONWithEveryMode(t *testing.T) {
	suite := filepath.Join(t.TempDir(), "wac1.epd")
	if err := os.WriteFile(suite, []byte(wacSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("perft --divide", func(t *testing.T) {
		code, stdout, stderr := runCase([]string{"perft", "--game", "connect4", "--depth", "3", "--divide", "--json"}, "")
		var rep struct {
			Nodes  uint64 `json:"nodes"`
			Divide []struct {
				Move  string `json:"move"`
				Nodes uint64 `json:"nodes"`
			} `json:"divide"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); code != 0 || err != nil {
			t.Fatalf("exit %d, stdout %q (%v), stderr %q", code, stdout, err, stderr)
		}
		if rep.Nodes != 343 || len(rep.Divide) != 7 || rep.Divide[0].Move != "P@d1" || rep.Divide[0].Nodes != 49 {
			t.Errorf("got %+v, want 343 nodes, 49 below each of the 7 drops, the centre first", rep)
		}
	})
	t.Run("bench --suite", func(t *testing.T) {
		code, stdout, stderr := runCase([]string{"bench", "--suite", suite, "--suite-time", "300ms", "--json"}, "")
		var rep struct {
			Suite  string `json:"suite"`
			Solved int    `json:"solved"`
			Total  int    `json:"total"`
			Missed []any  `json:"missed"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); code != 0 || err != nil {
			t.Fatalf("exit %d, stdout %q (%v), stderr %q", code, stdout, err, stderr)
		}
		if rep.Suite != suite || rep.Solved != 1 || rep.Total != 1 || len(rep.Missed) != 0 {
			t.Errorf("got %+v, want the mate solved", rep)
		}
	})
}
