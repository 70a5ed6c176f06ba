// The committed chess table is the fit of the committed data: the tuning is reproducible.
package main

import (
	"testing"

	"dossier/bots/presets"
	"dossier/games/chess"
)

func TestCommittedTableIsTheFitOfTheCommittedData(t *testing.T) {
	fit, err := fitFile("testdata/positions.txt.gz", defaultLambda, defaultIterations, defaultClip)
	if err != nil {
		t.Fatal(err)
	}
	g := chess.Game{}
	strongest, err := presets.Lookup(g, presets.Default)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range g.FeatureNames() {
		if d := fit.weights[i] - strongest.Eval.Weights[i]; d > 0.05 || d < -0.05 {
			t.Errorf("%s: the fit gives %.1f, bots/chess.go has %.1f", name, fit.weights[i], strongest.Eval.Weights[i])
		}
	}
	if fit.loss[2] >= fit.loss[0] {
		t.Errorf("held-out loss of the fit %.5f is not below the prior's %.5f", fit.loss[2], fit.loss[0])
	}
}
