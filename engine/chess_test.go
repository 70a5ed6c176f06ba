// Alpha-beta on chess: forced mates of the WinAtChess suite found at the right depth, legal play.
package engine

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/chess"
	"dossier/games/gametest"
)

// chessMaterial is a placeholder evaluation built from the feature names: material in pawns (both tapered
// halves of each piece count) plus the piece-square sums, which are in centipawns. The real chess
// evaluation comes from bots/.
func chessMaterial() Evaluation {
	value := map[string]float64{"pawn": 1, "knight": 3, "bishop": 3.25, "rook": 5, "queen": 9, "pst": 0.01, "tempo": 0.1}
	names := chess.Game{}.FeatureNames()
	w := make([]float64, len(names))
	for i, name := range names {
		base := strings.TrimSuffix(strings.TrimSuffix(name, "_mg"), "_eg")
		w[i] = value[base]
	}
	return Evaluation{Name: "material", Weights: w}
}

type mateCase struct {
	id, fen string
	moves   int
}

func readMates(t testing.TB) []mateCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "wac_mates.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []mateCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		n, err := strconv.Atoi(fields[2])
		if len(fields) != 3 || err != nil {
			t.Fatalf("bad line %q", line)
		}
		cases = append(cases, mateCase{fields[0], fields[1] + " 0 1", n})
	}
	return cases
}

// isMated reports whether the side to move is checkmated.
func isMated(p games.Position) bool {
	return len(p.AppendMoves(nil)) == 0 && p.NoMovesOutcome().Reason == games.Checkmate
}

// matesInTwo reports whether every reply to m allows a mate at once.
func matesInTwo(p games.Position, m games.Move) bool {
	p.Play(m)
	defer p.Undo()
	if isMated(p) {
		return true
	}
	for _, reply := range p.AppendMoves(nil) {
		p.Play(reply)
		mates := false
		for _, finish := range p.AppendMoves(nil) {
			p.Play(finish)
			mates = isMated(p)
			p.Undo()
			if mates {
				break
			}
		}
		p.Undo()
		if !mates {
			return false
		}
	}
	return true
}

func TestChessFindsMates(t *testing.T) {
	g := chess.Game{}
	full := testOptions(g)
	exact := full
	exact.NullMove, exact.LMR, exact.CheckExtension = false, false, false
	for _, mc := range readMates(t) {
		if testing.Short() && mc.moves > 2 {
			continue
		}
		t.Run(mc.id, func(t *testing.T) {
			p, err := g.ParsePosition(mc.fen)
			if err != nil {
				t.Fatal(err)
			}
			// Full width to 2N-1 plies proves the mate and its exact distance.
			res := searchDepth(NewAlphaBeta(g, chessMaterial(), exact), p, 2*mc.moves-1)
			if n, ok := IsMate(res.Score); !ok || n != mc.moves {
				t.Errorf("full width, depth %d: score %v (mate %d %v), want mate in %d", 2*mc.moves-1, res.Score, n, ok, mc.moves)
			}
			// The selective search may see it later, but must see a mate within two more plies.
			res = searchDepth(NewAlphaBeta(g, chessMaterial(), full), p, 2*mc.moves+1)
			if n, ok := IsMate(res.Score); !ok || n < mc.moves {
				t.Errorf("selective, depth %d: score %v (mate %d %v), want a mate in %d or more", 2*mc.moves+1, res.Score, n, ok, mc.moves)
			}
			if mc.moves == 2 && !matesInTwo(p, res.Move) {
				t.Errorf("%s does not force mate in two", p.FormatMove(res.Move))
			}
		})
	}
}

type wacCase struct {
	fen  string
	best []string // SAN moves, any of which solves the position
}

func readWAC(t testing.TB) []wacCase {
	t.Helper()
	var cases []wacCase
	sc := bufio.NewScanner(gametest.OpenTestData(t, "chess/WinAtChess.epd"))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		bm := -1
		for i, f := range fields {
			if f == "bm" {
				bm = i
			}
		}
		if len(fields) < 6 || bm < 4 {
			t.Fatalf("bad WAC line %q", sc.Text())
		}
		c := wacCase{fen: strings.Join(fields[:4], " ") + " 0 1"}
		for _, san := range fields[bm+1:] {
			end := strings.HasSuffix(san, ";")
			c.best = append(c.best, strings.TrimSuffix(san, ";"))
			if end {
				break
			}
		}
		cases = append(cases, c)
	}
	return cases
}

// wacSolved counts the WinAtChess positions whose best move a search of the given node budget plays.
func wacSolved(t testing.TB, opts AlphaBetaOptions, nodes uint64) (solved int, total int) {
	g := chess.Game{}
	s := NewAlphaBeta(g, chessMaterial(), opts)
	for _, c := range readWAC(t) {
		p, err := g.ParsePosition(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		s.NewGame()
		res := s.Search(p, NewControl(Limits{Nodes: nodes}, p.ToMove()), nil)
		for _, san := range c.best {
			if m, err := p.ParseMove(san); err == nil && m == res.Move {
				solved++
				break
			}
		}
		total++
	}
	return solved, total
}

// BenchmarkWinAtChess reports how many of the 300 WinAtChess positions each configuration solves within
// a node budget: the default, and the default with one technique toggled. Run it with -benchtime=1x.
func BenchmarkWinAtChess(b *testing.B) {
	g := chess.Game{}
	toggles := []struct {
		name   string
		toggle func(*AlphaBetaOptions)
	}{
		{"default", func(*AlphaBetaOptions) {}},
		{"LMR", func(o *AlphaBetaOptions) { o.LMR = !o.LMR }},
		{"NullMove", func(o *AlphaBetaOptions) { o.NullMove = !o.NullMove }},
		{"CheckExtension", func(o *AlphaBetaOptions) { o.CheckExtension = !o.CheckExtension }},
		{"Aspiration", func(o *AlphaBetaOptions) { o.Aspiration = !o.Aspiration }},
		{"PVS", func(o *AlphaBetaOptions) { o.PVS = !o.PVS }},
		{"Killers", func(o *AlphaBetaOptions) { o.Killers = !o.Killers }},
		{"History", func(o *AlphaBetaOptions) { o.History = !o.History }},
	}
	for _, nodes := range []uint64{20000, 100000} {
		for _, tg := range toggles {
			b.Run(fmt.Sprintf("nodes=%d/toggle=%s", nodes, tg.name), func(b *testing.B) {
				opts := DefaultAlphaBetaOptions(g)
				opts.HashMB = 8
				tg.toggle(&opts)
				for b.Loop() {
					solved, _ := wacSolved(b, opts, nodes)
					b.ReportMetric(float64(solved), "solved")
				}
			})
		}
	}
}
