// Tests of the player spec and time control parsers, and of the clock.

package match

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseSpec(t *testing.T) {
	cases := []struct {
		text string
		want PlayerSpec
	}{
		{"preset=strongest depth=8", PlayerSpec{Preset: "strongest", Depth: 8, Limits: Limits{Depth: 8}}},
		{"preset=mat-tot25 depth=4 search=alphabeta", PlayerSpec{Preset: "mat-tot25", Search: "alphabeta", Depth: 4,
			Limits: Limits{Depth: 4}}},
		{"  Preset=strongest   HASH=64 threads=2 contempt=-12.5 name='my bot' ", PlayerSpec{Name: "my bot",
			Preset: "strongest", HashMB: 64, Threads: 2, Contempt: -12.5}},
		{"depth=3", PlayerSpec{Depth: 3, Limits: Limits{Depth: 3}}},
		{"memory=/tmp/m log=/tmp/m.jsonl", PlayerSpec{Memory: "/tmp/m", Log: "/tmp/m.jsonl"}},
		{"memory=/tmp/m prepare=30", PlayerSpec{Memory: "/tmp/m", Prepare: 30}},
		{"preset=mat-tot25 search=mstar model=mat-tot25@3", PlayerSpec{Preset: "mat-tot25", Search: "mstar",
			Model: "mat-tot25@3"}},
		{"search=om model=mat-tot25@1 risk=0", PlayerSpec{Search: "om", Model: "mat-tot25@1", Guarded: true}},
		{"search=om risk=75", PlayerSpec{Search: "om", ModelRisk: 75, Guarded: true}},
		{"memory=/tmp/m memoryrisk=0", PlayerSpec{Memory: "/tmp/m", MemoryRiskSet: true}},
		{"memory=/tmp/m memorycontempt=on", PlayerSpec{Memory: "/tmp/m", MemoryContempt: true}},
		{"memory=/tmp/m memorycontempt=OFF", PlayerSpec{Memory: "/tmp/m"}},
		{"memory=/tmp/m MemoryRisk=400", PlayerSpec{Memory: "/tmp/m", MemoryRisk: 400, MemoryRiskSet: true}},
		{`search=prom MODEL="strongest:0.5, materialist:0.3, attacker:0.2"`, PlayerSpec{Search: "prom",
			Model: "strongest:0.5, materialist:0.3, attacker:0.2"}},
		{`mix="materialist:0.7, attacker:0.3" depth=2`, PlayerSpec{Mix: "materialist:0.7, attacker:0.3", Depth: 2,
			Limits: Limits{Depth: 2}}},
		{"preset=strongest tc=40/60+0.6 nodes=5000 movetime=250", PlayerSpec{Preset: "strongest", Limits: Limits{
			Nodes: 5000, MoveTime: 250 * time.Millisecond, Clock: TimeControl{Moves: 40, Base: time.Minute, Inc: 600 * time.Millisecond}}}},
		{"uci=/usr/games/stockfish UCI_LimitStrength=true UCI_Elo=2000", PlayerSpec{Command: "/usr/games/stockfish", Protocol: UCI,
			Options: []UCIOption{{"UCI_LimitStrength", "true"}, {"UCI_Elo", "2000"}}}},
		{`depth=4 uci=/bin/engine "Skill Level=5" name=sf args="--a b" SyzygyPath=`, PlayerSpec{Name: "sf",
			Command: "/bin/engine", Protocol: UCI, Args: []string{"--a", "b"}, Limits: Limits{Depth: 4},
			Options: []UCIOption{{"Skill Level", "5"}, {"SyzygyPath", ""}}}},
		{"uci=x Hash=64 Threads=2", PlayerSpec{Command: "x", Protocol: UCI, Options: []UCIOption{{"Hash", "64"}, {"Threads", "2"}}}},
		{"uci=x restart=on", PlayerSpec{Command: "x", Protocol: UCI, Restart: true}},
		{"uci=x randommoves=2", PlayerSpec{Command: "x", Protocol: UCI, RandomMoves: 2}},
		{"preset=a RandomMoves=3", PlayerSpec{Preset: "a", RandomMoves: 3}},
		{"uci=x book=b.bin bookdepth=4", PlayerSpec{Command: "x", Protocol: UCI, Book: "b.bin", BookDepth: 4}},
		{"preset=a book=b.bin ownbook=on", PlayerSpec{Preset: "a", Book: "b.bin", OwnBook: "on"}},
		{"cecp=x restart=OFF", PlayerSpec{Command: "x", Protocol: CECP}},
		{"cecp=/usr/games/fairymax 'Resign Threshold=900' args=-x tc=5+0.1", PlayerSpec{Command: "/usr/games/fairymax",
			Protocol: CECP, Args: []string{"-x"}, Options: []UCIOption{{"Resign Threshold", "900"}},
			Limits: Limits{Clock: TimeControl{Base: 5 * time.Second, Inc: 100 * time.Millisecond}}}},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			got, err := ParseSpec(c.text)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
			if got.External() != (c.want.Command != "") {
				t.Errorf("External() = %v", got.External())
			}
		})
	}
}

func TestParseSpecErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"", "empty player spec"},
		{"   ", "empty player spec"},
		{"preset", `"preset" is not key=value`},
		{"=5", `"=5" is not key=value`},
		{"preset=a frob=1", `unknown key "frob"`},
		{"memory=/tmp/m log=", "log needs a value"},
		{"memory=/tmp/m prepare=0", `"0" is not a whole number in 1..3600`},
		{"preset=a depth=0", `"0" is not a whole number in 1..1000`},
		{"search=om risk=-1", `risk "-1" is not a whole number in 0..10000`},
		{"search=om risk=off", `risk "off" is not a whole number in 0..10000`},
		{"memory=/tmp/m memoryrisk=-5", `memoryrisk "-5" is not a whole number in 0..10000`},
		{"memory=/tmp/m memorycontempt=maybe", `memorycontempt "maybe" is not on or off`},
		{"uci=x restart=sometimes", `restart "sometimes" is not on or off`},
		{"preset=a restart=on", `unknown key "restart"`},
		{"uci=x randommoves=0", `"0" is not a whole number in 1..1000`},
		{"preset=a randommoves=two", `"two" is not a whole number in 1..1000`},
		{"preset=a depth=x", `"depth=x"`},
		{"preset=a depth=3 depth=4", `"depth" given twice`},
		{"preset=a model=", `"model=": model needs a value`},
		{"preset=a model=x model=y", `"model" given twice`},
		{"preset=a nodes=-5", `nodes "-5"`},
		{"preset=a movetime=1.5", `"1.5" is not a whole number`},
		{"preset=a contempt=NaN", `contempt "NaN"`},
		{"preset=a tc=40/", `time control "40/"`},
		{"preset=a tc=0+1", "not positive"},
		{"preset= depth=2", "preset needs a value"},
		{"uci=", "uci needs a value"},
		{"cecp=", "cecp needs a value"},
		{"uci=a cecp=b", "not both"},
		{"uci=x name='open", "never closed"},
		{"preset=a hash=0", `hash=0`},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			_, err := ParseSpec(c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestParseTimeControl(t *testing.T) {
	cases := []struct {
		text string
		want TimeControl
		str  string
	}{
		{"40/60+0.6", TimeControl{Moves: 40, Base: 60 * time.Second, Inc: 600 * time.Millisecond}, "40/60+0.6"},
		{"60+0.6", TimeControl{Base: 60 * time.Second, Inc: 600 * time.Millisecond}, "60+0.6"},
		{"10+0.1", TimeControl{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, "10+0.1"},
		{"5", TimeControl{Base: 5 * time.Second}, "5"},
		{"0.5+0", TimeControl{Base: 500 * time.Millisecond}, "0.5"},
		{"1:30+2", TimeControl{Base: 90 * time.Second, Inc: 2 * time.Second}, "90+2"},
		{" 40/2:00 ", TimeControl{Moves: 40, Base: 120 * time.Second}, "40/120"},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			got, err := ParseTimeControl(c.text)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || got.String() != c.str {
				t.Errorf("got %+v (%s), want %+v (%s)", got, got, c.want, c.str)
			}
		})
	}
}

func TestParseTimeControlErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"", "empty"},
		{"0", "not positive"},
		{"x/60", `moves "x"`},
		{"0/60", `moves "0"`},
		{"40/", `time "" is not a number`},
		{"60+", `increment "" is not a number`},
		{"60+-1", `increment "-1"`},
		{"1e3", `"1e3" is not a number`},
		{"Inf", `"Inf" is not a number`},
		{"60+1:00", `increment "1:00": want seconds`},
		{"x:10", `minutes "x"`},
		{"999999999", "longer than a week"},
		{"1.2.3", `"1.2.3" is not a number`},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			_, err := ParseTimeControl(c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestClock(t *testing.T) {
	t.Run("repeating period", func(t *testing.T) {
		c := NewClock(TimeControl{Moves: 2, Base: 10 * time.Second, Inc: time.Second})
		steps := []struct {
			elapsed   time.Duration
			toGo      int
			remaining time.Duration
		}{
			{3 * time.Second, 2, 8 * time.Second},  // 10 - 3 + 1
			{2 * time.Second, 1, 17 * time.Second}, // 8 - 2 + 1, then + 10 for the next 2 moves
			{0, 2, 18 * time.Second},
		}
		for i, s := range steps {
			if got := c.MovesToGo(); got != s.toGo {
				t.Fatalf("step %d: moves to go %d, want %d", i, got, s.toGo)
			}
			if !c.Punch(s.elapsed, 0) {
				t.Fatalf("step %d: flag fell", i)
			}
			if c.Remaining() != s.remaining {
				t.Fatalf("step %d: remaining %v, want %v", i, c.Remaining(), s.remaining)
			}
		}
	})
	t.Run("flag and margin", func(t *testing.T) {
		c := NewClock(TimeControl{Base: time.Second})
		if c.MovesToGo() != 0 {
			t.Errorf("sudden death has moves to go %d", c.MovesToGo())
		}
		if !c.Punch(1050*time.Millisecond, 100*time.Millisecond) {
			t.Fatal("flag fell within the margin")
		}
		if c.Remaining() != 0 {
			t.Errorf("an overdrawn clock within the margin shows %v, want 0", c.Remaining())
		}
		if c.Punch(101*time.Millisecond, 100*time.Millisecond) {
			t.Error("flag stayed up past the margin")
		}
	})
}

func TestSpecErrorsHideURLPasswords(t *testing.T) {
	for _, text := range []string{
		"postgres://me:s3cret@db.example/dossier",
		"preset=strongest bogus=postgres://me:s3cret@db.example/dossier",
		"uci=/bin/true cecp=postgres://me:s3cret@db.example/x",
	} {
		_, err := ParseSpec(text)
		if err == nil {
			t.Errorf("%q: no error", text)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "me@db.example") {
			t.Errorf("%q: error %q shows the password or hides the URL", text, err)
		}
	}
	if got := shownToken("memory=postgresql://u:p%40ss@h:5432/d?sslmode=disable"); got != "memory=postgresql://u@h:5432/d?sslmode=disable" {
		t.Errorf("shown %q", got)
	}
}
