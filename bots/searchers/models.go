// Opponent models as text: the grammar of Config.Model (UCI's OpponentModel, match specs' model=).

package searchers

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// An opponent model is written as comma-separated terms, each NAME[@DEPTH][:PROBABILITY], where NAME is a
// preset of the game being played (or the word rank for MEU), or as discrepancy:PATH, MEU's learned counts
// (the rest of the text is the path, commas included). What the terms mean depends on the search:
//
//	mstar, mstar-1pass, alphabeta-star   P1,P2,...  the opponent plays preset P1, models us as P2, which
//	                                                models the opponent as P3, ...; below the last term the
//	                                                model is completed as minimax (Carmel & Markovitch)
//	mstar P@D, mstar-strategy, mstar-risk P[@D]    the opponent is a D-ply minimax player with P's
//	                                                evaluation (the strategy form; D below our depth,
//	                                                default our depth - 1); mstar-risk is risk-reduced
//	om                                   P[@D]      the opponent plays P searching D plies (default: to our
//	                                                horizon)
//	prom                                 P1:p1,...  the opponent is type Pi with probability pi (sum 1)
//	meu                                  rank:PS    Reibman & Ballard: the reply of rank r is played with
//	                                                probability proportional to (1-PS)^(r-1) PS
//	                                discrepancy:PATH  Sen & Arora: the counts of the opponent's moves by
//	                                                discrepancy range in the counts file PATH (written by
//	                                                dossier learn; see DiscrepancyCounts)
//	symmetric                            P          both sides know each other's evaluation: ours and P's
//
// The empty model is minimax's own implicit model (the opponent minimises our evaluation), with which
// every model search plays as alpha-beta does at equal depth.

// Names of the search algorithms of Config.Search.
const (
	// AlphaBetaSearch is the strength-maximising alpha-beta search; it takes no opponent model.
	AlphaBetaSearch = "alphabeta"
	// MStarSearch is Carmel & Markovitch's recursive M* (with P@D, its strategy form).
	MStarSearch = "mstar"
	// MStarOnePassSearch is M* 1-pass: the same value as M*, in one expansion of the tree.
	MStarOnePassSearch = "mstar-1pass"
	// AlphaBetaStarSearch is alpha-beta*: M* 1-pass with pruning under bounds on f_i + f_{i-1}.
	AlphaBetaStarSearch = "alphabeta-star"
	// MStarStrategySearch is M* against an opponent modelled as a strategy (evaluation, depth).
	MStarStrategySearch = "mstar-strategy"
	// MStarRiskSearch is the risk-reduced strategy form of M*: the model is trusted for the first reply only.
	MStarRiskSearch = "mstar-risk"
	// OMSearch is OM search with alpha-beta probing and beta-pruning.
	OMSearch = "om"
	// PromSearch is PrOM search: a probabilistic mix of opponent types.
	PromSearch = "prom"
	// MEUSearch is Sen & Arora's maximum-expected-utility search with a model of the replies.
	MEUSearch = "meu"
	// SymmetricSearch is symmetric opponent modelling (backward induction in a bounded-common-interest game).
	SymmetricSearch = "symmetric"
	// AutoSearch picks, at every game's start, the model search whose model predicted this opponent's moves
	// better than minimax's (the yardsticks the Player's learners stored), and alpha-beta when none did or
	// there is no evidence (see auto.go); it is the Player's default when the memory is on. It takes no model.
	AutoSearch = "auto"
)

// SearchAlgorithms lists the names Config.Search accepts, the default first.
func SearchAlgorithms() []string {
	return append([]string{AlphaBetaSearch}, append(modelSearchAlgorithms(), AutoSearch)...)
}

// modelSearchAlgorithms lists the searches that play against an opponent model.
func modelSearchAlgorithms() []string {
	return []string{MStarSearch, MStarOnePassSearch, AlphaBetaStarSearch, MStarStrategySearch, MStarRiskSearch,
		OMSearch, PromSearch, MEUSearch, SymmetricSearch}
}

// LookupSearch returns the canonical name of a search ("" is alpha-beta), or an error listing the names.
func LookupSearch(name string) (string, error) {
	if name == "" {
		return AlphaBetaSearch, nil
	}
	for _, a := range SearchAlgorithms() {
		if strings.EqualFold(a, name) {
			return a, nil
		}
	}
	return "", fmt.Errorf("unknown search %q (searches: %s)", name, strings.Join(SearchAlgorithms(), ", "))
}

// RankModelName is the term name of MEU's rank model (rank:PS).
const RankModelName = "rank"

// DiscrepancyModelName is the term name of MEU's learned discrepancy model (discrepancy:PATH).
const DiscrepancyModelName = "discrepancy"

// discrepancyPrefix starts a model that is a counts file's path.
const discrepancyPrefix = DiscrepancyModelName + ":"

// Limits of the model grammar.
const (
	// maxModelTerms bounds the number of terms: nesting deeper than this says nothing a search can use.
	maxModelTerms = 32
	// maxModelDepth bounds a term's depth, as the Depth option bounds ours.
	maxModelDepth = MaxDepth
	// probabilityTolerance is how far PrOM's probabilities may sum from 1 (decimal fractions as written).
	probabilityTolerance = 1e-6
)

// ModelTerm is one term of an opponent model, NAME[@DEPTH][:PROBABILITY].
type ModelTerm struct {
	// Name is a preset name of the game (or RankModelName), lower-cased.
	Name string
	// Depth is the opponent's search depth in plies; 0 when the term gives none.
	Depth int
	// Probability is the term's probability (PrOM's P(w_i), MEU's PS); HasProbability says whether the
	// term gives one.
	Probability    float64
	HasProbability bool
	// Path is the counts file of a discrepancy:PATH model ("" for any other term).
	Path string
	// Text is the term as written (trimmed), for error messages.
	Text string
}

// String writes the term in canonical form.
func (t ModelTerm) String() string {
	if t.Path != "" {
		return discrepancyPrefix + t.Path
	}
	s := t.Name
	if t.Depth > 0 {
		s += "@" + strconv.Itoa(t.Depth)
	}
	if t.HasProbability {
		s += ":" + strconv.FormatFloat(t.Probability, 'g', -1, 64)
	}
	return s
}

// ModelSpec is a parsed opponent model: its terms in order. The zero ModelSpec is minimax's implicit model.
type ModelSpec struct {
	Terms []ModelTerm
}

// IsZero reports whether the model is empty (minimax's implicit model).
func (m ModelSpec) IsZero() bool { return len(m.Terms) == 0 }

// String writes the model in canonical form ("" for the empty model); ParseModelSpec reads it back.
func (m ModelSpec) String() string {
	parts := make([]string, len(m.Terms))
	for i, t := range m.Terms {
		parts[i] = t.String()
	}
	return strings.Join(parts, ",")
}

// ParseModelSpec reads an opponent model (see the grammar above). It checks the syntax only; which terms
// a search accepts, and whether the names are presets of the game, New checks. Errors quote the
// offending term and say what is wrong with it.
func ParseModelSpec(text string) (ModelSpec, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return ModelSpec{}, nil
	}
	if len(text) >= len(discrepancyPrefix) && strings.EqualFold(text[:len(discrepancyPrefix)], discrepancyPrefix) {
		path := strings.TrimSpace(text[len(discrepancyPrefix):])
		if path == "" {
			return ModelSpec{}, fmt.Errorf("opponent model %s: discrepancy:PATH needs the path of a counts file", ShortQuote(text))
		}
		return ModelSpec{Terms: []ModelTerm{{Name: DiscrepancyModelName, Path: path, Text: text}}}, nil
	}
	parts := strings.Split(text, ",")
	if len(parts) > maxModelTerms {
		return ModelSpec{}, fmt.Errorf("opponent model %s has %d terms, at most %d are allowed", ShortQuote(text), len(parts), maxModelTerms)
	}
	var spec ModelSpec
	for i, part := range parts {
		term, err := parseModelTerm(strings.TrimSpace(part))
		if err != nil {
			if strings.TrimSpace(part) == "" {
				return ModelSpec{}, fmt.Errorf("opponent model %s: term %d is empty (terms are separated by single commas)", ShortQuote(text), i+1)
			}
			return ModelSpec{}, fmt.Errorf("opponent model %s: %w", ShortQuote(text), err)
		}
		spec.Terms = append(spec.Terms, term)
	}
	return spec, nil
}

// parseModelTerm reads NAME[@DEPTH][:PROBABILITY].
func parseModelTerm(text string) (ModelTerm, error) {
	term := ModelTerm{Text: text}
	if len(text) >= len(discrepancyPrefix) && strings.EqualFold(text[:len(discrepancyPrefix)], discrepancyPrefix) {
		return ModelTerm{}, fmt.Errorf("term %s: discrepancy:PATH is a whole model (MEU's learned counts), not one term among others", ShortQuote(text))
	}
	rest := text
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		prob := strings.TrimSpace(rest[i+1:])
		rest = strings.TrimSpace(rest[:i])
		p, err := strconv.ParseFloat(prob, 64)
		if err != nil || math.IsNaN(p) || p < 0 || p > 1 {
			return ModelTerm{}, fmt.Errorf("term %s: probability %q is not a number in [0, 1]", ShortQuote(text), prob)
		}
		term.Probability, term.HasProbability = p, true
	}
	if i := strings.IndexByte(rest, '@'); i >= 0 {
		depth := strings.TrimSpace(rest[i+1:])
		rest = strings.TrimSpace(rest[:i])
		d, err := strconv.Atoi(depth)
		if err != nil || d < 1 || d > maxModelDepth || strings.ContainsAny(depth, "+-") {
			return ModelTerm{}, fmt.Errorf("term %s: depth %q is not a whole number in 1..%d", ShortQuote(text), depth, maxModelDepth)
		}
		term.Depth = d
	}
	if rest == "" {
		return ModelTerm{}, fmt.Errorf("term %s has no preset name before its @depth or :probability", ShortQuote(text))
	}
	for _, r := range rest {
		if !isModelNameRune(r) {
			return ModelTerm{}, fmt.Errorf("term %s: name %s holds %q; names are letters, digits, '-', '+' and '_' "+
				"(write NAME[@DEPTH][:PROBABILITY])", ShortQuote(text), ShortQuote(rest), r)
		}
	}
	term.Name = strings.ToLower(rest)
	return term, nil
}

// maxEchoed bounds how much of a model an error message repeats: a model of thousands of terms must not
// come back as a line of a megabyte.
const maxEchoed = 200

// ShortQuote quotes text for an error message, cut to maxEchoed bytes with "..." when longer.
func ShortQuote(text string) string {
	if len(text) > maxEchoed {
		return fmt.Sprintf("%q...", text[:maxEchoed])
	}
	return fmt.Sprintf("%q", text)
}

// isModelNameRune reports whether r may appear in a preset name of a model term.
func isModelNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '+' || r == '_'
}

// CheckFor reports an error unless the model has the shape the algorithm takes; ourDepth is our search's
// depth cap (0: none), which a strategy model's depth must stay below.
func (m ModelSpec) CheckFor(algorithm string, ourDepth int) error {
	if m.IsZero() {
		return nil
	}
	if t := m.Terms[0]; t.Path != "" && algorithm != MEUSearch {
		return fmt.Errorf("opponent model term %s: %s takes no discrepancy counts (only meu does)", ShortQuote(t.Text), algorithm)
	}
	noProbabilities := func() error {
		for _, t := range m.Terms {
			if t.HasProbability {
				return fmt.Errorf("opponent model term %s: %s takes no probabilities (only prom and meu do)", ShortQuote(t.Text), algorithm)
			}
		}
		return nil
	}
	noDepths := func(hint string) error {
		for _, t := range m.Terms {
			if t.Depth > 0 {
				return fmt.Errorf("opponent model term %s: %s takes no @depth%s", ShortQuote(t.Text), algorithm, hint)
			}
		}
		return nil
	}
	single := func(form string) error {
		if len(m.Terms) > 1 {
			return fmt.Errorf("opponent model %s: %s takes one term, %s, not %d", ShortQuote(m.String()), algorithm, form, len(m.Terms))
		}
		return nil
	}
	strategyDepth := func() error {
		if t := m.Terms[0]; ourDepth > 0 && t.Depth > ourDepth-1 {
			return fmt.Errorf("opponent model term %s: the opponent's depth %d must be below our depth %d", ShortQuote(t.Text), t.Depth, ourDepth)
		}
		return nil
	}
	switch algorithm {
	case AlphaBetaSearch:
		return fmt.Errorf("opponent model %s: alphabeta takes no opponent model (model searches: %s)", ShortQuote(m.String()),
			strings.Join(modelSearchAlgorithms(), ", "))
	case AutoSearch:
		return fmt.Errorf("opponent model %s: auto takes no opponent model (it picks one from what it learned of the opponent)",
			ShortQuote(m.String()))
	case MStarSearch:
		if err := noProbabilities(); err != nil {
			return err
		}
		if len(m.Terms) > 1 {
			return noDepths(" in a nested model (P@D is the one-term strategy form)")
		}
		return strategyDepth()
	case MStarOnePassSearch, AlphaBetaStarSearch:
		if err := noProbabilities(); err != nil {
			return err
		}
		return noDepths(" (P@D is the strategy form: search=mstar, mstar-strategy or mstar-risk)")
	case MStarStrategySearch, MStarRiskSearch:
		if err := single("P[@D]"); err != nil {
			return err
		}
		if err := noProbabilities(); err != nil {
			return err
		}
		return strategyDepth()
	case OMSearch:
		if err := single("P[@D]"); err != nil {
			return err
		}
		return noProbabilities()
	case SymmetricSearch:
		if err := single("P"); err != nil {
			return err
		}
		if err := noProbabilities(); err != nil {
			return err
		}
		return noDepths(" (both sides search to our horizon)")
	case PromSearch:
		if err := noDepths(" (every type searches to our horizon)"); err != nil {
			return err
		}
		return m.checkDistribution()
	case MEUSearch:
		t := m.Terms[0]
		if t.Path != "" {
			return nil
		}
		if len(m.Terms) > 1 || t.Name != RankModelName || t.Depth > 0 || !t.HasProbability {
			return fmt.Errorf("opponent model %s: meu takes one term rank:PS (Reibman & Ballard's rank model, PS in (0, 1]) "+
				"or the model discrepancy:PATH (Sen & Arora's learned counts)", ShortQuote(m.String()))
		}
		if t.Probability <= 0 {
			return fmt.Errorf("opponent model term %s: PS must be above 0", ShortQuote(t.Text))
		}
		return nil
	}
	return fmt.Errorf("unknown search %q", algorithm)
}

// checkDistribution reports an error unless every term has a probability, no preset comes twice and the
// probabilities sum to 1.
func (m ModelSpec) checkDistribution() error {
	sum := 0.0
	seen := map[string]bool{}
	for _, t := range m.Terms {
		if !t.HasProbability {
			return fmt.Errorf("opponent model term %s: prom needs a probability, %s:P", ShortQuote(t.Text), t.Name)
		}
		if seen[t.Name] {
			return fmt.Errorf("opponent model term %s: type %s is given twice", ShortQuote(t.Text), t.Name)
		}
		seen[t.Name] = true
		sum += t.Probability
	}
	if math.Abs(sum-1) > probabilityTolerance {
		return fmt.Errorf("opponent model %s: the probabilities sum to %s, want 1", ShortQuote(m.String()), strconv.FormatFloat(sum, 'g', 6, 64))
	}
	return nil
}
