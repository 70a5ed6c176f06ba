// Options through the built binary: errors quote a bounded part of what was sent, options are checked when
// they are set, the Preset list follows the game, and a preset's own depth says why a search stopped early.

package tests

import (
	"strings"
	"testing"
	"time"
)

func TestOptionErrorsAreBounded(t *testing.T) {
	p := startDossier(t, "--no-memory")
	huge := strings.TrimSuffix(strings.Repeat("strongest:0.5,", 60000), ",")
	p.send("setoption name Search value prom", "setoption name OpponentModel value "+huge, "isready")
	lines := p.expectLine(30*time.Second, "readyok")
	var errs []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string error") {
			errs = append(errs, l)
		}
	}
	if len(errs) != 1 || len(errs[0]) > 1100 {
		t.Fatalf("errors for a model of 60,000 terms: %d lines, the first %d bytes", len(errs), len(errs[0]))
	}
	p.send("quit")
	p.wait(10 * time.Second)
}

func TestOptionsCheckedAtSetoption(t *testing.T) {
	tests := []struct {
		name    string
		setup   []string
		set     string
		wantErr string // "" for none
	}{
		{"rank:0 under meu", []string{"setoption name Search value meu"}, "setoption name OpponentModel value rank:0", "rank:PS needs PS in (0, 1]"},
		{"rank:0.5 under meu", []string{"setoption name Search value meu"}, "setoption name OpponentModel value rank:0.5", ""},
		{"a PrOM term with a depth", []string{"setoption name Search value prom"}, "setoption name OpponentModel value materialist@3:0.5,attacker:0.5", "prom takes no @depth"},
		{"a model of another game", []string{"setoption name Search value om"}, "setoption name OpponentModel value mat-tot25", `chess has no preset "mat-tot25"`},
		{"a model set before its search waits for it", []string{"setoption name OpponentModel value materialist:0.6,attacker:0.4"}, "setoption name Search value om", ""},
		{"a preset of another game", nil, "setoption name Preset value mat-tot25", "mat-tot25 is a preset of checkers, not of chess"},
		{"an unknown preset", nil, "setoption name Preset value nonsense", `no preset "nonsense"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := startDossier(t, "--no-memory")
			p.send(tc.setup...)
			p.send(tc.set, "isready")
			lines := p.expectLine(30*time.Second, "readyok")
			var errs []string
			for _, l := range lines {
				if strings.HasPrefix(l, "info string error") {
					errs = append(errs, l)
				}
			}
			switch {
			case tc.wantErr == "" && len(errs) > 0:
				t.Errorf("unexpected errors %q", errs)
			case tc.wantErr != "" && (len(errs) != 1 || !strings.Contains(errs[0], tc.wantErr)):
				t.Errorf("errors %q, want one with %q", errs, tc.wantErr)
			}
			p.send("quit")
			p.wait(10 * time.Second)
		})
	}
}

func TestPresetListFollowsTheGame(t *testing.T) {
	p := startDossier(t, "--no-memory")
	presetLine := func() string {
		p.send("uci")
		lines := p.expectLine(30*time.Second, "uciok")
		for _, l := range lines {
			if strings.HasPrefix(l, "option name Preset ") {
				return l
			}
		}
		t.Fatal("no Preset option")
		return ""
	}
	if l := presetLine(); !strings.Contains(l, "var materialist") || strings.Contains(l, "mat-tot25") {
		t.Errorf("chess: %s", l)
	}
	p.send("setoption name UCI_Variant value checkers")
	if l := presetLine(); !strings.Contains(l, "var mat-tot25") || strings.Contains(l, "materialist") {
		t.Errorf("checkers: %s", l)
	}
	// The preset's depth, 4 plies for the paper's mat-tot25, ends a timed search early, and it says why.
	p.send("setoption name Preset value mat-tot25", "position startpos", "go movetime 2000")
	_, lines := p.expectPrefix(30*time.Second, "bestmove ")
	found := false
	for _, l := range lines {
		found = found || strings.Contains(l, "mat-tot25 stops at 4 plies, its depth (the Depth option changes it)")
	}
	if !found {
		t.Errorf("no word on the preset's depth: %q", lines)
	}
	p.send("quit")
	p.wait(10 * time.Second)
}
