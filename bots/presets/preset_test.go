// Tests of the preset books: every preset fits its game, lookups, and the feature mirrors.

package presets

import (
	"slices"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/games/checkers"
)

func TestPresetsFitTheirGames(t *testing.T) {
	for _, g := range presetGames() {
		t.Run(g.Name(), func(t *testing.T) {
			presets := Of(g)
			if len(presets) == 0 || presets[0].Name != Default {
				t.Fatalf("presets %v: want %s first", presets, Default)
			}
			var names []string
			for _, p := range presets {
				if err := p.Eval.Check(g); err != nil {
					t.Errorf("%s: %v", p.Name, err)
				}
				if p.Game != g.Name() || p.Eval.Name != p.Name || p.Description == "" || p.Depth < 0 {
					t.Errorf("%s: malformed preset %+v", p.Name, p)
				}
				if slices.Contains(names, p.Name) {
					t.Errorf("preset name %s appears twice", p.Name)
				}
				names = append(names, p.Name)
				if allZero(p.Eval.Weights) {
					t.Errorf("%s: every weight is zero", p.Name)
				}
			}
			if got := Names(g.Name()); !slices.Equal(got, names) {
				t.Errorf("PresetNames = %v, presets are %v", got, names)
			}
		})
	}
}

func allZero(w []float64) bool {
	for _, x := range w {
		if x != 0 {
			return false
		}
	}
	return true
}

func TestLookupPreset(t *testing.T) {
	tests := []struct {
		game     string
		name     string
		want     string
		errParts []string
	}{
		{"checkers", "", Default, nil},
		{"checkers", "MAT-TOT25", "mat-tot25", nil},
		{"checkers", "mat+tot25", "mat+tot25", nil},
		{"connect4", "SP", "sp", nil},
		{"connect4", "sophisticated", "sophisticated", nil},
		{"checkers", "sp", "", []string{`no preset "sp"`, "strongest, mat-tot25, mat+tot25"}},
		{"connect4", "nonsense", "", []string{`"nonsense"`, "strongest, sophisticated, sp"}},
		{"tictactoe", "Open-Lines", "open-lines", nil},
	}
	byName := map[string]games.Game{}
	for _, g := range presetGames() {
		byName[g.Name()] = g
	}
	for _, tc := range tests {
		t.Run(tc.game+"/"+tc.name, func(t *testing.T) {
			p, err := Lookup(byName[tc.game], tc.name)
			if tc.errParts != nil {
				if err == nil {
					t.Fatalf("found %s, want an error", p.Name)
				}
				for _, part := range tc.errParts {
					if !strings.Contains(err.Error(), part) {
						t.Errorf("error %q does not mention %q", err, part)
					}
				}
				return
			}
			if err != nil || p.Name != tc.want {
				t.Fatalf("got %q, %v; want %s", p.Name, err, tc.want)
			}
		})
	}
}

func TestWeightsRejectsUnknownFeatures(t *testing.T) {
	_, err := Weights(checkers.Game{}, map[string]float64{"men": 1, "queens": 9, "pawns": 1})
	if err == nil || !strings.Contains(err.Error(), "pawns, queens") {
		t.Fatalf("error %v, want one naming pawns, queens", err)
	}
	w, err := Weights(checkers.Game{}, map[string]float64{"kings": 2})
	if err != nil || w[checkers.FeatKings] != 2 || w[checkers.FeatMen] != 0 {
		t.Fatalf("weights %v, %v", w, err)
	}
}

func TestAllPresetNames(t *testing.T) {
	all := AllNames()
	if len(all) == 0 || all[0] != Default {
		t.Fatalf("AllPresetNames = %v, want %s first", all, Default)
	}
	for _, g := range presetGames() {
		for _, n := range Names(g.Name()) {
			if !slices.Contains(all, n) {
				t.Errorf("%s preset %s missing from %v", g.Name(), n, all)
			}
		}
	}
	if Names("go") != nil || Of(noBookGame{}) != nil {
		t.Error("a game without a book has presets")
	}
	if _, err := Lookup(noBookGame{}, ""); err == nil {
		t.Error("LookupPreset found a preset for a game without a book")
	}
}

// noBookGame is a game dossier has no book for.
type noBookGame struct{ checkers.Game }

func (noBookGame) Name() string { return "go" }

// presetGames returns every game that has a preset book.
func presetGames() []games.Game {
	var out []games.Game
	for _, name := range Games {
		g, err := catalog.Lookup(name)
		if err != nil {
			panic(err)
		}
		out = append(out, g)
	}
	return out
}

func TestMirrorsDescribeTheOtherSide(t *testing.T) {
	// Checkers features do not depend on who is to move except through the point of view, so the same
	// board with the other side to move must give each feature as the mirror says.
	g := checkers.Game{}
	partner, sign, err := MirrorTable(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, board := range []string{"W18,26,27,25,11,19:BK15", "W27,19,18,11,7,6,5:B28,26,25,20,17,10,9,4,3,2",
		"WK10,K19,K23,30:BK14,K22,K27,3", "W6,7,8:B2,3,K30"} {
		black, errBlack := g.ParsePosition("B:" + board)
		white, errWhite := g.ParsePosition("W:" + board)
		if errBlack != nil || errWhite != nil {
			t.Fatal(errBlack, errWhite)
		}
		xb, xw := make([]float64, checkers.NumFeatures), make([]float64, checkers.NumFeatures)
		black.Features(xb)
		white.Features(xw)
		for i := range xw {
			if want := sign[i] * xb[partner[i]]; xw[i] != want {
				t.Errorf("%s: %s from White is %v, mirror of Black's gives %v", board, g.FeatureNames()[i], xw[i], want)
			}
		}
	}
	for _, g := range presetGames() {
		if _, _, err := MirrorTable(g); err != nil {
			t.Errorf("%s: %v", g.Name(), err)
		}
	}
	bad := book{mirror: map[string]mirrorOf{"men": {partner: "kings", sign: 1}}}
	if _, _, err := bad.mirrorTable(g); err == nil {
		t.Error("a mirror that is not an involution was accepted")
	}
}
