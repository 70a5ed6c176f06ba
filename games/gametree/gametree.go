// Package gametree provides hand-built game trees behind the games interface, for worked examples and
// property tests of the searches.
//
// A Tree is a game whose positions are its nodes: the moves at a node go to its children (games.Move(i+1)
// for child i, written with the child's name), the first player moves at the root and the sides alternate
// with depth. Each node carries one value per evaluation function, stored from the first player's point of
// view; a position's features are those values from the side to move's point of view, so that the unit
// weight vector e_i is evaluation function f_i in the negamax convention. Positions count their feature
// extractions and can log which nodes were evaluated, so that tests can compare what two searches looked at.
//
// Trees are written in a compact text format (see Parse), built by hand from Nodes (see NewTree), or drawn
// at random (see Random).
package gametree

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"dossier/games"
)

// Node is a node of a game tree; build a tree of them and hand the root to NewTree.
type Node struct {
	// Name identifies the node; names are unique within a tree and made of ASCII letters, digits,
	// underscores, dots and apostrophes (as in a').
	Name string
	// Values holds one value per evaluation function from the first player's point of view; empty means
	// all zero. Interior nodes may carry values too, for searches that stop above the leaves.
	Values []float64
	// Children are the positions the moves lead to, in move order.
	Children []*Node
}

// Tree is a validated game tree; it implements games.Game. Do not modify its nodes after NewTree.
type Tree struct {
	root   *Node
	n      int              // evaluation functions
	byName map[string]*Node // every node by name
	parent map[*Node]*Node  // every node but the root to its parent
	height int              // depth of the deepest node
}

// NewTree checks a tree of nodes with nFunctions evaluation functions: names valid and unique, no node
// reached twice, at most games.MaxMoves children per node, and each node with no values or nFunctions
// finite ones.
func NewTree(root *Node, nFunctions int) (*Tree, error) {
	if root == nil {
		return nil, errors.New("gametree: nil root")
	}
	if nFunctions < 1 {
		return nil, fmt.Errorf("gametree: %d evaluation functions, want at least 1", nFunctions)
	}
	t := &Tree{root: root, n: nFunctions, byName: map[string]*Node{}, parent: map[*Node]*Node{}}
	seen := map[*Node]bool{}
	type item struct {
		node  *Node
		depth int
	}
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		node := it.node
		if seen[node] {
			return nil, fmt.Errorf("gametree: node %q is reached twice: a tree has one path to each node", node.Name)
		}
		seen[node] = true
		if err := checkName(node.Name); err != nil {
			return nil, err
		}
		if _, dup := t.byName[node.Name]; dup {
			return nil, fmt.Errorf("gametree: two nodes are named %q", node.Name)
		}
		t.byName[node.Name] = node
		if len(node.Values) != 0 && len(node.Values) != nFunctions {
			return nil, fmt.Errorf("gametree: node %q has %d values, want %d (one per evaluation function) or none",
				node.Name, len(node.Values), nFunctions)
		}
		for i, v := range node.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("gametree: node %q: value %d is %v, want a finite number", node.Name, i, v)
			}
		}
		if len(node.Children) > games.MaxMoves {
			return nil, fmt.Errorf("gametree: node %q has %d children, at most %d allowed", node.Name,
				len(node.Children), games.MaxMoves)
		}
		t.height = max(t.height, it.depth)
		for i, child := range node.Children {
			if child == nil {
				return nil, fmt.Errorf("gametree: node %q: child %d is nil", node.Name, i)
			}
			t.parent[child] = node
			stack = append(stack, item{child, it.depth + 1})
		}
	}
	return t, nil
}

// checkName reports whether a node name is usable in the text format and as a move.
func checkName(name string) error {
	if name == "" {
		return errors.New("gametree: a node has an empty name")
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return fmt.Errorf("gametree: node name %q: character %q is not a letter, digit, underscore, dot or apostrophe", name, name[i])
		}
	}
	return nil
}

// isNameByte reports whether c may appear in a node name.
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '\''
}

// Root returns the root node.
func (t *Tree) Root() *Node { return t.root }

// NumFunctions returns the number of evaluation functions, the length of every feature vector.
func (t *Tree) NumFunctions() int { return t.n }

// Height returns the depth of the deepest node (0 for a lone root).
func (t *Tree) Height() int { return t.height }

// Node returns the node with the given name, or nil.
func (t *Tree) Node(name string) *Node { return t.byName[name] }

// Value returns evaluation function f's value of the named node from the first player's point of view.
func (t *Tree) Value(name string, f int) float64 {
	node := t.byName[name]
	if node == nil || len(node.Values) == 0 {
		return 0
	}
	return node.Values[f]
}

// Leaves returns the names of the nodes without children, from left to right.
func (t *Tree) Leaves() []string {
	var names []string
	var walk func(*Node)
	walk = func(n *Node) {
		if len(n.Children) == 0 {
			names = append(names, n.Name)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(t.root)
	return names
}

// Name returns "gametree".
func (t *Tree) Name() string { return "gametree" }

// FeatureNames returns f0 ... f(n-1), one per evaluation function.
func (t *Tree) FeatureNames() []string {
	names := make([]string, t.n)
	for i := range names {
		names[i] = "f" + strconv.Itoa(i)
	}
	return names
}

// Start returns the position at the root.
func (t *Tree) Start() games.Position { return t.newPosition(t.root) }

// StartPosition returns the position at the root as the concrete type.
func (t *Tree) StartPosition() *Position { return t.newPosition(t.root) }

// ParsePosition returns the position at the node of that name; the root's name gives the start.
func (t *Tree) ParsePosition(name string) (games.Position, error) {
	p, err := t.PositionAt(name)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// PositionAt returns the position at the named node as the concrete type, with the moves from the root
// to it as its history.
func (t *Tree) PositionAt(name string) (*Position, error) {
	node := t.byName[name]
	if node == nil {
		return nil, fmt.Errorf("gametree: no node named %q", name)
	}
	return t.newPosition(node), nil
}

// Random draws a tree of the given depth in which every node has between minBranch and maxBranch children
// (so all leaves lie at that depth unless minBranch is 0, which lets a node end the game early) and
// nFunctions integer values drawn uniformly from [-valueRange, valueRange]. Nodes are named by their path:
// the root r, its children r.0, r.1, ..., their children r.0.0 and so on. Random panics on arguments that
// describe no tree (negative sizes, minBranch > maxBranch, more than games.MaxMoves children).
func Random(rng *rand.Rand, depth, minBranch, maxBranch, nFunctions int, valueRange int) *Tree {
	if depth < 0 || minBranch < 0 || maxBranch < minBranch || maxBranch > games.MaxMoves || nFunctions < 1 || valueRange < 0 {
		panic(fmt.Sprintf("gametree: Random(depth %d, branches %d-%d, %d functions, range %d) describes no tree",
			depth, minBranch, maxBranch, nFunctions, valueRange))
	}
	var grow func(name string, depth int) *Node
	grow = func(name string, depth int) *Node {
		node := &Node{Name: name, Values: make([]float64, nFunctions)}
		for i := range node.Values {
			node.Values[i] = float64(rng.IntN(2*valueRange+1) - valueRange)
		}
		if depth > 0 {
			node.Children = make([]*Node, minBranch+rng.IntN(maxBranch-minBranch+1))
			for i := range node.Children {
				node.Children[i] = grow(name+"."+strconv.Itoa(i), depth-1)
			}
		}
		return node
	}
	t, err := NewTree(grow("r", depth), nFunctions)
	if err != nil {
		panic(err) // the names and values drawn above are valid by construction
	}
	return t
}
