// Package tests drives the built dossier binary end to end, alone and against real external programs.
package tests

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"dossier/internal/pgtest"
)

// dossierBin is the binary built once for the whole package by TestMain.
var dossierBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dossier-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dossierBin = filepath.Join(dir, "dossier")
	// Every dossier these tests start keeps its memory here, never in the user's own.
	if err := os.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	build := exec.Command("go", "build", "-o", dossierBin, "../cmd/dossier")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building dossier:", err)
		os.Exit(1)
	}
	code := m.Run()
	pgtest.Stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runDossier runs the binary with args and stdin, failing the test after the timeout, and returns stdout,
// stderr and the exit code.
func runDossier(t *testing.T, timeout time.Duration, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(dossierBin, args...)
	cmd.Stdin = bytes.NewBufferString(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting dossier: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("running dossier %v: %v", args, err)
		}
		return out.String(), errb.String(), code
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		t.Fatalf("dossier %v did not finish within %v; stdout so far:\n%s", args, timeout, out.String())
	}
	return "", "", -1
}

// requirePeer returns the path of an external program, skipping the test when it is missing, except in CI
// (CI=true), where .ci/run installs every peer and a missing one is a failure.
func requirePeer(t *testing.T, path string) string {
	t.Helper()
	if _, err := exec.LookPath(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing in CI: .ci/run should have installed it", path)
		}
		t.Skipf("%s is not installed (apt-get install stockfish polyglot fairymax phalanx xboard xvfb)", path)
	}
	return path
}
