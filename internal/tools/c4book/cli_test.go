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
		{"help", []string{"--help"}, 0, "usage: c4book", ""},
		{"short help", []string{"-h"}, 0, "--leaf-nodes", ""},
		{"unknown flag", []string{"--bogus"}, 2, "", "c4book: unknown flag: --bogus"},
		{"go-style flag", []string{"-leaf-nodes", "5"}, 2, "", "c4book: unknown shorthand flag"},
		{"extra argument", []string{"book.bin"}, 2, "", `c4book: unexpected argument "book.bin"`},
		{"zero leaf nodes", []string{"--leaf-nodes", "0"}, 2, "", "--leaf-nodes, --leaf-mb and --table-mb must be positive"},
		{"missing book to reuse", []string{"--reuse", "/nonexistent.bin"}, 2, "", "--reuse"},
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
