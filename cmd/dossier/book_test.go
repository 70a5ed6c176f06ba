// The book subcommand: a book made from the test games, shown, and the errors of bad arguments.

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBookMakeAndShow(t *testing.T) {
	out := filepath.Join(t.TempDir(), "made.bin")
	code, stdout, stderr := runCase([]string{"book", "make", "--plies", "6", "--min-games", "2", "--out", out,
		"../../testdata/chess/8moves_v3_200.pgn.gz"}, "")
	if code != 0 || !strings.Contains(stdout, "entries from 200 games") {
		t.Fatalf("make: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runCase([]string{"book", "show", out}, "")
	if code != 0 || !strings.Contains(stdout, "made.bin: ") || !strings.Contains(stdout, "e2e4 weight ") {
		t.Fatalf("show: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = runCase([]string{"book", "show", out, "--moves", "e2e4 c7c5"}, "")
	if code != 0 || !strings.Contains(stdout, " weight ") {
		t.Fatalf("show after 1.e4 c5: exit %d, stdout %q", code, stdout)
	}
	code, stdout, _ = runCase([]string{"book", "show"}, "")
	if code != 0 || !strings.Contains(stdout, "chess repertoire: ") || !strings.Contains(stdout, "%)") {
		t.Fatalf("show of the repertoire: exit %d, stdout %q", code, stdout)
	}

	bad := filepath.Join(t.TempDir(), "bad.bin")
	if err := os.WriteFile(bad, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args    []string
		code    int
		errText string
	}{
		{[]string{"book"}, 2, "want book make or book show"},
		{[]string{"book", "make", "x.pgn"}, 2, "--out is required"},
		{[]string{"book", "make", "--out", out}, 2, "missing arguments"},
		{[]string{"book", "make", "--out", out, "--weight", "elo", "x.pgn"}, 2, `--weight "elo"`},
		{[]string{"book", "make", "--out", out, "/nonexistent.pgn"}, 1, "nonexistent.pgn"},
		{[]string{"book", "make", "--game", "connect4", "--out", out, "../../testdata/chess/8moves_v3_200.pgn.gz"}, 1, "no record format"},
		{[]string{"book", "show", bad}, 1, "not a multiple of 16"},
		{[]string{"book", "show", "--game", "tictactoe"}, 1, "no built-in repertoire"},
		{[]string{"book", "show", "--moves", "e2e5"}, 2, "--moves"},
	} {
		code, _, stderr := runCase(c.args, "")
		if code != c.code || !strings.Contains(stderr, c.errText) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d with %q", c.args, code, stderr, c.code, c.errText)
		}
	}
}
