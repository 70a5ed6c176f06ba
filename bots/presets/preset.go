// Package presets holds the evaluation presets of every game: each game's book of named weight vectors over
// its features (the strongest player, the papers' opponent types), and how its features read from the other
// player's side.
package presets

import (
	"fmt"
	"slices"
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
	// Solver asks for the game's exact solver whenever it finishes within the move's budget (Connect-Four's
	// strongest player); the search with Eval plays otherwise.
	Solver bool
}

// Default is the name of every game's default preset, the strongest player dossier has for it.
const Default = "strongest"

// Of returns the presets of g, the default (Default) first; nil for a game without presets.
func Of(g games.Game) []Preset {
	book, ok := bookOf(g.Name())
	if !ok {
		return nil
	}
	return book.presets(g)
}

// Lookup returns the preset of g with the given name (case-insensitive; "" is the default). The error
// lists the names g has.
func Lookup(g games.Game, name string) (Preset, error) {
	all := Of(g)
	if len(all) == 0 {
		return Preset{}, fmt.Errorf("no presets for the game %s", g.Name())
	}
	if name == "" {
		return all[0], nil
	}
	names := make([]string, len(all))
	for i, p := range all {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
		names[i] = p.Name
	}
	return Preset{}, fmt.Errorf("%s has no preset %q (presets: %s)", g.Name(), name, strings.Join(names, ", "))
}

// Names returns the names of the presets of the game called game (as games.Game.Name spells it), the
// default first, without building their evaluations; nil for a game without presets.
func Names(game string) []string {
	book, ok := bookOf(game)
	if !ok {
		return nil
	}
	return book.names()
}

// AllNames returns every preset name of every game, each once, in the order of the games' books (the
// choices a GUI can set before it says which game it plays).
func AllNames() []string {
	var names []string
	for _, game := range Games {
		for _, n := range Names(game) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
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
