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
		{"unknown mode", []string{"--dry-run", "sf1350"}, "MODE=crushing", 2, "", "MODE must be even, elo or strongest"},
		{"UCI_Elo at the rung's rating", []string{"--dry-run", "sf2400"}, "MODE=elo", 0, "--player1 name=dossier-elo2400 elo=2400 --player2 name=sf2400", ""},
		{"UCI_Elo against an engine without a rating", []string{"--dry-run", "toga2"}, "MODE=elo", 2, "", "MODE=elo against toga2 needs ELO"},
		{"UCI_Elo given", []string{"--dry-run", "toga2"}, "MODE=elo ELO=2200", 0, "== toga2-elo2200: dossier match", ""},
		{"checkers against a weak preset", []string{"--dry-run", "checkers-weak"}, "", 0, "--game checkers --json --games 40 --tc 5+0.05", ""},
		{"Connect-Four against a strong preset, its openings varied", []string{"--dry-run", "connect4-strong"}, "", 0, "preset=sophisticated randommoves=1", ""},
		{"a binary given", []string{"--dry-run", "sf1350"}, "DOSSIER=/bin/true", 0, "== sf1350-even", ""},
		{"help", []string{"--help"}, "", 0, "RUNG: all, or one of:", ""},
		{"every rung", []string{"--dry-run", "all"}, "", 0, "== connect4-strong-even: dossier match --game connect4", ""},
		{"the even player keeps a memory", []string{"--dry-run", "sf2000"}, "", 0, "mode=even memory=tests/ladder-out/sf2000-even-memory", ""},
		{"full strength", []string{"--dry-run", "toga2"}, "MODE=strongest", 0, "--player1 name=dossier-strongest --player2 name=toga2 uci=/usr/games/toga2", ""},
		{"toga2 at full strength", []string{"--dry-run", "toga2"}, "", 0, "--player2 name=toga2 uci=/usr/games/toga2\n", ""},
		{"toga2 limited in depth, as it ignores nodes", []string{"--dry-run", "toga2"}, "TOGA_DEPTH=3", 0, "uci=/usr/games/toga2 depth=3", ""},
		{"glaurung on one thread", []string{"--dry-run", "glaurung"}, "GLAURUNG_NODES=500", 0, "nodes=500 Threads=1", ""},
		{"glaurung at full strength", []string{"--dry-run", "glaurung"}, "", 0, "name=glaurung uci=/usr/games/glaurung Threads=1", ""},
		{"fairymax from the initial position", []string{"--dry-run", "fairymax"}, "", 0, "--concurrency 1 --pgn tests/ladder-out/fairymax-even.pgn", ""},
		{"the others from the openings", []string{"--dry-run", "glaurung"}, "", 0, "--openings testdata/chess/ladder20.epd", ""},
		{"phalanx by its own NPS limit", []string{"--dry-run", "phalanx"}, "PHALANX_NPS=5000", 0, "cecp=/usr/games/phalanx args='-n 5000'", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var env []string
			env = append(env, strings.Fields(c.env)...)
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
