// The compact text format of game trees: a parser with positioned error messages, and the writer.

package gametree

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxNesting bounds the depth of a tree read from text, so that malformed input cannot exhaust the stack.
const maxNesting = 10000

// Parse reads a tree in the text format:
//
//	tree     = node
//	node     = name [values] [children]
//	values   = "[" number { "," number } "]"
//	children = "(" node { [","] node } ")"
//
// Names are made of ASCII letters, digits, underscores, dots and apostrophes and are unique; numbers are
// decimal (as strconv.ParseFloat reads them) and finite. Blanks and newlines may separate any two tokens,
// and # starts a comment that runs to the end of the line. The nodes with values all have the same number
// of them, which is the tree's number of evaluation functions (1 when no node has values; a node without
// values has all zeros). Values are from the first player's (the root mover's) point of view. For example
//
//	a(b(d[3,5] e[1,-2]) c(f[0,4] g[7,7]))
//
// is a depth-2 tree with two evaluation functions valued at the leaves. Errors give the byte offset and
// the token found there.
func Parse(text string) (*Tree, error) {
	r := &reader{text: text}
	root, err := r.node(0)
	if err != nil {
		return nil, err
	}
	r.skipBlanks()
	if r.pos < len(text) {
		return nil, r.errorf("unexpected %s after the tree's root node %q is complete", r.found(), root.Name)
	}
	n := 0
	var count func(*Node)
	count = func(node *Node) {
		if n == 0 && len(node.Values) > 0 {
			n = len(node.Values)
		}
		for _, c := range node.Children {
			count(c)
		}
	}
	count(root)
	return NewTree(root, max(n, 1))
}

// MustParse is Parse for trees written in tests; it panics if the text is malformed.
func MustParse(text string) *Tree {
	t, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return t
}

// reader is the state of Parse: the text and the offset of the next byte to read.
type reader struct {
	text string
	pos  int
}

// errorf returns an error located at the current offset.
func (r *reader) errorf(format string, args ...any) error {
	return fmt.Errorf("gametree: offset %d: %s", r.pos, fmt.Sprintf(format, args...))
}

// found describes the token at the current offset for an error message.
func (r *reader) found() string {
	if r.pos >= len(r.text) {
		return "end of input"
	}
	end := r.pos + 1
	for end < len(r.text) && end-r.pos < 12 && isNameByte(r.text[end]) && isNameByte(r.text[r.pos]) {
		end++
	}
	return strconv.Quote(r.text[r.pos:end])
}

// skipBlanks skips blanks, newlines and # comments.
func (r *reader) skipBlanks() {
	for r.pos < len(r.text) {
		switch r.text[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		case '#':
			for r.pos < len(r.text) && r.text[r.pos] != '\n' {
				r.pos++
			}
		default:
			return
		}
	}
}

// peek returns the next byte after blanks, or 0 at the end of the text.
func (r *reader) peek() byte {
	r.skipBlanks()
	if r.pos >= len(r.text) {
		return 0
	}
	return r.text[r.pos]
}

// node reads a node and its subtree; depth counts the enclosing parentheses.
func (r *reader) node(depth int) (*Node, error) {
	if depth > maxNesting {
		return nil, r.errorf("the tree is nested deeper than %d levels", maxNesting)
	}
	r.skipBlanks()
	start := r.pos
	for r.pos < len(r.text) && isNameByte(r.text[r.pos]) {
		r.pos++
	}
	if r.pos == start {
		return nil, r.errorf("expected a node name, found %s", r.found())
	}
	node := &Node{Name: r.text[start:r.pos]}
	if r.peek() == '[' {
		if err := r.values(node); err != nil {
			return nil, err
		}
	}
	if r.peek() != '(' {
		return node, nil
	}
	r.pos++
	if r.peek() == ')' {
		return nil, r.errorf("node %q has an empty child list: write a leaf without parentheses", node.Name)
	}
	for {
		child, err := r.node(depth + 1)
		if err != nil {
			return nil, err
		}
		node.Children = append(node.Children, child)
		switch r.peek() {
		case ')':
			r.pos++
			return node, nil
		case ',':
			r.pos++
		case 0:
			return nil, r.errorf("node %q's children are not closed with )", node.Name)
		}
	}
}

// values reads a node's bracketed list of values.
func (r *reader) values(node *Node) error {
	r.pos++ // the [
	for {
		r.skipBlanks()
		start := r.pos
		for r.pos < len(r.text) && !strings.ContainsRune(" \t\n\r,[]()#", rune(r.text[r.pos])) {
			r.pos++
		}
		if r.pos == start {
			return r.errorf("node %q: expected a number, found %s", node.Name, r.found())
		}
		token := r.text[start:r.pos]
		v, err := strconv.ParseFloat(token, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			r.pos = start
			return r.errorf("node %q: value %q is not a finite number", node.Name, token)
		}
		node.Values = append(node.Values, v)
		switch r.peek() {
		case ',':
			r.pos++
		case ']':
			r.pos++
			return nil
		default:
			return r.errorf("node %q: expected , or ] after value %s, found %s", node.Name, token, r.found())
		}
	}
}

// String writes the tree in the text format that Parse reads, children separated by single blanks.
func (t *Tree) String() string {
	var b strings.Builder
	writeNode(&b, t.root)
	return b.String()
}

// writeNode writes node and its subtree.
func writeNode(b *strings.Builder, node *Node) {
	b.WriteString(node.Name)
	if len(node.Values) > 0 {
		b.WriteByte('[')
		for i, v := range node.Values {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte(']')
	}
	if len(node.Children) > 0 {
		b.WriteByte('(')
		for i, c := range node.Children {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeNode(b, c)
		}
		b.WriteByte(')')
	}
}
