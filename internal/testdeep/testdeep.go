// Package testdeep says whether the deep tests run: the long replays, deep perft counts, soaks and whole-game
// series that would take `go test ./...` well past five minutes on two cores. They run only when the
// environment sets DOSSIER_DEEP_TESTS=1 (CI's .ci/run does, after the plain run); each keeps a quick
// representative in the plain run (a shallower perft, fewer games), so that no check is lost from it entirely.
package testdeep

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the deep tests on when it is "1".
const Env = "DOSSIER_DEEP_TESTS"

// Enabled reports whether the deep tests run.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Quick reports whether a test that has a quick form and a deep one takes the quick form: under -short, or
// whenever the deep tests do not run.
func Quick() bool { return testing.Short() || !Enabled() }

// Skip skips t unless the deep tests run, saying how to run it.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("a deep test: %s=1 runs it", Env)
	}
}
