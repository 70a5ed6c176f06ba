// End-to-end tests of the binary's command line: every subcommand's help, usage errors, refused and honoured
// flags, with the exit codes and streams go and git users expect.

package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCommandLine(t *testing.T) {
	suite := filepath.Join(t.TempDir(), "wac1.epd")
	// A back-rank mate in one: the first iteration solves it however loaded the machine is.
	wac1 := `6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8; id "mate1";` + "\n"
	if err := os.WriteFile(suite, []byte(wac1), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		args     []string
		code     int
		out, err string // what stdout and stderr must contain
	}{
		{"help", []string{"help"}, 0, "usage: dossier [--game", ""},
		{"--help", []string{"--help"}, 0, "dossier help [SUBCOMMAND]", ""},
		{"perft --help", []string{"perft", "--help"}, 0, "usage: dossier perft", ""},
		{"perft -h", []string{"perft", "-h"}, 0, "usage: dossier perft", ""},
		{"help perft", []string{"help", "perft"}, 0, "usage: dossier perft", ""},
		{"bench --help", []string{"bench", "--help"}, 0, "usage: dossier bench", ""},
		{"match --help", []string{"match", "--help"}, 0, "usage: dossier match", ""},
		{"help match", []string{"help", "match"}, 0, "usage: dossier match", ""},
		{"learn --help", []string{"learn", "--help"}, 0, "usage: dossier learn", ""},
		{"help learn", []string{"help", "learn"}, 0, "usage: dossier learn", ""},
		{"help nope", []string{"help", "nope"}, 2, "", `unknown subcommand "nope"`},
		{"unknown subcommand", []string{"nope"}, 2, "", `unknown subcommand "nope"`},
		{"match --bogus", []string{"match", "--bogus"}, 2, "", "unknown flag: --bogus"},
		{"match --games abc", []string{"match", "--games", "abc"}, 2, "", `invalid argument "abc" for "--games"`},
		{"learn --bogus", []string{"learn", "--bogus"}, 2, "", "unknown flag: --bogus"},
		{"bench --game nope", []string{"bench", "--game", "nope"}, 2, "", `unknown game "nope"`},
		{"bench --reference /nonexistent", []string{"bench", "--reference", "/nonexistent"}, 2, "", "--reference"},
		{"bench --search-time -1s", []string{"bench", "--search-time", "-1s"}, 2, "", "--search-time must not be negative"},
		{"bench --suite --repeat", []string{"bench", "--suite", suite, "--repeat", "2"}, 2, "", "--repeat has no effect with --suite"},
		{"perft extra argument", []string{"perft", "--depth", "2", "extra"}, 2, "", `unexpected argument "extra"`},
		{"perft --divide --json", []string{"perft", "--depth", "2", "--divide", "--json"}, 0, `{"move":"e2e4","nodes":20}`, ""},
		{"bench --suite --json", []string{"bench", "--suite", suite, "--suite-time", "300ms", "--json"}, 0, `"solved":1,"total":1`,
			"position 1/1 mate1: solved (played Ra8#); 1 of 1 solved"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runDossier(t, time.Minute, "", c.args...)
			if code != c.code || !strings.Contains(stdout, c.out) || !strings.Contains(stderr, c.err) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
					code, stdout, stderr, c.code, c.out, c.err)
			}
			switch {
			case code != 0 && stdout != "":
				t.Errorf("an error wrote to stdout: %q", stdout)
			case code != 0 && !strings.Contains(stderr, "--help' for details"):
				t.Errorf("a usage error does not say where the usage is: %q", stderr)
			case code == 0 && c.err == "" && stderr != "":
				t.Errorf("exit 0 wrote to stderr: %q", stderr)
			}
			if strings.HasSuffix(c.name, "--json") && code == 0 && !json.Valid([]byte(stdout)) {
				t.Errorf("--json printed %q", stdout)
			}
		})
	}
}
