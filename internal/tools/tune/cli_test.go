// Tests of the tool's command line: help on stdout, errors on stderr with exit 2 or 1, gen and fit dispatched.

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
		{"help", []string{"--help"}, 0, "usage: tune gen|fit", ""},
		{"fit help", []string{"fit", "-h"}, 0, "--lambda", ""},
		{"gen help", []string{"gen", "--help"}, 0, "--stockfish", ""},
		{"no command", nil, 2, "", "tune: missing arguments"},
		{"unknown command", []string{"tweak"}, 2, "", `tune: unknown command "tweak"`},
		{"unknown flag", []string{"fit", "--bogus"}, 2, "", "tune fit: unknown flag: --bogus"},
		{"go-style flag", []string{"fit", "-in", "x"}, 2, "", "tune fit: unknown shorthand flag"},
		{"extra argument", []string{"fit", "extra"}, 2, "", `tune fit: unexpected argument "extra"`},
		{"bad clip", []string{"fit", "--clip", "0"}, 2, "", "--clip must be positive"},
		{"missing data", []string{"fit", "--in", "/nonexistent.gz"}, 1, "", "tune fit: open /nonexistent.gz"},
		{"gen zero positions", []string{"gen", "--n", "0"}, 2, "", "--n, --depth, --nodes and --every must be at least 1"},
		{"fit help lists adam", []string{"fit", "--help"}, 0, "--result-weight", ""},
		{"unknown method", []string{"fit", "--method", "sgd"}, 2, "", `--method "sgd": want gauss-newton or adam`},
		{"adam flag without adam", []string{"fit", "--epochs", "3"}, 2, "", "--epochs needs --method adam"},
		{"adam zero epochs", []string{"fit", "--method", "adam", "--epochs", "0"}, 2, "", "--epochs must be at least 1"},
		{"adam result weight above 1", []string{"fit", "--method", "adam", "--result-weight", "1.5"}, 2, "", "--result-weight within"},
		{"adam bad final rate", []string{"fit", "--method", "adam", "--final-rate", "2"}, 2, "", "--final-rate"},
		// K depends on the committed weights the fit starts from (0.9x before session 16's fit, 1.00 after).
		{"adam fit", []string{"fit", "--method", "adam", "--fit-k", "--epochs", "20", "--in", "testdata/positions.txt.gz"}, 0,
			"// K = ", ""},
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
