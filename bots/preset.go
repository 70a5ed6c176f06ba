// Package bots holds the evaluation functions and opponent types of every game, and the player that combines
// search, opponent model and mode into what the protocol drives.
package bots

import (
	"fmt"
	"sort"
	"strings"

	"dossier/engine"
	"dossier/games"
)

// Preset is a named player configuration, (evaluation function, search depth): the opponent types of the
// opponent-model searches and the players of `dossier match`. Depth 0 means "as deep as the time allows".
type Preset struct {
	// Name identifies the preset within its game ("strongest", "mat-tot25").
	Name string
	// Game is the name of the game the preset plays.
	Game string
	// Eval is the preset's evaluation function.
	Eval engine.Evaluation
	// Depth is the preset's fixed search depth in plies, or 0 for iterative deepening under the time limit.
	Depth int
	// Description says in one line what the preset values and why it exists.
	Description string
}

// Weights builds a weight vector for g from weights given by feature name; features not named weigh 0.
// An unknown name is an error, so that a renamed feature cannot silently drop out of an evaluation.
func Weights(g games.Game, byName map[string]float64) ([]float64, error) {
	names := g.FeatureNames()
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	w := make([]float64, len(names))
	unknown := []string{}
	for n, x := range byName {
		i, ok := index[n]
		if !ok {
			unknown = append(unknown, n)
			continue
		}
		w[i] = x
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("%s has no feature named %s (features: %s)", g.Name(), strings.Join(unknown, ", "),
			strings.Join(names, " "))
	}
	return w, nil
}

// mustEvaluation builds an evaluation from weights by feature name; the presets are fixed tables checked by
// tests, so a bad name is a programming error.
func mustEvaluation(g games.Game, name string, byName map[string]float64) engine.Evaluation {
	w, err := Weights(g, byName)
	if err != nil {
		panic(fmt.Sprintf("preset %s: %v", name, err))
	}
	return engine.Evaluation{Name: name, Weights: w}
}
