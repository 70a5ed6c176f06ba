// Alpha-beta on chess: forced mates of the WinAtChess suite found at the right depth, legal play.
package engine

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/chess"
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
