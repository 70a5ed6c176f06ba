// M* (Carmel & Markovitch): the recursive form with nested player models (1996, Figure 3) and the
// earlier form with an opponent strategy (f, d) and its risk-reduced variant (1993, Figure 1).

package model

import (
	"dossier/engine"
	"errors"
	"fmt"
	"math"

	"dossier/games"
)

// MStar is Carmel & Markovitch's recursive M*: for each of its moves the player simulates its opponent
// model's search (M* again, one ply shorter, with the model as the player) to find the reply, and values
// the position after that reply with its own M* search two plies shorter. Where the simulated opponent
// has several equally good replies, the one worst for the player counts. Models shallower than the search
// are completed as minimax players. It re-expands subtrees many times (Theorem 2); M* 1-pass returns the
// same value in one pass (Theorem 1). It is a Searcher.
type MStar struct {
	modelSearcher
	ties  [maxPly + 1][games.MaxMoves]games.Move
	nties [maxPly + 1]int

	best, bestReply games.Move
}

var _ engine.Searcher = (*MStar)(nil)

// NewMStar returns a recursive M* searcher for game with the given player model; game may be nil.
func NewMStar(game games.Game, model *PlayerModel, opts ModelOptions) (*MStar, error) {
	core, err := newPlayerModelCore(game, model, opts)
	if err != nil {
		return nil, err
	}
	s := &MStar{}
	s.modelSearcher = modelSearcher{core, s.run}
	return s, nil
}

// SearchMStar runs recursive M* on p to a fixed depth in the game's move order (see ModelOptions.Order).
func SearchMStar(p games.Position, depth int, model *PlayerModel, opts ModelOptions) (ModelResult, error) {
	s, err := NewMStar(nil, model, opts)
	return searchFixedDepth(s, err, p, depth)
}

// run searches the prepared root to depth.
func (s *MStar) run(p games.Position, ctl *engine.Control, depth int) ModelResult {
	s.core.begin(p, ctl, depth)
	s.best, s.bestReply = games.NoMove, games.NoMove
	v, _ := s.node(depth, 0, 0)
	return s.core.result(s.best, s.bestReply, v, nil)
}

// leafValue returns level j's value of the position at ply when it is a leaf for a search of depth
// plies (the game is over, the depth is spent, or a hand-built tree ends), and the moves otherwise.
func (s *MStar) leafValue(depth, ply, j int) (float64, bool, []games.Move) {
	c := s.core
	switch kind, r := c.classify(depth, ply); kind {
	case leafFinished:
		return c.outcomeValue(r, ply, j), true, nil
	case leafHorizon:
		c.horizon++
		return c.staticValue(ply, j), true, nil
	}
	moves := c.movesAt(ply)
	if len(moves) == 0 {
		if o := c.pos.NoMovesOutcome(); o.Result != games.Ongoing {
			return c.outcomeValue(o.Result, ply, j), true, nil
		}
		return c.staticValue(ply, j), true, nil
	}
	return 0, false, moves
}

// node is M*(position, depth, level j) for the level-j player, who is to move at ply: it returns the
// player's value and whether the position was expanded, in which case ties[ply] holds the moves that
// reach that value, in move order.
func (s *MStar) node(depth, ply, j int) (float64, bool) {
	c := s.core
	value, leaf, moves := s.leafValue(depth, ply, j)
	if leaf {
		return value, false
	}
	if c.expand() {
		return 0, true
	}
	best := math.Inf(-1)
	ties := &s.ties[ply]
	n := 0
	for _, m := range moves {
		c.pos.Play(m)
		v, reply := s.afterMove(depth, ply, j)
		c.pos.Undo()
		if c.aborted {
			s.nties[ply] = n
			return best, true
		}
		switch {
		case v > best:
			best, n = v, 0
			ties[n] = m
			n++
			if ply == 0 {
				s.best, s.bestReply = m, reply
			}
		case v == best:
			ties[n] = m
			n++
		}
	}
	s.nties[ply] = n
	return best, true
}

// afterMove values, for the level-j player who moved at ply, the position just reached: statically one
// ply before the horizon; otherwise the opponent model (level j+1) simulates its search here, and the
// player searches on from each reply the model finds best, counting the worst of them. It returns the
// value and the predicted reply.
func (s *MStar) afterMove(depth, ply, j int) (float64, games.Move) {
	c := s.core
	if depth == 1 {
		v, _, _ := s.leafValue(0, ply+1, j)
		return v, games.NoMove
	}
	if _, expanded := s.node(depth-1, ply+1, j+1); !expanded {
		v, _, _ := s.leafValue(depth-1, ply+1, j)
		return v, games.NoMove
	}
	if c.aborted {
		return 0, games.NoMove
	}
	worst, reply := math.Inf(1), games.NoMove
	for _, t := range s.ties[ply+1][:s.nties[ply+1]] {
		c.pos.Play(t)
		v, _ := s.node(depth-2, ply+2, j)
		c.pos.Undo()
		if c.aborted {
			return 0, games.NoMove
		}
		if v < worst {
			worst, reply = v, t
		}
	}
	return worst, reply
}

// MStarStrategy is M* as Carmel & Markovitch first defined it: the opponent is modelled by a strategy
// (f, d), a plain minimax search of d plies with its own function f. Each node carries the pair
// (player's value, model's value): the player maximises its value at its nodes, where the model assumes
// the player minimises the model's value; at the opponent's nodes the model's choice (the highest model
// value) gives the player's value, the minimal one among tied choices; on the model's search frontier
// (ply d+1) the model's value is its static evaluation. The risk-reduced variant trusts the model only
// for the opponent's first reply and takes the minimum of the player's values at deeper opponent nodes.
// It is a Searcher.
type MStarStrategy struct {
	modelSearcher
	model       Strategy
	riskReduced bool
	frontier    int // the model's search frontier in the current search (ply)

	best, bestReply, reply games.Move
}

var _ engine.Searcher = (*MStarStrategy)(nil)

// NewMStarStrategy returns the strategy form of M* for a player using player against an opponent
// modelled by model (model.Depth >= 1; a search shallower than model.Depth + 1 lets the model see to the
// search's horizon); riskReduced selects the risk-reduced variant. game may be nil.
func NewMStarStrategy(game games.Game, player engine.Evaluation, model Strategy, riskReduced bool, opts ModelOptions) (*MStarStrategy, error) {
	if model.Depth < 1 {
		return nil, fmt.Errorf("M* strategy model %q searches %d plies, want at least 1", model.Eval.Name, model.Depth)
	}
	core, err := newModelCore(game, []engine.Evaluation{player, model.Eval}, opts)
	if err != nil {
		return nil, err
	}
	s := &MStarStrategy{model: model, riskReduced: riskReduced}
	s.modelSearcher = modelSearcher{core, s.run}
	return s, nil
}

// SearchMStarStrategy runs the strategy form of M* on p to depth plies, with model.Depth <= depth - 1
// as the paper requires.
func SearchMStarStrategy(p games.Position, depth int, player engine.Evaluation, model Strategy, riskReduced bool, opts ModelOptions) (ModelResult, error) {
	if model.Depth > depth-1 {
		return ModelResult{}, errors.New("M* strategy: the model must search fewer plies than the player")
	}
	s, err := NewMStarStrategy(nil, player, model, riskReduced, opts)
	return searchFixedDepth(s, err, p, depth)
}

// run searches the prepared root to depth.
func (s *MStarStrategy) run(p games.Position, ctl *engine.Control, depth int) ModelResult {
	c := s.core
	c.begin(p, ctl, depth)
	c.levels, c.real = 2, 2
	s.frontier = 1 + min(s.model.Depth, max(depth-1, 1))
	s.best, s.bestReply = games.NoMove, games.NoMove
	pair := make([]float64, 2)
	s.node(depth, 0, pair)
	return c.result(s.best, s.bestReply, pair[0], pair)
}

// node writes the pair (player's value, model's value) of the position at ply into v and reports
// whether the position was expanded.
func (s *MStarStrategy) node(depth, ply int, v []float64) bool {
	c := s.core
	leaf, moves := c.vectorLeaf(depth, ply, v)
	if leaf || c.expand() {
		return false
	}
	var u [2]float64
	maxNode := ply&1 == 0
	deepMin := !maxNode && s.riskReduced && ply > 1
	if maxNode {
		v[0], v[1] = math.Inf(-1), math.Inf(1)
	} else {
		v[0], v[1] = math.Inf(1), math.Inf(-1)
	}
	for _, m := range moves {
		if ply == 0 {
			s.reply = games.NoMove
		}
		c.pos.Play(m)
		expanded := s.node(depth-1, ply+1, u[:])
		if expanded && ply+1 == s.frontier && !c.aborted {
			u[1] = c.staticValue(ply+1, 1) // the model's search ends here
		}
		c.pos.Undo()
		if c.aborted {
			return true
		}
		switch {
		case maxNode:
			if u[0] > v[0] {
				v[0] = u[0]
				if ply == 0 {
					s.best, s.bestReply = m, s.reply
				}
			}
			v[1] = min(v[1], u[1])
		case deepMin:
			v[0] = min(v[0], u[0])
			v[1] = max(v[1], u[1])
		case u[1] > v[1] || (u[1] == v[1] && u[0] < v[0]):
			v[0], v[1] = u[0], u[1]
			if ply == 1 {
				s.reply = m
			}
		}
	}
	return true
}
