// Tests of tests/tournaments.sh's command line: unknown names refused, every experiment defined, output ignored by git.

package tests

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// runScript runs tournaments.sh with args and OUT set to out, and returns stdout, stderr and the exit code.
func runScript(t *testing.T, out string, args ...string) (string, string, int) {
	t.Helper()
	code, stdout, stderr := runTestScript(t, "tournaments.sh", []string{"OUT=" + out}, args...)
	return stdout, stderr, code
}

func TestTournamentsScript(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"no name", nil, 2, "", "usage: tests/tournaments.sh"},
		{"unknown name", []string{"nope"}, 2, "", `unknown experiment "nope"`},
		{"unknown after a known one", []string{"--dry-run", "sf2000", "nope"}, 2, "", `unknown experiment "nope"`},
		{"a helper is not an experiment", []string{"--dry-run", "run"}, 2, "", `unknown experiment "run"`},
		{"help", []string{"--help"}, 0, "NAME: all, or one of:", ""},
		{"every experiment", []string{"--dry-run", "all", "om-time"}, 0, "== sf2000: dossier match --game chess", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			stdout, stderr, code := runScript(t, out, c.args...)
			if code != c.code || !strings.Contains(stdout, c.out) || !strings.Contains(stderr, c.err) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, c.code, c.out, c.err)
			}
			if code == 2 && stdout != "" {
				t.Errorf("a usage error wrote to stdout: %q", stdout)
			}
		})
	}

	// Results go to the script's default folder unless OUT says otherwise: git must ignore it.
	script, err := os.ReadFile("tournaments.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^OUT=\$\{OUT:-([^}]+)\}`).FindSubmatch(script)
	if m == nil {
		t.Fatal("tournaments.sh sets no default OUT")
	}
	ignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if want := "/" + string(m[1]) + "/"; !strings.Contains("\n"+string(ignore)+"\n", "\n"+want+"\n") {
		t.Errorf(".gitignore lacks %s, the script's default output folder", want)
	}
}
