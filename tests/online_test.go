// Tests of tests/online.sh: its command line, the series it would run in the conditions of online play, and its
// summary of fixed game records and memory logs.

package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOnlineScript(t *testing.T) {
	cases := []scriptCase{
		{"no opponent", nil, nil, 2, nil, []string{"usage: tests/online.sh"}, ""},
		{"unknown opponent", []string{"--dry-run", "nope"}, nil, 2, nil, []string{`unknown opponent "nope"`}, ""},
		{"bad games", []string{"--dry-run", "toga2"}, []string{"GAMES=x"}, 2, nil, []string{"GAMES must be a positive number"}, ""},
		{"bad series", []string{"--dry-run", "toga2"}, []string{"SERIES=mem all"}, 2, nil, []string{`SERIES may hold mem and nomem, not "all"`}, ""},
		// Online conditions: one dossier process a game, the opponent's own book, each series on a core of its own.
		{"online conditions", []string{"--dry-run", "toga2"}, []string{"GAMES=8"}, 0, []string{
			"== toga2-mem: taskset -c 0 ", "== toga2-nomem: taskset -c 1 ", "arg=--memory arg=", "arg=--no-memory restart=on",
			"restart=on option.Hash=16 tc=2+0.05 -engine name=toga2 cmd=/usr/games/toga2 option.OwnBook=false option.Hash=16 tc=2+0.05 book=",
			"bookdepth=8", "-each proto=uci -games 8 -recover"}, nil, ""},
		// The memory series' own options, and memory study beside it on a core of its own.
		{"memory study beside the memory series", []string{"--dry-run", "toga2"},
			[]string{"MEM_OPTIONS=option.PrepareTime=5", "STUDY_CORE=1", "SERIES=mem", "CORES=0"}, 0,
			[]string{"== toga2-mem: taskset -c 0 ", "arg=info option.PrepareTime=5 restart=on",
				"== toga2-study: taskset -c 1 ", "/dossier memory study --follow --memory ", "/toga2-mem-memory\n"},
			nil, "toga2-nomem"},
		// Each engine's clock in its own options: cutechess-cli's -each would override Ethereal's.
		{"a clock and a shorter one for Ethereal", []string{"--dry-run", "ethereal"}, []string{"TC=8+0.08"}, 0,
			[]string{"restart=on option.Hash=16 tc=8+0.08 -engine", "-each proto=uci -games 80",
				"name=ethereal cmd=/usr/games/ethereal-chess option.Threads=1 option.Hash=16 tc=1+0.03 book="},
			nil, "-each proto=uci tc="},
	}
	checkScriptCases(t, "online.sh", cases)
}

// onlinePGN is two games as cutechess-cli writes them: the opponent's book moves, then comments with
// the score and depth of each move. dossier-mem wins the first as White (depths 10 and 12) and draws the
// second as Black (depths 8 and 8), lost on time by its opponent, and loses the third as White on time (depth 6).
const onlinePGN = `[Event "?"]
[White "dossier-mem"]
[Black "toga2"]
[Result "1-0"]

1. e4 {book} e5 {book} 2. Nf3 {+0.30/10 0.05s} Nc6 {-0.20/12 0.05s} 3. Bb5 {+0.40/12 0.05s} a6 {-0.30/11 0.05s} 1-0

[Event "?"]
[White "toga2"]
[Black "dossier-mem"]
[Termination "time forfeit"]
[Result "1/2-1/2"]

1. d4 {book} d5 {+0.10/8 0.05s} 2. c4 {+0.20/14 0.05s} e6 {-0.10/8 0.05s} 1/2-1/2

[Event "?"]
[White "dossier-mem"]
[Black "toga2"]
[Termination "time forfeit"]
[Result "0-1"]

1. e4 {+0.10/6 0.05s} c5 {book, White loses on time} 0-1
`

func TestOnlineScriptSummary(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "toga2-mem.pgn"), []byte(onlinePGN), 0o644); err != nil {
		t.Fatal(err)
	}
	log := "2026-11-28T13:28:56.872Z\tinfo\tmemory in the game\t{\"score\": 1, \"memory_on_clock\": 0.0005, \"memory_on_clock_max\": 0.0002, \"background_cpu\": 0.25}\n" +
		"2026-11-28T13:29:50.000Z\twarn\ta search of ours spent long outside its search\t{\"ply\": 7, \"total\": 0.0251}\n" +
		"2026-11-28T13:29:56.872Z\tinfo\tmemory in the game\t{\"score\": 0.5, \"memory_on_clock\": 0.0015, \"memory_on_clock_max\": 0.0251, \"background_cpu\": 0.75}\n"
	if err := os.WriteFile(filepath.Join(out, "toga2-mem.log.jsonl"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runTestScript(t, "online.sh", []string{"OUT=" + out, "GAMES=3"}, "--summary", "toga2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"toga2     mem    white    2 games +1 =0 -1   50.0%",
		"toga2     mem    black    1 games +0 =1 -0   50.0%",
		"toga2     mem    both     3 games +1 =1 -1   50.0%",
		"mean depth of dossier's moves 8.80 over 5 moves; losses on time 1 (the opponent's 1)", // (10 + 12 + 8 + 8 + 6) / 5
		"memory per game (2 games logged): 1.0 ms on our clock, 0.50 s of background CPU (off our clock); longest search outside its search proper 25.1 ms, 1 searches over 20 ms",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
}
