// Tests of the text charts: the terminal sparkline and the series drawn from a profile.

package report

import (
	"encoding/json"
	"testing"

	"dossier/memory"
)

func TestSparkline(t *testing.T) {
	tests := []struct {
		values []float64
		want   string
	}{
		{[]float64{0, 1}, "▁█"},
		{[]float64{0, 0.5, 1}, "▁▄█"},
		{[]float64{3, 3, 3}, "▁▁▁"},
		{[]float64{1}, "▁"},
	}
	for _, tc := range tests {
		if got := sparkline(tc.values); got != tc.want {
			t.Errorf("sparkline(%v) = %q, want %q", tc.values, got, tc.want)
		}
	}
	long := make([]float64, 100)
	if got := []rune(sparkline(long)); len(got) != maxSparkWidth {
		t.Errorf("a sparkline of 100 points has %d runes, want %d", len(got), maxSparkWidth)
	}
}

func TestModelSeries(t *testing.T) {
	prof := &memory.Profile{
		Games: []memory.GameSummary{{OurScore: 1}, {OurScore: -1}, {OurScore: 0}, {OurScore: 0.5}},
		Models: map[string][]memory.ModelPoint{
			"typeprobs": {{State: json.RawMessage(`{"probabilities":[0.5,0.5],"types":[{"depth":2}]}`)},
				{State: json.RawMessage(`{"probabilities":[0.7,0.3],"types":[{"depth":2}]}`)}},
			"other": {{State: json.RawMessage(`{"p":[1]}`)}},
		},
	}
	got := modelSeries(prof)
	want := []ChartSeries{
		{"our score", []float64{1, 0.5, 0.5}}, // the unknown result is left out
		{"other.p[0]", []float64{1}},
		{"typeprobs.probabilities[0]", []float64{0.5, 0.7}}, // the types' configuration is not drawn
		{"typeprobs.probabilities[1]", []float64{0.5, 0.3}},
	}
	if gotJSON, wantJSON := mustJSON(t, got), mustJSON(t, want); gotJSON != wantJSON {
		t.Errorf("series %s, want %s", gotJSON, wantJSON)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
