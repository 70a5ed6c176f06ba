// Tests of tests/online-games.sh: its command line, the checkers and Connect-Four series it would run in the
// conditions of online play, and its summary of fixed progress lines and memory logs.

package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOnlineGamesScript(t *testing.T) {
	cases := []scriptCase{
		{"no game", nil, nil, 2, nil, []string{"usage: tests/online-games.sh"}, ""},
		{"unknown game", []string{"--dry-run", "chess"}, nil, 2, nil, []string{`no game "chess"`}, ""},
		{"bad games", []string{"--dry-run", "checkers"}, []string{"GAMES=0"}, 2, nil, []string{"GAMES must be a positive number"}, ""},
		{"bad series", []string{"--dry-run", "connect4"}, []string{"SERIES=mem both"}, 2, nil, []string{`SERIES may hold mem and nomem, not "both"`}, ""},
		// Online conditions: one dossier process a game, the opponent varying its first moves, a core a series.
		{"online conditions", []string{"--dry-run", "all"}, []string{"GAMES=8"}, 0, []string{
			"== checkers-mem: taskset -c 0 ", "== checkers-nomem: taskset -c 1 ", "--game checkers",
			"name=dossier-mem args='--memory ", "name=dossier-nomem args='--no-memory' restart=on",
			"name=strongest-r2 args=--no-memory Preset=strongest randommoves=2", "--tc 2+0.05 --games 8",
			"== connect4-mem: taskset -c 0 ", "name=sophisticated-r1 args=--no-memory Preset=sophisticated randommoves=1"}, nil, ""},
		{"an opponent and a clock of one's own", []string{"--dry-run", "checkers"},
			[]string{"TC=8+0.08", "CHECKERS_OPPONENT=material", "CHECKERS_RANDOM=3"}, 0,
			[]string{"--tc 8+0.08 --games 80", "name=material-r3 args=--no-memory Preset=material randommoves=3"}, nil, ""},
	}
	checkScriptCases(t, "online-games.sh", cases)
}

// onlineGamesProgress is dossier match's progress lines for four Connect-Four games: dossier-mem first in games 1
// and 3 (a win, a loss on time), second in games 2 and 4 (a draw, a win).
const onlineGamesProgress = `game 1/4 (1 finished): dossier-mem vs sophisticated-r1 1-0 (line completed); +1 =0 -0  score 100.0%  elo +inf ± inf
game 2/4 (2 finished): sophisticated-r1 vs dossier-mem 1/2-1/2 (board full); +1 =1 -0  score 75.0%  elo +190.8 ± inf
game 3/4 (3 finished): dossier-mem vs sophisticated-r1 0-1 (time forfeit: dossier-mem lost on time); +1 =1 -1  score 50.0%  elo +0.0 ± 264.5
game 4/4 (4 finished): sophisticated-r1 vs dossier-mem 0-1 (line completed); +2 =1 -1  score 62.5%  elo +88.7 ± 458.0
`

func TestOnlineGamesScriptSummary(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "connect4-mem.progress"), []byte(onlineGamesProgress), 0o644); err != nil {
		t.Fatal(err)
	}
	log := "2026-11-29T01:50:55.905Z\tinfo\tmemory in the game\t{\"score\": 1, \"memory_on_clock\": 0.002, \"memory_on_clock_max\": 0.001, \"background_cpu\": 0.01}\n"
	if err := os.WriteFile(filepath.Join(out, "connect4-mem.log.jsonl"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runTestScript(t, "online-games.sh", []string{"OUT=" + out, "GAMES=4"}, "--summary", "connect4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"connect4 mem (dossier-mem):",
		"first    50.0% ±69.3 over 2 (+1 =0 -1)",
		"second   75.0% ±34.6 over 2 (+1 =1 -0)",
		"both     62.5% ±40.6 over 4",
		"learning curve as first, by quarter: 100% (1) 0% (1)",
		"losses on time: 1",
		"memory per game (1 games logged): 2.0 ms on our clock, 0.01 s of background CPU (off our clock)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
}

func TestOnlineScriptsOutputIsIgnored(t *testing.T) {
	ignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/tests/online-out/", "/tests/online-games-out/"} {
		if !strings.Contains(string(ignore), want) {
			t.Errorf(".gitignore lacks %s, a script's default output folder", want)
		}
	}
}
