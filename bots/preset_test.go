// Tests of the preset books: every preset fits its game, lookups, and the feature mirrors.
package bots

import (
	"slices"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
)

func TestPresetsFitTheirGames(t *testing.T) {
	for _, g := range bookedGames() {
		t.Run(g.Name(), func(t *testing.T) {
			presets := Presets(g)
			if len(presets) == 0 || presets[0].Name != DefaultPreset {
				t.Fatalf("presets %v: want %s first", presets, DefaultPreset)
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
			if got := PresetNames(g.Name()); !slices.Equal(got, names) {
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
		{"checkers", "", DefaultPreset, nil},
		{"checkers", "MAT-TOT25", "mat-tot25", nil},
		{"checkers", "mat+tot25", "mat+tot25", nil},
		{"connect4", "SP", "sp", nil},
		{"connect4", "sophisticated", "sophisticated", nil},
		{"checkers", "sp", "", []string{`no preset "sp"`, "strongest, mat-tot25, mat+tot25"}},
		{"connect4", "nonsense", "", []string{`"nonsense"`, "strongest, sophisticated, sp"}},
		{"tictactoe", "Open-Lines", "open-lines", nil},
	}
	byName := map[string]games.Game{}
	for _, g := range bookedGames() {
		byName[g.Name()] = g
	}
	for _, tc := range tests {
		t.Run(tc.game+"/"+tc.name, func(t *testing.T) {
			p, err := LookupPreset(byName[tc.game], tc.name)
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
	all := AllPresetNames()
	if len(all) == 0 || all[0] != DefaultPreset {
		t.Fatalf("AllPresetNames = %v, want %s first", all, DefaultPreset)
	}
	for _, g := range bookedGames() {
		for _, n := range PresetNames(g.Name()) {
			if !slices.Contains(all, n) {
				t.Errorf("%s preset %s missing from %v", g.Name(), n, all)
			}
		}
	}
	if PresetNames("go") != nil || Presets(fakeGame{}) != nil {
		t.Error("a game without a book has presets")
	}
	if _, err := LookupPreset(fakeGame{}, ""); err == nil {
		t.Error("LookupPreset found a preset for a game without a book")
	}
}

// fakeGame is a game dossier has no book for.
type fakeGame struct{ checkers.Game }

func (fakeGame) Name() string { return "go" }

func TestWhichPresetsNeedAPlayerView(t *testing.T) {
	// The antisymmetric evaluations search as they are; the player's functions (Tot, unequal mine/theirs
	// weights) are searched through a playerView.
	tests := []struct {
		game   string
		preset string
		view   bool
	}{
		{"checkers", "strongest", false},
		{"checkers", "mat-tot25", true},
		{"checkers", "mat+tot25", true},
		{"connect4", "strongest", false},
		{"connect4", "sophisticated", false},
		{"connect4", "sp", true},
		{"tictactoe", "strongest", false},
		{"tictactoe", "open-lines", false},
	}
	for _, tc := range tests {
		t.Run(tc.game+"/"+tc.preset, func(t *testing.T) {
			for _, g := range bookedGames() {
				if g.Name() != tc.game {
					continue
				}
				s := presetSearcherOf(mustSearcher(t, g, PlayerConfig{Preset: tc.preset}))
				if (s.view != nil) != tc.view {
					t.Errorf("view %v, want %v", s.view != nil, tc.view)
				}
			}
		})
	}
}

func TestMirrorsDescribeTheOtherSide(t *testing.T) {
	// Checkers features do not depend on who is to move except through the point of view, so the same
	// board with the other side to move must give each feature as the mirror says.
	g := checkers.Game{}
	b, _ := bookOf(g.Name())
	partner, sign, err := b.mirrorTable(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, board := range []string{"W18,26,27,25,11,19:BK15", "W27,19,18,11,7,6,5:B28,26,25,20,17,10,9,4,3,2",
		"WK10,K19,K23,30:BK14,K22,K27,3", "W6,7,8:B2,3,K30"} {
		black, white := mustPosition(t, g, "B:"+board), mustPosition(t, g, "W:"+board)
		xb, xw := make([]float64, checkers.NumFeatures), make([]float64, checkers.NumFeatures)
		black.Features(xb)
		white.Features(xw)
		for i := range xw {
			if want := sign[i] * xb[partner[i]]; xw[i] != want {
				t.Errorf("%s: %s from White is %v, mirror of Black's gives %v", board, g.FeatureNames()[i], xw[i], want)
			}
		}
	}
	for _, g := range bookedGames() {
		b, _ := bookOf(g.Name())
		if _, _, err := b.mirrorTable(g); err != nil {
			t.Errorf("%s: %v", g.Name(), err)
		}
	}
	bad := book{mirror: map[string]mirrorOf{"men": {partner: "kings", sign: 1}}}
	if _, _, err := bad.mirrorTable(g); err == nil {
		t.Error("a mirror that is not an involution was accepted")
	}
}
