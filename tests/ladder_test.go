// Tests of tests/ladder.sh's command line: unknown rungs and modes refused, every rung defined, output ignored by git.

package tests

import (
	"os"
	"strings"
	"testing"
)

func TestLadderScript(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		env      string
		code     int
		out, err string
	}{
		{"no rung", nil, "", 2, "", "usage: tests/ladder.sh"},
		{"unknown rung", []string{"nope"}, "", 2, "", `unknown rung "nope"`},
		{"unknown after a known one", []string{"--dry-run", "sf1350", "nope"}, "", 2, "", `unknown rung "nope"`},
		{"a helper is not a rung", []string{"--dry-run", "summarize"}, "", 2, "", `unknown rung "summarize"`},
		{"unknown mode", []string{"--dry-run", "sf1350"}, "MODE=crushing", 2, "", "MODE must be even or strongest"},
		{"help", []string{"--help"}, "", 0, "RUNG: all, or one of:", ""},
		{"every rung", []string{"--dry-run", "all"}, "", 0, "== phalanx-even: dossier match --game chess", ""},
		{"the even player keeps a memory", []string{"--dry-run", "sf2000"}, "", 0, "mode=even memory=tests/ladder-out/sf2000-even-memory", ""},
		{"full strength", []string{"--dry-run", "toga2"}, "MODE=strongest", 0, "--player1 name=dossier-strongest --player2 name=toga2", ""},
		{"toga2 limited in depth, as it ignores nodes", []string{"--dry-run", "toga2"}, "TOGA_DEPTH=3", 0, "uci=/usr/games/toga2 depth=3", ""},
		{"glaurung on one thread", []string{"--dry-run", "glaurung"}, "GLAURUNG_NODES=500", 0, "nodes=500 Threads=1", ""},
		{"fairymax from the initial position", []string{"--dry-run", "fairymax"}, "", 0, "--concurrency 1 --pgn tests/ladder-out/fairymax-even.pgn", ""},
		{"the others from the openings", []string{"--dry-run", "glaurung"}, "", 0, "--openings testdata/chess/ladder20.epd", ""},
		{"phalanx by its own NPS limit", []string{"--dry-run", "phalanx"}, "PHALANX_NPS=5000", 0, "cecp=/usr/games/phalanx args='-n 5000'", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var env []string
			if c.env != "" {
				env = append(env, c.env)
			}
			code, stdout, stderr := runTestScript(t, "ladder.sh", env, c.args...)
			if code != c.code || !strings.Contains(stdout, c.out) || !strings.Contains(stderr, c.err) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, c.code, c.out, c.err)
			}
		})
	}
	ignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+string(ignore)+"\n", "\n/tests/ladder-out/\n") {
		t.Error(".gitignore lacks /tests/ladder-out/, the ladder's output folder")
	}
}
