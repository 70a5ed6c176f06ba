// Tests of the learners' options: what is refused as the command line's fault, the learning player's depth,
// and the comma-separated lists.

package training

import (
	"strconv"
	"strings"
	"testing"

	"dossier/bots/match"
	"dossier/games/connect4"
	"dossier/internal/cli"
)

func TestStrategyOptionsRefused(t *testing.T) {
	ok := StrategyOptions{Records: "r.pgn", Name: "n", MaxDepth: 2, Examples: 20}
	tests := []struct {
		name   string
		change func(*StrategyOptions)
		want   string
	}{
		{"no records", func(o *StrategyOptions) { o.Records = "" }, "--records and --name are required"},
		{"another game", func(o *StrategyOptions) { o.Game = "checkers" }, "--game checkers: the strategy learner reads chess games"},
		{"too deep", func(o *StrategyOptions) { o.MaxDepth = MaxStrategyDepth + 1 }, "--max-depth must be 1.."},
		{"too few examples", func(o *StrategyOptions) { o.Examples = 19 }, "--examples must be at least 20"},
	}
	for _, tc := range tests {
		o := ok
		tc.change(&o)
		if err := o.check(); !cli.IsUsage(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a usage error with %q", tc.name, err, tc.want)
		}
	}
	ok.Game = "Chess"
	if err := ok.check(); err != nil {
		t.Errorf("chess given: %v", err)
	}
}

func TestDiscrepancyOptionsRefused(t *testing.T) {
	ok := DiscrepancyOptions{GameName: "connect4", Player: "depth=2", Opponent: "depth=1", Out: "c.json", Games: 2,
		Concurrency: 1, StartPlies: "2,4", Seed: 1, BandPlies: 6}
	tests := []struct {
		name   string
		change func(*DiscrepancyOptions)
		want   string
	}{
		{"no counts file", func(o *DiscrepancyOptions) { o.Out = "" }, "--player, --opponent and --out are required"},
		{"no games", func(o *DiscrepancyOptions) { o.Games = 0 }, "--games and --concurrency must be at least 1"},
		{"an unknown game", func(o *DiscrepancyOptions) { o.GameName = "go" }, "go"},
		{"bad start plies", func(o *DiscrepancyOptions) { o.StartPlies = "2,x" }, `--start-plies: "x" is not a number`},
		{"bad edges", func(o *DiscrepancyOptions) { o.Edges = "1,y" }, `--edges: "y" is not a number`},
		{"an external player", func(o *DiscrepancyOptions) { o.Player = "uci=/bin/true" }, "must be in-process"},
	}
	for _, tc := range tests {
		o := ok
		tc.change(&o)
		if _, err := o.prepare(); !cli.IsUsage(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a usage error with %q", tc.name, err, tc.want)
		}
	}
	run, err := ok.prepare()
	if err != nil || len(run.cfg.Openings) == 0 || run.player.Depth != 2 {
		t.Errorf("prepared %+v, %v", run, err)
	}
}

func TestLearnerDepth(t *testing.T) {
	g := connect4.Game{}
	if d, err := learnerDepth(g, match.PlayerSpec{Depth: 5}, 3); err != nil || d != 5 {
		t.Errorf("the spec's depth: %d, %v", d, err)
	}
	if d, err := learnerDepth(g, match.PlayerSpec{}, 1); err != nil || d != 1 {
		t.Errorf("a limit below the preset's depth: %d, %v", d, err)
	}
}

func TestParseList(t *testing.T) {
	if got, err := parseList(" 1, 2 ,3", strconv.Atoi); err != nil || len(got) != 3 || got[2] != 3 {
		t.Errorf("parseList = %v, %v", got, err)
	}
	if _, err := parseList("1,,2", strconv.Atoi); err == nil {
		t.Error("an empty field was read")
	}
}
