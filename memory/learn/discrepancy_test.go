// Discrepancy counts files: round trips, corrupt files, the default ranges.

package learn

import (
	"bytes"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// sampleCounts returns counts with two bands of three ranges.
func sampleCounts(t testing.TB) *DiscrepancyCounts {
	t.Helper()
	c, err := NewDiscrepancyCounts("connect4", "sophisticated", 4, 2, []float64{5, 495000}, 6)
	if err != nil {
		t.Fatal(err)
	}
	c.Opponent, c.Games, c.Observations = "sp d1", 2, 9
	c.Counts = [][]float64{{3, 1, 0, 1}, {2, 0, 1.5, 0.5}}
	c.Offered = [][]float64{{5, 2, 3, 1}, {4, 1, 2, 2}}
	return c
}

func TestDiscrepancyCountsRoundTrip(t *testing.T) {
	want := sampleCounts(t)
	withoutOffered := sampleCounts(t)
	withoutOffered.Offered = nil
	empty, err := NewDiscrepancyCounts("tictactoe", "open-lines", 1, 0, []float64{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*DiscrepancyCounts{"full": want, "no offered": withoutOffered, "empty": empty} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := c.Write(&buf); err != nil {
				t.Fatal(err)
			}
			got, err := ReadDiscrepancyCounts(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			if !reflect.DeepEqual(got, c) {
				t.Fatalf("read back %+v, wrote %+v", got, c)
			}
			path := filepath.Join(t.TempDir(), "counts.json")
			if err := c.Save(path); err != nil {
				t.Fatal(err)
			}
			loaded, err := LoadDiscrepancyCounts(path)
			if err != nil || !reflect.DeepEqual(loaded, c) {
				t.Fatalf("loaded %+v (%v), saved %+v", loaded, err, c)
			}
			model, err := c.Model()
			if err != nil {
				t.Fatal(err)
			}
			for b, row := range c.Counts {
				if got := model.Counts(b); !slices.Equal(got, row) {
					t.Errorf("model band %d: %v, want %v", b, got, row)
				}
			}
		})
	}
	var buf bytes.Buffer
	if err := want.Write(&buf); err != nil {
		t.Fatal(err)
	}
	// One band to a line, as the format's documentation shows it.
	if !strings.Contains(buf.String(), "\"counts\": [\n    [3, 1, 0, 1],\n    [2, 0, 1.5, 0.5]\n  ]") ||
		!strings.Contains(buf.String(), `"edges": [5, 495000]`) {
		t.Errorf("layout:\n%s", buf.String())
	}
}

func TestReadDiscrepancyCountsErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleCounts(t).Write(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	tests := []struct {
		name, text, err string
	}{
		{"empty", "", "the file is empty"},
		{"not JSON", "counts", "not JSON at byte 1"},
		{"truncated", good[:len(good)/2], "ends inside the JSON object"},
		{"array", "[1, 2]", "holds a JSON array, want an object"},
		{"trailing data", good + "{}", "data after the JSON object"},
		{"unknown field", strings.Replace(good, `"games"`, `"gamez"`, 1), `unknown field "gamez"`},
		{"wrong type", strings.Replace(good, `"depth": 4`, `"depth": "4"`, 1), "field depth holds a JSON string"},
		{"format", strings.Replace(good, "dossier discrepancy counts", "other", 1), `field format is "other"`},
		{"version", strings.Replace(good, `"version": 1`, `"version": 2`, 1), "field version is 2, this dossier reads version 1"},
		{"no game", strings.Replace(good, `"connect4"`, `""`, 1), "field game is missing"},
		{"no evaluation", strings.Replace(good, `"sophisticated"`, `""`, 1), "field evaluation is missing"},
		{"depth", strings.Replace(good, `"depth": 4`, `"depth": 0`, 1), "field depth is 0"},
		{"reply depth", strings.Replace(good, `"replyDepth": 2`, `"replyDepth": 4`, 1), "field replyDepth is 4, want a depth in 0..3"},
		{"negative games", strings.Replace(good, `"games": 2`, `"games": -1`, 1), "field games is -1"},
		{"no edges", strings.Replace(good, `"edges": [5, 495000],`, ``, 1), "field edges is missing"},
		{"edges order", strings.Replace(good, `[5, 495000]`, `[5, 5]`, 1), "field edges: edge 1 is 5"},
		{"edge zero", strings.Replace(good, `[5, 495000]`, `[0, 495000]`, 1), "field edges: edge 0 is 0"},
		{"band width", strings.Replace(good, `"bandPlies": 6`, `"bandPlies": -6`, 1), "field bandPlies is -6"},
		{"one band", strings.Replace(good, `"bandPlies": 6`, `"bandPlies": 0`, 1), "field counts has 2 bands, but bandPlies 0 means one band"},
		{"no counts", strings.Replace(good, `"counts"`, `"countz"`, 1), `unknown field "countz"`},
		{"short band", strings.Replace(good, `[3, 1, 0, 1]`, `[3, 1, 0]`, 1), "field counts: band 0 has 3 numbers, want one per range (4 with 2 edges)"},
		{"negative count", strings.Replace(good, `[3, 1, 0, 1]`, `[3, -1, 0, 1]`, 1), "field counts: band 0, range 1 is -1"},
		{"huge count", strings.Replace(good, `[3, 1, 0, 1]`, `[3, 1e999, 0, 1]`, 1), "field counts holds a JSON number"},
		{"offered bands", strings.Replace(good, `[4, 1, 2, 2]`, ``, 1), "not JSON"},
		{"offered band count", strings.Replace(good, ",\n    [4, 1, 2, 2]", "", 1), "field offered has 1 bands, counts has 2"},
		{"short offered", strings.Replace(good, `[4, 1, 2, 2]`, `[4]`, 1), "field offered: band 1 has 1 numbers"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadDiscrepancyCounts(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "discrepancy counts: ") {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
	if _, err := LoadDiscrepancyCounts(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzReadDiscrepancyCounts checks that any bytes either fail with an error naming what is wrong, or read
// as counts that check, build a model and write back to the same counts.
func FuzzReadDiscrepancyCounts(f *testing.F) {
	var buf bytes.Buffer
	if err := sampleCounts(f).Write(&buf); err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{buf.String(), "", "{}", "[]", "null", `{"format": 1}`, `{"counts": [[1e308, 1e308]]}`,
		strings.Replace(buf.String(), `"bandPlies": 6`, `"bandPlies": 0`, 1), buf.String()[:40]} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadDiscrepancyCounts(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "discrepancy counts: ") || len(err.Error()) < len("discrepancy counts: ")+5 {
				t.Fatalf("error %q does not say what is wrong", err)
			}
			return
		}
		if _, err := c.Model(); err != nil {
			t.Fatalf("counts that check build no model: %v", err)
		}
		var out bytes.Buffer
		if err := c.Write(&out); err != nil {
			t.Fatalf("counts that check do not write: %v", err)
		}
		again, err := ReadDiscrepancyCounts(&out)
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("written counts read back as %+v (%v), want %+v", again, err, c)
		}
		c.WriteTable(&out)
	})
}
