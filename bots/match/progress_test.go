// Tests of the progress reports: plain lines in logs, one redrawn bar on a terminal.

package match

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"dossier/games"
)

func TestProgress(t *testing.T) {
	rec := GameRecord{Number: 3, Names: [2]string{"a", "b"}, Player1: games.First, Result: games.FirstWins,
		Termination: TimeForfeit, Detail: "b lost on time"}
	var sum Summary
	sum.Add(rec)

	t.Run("plain", func(t *testing.T) {
		var out bytes.Buffer
		p := NewProgress(&out, 10, false)
		p.Game(rec, sum)
		p.Done()
		want := "game 3/10 (1 finished): a vs b 1-0 (time forfeit: b lost on time); +1 =0 -0  score 100.0%  elo +inf ± inf\n"
		if out.String() != want {
			t.Errorf("got  %q\nwant %q", out.String(), want)
		}
	})
	t.Run("terminal", func(t *testing.T) {
		var out bytes.Buffer
		p := NewProgress(&out, 4, true)
		p.Game(rec, sum)
		sum.Add(GameRecord{Player1: games.Second, Result: games.Draw, Termination: MoveLimit})
		p.Game(rec, sum)
		p.Done()
		text := out.String()
		if !strings.HasSuffix(text, "\n") || strings.Count(text, "\n") != 1 {
			t.Errorf("want one redrawn line, then a newline: %q", text)
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\r")
		last := lines[len(lines)-1]
		if !strings.Contains(last, "[############............] (2/4)") || !strings.Contains(last, "+1 =1 -0  score 75.0%") {
			t.Errorf("the last drawing lacks the half-full bar or the tally: %q", last)
		}
	})
	t.Run("steps of another run", func(t *testing.T) {
		var plain, drawn bytes.Buffer
		for _, p := range []*Progress{NewProgress(&plain, 3, false), NewProgress(&drawn, 3, true)} {
			p.Step(1, "1 of 1 solved", "position 1/3 WAC.001: solved")
			p.Step(2, "1 of 2 solved", "position 2/3 WAC.002: missed")
			p.Done()
		}
		if want := "position 1/3 WAC.001: solved\nposition 2/3 WAC.002: missed\n"; plain.String() != want {
			t.Errorf("plain: %q, want %q", plain.String(), want)
		}
		lines := strings.Split(strings.TrimSuffix(drawn.String(), "\n"), "\r")
		if last := lines[len(lines)-1]; !strings.Contains(last, "(2/3)") || !strings.Contains(last, "1 of 2 solved") {
			t.Errorf("the last drawing lacks the count or the tally: %q", last)
		}
	})
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
	if f, err := os.CreateTemp(t.TempDir(), "progress"); err == nil {
		if IsTerminal(f) {
			t.Error("a regular file is not a terminal")
		}
		f.Close()
	}
}

func TestLimitsString(t *testing.T) {
	cases := []struct {
		lim  Limits
		want string
	}{
		{Limits{}, "none"},
		{Limits{Depth: 8}, "depth=8"},
		{Limits{Nodes: 5000, MoveTime: 250e6, Clock: TimeControl{Moves: 40, Base: 60e9, Inc: 6e8}}, "nodes=5000 movetime=250 tc=40/60+0.6"},
	}
	for _, c := range cases {
		if got := c.lim.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.lim, got, c.want)
		}
		// The string is a spec fragment that reads back to the same limits.
		if c.want != "none" {
			spec, err := ParseSpec("uci=x " + c.want)
			if err != nil || spec.Limits != c.lim {
				t.Errorf("%q reads back as %+v, %v", c.want, spec.Limits, err)
			}
		}
	}
	if got := (Limits{Depth: 3, Nodes: 9}).Over(Limits{Nodes: 100, MoveTime: 5}); got != (Limits{Depth: 3, Nodes: 100, MoveTime: 5}) {
		t.Errorf("Over: %+v", got)
	}
}
