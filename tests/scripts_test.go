// Running the scripts of tests/ from their tests: one runner for all of them.

package tests

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runTestScript runs the script name of tests/ (ladder.sh, ...) with bash, args and the environment plus env, and
// returns its exit code, stdout and stderr; the test is skipped without bash and fails when bash cannot run.
func runTestScript(t *testing.T, name string, env []string, args ...string) (int, string, string) {
	t.Helper()
	bash := requirePeer(t, "bash")
	cmd := exec.Command(bash, append([]string{name}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// scriptCase is one run of a script of tests/ and what it must give: its exit code, what its stdout and stderr
// must hold, and what its stdout must not hold ("": nothing).
type scriptCase struct {
	name     string
	args     []string
	env      []string
	code     int
	out, err []string
	without  string
}

// checkScriptCases runs the script name of tests/ once a case, each with an output folder of its own (OUT, a
// temporary directory, so that a dry run's files stay out of the tree), and checks what the case says.
func checkScriptCases(t *testing.T, name string, cases []scriptCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runTestScript(t, name, append([]string{"OUT=" + t.TempDir()}, c.env...), c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout, stderr)
			}
			for _, want := range c.out {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			for _, want := range c.err {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if c.without != "" && strings.Contains(stdout, c.without) {
				t.Errorf("stdout holds %q:\n%s", c.without, stdout)
			}
		})
	}
}
