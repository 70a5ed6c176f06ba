// Tests of game trees: the text format, the games interface walk, the sign convention and the evaluation log.

package gametree

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/gametest"
)

const example = "a(b(d[3,5] e[1,-2]) c(f[0,4] g[7,7]))"

func TestParseAndFormat(t *testing.T) {
	tests := []struct {
		name, in, want string
		functions      int
	}{
		{"example", example, example, 2},
		{"lone root", "r", "r", 1},
		{"root with values", "r[1.5,-2,0]", "r[1.5,-2,0]", 3},
		{"interior values", "a[1](b[2] c)", "a[1](b[2] c)", 1},
		{"commas, blanks and comments", "a( # root\n b [ 3 , 5 ] ,\n\tc[0,4] # right\n)", "a(b[3,5] c[0,4])", 2},
		{"number forms", "x[0.5,-1e3,+2,1E-2]", "x[0.5,-1000,2,0.01]", 4},
		{"names", "A_1(a'.b c9)", "A_1(a'.b c9)", 1},
		{"no values anywhere", "a(b(c d) e)", "a(b(c d) e)", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := tree.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if tree.NumFunctions() != tt.functions {
				t.Errorf("%d evaluation functions, want %d", tree.NumFunctions(), tt.functions)
			}
			again, err := Parse(tree.String())
			if err != nil || again.String() != tree.String() {
				t.Errorf("the written tree does not read back: %v", err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", `offset 0: expected a node name, found end of input`},
		{"blank", "  # only a comment", `offset 18: expected a node name, found end of input`},
		{"bad start", "(a)", `offset 0: expected a node name, found "("`},
		{"unclosed children", "a(b c", `offset 5: node "a"'s children are not closed with )`},
		{"empty children", "a()", `node "a" has an empty child list`},
		{"trailing comma", "a(b,)", `offset 4: expected a node name, found ")"`},
		{"junk after", "a(b) c", `offset 5: unexpected "c" after the tree's root node "a" is complete`},
		{"bad value", "a[1,x]", `offset 4: node "a": value "x" is not a finite number`},
		{"infinite value", "a[1e999]", `value "1e999" is not a finite number`},
		{"nan", "a[NaN]", `value "NaN" is not a finite number`},
		{"empty values", "a[]", `offset 2: node "a": expected a number, found "]"`},
		{"missing comma", "a[1 2]", `node "a": expected , or ] after value 1, found "2"`},
		{"unclosed values", "a[1", `expected , or ] after value 1, found end of input`},
		{"value count", "a(b[1,2] c[3])", `node "c" has 1 values, want 2`},
		{"duplicate name", "a(b c(b))", `two nodes are named "b"`},
		{"bad character", "a(b-c)", `offset 3: expected a node name, found "-"`},
		{"too deep", strings.Repeat("a(", maxNesting+2), "nested deeper than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%q) = %v, want an error containing %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestNewTreeErrors(t *testing.T) {
	shared := &Node{Name: "s"}
	tests := []struct {
		name string
		root *Node
		n    int
		want string
	}{
		{"nil root", nil, 1, "nil root"},
		{"no functions", &Node{Name: "a"}, 0, "0 evaluation functions"},
		{"empty name", &Node{Name: "a", Children: []*Node{{}}}, 1, "empty name"},
		{"bad name", &Node{Name: "a b"}, 1, `node name "a b": character ' '`},
		{"duplicate", &Node{Name: "a", Children: []*Node{{Name: "a"}}}, 1, `two nodes are named "a"`},
		{"shared node", &Node{Name: "a", Children: []*Node{shared, shared}}, 1, `node "s" is reached twice`},
		{"values", &Node{Name: "a", Values: []float64{1, 2}}, 3, `node "a" has 2 values, want 3`},
		{"nan", &Node{Name: "a", Values: []float64{math.NaN()}}, 1, "value 0 is NaN"},
		{"nil child", &Node{Name: "a", Children: []*Node{nil}}, 1, "child 0 is nil"},
		{"too many children", &Node{Name: "a", Children: make([]*Node, games.MaxMoves+1)}, 1, "257 children"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewTree(tt.root, tt.n)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewTree = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestPlayUndo(t *testing.T) {
	tree := MustParse(example)
	p := tree.StartPosition()
	steps := []struct {
		move   string
		ply    int
		toMove games.Side
		moves  []string
	}{
		{"", 0, games.First, []string{"b", "c"}},
		{"c", 1, games.Second, []string{"f", "g"}},
		{"g", 2, games.First, nil},
	}
	var buf [games.MaxMoves]games.Move
	for _, s := range steps {
		if s.move != "" {
			m, err := p.ParseMove(s.move)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
		if p.Ply() != s.ply || p.ToMove() != s.toMove {
			t.Errorf("after %q: ply %d, to move %v", s.move, p.Ply(), p.ToMove())
		}
		if got := moveNames(p, p.AppendMoves(buf[:0])); !slices.Equal(got, s.moves) {
			t.Errorf("at %s: moves %v, want %v", p.FEN(), got, s.moves)
		}
		if want := s.move; want != "" && p.FEN() != want {
			t.Errorf("FEN %q, want %q", p.FEN(), want)
		}
	}
	if o := games.OutcomeOf(p); o.Result != games.Ongoing {
		t.Errorf("a leaf's outcome is %v, want Ongoing (the search evaluates it)", o)
	}
	if _, err := p.ParseMove("x"); err == nil || !strings.Contains(err.Error(), "node g is a leaf") {
		t.Errorf("ParseMove at a leaf: %v", err)
	}
	p.Undo()
	p.Undo()
	if p.FEN() != "a" || p.Ply() != 0 {
		t.Errorf("after two undos at %q, ply %d", p.FEN(), p.Ply())
	}
	if _, err := p.ParseMove("d"); err == nil || !strings.Contains(err.Error(), "its children: [b c]") {
		t.Errorf("ParseMove of a grandchild: %v", err)
	}
	// A position read from a node name has the path from the root as its history.
	q, err := tree.PositionAt("e")
	if err != nil {
		t.Fatal(err)
	}
	if q.Ply() != 2 || q.ToMove() != games.First {
		t.Errorf("position at e: ply %d to move %v", q.Ply(), q.ToMove())
	}
	q.Undo()
	if q.FEN() != "b" {
		t.Errorf("undo from e reaches %q, want b", q.FEN())
	}
	if _, err := tree.ParsePosition("z"); err == nil || !strings.Contains(err.Error(), `no node named "z"`) {
		t.Errorf("ParsePosition of an unknown node: %v", err)
	}
	if h1, h2 := tree.StartPosition().Hash(), q.Hash(); h1 == h2 {
		t.Error("the root and b hash alike")
	}
}

// moveNames formats moves in the position's notation.
func moveNames(p games.Position, moves []games.Move) []string {
	var names []string
	for _, m := range moves {
		names = append(names, p.FormatMove(m))
	}
	return names
}

func TestSignConvention(t *testing.T) {
	tree := MustParse("a[9,9](b[2,-1](d[3,5] e) c)")
	tests := []struct {
		node string
		want []float64
	}{
		{"a", []float64{9, 9}},  // first player to move: values as stored
		{"b", []float64{-2, 1}}, // second player to move: negated
		{"d", []float64{3, 5}},
		{"e", []float64{0, 0}}, // no values: zeros
		{"c", []float64{0, 0}},
	}
	for _, tt := range tests {
		p, err := tree.PositionAt(tt.node)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, 2)
		p.Features(got)
		if !slices.Equal(got, tt.want) || math.Signbit(got[0]) && got[0] == 0 {
			t.Errorf("features at %s = %v, want %v", tt.node, got, tt.want)
		}
		if v := tree.Value(tt.node, 1); tt.node == "b" && v != -1 {
			t.Errorf("Value(b, 1) = %v, want the stored -1", v)
		}
	}
	if names := tree.FeatureNames(); !slices.Equal(names, []string{"f0", "f1"}) || tree.Name() != "gametree" {
		t.Errorf("names %v %q", names, tree.Name())
	}
}

// negamax searches p to depth with evaluation function f (a unit weight vector), evaluating at depth 0
// and at leaves; alphaBeta prunes with the window (alpha, beta).
func negamax(p games.Position, depth, f, n int, alpha, beta float64, prune bool) float64 {
	var buf [games.MaxMoves]games.Move
	moves := p.AppendMoves(buf[:0])
	if depth == 0 || len(moves) == 0 {
		feats := make([]float64, n)
		p.Features(feats)
		return feats[f]
	}
	best := math.Inf(-1)
	for _, m := range moves {
		p.Play(m)
		v := -negamax(p, depth-1, f, n, -beta, -alpha, prune)
		p.Undo()
		best = max(best, v)
		alpha = max(alpha, v)
		if prune && alpha >= beta {
			break
		}
	}
	return best
}

func TestEvaluationLog(t *testing.T) {
	tree := MustParse(example)
	p := tree.StartPosition()
	if got := negamax(p, 2, 0, 2, math.Inf(-1), math.Inf(1), false); got != 1 {
		t.Errorf("minimax value with f0 = %v, want 1 (b: min(3, 1), c: min(0, 7))", got)
	}
	if p.FeatureCalls() != 4 || p.Evaluated() != nil {
		t.Errorf("before recording: %d calls, evaluated %v", p.FeatureCalls(), p.Evaluated())
	}
	p.EnableLog()
	p.ResetLog()
	negamax(p, 2, 0, 2, math.Inf(-1), math.Inf(1), false)
	if got := p.Evaluated(); !slices.Equal(got, []string{"d", "e", "f", "g"}) {
		t.Errorf("minimax evaluated %v", got)
	}
	p.ResetLog()
	if got := negamax(p, 2, 0, 2, math.Inf(-1), math.Inf(1), true); got != 1 {
		t.Errorf("alpha-beta value %v, want 1", got)
	}
	// Alpha-beta refutes c with f (0 < 1) and never evaluates g.
	if got := p.Evaluated(); !slices.Equal(got, []string{"d", "e", "f"}) || p.FeatureCalls() != 3 {
		t.Errorf("alpha-beta evaluated %v in %d calls", got, p.FeatureCalls())
	}
	// A depth-1 search evaluates the interior nodes.
	p.ResetLog()
	negamax(p, 1, 1, 2, math.Inf(-1), math.Inf(1), false)
	if got := p.Evaluated(); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("depth-1 search evaluated %v", got)
	}
	// Clones report to the same log, so a search that clones is counted in full.
	p.ResetLog()
	c := p.Clone()
	c.Play(1)
	c.Features(make([]float64, 2))
	if got := p.Evaluated(); !slices.Equal(got, []string{"b"}) || p.FEN() != "a" {
		t.Errorf("clone's evaluation: log %v, original at %q", got, p.FEN())
	}
	// Evaluated returns a copy.
	p.Evaluated()[0] = "x"
	if p.Evaluated()[0] != "b" {
		t.Error("Evaluated exposes the log's storage")
	}
}

func TestRandom(t *testing.T) {
	t.Run("uniform depth", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for trial := 0; trial < 20; trial++ {
			depth := 1 + rng.IntN(5)
			tree := Random(rng, depth, 1, 4, 3, 10)
			if tree.Height() != depth || tree.NumFunctions() != 3 {
				t.Fatalf("height %d functions %d, want %d 3", tree.Height(), tree.NumFunctions(), depth)
			}
			leaves := tree.Leaves()
			if got := games.Perft(tree.Start(), depth); got != uint64(len(leaves)) {
				t.Fatalf("perft(%d) = %d, but the tree has %d leaves", depth, got, len(leaves))
			}
			for _, name := range leaves {
				p, _ := tree.PositionAt(name)
				if p.Ply() != depth {
					t.Fatalf("leaf %s at depth %d, want %d", name, p.Ply(), depth)
				}
			}
			for _, node := range tree.byName {
				for _, v := range node.Values {
					if v != math.Trunc(v) || v < -10 || v > 10 {
						t.Fatalf("node %s has value %v outside the integers of [-10, 10]", node.Name, v)
					}
				}
			}
			if again, err := Parse(tree.String()); err != nil || again.String() != tree.String() {
				t.Fatalf("random tree does not round-trip through the text format: %v", err)
			}
		}
	})
	t.Run("uneven depth", func(t *testing.T) {
		tree := Random(rand.New(rand.NewPCG(5, 6)), 6, 0, 3, 1, 5)
		// Perft at each depth counts the nodes at that depth: leaves above it have no moves.
		atDepth := map[int]uint64{}
		for name := range tree.byName {
			p, _ := tree.PositionAt(name)
			atDepth[p.Ply()]++
		}
		for d := 0; d <= 6; d++ {
			if got := games.Perft(tree.Start(), d); got != atDepth[d] {
				t.Errorf("perft(%d) = %d, but %d nodes lie at that depth", d, got, atDepth[d])
			}
		}
	})
	t.Run("same seed, same tree", func(t *testing.T) {
		a := Random(rand.New(rand.NewPCG(9, 9)), 3, 2, 3, 2, 100).String()
		b := Random(rand.New(rand.NewPCG(9, 9)), 3, 2, 3, 2, 100).String()
		if a != b || !strings.HasPrefix(a, "r[") || !strings.Contains(a, "r.1.0") {
			t.Errorf("two trees from one seed: %q and %q", a, b)
		}
	})
	t.Run("bad arguments panic", func(t *testing.T) {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "describes no tree") {
				t.Errorf("recovered %v", r)
			}
		}()
		Random(rand.New(rand.NewPCG(1, 1)), 2, 3, 1, 1, 1)
	})
}

func TestConformance(t *testing.T) {
	gametest.RandomPlayouts(t, MustParse(example), 10, 10, 1)
	gametest.RandomPlayouts(t, Random(rand.New(rand.NewPCG(3, 4)), 5, 1, 5, 3, 20), 30, 10, 2)
	gametest.RandomPlayouts(t, Random(rand.New(rand.NewPCG(3, 4)), 7, 0, 3, 1, 20), 30, 10, 3)
}
