// Running the scripts of tests/ from their tests: one runner for all of them.

package tests

import (
	"bytes"
	"os"
	"os/exec"
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
