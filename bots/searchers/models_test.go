// Tests of the opponent-model grammar: parsing, canonical form, the shapes each search takes, and a fuzz test.

package searchers

import (
	"fmt"
	"strings"
	"testing"

	"dossier/games/checkers"
)

func TestParseModelSpec(t *testing.T) {
	tests := []struct {
		text string
		want string // canonical form; "" with wantErr empty: the empty model
		err  string // a fragment of the error, "" for success
	}{
		{"", "", ""},
		{"   ", "", ""},
		{"mat-tot25", "mat-tot25", ""},
		{"Mat-Tot25@3", "mat-tot25@3", ""},
		{" mat-tot25 @ 3 ", "mat-tot25@3", ""},
		{"mat-tot25,strongest,mat+tot25", "mat-tot25,strongest,mat+tot25", ""},
		{"strongest:0.5, materialist:0.3, attacker:0.2", "strongest:0.5,materialist:0.3,attacker:0.2", ""},
		{"rank:0.6", "rank:0.6", ""},
		{"sp@2:1", "sp@2:1", ""},
		{"open_lines:0", "open_lines:0", ""},
		{"discrepancy:sp.json", "discrepancy:sp.json", ""},
		{" Discrepancy: /tmp/sp counts,1.json ", "discrepancy:/tmp/sp counts,1.json", ""},
		{"discrepancy:", "", `opponent model "discrepancy:": discrepancy:PATH needs the path of a counts file`},
		{"sp,discrepancy:a.json", "", `term "discrepancy:a.json": discrepancy:PATH is a whole model`},
		{"a,,b", "", `term 2 is empty`},
		{"a,", "", `term 2 is empty`},
		{"mat-tot25@x", "", `term "mat-tot25@x": depth "x" is not a whole number in 1..100`},
		{"mat-tot25@0", "", `depth "0" is not a whole number`},
		{"mat-tot25@101", "", `depth "101"`},
		{"mat-tot25@+3", "", `depth "+3"`},
		{"mat-tot25@3@4", "", `depth "3@4"`},
		{"strongest:1.5", "", `term "strongest:1.5": probability "1.5" is not a number in [0, 1]`},
		{"strongest:-0.1", "", `probability "-0.1"`},
		{"strongest:NaN", "", `probability "NaN"`},
		{"strongest:", "", `probability ""`},
		{"strongest:0.5:0.5", "", `probability "0.5:0.5"`},
		{"@3", "", `term "@3" has no preset name`},
		{":0.5", "", `term ":0.5" has no preset name`},
		{"mat tot", "", `name "mat tot" holds ' '`},
		{"mat;tot", "", `name "mat;tot" holds ';'`},
		{strings.Repeat("a,", 32) + "a", "", "has 33 terms, at most 32"},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			spec, err := ParseModelSpec(tc.text)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := spec.String(); got != tc.want {
				t.Errorf("canonical form %q, want %q", got, tc.want)
			}
			again, err := ParseModelSpec(spec.String())
			if err != nil || again.String() != spec.String() {
				t.Errorf("the canonical form %q reads back as %q (%v)", spec.String(), again.String(), err)
			}
		})
	}
}

func TestModelShapesPerSearch(t *testing.T) {
	tests := []struct {
		search, model string
		ourDepth      int
		err           string // "" for accepted
	}{
		{AlphaBetaSearch, "", 0, ""},
		{AlphaBetaSearch, "sp", 0, `opponent model "sp": alphabeta takes no opponent model`},
		{MStarSearch, "mat-tot25", 4, ""},
		{MStarSearch, "mat-tot25,strongest,mat+tot25", 4, ""},
		{MStarSearch, "mat-tot25@3", 4, ""},
		{MStarSearch, "mat-tot25@4", 4, `term "mat-tot25@4": the opponent's depth 4 must be below our depth 4`},
		{MStarSearch, "mat-tot25@9", 0, ""},
		{MStarSearch, "mat-tot25@3,strongest", 4, `term "mat-tot25@3": mstar takes no @depth in a nested model`},
		{MStarSearch, "mat-tot25:0.5", 4, `term "mat-tot25:0.5": mstar takes no probabilities`},
		{MStarOnePassSearch, "mat-tot25,strongest", 4, ""},
		{MStarOnePassSearch, "mat-tot25@3", 4, `term "mat-tot25@3": mstar-1pass takes no @depth`},
		{AlphaBetaStarSearch, "mat-tot25", 4, ""},
		{AlphaBetaStarSearch, "mat-tot25@2", 4, `alphabeta-star takes no @depth`},
		{MStarStrategySearch, "mat-tot25", 4, ""},
		{MStarStrategySearch, "mat-tot25@2", 4, ""},
		{MStarStrategySearch, "mat-tot25,strongest", 4, `mstar-strategy takes one term, P[@D], not 2`},
		{MStarRiskSearch, "mat-tot25@3", 4, ""},
		{MStarRiskSearch, "mat-tot25@5", 4, `depth 5 must be below our depth 4`},
		{OMSearch, "materialist@3", 0, ""},
		{OMSearch, "materialist", 0, ""},
		{OMSearch, "materialist,attacker", 0, `om takes one term, P[@D], not 2`},
		{OMSearch, "materialist:0.5", 0, `term "materialist:0.5": om takes no probabilities`},
		{PromSearch, "strongest:0.5,materialist:0.3,attacker:0.2", 0, ""},
		{PromSearch, "strongest:0.5,materialist:0.3,attacker:0.1", 0, `the probabilities sum to 0.9, want 1`},
		{PromSearch, "strongest:0.5,materialist", 0, `term "materialist": prom needs a probability, materialist:P`},
		{PromSearch, "strongest:0.5,Strongest:0.5", 0, `term "Strongest:0.5": type strongest is given twice`},
		{PromSearch, "strongest@2:1", 0, `term "strongest@2:1": prom takes no @depth`},
		{MEUSearch, "rank:0.6", 0, ""},
		{MEUSearch, "rank:1", 0, ""},
		{MEUSearch, "rank:0", 0, `term "rank:0": PS must be above 0`},
		{MEUSearch, "rank", 0, `meu takes one term rank:PS`},
		{MEUSearch, "sp:0.6", 0, `meu takes one term rank:PS`},
		{MEUSearch, "discrepancy:sp.json", 0, ""},
		{OMSearch, "discrepancy:sp.json", 0, `term "discrepancy:sp.json": om takes no discrepancy counts (only meu does)`},
		{MStarSearch, "discrepancy:sp.json", 4, `mstar takes no discrepancy counts`},
		{SymmetricSearch, "mat-tot25", 0, ""},
		{SymmetricSearch, "mat-tot25@2", 0, `symmetric takes no @depth`},
		{SymmetricSearch, "a,b", 0, `symmetric takes one term, P, not 2`},
	}
	for _, tc := range tests {
		t.Run(tc.search+" "+tc.model, func(t *testing.T) {
			spec, err := ParseModelSpec(tc.model)
			if err != nil {
				t.Fatal(err)
			}
			err = spec.CheckFor(tc.search, tc.ourDepth)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}

func TestLookupSearch(t *testing.T) {
	for _, name := range SearchAlgorithms() {
		if got, err := LookupSearch(strings.ToUpper(name)); err != nil || got != name {
			t.Errorf("lookupSearch(%q) = %q, %v", strings.ToUpper(name), got, err)
		}
	}
	if got, err := LookupSearch(""); err != nil || got != AlphaBetaSearch {
		t.Errorf(`lookupSearch("") = %q, %v`, got, err)
	}
	if _, err := LookupSearch("minimax"); err == nil || !strings.Contains(err.Error(), `unknown search "minimax" (searches: alphabeta, mstar,`) {
		t.Errorf("unknown search: %v", err)
	}
}

// FuzzParseModelSpec checks that any text either parses to a model whose canonical form reads back the
// same, or fails with an error that quotes the text; and that the shape checks and the preset lookup of
// every search never panic and name a term or the model when they fail.
func FuzzParseModelSpec(f *testing.F) {
	for _, seed := range []string{"", "mat-tot25", "mat-tot25@3", "mat-tot25,strongest,mat+tot25",
		"strongest:0.5,materialist:0.3,attacker:0.2", "rank:0.6", "a,,b", "x@0", "x:2", "@", ":", ",", "a@1:0.5",
		"mat+tot25:1", "sp@99", "\x00", "a@3 :0.1", "discrepancy:x,y.json", "DISCREPANCY: ", "a,discrepancy:b"} {
		f.Add(seed)
	}
	g := checkers.Game{}
	env := modelEnv{game: g, own: mustPreset(f, g, "mat-tot25").Eval}
	f.Fuzz(func(t *testing.T, text string) {
		spec, err := ParseModelSpec(text)
		if err != nil {
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", strings.TrimSpace(text))) {
				t.Fatalf("error %q does not quote the model %q", err, text)
			}
			return
		}
		again, err := ParseModelSpec(spec.String())
		if err != nil || again.String() != spec.String() {
			t.Fatalf("%q: canonical form %q reads back as %q (%v)", text, spec.String(), again.String(), err)
		}
		for _, algorithm := range SearchAlgorithms() {
			err := spec.CheckFor(algorithm, 4)
			if err == nil {
				if _, err = env.chain(spec); err == nil {
					continue
				}
			}
			msg := err.Error()
			named := strings.Contains(msg, fmt.Sprintf("%q", spec.String()))
			for _, term := range spec.Terms {
				named = named || strings.Contains(msg, fmt.Sprintf("%q", term.Text))
			}
			if !named {
				t.Fatalf("%s, model %q: error %q names neither the model nor a term", algorithm, text, msg)
			}
		}
	})
}
