// Tests of tests/experiment.sh: its command line, the matches it would run, and its summary of fixed game records.

package tests

import (
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"
)

// runExperiment runs tests/experiment.sh with args and extra environment, returning its exit code and output.
func runExperiment(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	// The dry runs write the opening files to OUT: a temporary directory keeps them out of the tree.
	return runTestScript(t, "experiment.sh", append([]string{"OUT=" + t.TempDir()}, env...), args...)
}

func TestExperimentScript(t *testing.T) {
	cases := []scriptCase{
		{"no opponent", nil, nil, 2, nil, []string{"usage: tests/experiment.sh"}, ""},
		{"unknown opponent", []string{"--dry-run", "toga2", "nope"}, nil, 2, nil, []string{`unknown opponent "nope"`}, ""},
		{"a helper is not an opponent", []string{"--dry-run", "series"}, nil, 2, nil, []string{`unknown opponent "series"`}, ""},
		{"bad games", []string{"--dry-run", "toga2"}, []string{"GAMES=0"}, 2, nil, []string{"GAMES must be a positive number"}, ""},
		{"bad series", []string{"--dry-run", "toga2"}, []string{"SERIES=mem both"}, 2, nil, []string{`SERIES may hold mem and nomem, not "both"`}, ""},
		{"help", []string{"--help"}, nil, 0, []string{"OPPONENT: all, or one of:"}, nil, ""},
		{"every opponent, both series", []string{"--dry-run", "all"}, nil, 0,
			[]string{"== toga2-mem: dossier match --game chess", "== connect4-nomem: dossier match --game connect4",
				"== checkers-mem: dossier match --game checkers", "--games 40 "}, nil, ""},
		{"the memory series keeps a memory, the other none", []string{"--dry-run", "sf1800"}, nil, 0,
			[]string{"--player1 name=dossier-mem memory=", "/sf1800-mem-memory log=", "/sf1800-mem.log.jsonl --player2 name=sf1800 uci=/usr/games/stockfish",
				"--player1 name=dossier-nomem --player2 name=sf1800"}, nil, ""},
		{"same openings and clock in both series", []string{"--dry-run", "glaurung"}, []string{"TC=5+0.1", "GAMES=8"}, 0,
			[]string{"--games 8 --tc 5+0.1 --concurrency 1 --openings", "/chess10.epd --pgn"}, nil, ""},
		{"bad openings", []string{"--dry-run", "toga2"}, []string{"OPENINGS=11"}, 2, nil, []string{`OPENINGS must be a number from 1 to 10, not "11"`}, ""},
		{"two openings", []string{"--dry-run", "connect4"}, []string{"OPENINGS=2"}, 0,
			[]string{"--openings", "/connect4-2.txt --pgn", "depth=12 tc=60+1"}, nil, "connect4-10"},
		{"repeatable engines at a fixed depth", []string{"--dry-run", "toga2", "ethereal"}, []string{"TOGA_DEPTH=8", "ETHEREAL_DEPTH=10"}, 0,
			[]string{"name=toga2-d8 uci=/usr/games/toga2 depth=8 OwnBook=false", "name=ethereal-d10 uci=/usr/games/ethereal-chess depth=10 Threads=1"}, nil, "tc=1.5+0.03"},
		{"the memory series' options", []string{"--dry-run", "toga2"}, []string{"PREPARE=20", "MEMORY_RISK=40", "MEMORY_CONTEMPT=1"}, 0,
			[]string{"/toga2-mem.log.jsonl prepare=20 memoryrisk=40 memorycontempt=on --player2"}, nil, "nomem prepare"},
		{"bad memory contempt", []string{"--dry-run", "toga2"}, []string{"MEMORY_CONTEMPT=yes"}, 2, nil, []string{`MEMORY_CONTEMPT must be 0 or 1, not "yes"`}, ""},
		{"checkers records are PDN", []string{"--dry-run", "checkers"}, []string{"SERIES=nomem"}, 0,
			[]string{"--max-moves 100 --pdn", "checkers-nomem.pdn"}, nil, "memory="},
	}
	checkScriptCases(t, "experiment.sh", cases)
	ignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+string(ignore)+"\n", "\n/tests/experiment-out/\n") {
		t.Error(".gitignore lacks /tests/experiment-out/, the experiment's output folder")
	}
}

// TestExperimentSummary checks the summary of testdata/experiment: four games a series against "toga2" (mem:
// won, lost, drawn, won in 21 and 15 moves; nomem: four losses, games 3 and 4 with the moves and colours of
// games 1 and 2) and a memory dump of two games
// with 3 and 2 predicted opponent moves (2 and 0 right; a move without a prediction and one of ours ignored),
// and three checkers games.
func TestExperimentSummary(t *testing.T) {
	// summary runs the script's summary of an opponent with the environment variable env set.
	summary := func(env, opponent string) string {
		t.Helper()
		code, stdout, stderr := runTestScript(t, "experiment.sh", []string{env}, "--summary", opponent)
		if code != 0 {
			t.Fatalf("exit %d: %s%s", code, stdout, stderr)
		}
		return stdout + stderr
	}
	out := summary("OUT=testdata/experiment", "toga2") // the script runs from the repository's root
	// The intervals: 1.96 standard errors of the mean, e.g. mem's scores 1, 0, 1/2, 1 have variance 0.6875/3.
	for _, want := range []string{
		"mem        4  62.5% ±46.9 +2 =1 -1        100% 0% 50% 100%                18.0            0\n",
		"nomem      4   0.0% ± 0.0 +0 =0 -4        0% 0% 0% 0%                     -               2\n",
		"mem - nomem: +62.5% ±46.9% (significantly more)",
		// mem's game 3 began as game 1, won, with the same colours, and kept its moves (a draw by its tags).
		"mem: 1 games began as an earlier won game; left its line first: dossier 0, the opponent 0, neither (played again) 1\n",
		"prediction (mem): 2 right of 5 predicted opponent moves (40.0%); by block of games: 66.7% 0.0%",
		// Each colour on its own: as White won and drawn (games 1 and 3), as Black lost and won.
		"mem    as white   2  75.0% ±49.0 +1 =1 -0        100% 50%\n",
		"mem - nomem as white: +75.0% ±49.0% (significantly more)\n",
		"mem    as black   2  50.0% ±98.0 +1 =0 -1        0% 100%\n",
		"mem - nomem as black: +50.0% ±98.0% (not significant)\n",
		"analysis (mem): 0 mistakes filed for 1 lost games (and 1 drawn); 0 experience entries in the memory\n",
		// The memory's log: two games' lines (a line of another kind ignored; the first, of an older build, without
		// draws_left).
		"memory use (mem): 2 games; experience settled nodes in 12 of 135 searches (6.0 a game, in 1 games; 3400 nodes), won games replayed 5 moves, repeated draws left 1 times, prepared entries 2\n",
		"preparation (mem): 2 runs, 5 positions searched, 8 s of search in all (4.0 s a game)\n",
		// The second game's line says the contempt the dossier set (the first, older, says none).
		"contempt (mem): set by the dossier in 1 of 2 games, -12 to -12, -12.0 on average\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	// Checkers records are PDN, where the first player (who wins a 1-0) is Black: dossier-nomem won as Black
	// in 16 moves (31 plies), lost as White to a 1-0, and won as White in 25.
	out = summary("OUT=testdata/experiment", "checkers")
	for _, want := range []string{
		"nomem      3  66.7% ±65.3 +2 =0 -1        100% 0% 100%                    20.5            0\n",
		"nomem  as white   2  50.0% ±98.0 +1 =0 -1        0% 100%\n",
		"nomem  as black   1 100.0% ± 0.0 +1 =0 -0        100%\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("checkers summary lacks %q:\n%s", want, out)
		}
	}
	// RUNS pools runs: the same records in two folders are twice the games, with the same learning curve and
	// each run's repeats and memory counted in it alone. The second folder's files are gzip-compressed, as
	// the records kept in tests/experiment-records.
	var runs []string
	for k, dir := range []string{t.TempDir(), t.TempDir()} {
		for _, f := range []string{"toga2-mem.pgn", "toga2-nomem.pgn", "toga2-mem.dump.jsonl"} {
			data, err := os.ReadFile("../testdata/experiment/" + f)
			if err != nil {
				t.Fatal(err)
			}
			if k == 1 {
				var b bytes.Buffer
				z := gzip.NewWriter(&b)
				if _, err := z.Write(data); err != nil || z.Close() != nil {
					t.Fatal("gzip", err)
				}
				data, f = b.Bytes(), f+".gz"
			}
			if err := os.WriteFile(dir+"/"+f, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		runs = append(runs, dir)
	}
	out = summary("RUNS="+strings.Join(runs, " "), "toga2")
	for _, want := range []string{
		"mem        8  62.5% ±30.7 +4 =2 -2        100% 0% 50% 100%                18.0            0\n",
		"nomem      8   0.0% ± 0.0 +0 =0 -8        0% 0% 0% 0%                     -               4\n",
		"mem: 2 games began as an earlier won game;",
		"prediction (mem): 4 right of 10 predicted opponent moves (40.0%); by block of games: 66.7% 0.0%",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("pooled summary lacks %q:\n%s", want, out)
		}
	}
	code, stdout, _ := runExperiment(t, nil, "--summary", "connect4")
	if code != 0 || !strings.Contains(stdout, "connect4: no game records") {
		t.Errorf("summary of an opponent without records: exit %d, %q", code, stdout)
	}
}
