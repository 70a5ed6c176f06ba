// Perft against the shared suite (exact node counts agreed with Stockfish) and perft benchmarks.

package chess

import (
	"bufio"
	"strconv"
	"strings"
	"testing"

	"dossier/games/gametest"
	"dossier/internal/testdeep"
)

type perftEntry struct {
	fen   string
	depth []int    // the depths given
	nodes []uint64 // nodes[i] at depth[i]
}

func readPerftSuite(t testing.TB) []perftEntry {
	var out []perftEntry
	sc := bufio.NewScanner(gametest.OpenTestData(t, "chess/perft_suite.epd"))
	for sc.Scan() {
		parts := strings.Split(strings.TrimSpace(sc.Text()), ";")
		if len(parts) < 2 {
			continue
		}
		e := perftEntry{fen: strings.TrimSpace(parts[0])}
		for _, p := range parts[1:] {
			var d int
			var n uint64
			fs := strings.Fields(p)
			if len(fs) != 2 || !strings.HasPrefix(fs[0], "D") {
				t.Fatalf("bad perft entry %q", p)
			}
			d, err1 := strconv.Atoi(fs[0][1:])
			n, err2 := strconv.ParseUint(fs[1], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("bad perft entry %q", p)
			}
			e.depth = append(e.depth, d)
			e.nodes = append(e.nodes, n)
		}
		out = append(out, e)
	}
	return out
}

// TestPerftSuite checks every entry of the shared suite to depth 5 (through gametest.CheckPerft where the
// entry lists depths 1, 2, ..., which also compares the interface perft up to depth 4), and the deeper
// counts (up to 706 M nodes) in the deep run only (DOSSIER_DEEP_TESTS=1).
func TestPerftSuite(t *testing.T) {
	const alwaysDepth = 5
	for i, e := range readPerftSuite(t) {
		t.Run(strconv.Itoa(i+1), func(t *testing.T) {
			p, err := ParseFEN(e.fen)
			if err != nil {
				t.Fatal(err)
			}
			var prefix []uint64 // counts at depths 1, 2, ... while the entry lists them in order
			for j, d := range e.depth {
				if d != j+1 {
					break
				}
				prefix = append(prefix, e.nodes[j])
			}
			if len(prefix) > 0 {
				gametest.CheckPerft(t, p, prefix, alwaysDepth)
			}
			for j, d := range e.depth {
				if j < len(prefix) && d <= alwaysDepth || d > alwaysDepth && testdeep.Quick() {
					continue
				}
				if got := p.Perft(d); got != e.nodes[j] {
					t.Errorf("%s: perft(%d) = %d, want %d", e.fen, d, got, e.nodes[j])
				}
			}
		})
	}
}
