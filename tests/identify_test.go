// Tests of tests/identify.sh's command line: unknown phases and engines refused, every engine and phase
// planned, the held-out games kept out of the memory, output ignored by git.

package tests

import (
	"os"
	"strings"
	"testing"
)

func TestIdentifyScript(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		env      string
		code     int
		out, err string
	}{
		{"no phase", nil, "", 2, "", "usage: tests/identify.sh"},
		{"unknown phase", []string{"--dry-run", "nope"}, "", 2, "", `unknown phase "nope"`},
		{"unknown engine", []string{"--dry-run", "train"}, "ENGINES=sf1350 crafty", 2, "", `unknown engine "crafty"`},
		{"help", []string{"--help"}, "", 0, "usage: tests/identify.sh", ""},
		{"training files the engine's games", []string{"--dry-run", "train"}, "", 0,
			"--player1 name=dossier preset=strongest memory=", ""},
		{"every engine is trained", []string{"--dry-run", "train"}, "", 0, "--player2 name=phalanx cecp=/usr/games/phalanx", ""},
		{"fairymax plays from the initial position", []string{"--dry-run", "train"}, "ENGINES=fairymax", 0,
			"--concurrency 1 --max-moves 120", ""},
		{"identify names the side", []string{"--dry-run", "identify"}, "ENGINES=toga2", 0,
			"memory identify --memory", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := []string{"OUT=" + t.TempDir()}
			if c.env != "" {
				env = append(env, c.env)
			}
			code, stdout, stderr := runTestScript(t, "identify.sh", env, c.args...)
			if code != c.code || !strings.Contains(stdout, c.out) || !strings.Contains(stderr, c.err) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, c.code, c.out, c.err)
			}
		})
	}
	// The held-out games are played without memory: otherwise the identifier would find them stored.
	code, out, stderr := runTestScript(t, "identify.sh", []string{"OUT=" + t.TempDir()}, "--dry-run", "heldout")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(out, "== "); n != 11 || strings.Contains(out, "memory=") {
		t.Errorf("held-out matches: %d planned (want 11), memory given: %v\n%s", n, strings.Contains(out, "memory="), out)
	}
	ignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+string(ignore)+"\n", "\n/tests/identify-out/\n") {
		t.Error(".gitignore lacks /tests/identify-out/, the script's output folder")
	}
}
