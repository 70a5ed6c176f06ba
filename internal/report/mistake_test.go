// memory show's line for the analysis of the last lost game: the move blamed, or nothing found.
package report

import (
	"encoding/json"
	"strings"
	"testing"

	"dossier/bots/analysis"
)

func TestMistakeLine(t *testing.T) {
	blamed := analysis.Report{Mistake: 1, Complete: true, Moves: []analysis.Move{
		{Ply: 0, Played: "e2e4", Best: "e2e4", Value: 30, BestValue: 30, Depth: 8},
		{Ply: 4, Played: "h5f7", Best: "b1c3", Value: -815, BestValue: 35, Depth: 8}}}
	clean := analysis.Report{Mistake: -1, Complete: true, Moves: blamed.Moves[:1]}
	for _, tc := range []struct {
		name string
		rep  analysis.Report
		want string
	}{
		{"a move blamed", blamed, "last lost game: ply 4: h5f7? -815 at depth 8, better b1c3 +35 (2 of our moves analysed)"},
		{"nothing blamed", clean, "last lost game: no mistake of ours found (1 of our moves analysed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state, err := json.Marshal(tc.rep)
			if err != nil {
				t.Fatal(err)
			}
			var line LearnedLine
			if err := mistakeLine(state, &line); err != nil || line.Summary != tc.want {
				t.Fatalf("summary %q (%v), want %q", line.Summary, err, tc.want)
			}
		})
	}
	var line LearnedLine
	if err := mistakeLine(json.RawMessage(`{"Moves": 3}`), &line); err == nil || strings.Contains(line.Summary, "ply") {
		t.Errorf("an unreadable state gave %q, %v", line.Summary, err)
	}
}
