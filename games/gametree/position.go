// Positions of a game tree: walking its nodes through the games interface, with an evaluation log.

package gametree

import (
	"fmt"
	"slices"
	"sync"

	"dossier/games"
)

// Position is a node of a Tree reached from the root; it implements games.Position.
type Position struct {
	tree *Tree
	path []*Node // the root, ..., the current node
	log  *evalLog
}

// evalLog records feature extractions. A position and all its clones share one log, so that a search that
// clones positions (for instance to search in parallel) is still counted in full.
type evalLog struct {
	mu        sync.Mutex
	calls     int
	recording bool
	evaluated []string
}

// newPosition returns the position at node, with the path from the root as its history.
func (t *Tree) newPosition(node *Node) *Position {
	path := make([]*Node, 0, t.height+1)
	for n := node; n != nil; n = t.parent[n] {
		path = append(path, n)
	}
	slices.Reverse(path)
	return &Position{tree: t, path: path, log: &evalLog{}}
}

// Node returns the current node.
func (p *Position) Node() *Node { return p.path[len(p.path)-1] }

// ToMove returns the first player at even depths (the root included) and the second at odd ones.
func (p *Position) ToMove() games.Side { return games.Side((len(p.path) - 1) & 1) }

// AppendMoves appends one move per child of the current node: games.Move(i+1) for child i.
func (p *Position) AppendMoves(dst []games.Move) []games.Move {
	for i := range p.Node().Children {
		dst = append(dst, games.Move(i+1))
	}
	return dst
}

// Play moves down to the move's child.
func (p *Position) Play(m games.Move) {
	p.path = append(p.path, p.Node().Children[m-1])
}

// Undo moves up to the parent; it panics at the root.
func (p *Position) Undo() {
	if len(p.path) == 1 {
		panic("gametree: Undo at the root")
	}
	p.path = p.path[:len(p.path)-1]
}

// Hash returns a hash of the current node's name (names are unique in a tree).
func (p *Position) Hash() uint64 {
	name := p.Node().Name
	z := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(name); i++ {
		z = (z ^ uint64(name[i])) * 1099511628211
	}
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Status returns Ongoing: a tree's game never ends by rule.
func (p *Position) Status() games.Outcome { return games.Outcome{} }

// NoMovesOutcome returns Ongoing: a leaf is a search frontier, which the search evaluates.
func (p *Position) NoMovesOutcome() games.Outcome { return games.Outcome{} }

// Repetitions returns 0: a path down a tree never repeats a node.
func (p *Position) Repetitions() int { return 0 }

// Ply returns the depth of the current node (0 at the root).
func (p *Position) Ply() int { return len(p.path) - 1 }

// Features writes the current node's values from the side to move's point of view (negated when the
// second player is to move), counts the call and, while the log records, logs the node's name.
func (p *Position) Features(dst []float64) {
	node := p.Node()
	negate := p.ToMove() == games.Second
	for i := range p.tree.n {
		v := 0.0
		if len(node.Values) > 0 {
			v = node.Values[i]
		}
		if negate && v != 0 {
			v = -v
		}
		dst[i] = v
	}
	l := p.log
	l.mu.Lock()
	l.calls++
	if l.recording {
		l.evaluated = append(l.evaluated, node.Name)
	}
	l.mu.Unlock()
}

// FeatureCalls returns the number of Features calls on this position and its clones since the last ResetLog.
func (p *Position) FeatureCalls() int {
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	return p.log.calls
}

// EnableLog starts recording the names of the nodes evaluated by Features, on this position and its clones.
func (p *Position) EnableLog() {
	p.log.mu.Lock()
	p.log.recording = true
	p.log.mu.Unlock()
}

// Evaluated returns the names of the nodes evaluated since the log was enabled or reset, in call order
// (interleaved arbitrarily when clones were evaluated concurrently).
func (p *Position) Evaluated() []string {
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	return slices.Clone(p.log.evaluated)
}

// ResetLog clears the call count and the recorded names; recording stays as it was.
func (p *Position) ResetLog() {
	p.log.mu.Lock()
	p.log.calls = 0
	p.log.evaluated = nil
	p.log.mu.Unlock()
}

// FormatMove writes the name of the move's child.
func (p *Position) FormatMove(m games.Move) string {
	children := p.Node().Children
	if m < 1 || int(m) > len(children) {
		return fmt.Sprintf("<invalid gametree move %d at node %s>", uint64(m), p.Node().Name)
	}
	return children[m-1].Name
}

// ParseMove reads a move as the name of a child of the current node.
func (p *Position) ParseMove(s string) (games.Move, error) {
	node := p.Node()
	for i, c := range node.Children {
		if c.Name == s {
			return games.Move(i + 1), nil
		}
	}
	if len(node.Children) == 0 {
		return games.NoMove, fmt.Errorf("gametree: move %q: node %s is a leaf, with no moves", s, node.Name)
	}
	names := make([]string, len(node.Children))
	for i, c := range node.Children {
		names[i] = c.Name
	}
	return games.NoMove, fmt.Errorf("gametree: move %q: node %s has no child of that name (its children: %v)", s, node.Name, names)
}

// FEN returns the current node's name, which ParsePosition reads back.
func (p *Position) FEN() string { return p.Node().Name }

// Clone returns a copy that walks the tree independently but shares this position's evaluation log.
func (p *Position) Clone() games.Position {
	path := make([]*Node, len(p.path), p.tree.height+1)
	copy(path, p.path)
	return &Position{tree: p.tree, path: path, log: p.log}
}
