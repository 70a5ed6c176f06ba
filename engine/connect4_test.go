// Alpha-beta on Connect-Four: full-depth searches reproduce Pons's exact scores.
package engine

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"dossier/games/connect4"
	"dossier/games/gametest"
)

// connect4Windows values open windows by how full they are (1, 4, 16 for one, two, three stones) and a
// centre stone at 2: a plain heuristic, enough to order the search.
func connect4Windows() Evaluation {
	w := make([]float64, connect4.NumFeatures)
	for dir := 0; dir < 3; dir++ {
		for k, v := range []float64{1, 4, 16} {
			w[dir*6+2*k] = v
			w[dir*6+2*k+1] = -v
		}
	}
	w[connect4.Centre] = 2
	return Evaluation{Name: "windows", Weights: w}
}

type ponsCase struct {
	moves string
	score int
}

func readPons(t testing.TB, name string, n int) []ponsCase {
	t.Helper()
	var cases []ponsCase
	sc := bufio.NewScanner(gametest.OpenTestData(t, "connect4/"+name))
	for sc.Scan() && len(cases) < n {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			t.Fatalf("%s: bad line %q", name, sc.Text())
		}
		score, err := strconv.Atoi(fields[1])
		if err != nil {
			t.Fatalf("%s: bad score in %q", name, sc.Text())
		}
		cases = append(cases, ponsCase{fields[0], score})
	}
	return cases
}

// ponsMateMoves turns Pons's score (the winner wins with its (22-k)-th stone) into the moves to the win
// IsMate counts for the side to move after n stones: positive for a win, negative for a loss, 0 for a draw.
func ponsMateMoves(score, n int) int {
	switch {
	case score > 0:
		return 22 - score - n/2
	case score < 0:
		return -(22 + score - (n+1)/2)
	}
	return 0
}

func TestConnect4ExactScores(t *testing.T) {
	g := connect4.Game{}
	tests := []struct {
		file    string
		n       int
		threads int
	}{
		{"Test_L3_R1", 200, 1},
		{"Test_L2_R1", 100, 1},
		{"Test_L2_R1", 50, 2}, // Lazy SMP: helpers share the table
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/threads=%d", tc.file, tc.threads), func(t *testing.T) {
			n := tc.n
			if testing.Short() {
				n /= 5
			}
			opts := testOptions(g)
			opts.Threads = tc.threads
			s := NewAlphaBeta(g, connect4Windows(), opts)
			for _, pc := range readPons(t, tc.file, n) {
				p, err := g.ParsePosition(pc.moves)
				if err != nil {
					t.Fatalf("%s: %v", pc.moves, err)
				}
				res := s.Search(p, NewControl(Limits{}, p.ToMove()), nil)
				want := ponsMateMoves(pc.score, len(pc.moves))
				got, _ := IsMate(res.Score)
				if got != want || (want == 0 && res.Score != 0) {
					t.Errorf("%s (Pons score %d): score %v, mate in %d; want mate in %d", pc.moves, pc.score, res.Score, got, want)
				}
				// The move must keep the exact value: after a winning move the opponent is mated one move
				// sooner; after the best losing move it needs as many moves as before; a draw stays a draw.
				wantAfter := -want
				if want > 0 {
					wantAfter = -(want - 1)
				}
				p.Play(res.Move)
				after := s.Search(p, NewControl(Limits{}, p.ToMove()), nil)
				p.Undo()
				if m, _ := IsMate(after.Score); m != wantAfter || (want == 0 && after.Score != 0) {
					t.Errorf("%s: after %s the opponent's value is %v (mate %d), want mate %d", pc.moves, p.FormatMove(res.Move), after.Score, m, wantAfter)
				}
			}
		})
	}
}
