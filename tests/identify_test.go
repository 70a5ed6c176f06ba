// Tests of tests/identify.sh's command line: unknown phases and engines refused, every engine and phase
// planned, the held-out games kept out of the memory, output ignored by git.
package tests

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestIdentifyScript(t *testing.T) {
	bash := requirePeer(t, "bash")
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
			cmd := exec.Command(bash, append([]string{"identify.sh"}, c.args...)...)
			cmd.Env = append(os.Environ(), "OUT="+t.TempDir())
			if c.env != "" {
				cmd.Env = append(cmd.Env, c.env)
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code || !strings.Contains(stdout.String(), c.out) || !strings.Contains(stderr.String(), c.err) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout.String(), stderr.String(), c.code, c.out, c.err)
			}
		})
	}
	// The held-out games are played without memory: otherwise the identifier would find them stored.
	cmd := exec.Command(bash, "identify.sh", "--dry-run", "heldout")
	cmd.Env = append(os.Environ(), "OUT="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "== "); n != 11 || strings.Contains(string(out), "memory=") {
		t.Errorf("held-out matches: %d planned (want 11), memory given: %v\n%s", n, strings.Contains(string(out), "memory="), out)
	}
	ignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+string(ignore)+"\n", "\n/tests/identify-out/\n") {
		t.Error(".gitignore lacks /tests/identify-out/, the script's output folder")
	}
}
