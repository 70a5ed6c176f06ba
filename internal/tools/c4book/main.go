// Command c4book builds the first player's Connect-Four opening book with the exact solver and checks
// that the solver finds a winning move quickly in every position the book leads to but leaves out.
//
// From the empty board, ply by ply, the first player plays the solver's fastest winning move (the
// centre-most among equals) and the second player every legal move; mirror images count once. A
// position where the first player is to move goes into the book when a solver with an empty table of
// the player's default size (--leaf-mb) cannot find its winning move within --leaf-nodes nodes, as the
// strongest player would have to after leaving the book; otherwise it is a leaf, and the walk stops
// there. The program prints the positions, entries and leaves of every ply and the worst leaf.
//
//	go run ./internal/tools/c4book --leaf-nodes 50000 --out bots/connect4solver/book7x6.bin
package main

import (
	"cmp"
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"runtime"
	"slices"
	"time"

	"dossier/bots/connect4solver"
	"dossier/games"
	"dossier/games/connect4"
	"dossier/internal/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const c4bookHelp = `usage: c4book [--leaf-nodes N] [--leaf-mb MB] [--table-mb MB] [--out FILE] [--reuse FILE] [--beyond-nodes N]

Builds the first player's Connect-Four opening book with the exact solver and prints, ply by ply, the
positions, entries and leaves, then checks the positions two plies past the leaves.`

// run reads the command line, builds the book and reports it.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("c4book", c4bookHelp, stdout, stderr)
	fs := cmd.Flags
	leafNodes := fs.Int("leaf-nodes", 50_000, "a position goes into the book when an empty --leaf-mb table cannot solve it within this many nodes")
	leafMB := fs.Int("leaf-mb", 12, "the table of the solver that decides what is a leaf, in MiB (the strongest player's share of the default Hash)")
	tableMB := fs.Int("table-mb", 2048, "the table of the solver that chooses the book's moves, in MiB")
	out := fs.String("out", "", "the book file to write (empty: write nothing, only measure)")
	reuse := fs.String("reuse", "", "a book file whose moves stand for the solver's where it has the position (to rebuild quickly; the moves are the same)")
	beyond := fs.Uint64("beyond-nodes", 2_000_000, "also solve every position two plies past a leaf, after the solver's move there, with the table as the leaf's solve left it, within this many nodes (0: no check)")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	if *leafNodes <= 0 || *leafMB <= 0 || *tableMB <= 0 {
		return cmd.UsageError("--leaf-nodes, --leaf-mb and --table-mb must be positive")
	}
	var old *connect4solver.Book
	if *reuse != "" {
		data, err := os.ReadFile(*reuse)
		if err != nil {
			return cmd.UsageError("--reuse: %v", err)
		}
		if old, err = connect4solver.ParseBook(data); err != nil {
			return cmd.UsageError("--reuse %s: %v", *reuse, err)
		}
	}
	start := time.Now()
	b := builder{
		chooser:   connect4solver.New(*tableMB),
		checker:   connect4solver.New(*leafMB),
		leafNodes: uint64(*leafNodes),
		old:       old,
	}
	b.build()
	fmt.Fprintf(stdout, "book: %d entries, %d leaves, built in %v\n", len(b.entries), len(b.leaves), time.Since(start).Round(time.Second))
	fmt.Fprintf(stdout, "leaves: %v\n", summarize(b.leaves))
	if *out != "" {
		data, err := connect4solver.EncodeBook(b.entries, connect4solver.BookCheck{LeafNodes: *leafNodes, LeafTableMB: *leafMB})
		if err != nil {
			return cmd.Fail("%v", err)
		}
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			return cmd.Fail("%v", err)
		}
		fmt.Fprintf(stdout, "wrote %s: %d bytes\n", *out, len(data))
	}
	if *beyond > 0 {
		costs, unsolved := b.checkBeyond(*beyond)
		fmt.Fprintf(stdout, "two plies beyond the leaves: %v; %d not solved within %d nodes\n", costs, unsolved, *beyond)
	}
	fmt.Fprintf(stdout, "total time %v\n", time.Since(start).Round(time.Second))
	return cli.ExitOK
}

// line is a position given by its moves from the empty board (Pons's digits), in the orientation
// whose key is the smaller of the two mirror images'.
type line string

// position plays l from the empty board.
func (l line) position() *connect4.Position {
	p, err := connect4.Game{}.StartPosition()
	if err != nil {
		log.Fatal(err)
	}
	if err := connect4.PlayMoveString(p, string(l)); err != nil {
		log.Fatal(err)
	}
	return p
}

// digit returns the Pons digit of a move.
func digit(m games.Move) byte { return '1' + byte(connect4.MoveColumn(m)) }

// mirrored returns the line that reaches the mirror image of l's position.
func (l line) mirrored() line {
	m := []byte(l)
	for i, d := range m {
		m[i] = '1' + '7' - d
	}
	return line(m)
}

// orientations returns l and, unless its position is its own mirror image, the mirrored line: the
// solver orders moves centre first and then left before right, so the two images cost different nodes.
func (l line) orientations() []line {
	if m := l.mirrored(); m.position().Key() != l.position().Key() {
		return []line{l, m}
	}
	return []line{l}
}

// canonical returns p's canonical key and the line that reaches the canonical orientation of p, given
// the moves l that reach p itself.
func canonical(p *connect4.Position, l []byte) (uint64, line) {
	key, mirrored := connect4solver.CanonicalKey(p)
	if !mirrored {
		return key, line(l)
	}
	return key, line(l).mirrored()
}

// cost is what one solve took.
type cost struct {
	line  line
	nodes uint64
	cpu   time.Duration
}

// builder holds the solvers and what the walk found.
type builder struct {
	chooser   *connect4solver.Solver // chooses the book's moves, its table kept across positions
	checker   *connect4solver.Solver // decides leaves from an empty table, as the player after the book
	leafNodes uint64
	old       *connect4solver.Book // moves to reuse; nil: none
	entries   []connect4solver.BookEntry
	leaves    []cost
}

// build walks the book's tree ply by ply from the empty board.
func (b *builder) build() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, err := connect4.Game{}.StartPosition()
	if err != nil {
		log.Fatal(err)
	}
	key, _ := connect4solver.CanonicalKey(start)
	level := map[uint64]line{key: ""}
	for ply := 0; len(level) > 0; ply += 2 {
		began, nodesBefore := time.Now(), b.chooser.Nodes()
		next := map[uint64]line{}
		var leaves []cost
		entries := 0
		for _, key := range slices.Sorted(maps.Keys(level)) {
			l := level[key]
			if c, ok := b.solveWithin(l); ok {
				leaves = append(leaves, c)
				continue
			}
			p := l.position()
			best := b.choose(p, l, key)
			entries++
			p.Play(best)
			if p.Status().Result != games.Ongoing {
				continue
			}
			moves := append([]byte(l), digit(best))
			for _, reply := range p.AppendMoves(nil) {
				p.Play(reply)
				if p.Status().Result == games.Ongoing {
					k, reached := canonical(p, append(moves, digit(reply)))
					next[k] = reached
				}
				p.Undo()
			}
		}
		b.leaves = append(b.leaves, leaves...)
		fmt.Printf("ply %2d: %6d positions, %6d entries (%d solver nodes), %6d leaves (%v); %v\n", ply, len(level), entries,
			b.chooser.Nodes()-nodesBefore, len(leaves), summarize(leaves), time.Since(began).Round(time.Millisecond))
		level = next
	}
}

// solveWithin solves the position of l and its mirror image as the strongest player does after the
// book, from an empty table within the leaf node limit, and returns the costlier solve and whether both
// succeeded.
func (b *builder) solveWithin(l line) (cost, bool) {
	worst := cost{line: l}
	for _, o := range l.orientations() {
		b.checker.Reset()
		cpuBefore := threadCPUTime()
		best, ok := b.checker.BestMoveWithin(o.position(), connect4solver.Limits{MaxNodes: b.leafNodes})
		if !ok {
			return cost{}, false
		}
		if best.Score <= 0 {
			log.Fatalf("c4book: %q: the first player does not win (score %d)", o, best.Score)
		}
		if c := (cost{line: o, nodes: b.checker.Nodes(), cpu: threadCPUTime() - cpuBefore}); c.nodes >= worst.nodes {
			worst = c
		}
	}
	return worst, true
}

// choose returns the book's move for p (the position of l, with canonical key key) and records its
// entry: the solver's fastest winning move, or the reused book's.
func (b *builder) choose(p *connect4.Position, l line, key uint64) games.Move {
	if best, ok := b.old.Lookup(p); ok {
		b.entries = append(b.entries, connect4solver.BookEntry{Key: key, Column: connect4.MoveColumn(best.Move), Score: best.Score})
		return best.Move
	}
	began := time.Now()
	best := b.chooser.BestMove(p)
	if best.Score <= 0 {
		log.Fatalf("c4book: %q: the first player does not win (score %d)", l, best.Score)
	}
	if took := time.Since(began); took > 10*time.Second {
		fmt.Printf("  %q: column %d, score %d, in %v\n", l, connect4.MoveColumn(best.Move)+1, best.Score, took.Round(time.Second))
	}
	b.entries = append(b.entries, connect4solver.BookEntry{Key: key, Column: connect4.MoveColumn(best.Move), Score: best.Score})
	return best.Move
}

// checkBeyond solves every leaf again in both orientations, plays the solver's move and solves every
// reply's position with the table the leaf's solve left, as the player does in a game, each within
// limit nodes (the player's budget at depth-limited settings); it returns the costs of the replies
// solved and the number that were not.
func (b *builder) checkBeyond(limit uint64) (summary, int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var costs []cost
	unsolved := 0
	for _, leaf := range b.leaves {
		for _, image := range leaf.line.orientations() {
			p := image.position()
			b.checker.Reset()
			best, ok := b.checker.BestMoveWithin(p, connect4solver.Limits{MaxNodes: b.leafNodes})
			if !ok {
				log.Fatalf("c4book: leaf %q not solved within %d nodes", image, b.leafNodes)
			}
			p.Play(best.Move)
			if p.Status().Result != games.Ongoing {
				continue
			}
			for _, reply := range p.AppendMoves(nil) {
				p.Play(reply)
				if p.Status().Result == games.Ongoing {
					next := image + line([]byte{digit(best.Move), digit(reply)})
					nodesBefore, cpuBefore := b.checker.Nodes(), threadCPUTime()
					after, ok := b.checker.BestMoveWithin(p, connect4solver.Limits{MaxNodes: limit})
					switch {
					case !ok:
						unsolved++
						fmt.Printf("  %q: not solved within %d nodes\n", next, limit)
					case after.Score <= 0:
						log.Fatalf("c4book: %q: the first player does not win (score %d)", next, after.Score)
					default:
						costs = append(costs, cost{line: next, nodes: b.checker.Nodes() - nodesBefore, cpu: threadCPUTime() - cpuBefore})
					}
				}
				p.Undo()
			}
		}
	}
	return summarize(costs), unsolved
}

// summary is the worst and typical costs of a set of solves.
type summary struct {
	solves       int
	worstNodes   cost
	worstCPU     cost
	medianNodes  uint64
	percentile99 uint64
	totalNodes   uint64
	over100K     int
	over1M       int
}

// String prints the summary on one line.
func (s summary) String() string {
	if s.solves == 0 {
		return "no solves"
	}
	return fmt.Sprintf("%d solves; nodes: median %d, 99th percentile %d, mean %d, max %d (%q, %v CPU), %d over 100K, %d over 1M; max CPU %v (%q, %d nodes)",
		s.solves, s.medianNodes, s.percentile99, s.totalNodes/uint64(s.solves), s.worstNodes.nodes, s.worstNodes.line,
		s.worstNodes.cpu.Round(time.Microsecond), s.over100K, s.over1M, s.worstCPU.cpu.Round(time.Microsecond), s.worstCPU.line, s.worstCPU.nodes)
}

// summarize sums costs up.
func summarize(costs []cost) summary {
	s := summary{solves: len(costs)}
	if len(costs) == 0 {
		return s
	}
	nodes := make([]uint64, len(costs))
	for i, c := range costs {
		nodes[i] = c.nodes
		s.totalNodes += c.nodes
		if c.nodes > s.worstNodes.nodes || (c.nodes == s.worstNodes.nodes && cmp.Less(c.line, s.worstNodes.line)) {
			s.worstNodes = c
		}
		if c.cpu > s.worstCPU.cpu {
			s.worstCPU = c
		}
		if c.nodes > 100_000 {
			s.over100K++
		}
		if c.nodes > 1_000_000 {
			s.over1M++
		}
	}
	slices.Sort(nodes)
	s.medianNodes = nodes[len(nodes)/2]
	s.percentile99 = nodes[len(nodes)*99/100]
	return s
}
