// The per-game preset books: each game's presets as weights by feature name, and how its features read
// from the other player's side.

package presets

import (
	"fmt"
	"sync"

	"dossier/games"
)

// Games lists the games that have a book, in the order help texts show them.
var Games = []string{"chess", "checkers", "connect4", "tictactoe"}

// presetSpec is one preset as a game's book writes it down.
type presetSpec struct {
	name        string
	description string
	depth       int
	solver      bool
	weights     map[string]float64
}

// mirrorOf says how a feature reads from the other side: from the opponent's point of view feature f equals
// sign times this side's feature partner. A feature that a book does not mention is a plain difference
// ("mine minus theirs"), which is its own partner with sign -1.
type mirrorOf struct {
	partner string
	sign    float64
}

// book is one game's presets, default first, and the mirror of its features that are not plain
// differences but are meant from the searching player's point of view (see playerView).
type book struct {
	specs  []presetSpec
	mirror map[string]mirrorOf
	// strength are the safety rules of playing below full strength (zero: the default rules).
	strength StrengthRules
	// memoryRisk is the game memory's MemoryRisk default (0: the ModelRisk default).
	memoryRisk int
	// learning are the depths of the Player's learners (zero: the defaults, see Learning).
	learning LearningDepths
}

// books are the games' books, each built once on first use: Strength and Learning are asked in every search
// of ours (the game memory's consult, the experience's report), and building a book makes its weight maps anew
// (session 22 caught a collection started by that allocation in our search). Nothing in this package changes a
// book after it is built; what leaves the package is a copy.
var books = map[string]func() book{
	"chess":     sync.OnceValue(chessBook),
	"checkers":  sync.OnceValue(checkersBook),
	"connect4":  sync.OnceValue(connect4Book),
	"tictactoe": sync.OnceValue(tictactoeBook),
}

// bookOf returns the book of the game called game, shared: read it, never change it.
func bookOf(game string) (book, bool) {
	if built, ok := books[game]; ok {
		return built(), true
	}
	return book{}, false
}

// names returns the preset names in book order.
func (b book) names() []string {
	names := make([]string, len(b.specs))
	for i, s := range b.specs {
		names[i] = s.name
	}
	return names
}

// presets builds the book's presets for g.
func (b book) presets(g games.Game) []Preset {
	out := make([]Preset, len(b.specs))
	for i, s := range b.specs {
		out[i] = Preset{Name: s.name, Game: g.Name(), Eval: mustEvaluation(g, s.name, s.weights), Depth: s.depth,
			Description: s.description, Solver: s.solver}
	}
	return out
}

// MirrorTable resolves the mirror of g's book against its features (see mirrorTable); a game without a book
// has plain differences only.
func MirrorTable(g games.Game) (partner []int, sign []float64, err error) {
	b, _ := bookOf(g.Name())
	return b.mirrorTable(g)
}

// mirrorTable resolves the book's mirror against g's features: partner[i] and sign[i] give feature i from
// the other side's point of view as sign[i] times feature partner[i] from this side's.
func (b book) mirrorTable(g games.Game) (partner []int, sign []float64, err error) {
	names := g.FeatureNames()
	index := make(map[string]int, len(names))
	for i, n := range names {
		index[n] = i
	}
	partner = make([]int, len(names))
	sign = make([]float64, len(names))
	for i := range names {
		partner[i], sign[i] = i, -1
	}
	for name, m := range b.mirror {
		i, ok := index[name]
		j, okPartner := index[m.partner]
		if !ok || !okPartner {
			return nil, nil, fmt.Errorf("%s mirror names a feature it lacks: %s or %s", g.Name(), name, m.partner)
		}
		partner[i], sign[i] = j, m.sign
	}
	for i := range names {
		if j := partner[i]; partner[j] != i || sign[j] != sign[i] {
			return nil, nil, fmt.Errorf("%s mirror is not an involution at %s", g.Name(), names[i])
		}
	}
	return partner, sign, nil
}
