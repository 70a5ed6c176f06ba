// The mixed player draws its presets with the mixture's probabilities and plays each drawn preset's move.

package searchers

import (
	"strings"
	"testing"

	"dossier/engine"
	"dossier/games/chess"
	"dossier/games/tictactoe"
)

func TestMixedSearcherDraws(t *testing.T) {
	g := chess.Game{}
	p := g.Start()
	m, err := NewMixedSearcher(g, Config{Depth: 1}, "materialist:0.7, attacker:0.3", 1)
	if err != nil {
		t.Fatal(err)
	}
	// Each preset alone, for the move it plays from the start.
	want := map[string]string{}
	for _, name := range []string{"materialist", "attacker"} {
		res := searchLimited(mustSearcher(t, g, Config{Preset: name, Depth: 1}), p, engine.Limits{Depth: 1})
		want[name] = p.FormatMove(res.Move)
	}
	if want["materialist"] == want["attacker"] {
		t.Fatalf("both presets play %s: the test cannot tell them apart", want["attacker"])
	}
	const n = 400
	drawn := map[string]int{}
	for range n {
		var name string
		res := m.Search(p, engine.NewControl(engine.Limits{Depth: 1}, p.ToMove()), func(info engine.Info) {
			if rest, ok := strings.CutPrefix(info.Text, "mix plays "); ok {
				name, _, _ = strings.Cut(rest, ":")
			}
		})
		drawn[name]++
		if got := p.FormatMove(res.Move); got != want[name] {
			t.Fatalf("drawn %q but played %s, which is not its move %s", name, got, want[name])
		}
	}
	// 400 draws at 0.7: the standard deviation is 9.2 draws; allow four of them.
	if k := drawn["materialist"]; k < 280-37 || k > 280+37 || drawn["materialist"]+drawn["attacker"] != n {
		t.Errorf("draws %v, want about 280 materialist of %d", drawn, n)
	}
}

func TestMixedSearcherErrors(t *testing.T) {
	g := tictactoe.Game{}
	for _, c := range []struct{ mix, want string }{
		{"", "empty"},
		{"open-lines:0.5,strongest:0.4", "sum to 0.9"},
		{"open-lines,strongest:1", `"open-lines"`},
		{"open-lines:0.5,nobody:0.5", "no preset"},
		{"open-lines:0.5,open-lines:0.5", "twice"},
		{"rank:1", "preset with its probability"},
		{"discrepancy:x.json", "preset with its probability"},
	} {
		_, err := NewMixedSearcher(g, Config{}, c.mix, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("mix %q: error %v, want one containing %q", c.mix, err, c.want)
		}
	}
}
