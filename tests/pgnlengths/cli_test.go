// Tests of the tool's command line: help on stdout, errors on stderr with exit 2 or 1.

package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestCommandLine(t *testing.T) {
	cases := []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"help", []string{"--help"}, 0, "usage: go run ./tests/pgnlengths", ""},
		{"short help", []string{"-h"}, 0, "--opponent", ""},
		{"unknown flag", []string{"--bogus", "a", "b"}, 2, "", "pgnlengths: unknown flag: --bogus"},
		{"go-style flag", []string{"-opponent", "x", "a", "b"}, 2, "", "pgnlengths: unknown shorthand flag"},
		{"one file", []string{"a.pgn"}, 2, "", "missing arguments"},
		{"three files", []string{"a.pgn", "b.pgn", "c.pgn"}, 2, "", `unexpected argument "c.pgn"`},
		{"missing file", []string{"/nonexistent/a.pgn", "/nonexistent/b.pgn"}, 1, "", "/nonexistent/a.pgn"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, &stdout, &stderr)
			if code != c.code || !strings.Contains(stdout.String(), c.out) || !strings.Contains(stderr.String(), c.err) ||
				(c.out == "" && stdout.Len() > 0) || (c.err == "" && stderr.Len() > 0) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout.String(), stderr.String(), c.code, c.out, c.err)
			}
		})
	}
}
