// Tests of the shared command-line plumbing: exit codes, streams, argument counts, refused flags.

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// newTestCommand returns a command with one int flag and one string flag, writing to the buffers.
func newTestCommand(stdout, stderr *bytes.Buffer) (*Command, *int) {
	c := New("tool sub", "usage: tool sub [--n N] [ARG]\n\nDoes a thing.", stdout, stderr)
	n := c.Flags.Int("n", 1, "how many")
	c.Flags.String("mode", "", "a mode")
	return c, n
}

func TestParse(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		min, max int
		code     int
		stop     bool
		out, err string
	}{
		{"flags and an argument", []string{"--n", "3", "a"}, 0, 1, ExitOK, false, "", ""},
		{"long help", []string{"--help"}, 0, 0, ExitOK, true, "usage: tool sub [--n N] [ARG]\n\nDoes a thing.\n\noptions:\n      --n int", ""},
		{"short help after a flag", []string{"--n", "2", "-h"}, 0, 0, ExitOK, true, "Does a thing.", ""},
		{"unknown flag", []string{"--bogus"}, 0, 0, ExitUsage, true, "", "tool sub: unknown flag: --bogus\nusage: tool sub [--n N] [ARG]\nRun 'tool sub --help' for details.\n"},
		{"bad value", []string{"--n", "x"}, 0, 0, ExitUsage, true, "", `tool sub: invalid argument "x" for "--n" flag`},
		{"missing value", []string{"--n"}, 0, 0, ExitUsage, true, "", "flag needs an argument: --n"},
		{"extra argument", []string{"a", "b"}, 0, 1, ExitUsage, true, "", `tool sub: unexpected argument "b"`},
		{"no argument allowed", []string{"a"}, 0, 0, ExitUsage, true, "", `tool sub: unexpected argument "a"`},
		{"missing argument", nil, 1, -1, ExitUsage, true, "", "missing arguments: want at least 1, got 0"},
		{"any number", []string{"a", "b", "c"}, 1, -1, ExitOK, false, "", ""},
		{"after --", []string{"--", "--n"}, 1, 1, ExitOK, false, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd, _ := newTestCommand(&stdout, &stderr)
			code, stop := cmd.Parse(c.args, c.min, c.max)
			if code != c.code || stop != c.stop {
				t.Errorf("Parse = %d, %v; want %d, %v", code, stop, c.code, c.stop)
			}
			if !strings.Contains(stdout.String(), c.out) || (c.out == "" && stdout.Len() > 0) {
				t.Errorf("stdout %q, want %q", stdout.String(), c.out)
			}
			if !strings.Contains(stderr.String(), c.err) || (c.err == "" && stderr.Len() > 0) {
				t.Errorf("stderr %q, want %q", stderr.String(), c.err)
			}
		})
	}
}

func TestRefuseAndFail(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cmd, n := newTestCommand(&stdout, &stderr)
	if _, stop := cmd.Parse([]string{"--mode", "x"}, 0, 0); stop {
		t.Fatal("Parse stopped on a good command line")
	}
	if *n != 1 || cmd.Changed("n") || !cmd.Changed("mode") {
		t.Errorf("n %d changed %v, mode changed %v", *n, cmd.Changed("n"), cmd.Changed("mode"))
	}
	if code, stop := cmd.Refuse("in this mode", "n"); stop || code != ExitOK || stderr.Len() > 0 {
		t.Errorf("refused an unset flag: %d %v %q", code, stop, stderr.String())
	}
	if code, stop := cmd.Refuse("in this mode", "n", "mode"); !stop || code != ExitUsage ||
		!strings.HasPrefix(stderr.String(), "tool sub: --mode has no effect in this mode\n") {
		t.Errorf("Refuse = %d %v, stderr %q", code, stop, stderr.String())
	}
	stderr.Reset()
	if code := cmd.Fail("disk %s", "full"); code != ExitFailure || stderr.String() != "tool sub: disk full\n" {
		t.Errorf("Fail = %d, stderr %q", code, stderr.String())
	}
	if stdout.Len() > 0 {
		t.Errorf("errors wrote to stdout: %q", stdout.String())
	}
}

// FuzzParse checks that no command line makes Parse panic, and that every outcome follows the rules: help on
// stdout with ExitOK, errors on stderr with ExitUsage, nothing written when parsing succeeds.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{"--n 3 a", "--help", "-h", "--bogus", "--n=x", "-- --n", "--mode", "-nh", "a b c", "---"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if !utf8.ValidString(line) {
			return
		}
		var stdout, stderr bytes.Buffer
		cmd, _ := newTestCommand(&stdout, &stderr)
		code, stop := cmd.Parse(strings.Fields(line), 0, 1)
		switch {
		case !stop:
			if code != ExitOK || stdout.Len()+stderr.Len() > 0 {
				t.Errorf("%q: went on with code %d, stdout %q, stderr %q", line, code, stdout.String(), stderr.String())
			}
		case code == ExitOK:
			if !strings.HasPrefix(stdout.String(), "usage: tool sub") || stderr.Len() > 0 {
				t.Errorf("%q: help wrote stdout %q, stderr %q", line, stdout.String(), stderr.String())
			}
		case code == ExitUsage:
			if !strings.HasPrefix(stderr.String(), "tool sub: ") || stdout.Len() > 0 {
				t.Errorf("%q: usage error wrote stdout %q, stderr %q", line, stdout.String(), stderr.String())
			}
		default:
			t.Errorf("%q: Parse returned %d", line, code)
		}
	})
}

func TestExit(t *testing.T) {
	var stdout, stderr bytes.Buffer
	c, _ := newTestCommand(&stdout, &stderr)
	if code := c.Exit(nil); code != ExitOK || stderr.Len() != 0 {
		t.Errorf("Exit(nil) = %d, stderr %q", code, stderr.String())
	}
	if code := c.Exit(fmt.Errorf("wrapped: %w", Usagef("--n %d is too big", 9))); code != ExitUsage ||
		!strings.HasPrefix(stderr.String(), "tool sub: wrapped: --n 9 is too big\nusage: tool sub") {
		t.Errorf("a usage error: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	if code := c.Exit(errors.New("disk full")); code != ExitFailure || stderr.String() != "tool sub: disk full\n" {
		t.Errorf("a failure: exit %d, stderr %q", code, stderr.String())
	}
}
