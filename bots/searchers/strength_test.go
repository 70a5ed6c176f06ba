// The weakened player's safety rules: each rule on lines built for it, and on real positions at the
// largest handicap (mates, won endgames played out against a defending engine, Connect-Four's theoretical
// value kept per the solver).

package searchers

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dossier/bots/connect4solver"
	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
)

// linesOf builds root lines valued as given (moves 1, 2, ...), best first.
func linesOf(values ...float64) []engine.RootLine {
	out := make([]engine.RootLine, len(values))
	for i, v := range values {
		out[i] = engine.RootLine{Move: games.Move(i + 1), Score: v}
	}
	return out
}

func TestChooseLineRules(t *testing.T) {
	// Rules written out, so that the cases do not move when the chess rules are tuned.
	chessRules := presets.StrengthRules{Unit: 100, Bound: 150, WonBound: 60, Won: 300, Lost: 200, EndgamePieces: 6}
	mate := engine.MateScore - 3
	tests := []struct {
		name     string
		values   []float64
		handicap float64
		pieces   int
		want     int // index of the line
	}{
		{"a forced win plays the mate", []float64{mate, 900, 850}, 150, 20, 0},
		{"a won endgame plays the best", []float64{800, 700, 650}, 150, 3, 0},
		{"a won middlegame culls within the won bound", []float64{800, 780, 760, 600}, 150, 20, 2},
		{"a handicap beyond the bound lets a won middlegame slip back", []float64{800, 780, 700, 640, 500}, 240, 20, 2},
		{"by what it exceeds the bound", []float64{800, 780, 720, 700, 500}, 170, 20, 2},
		{"but never a won endgame", []float64{800, 780, 700, 640}, 240, 5, 0},
		{"behind plays the best", []float64{-60, -70, -100}, 20, 20, 0},
		{"a large handicap lets the game fall behind", []float64{-60, -70, -100, -190}, 150, 20, 3},
		{"but not to a lost position", []float64{-60, -199, -230}, 200, 20, 1},
		{"far behind plays the best even so", []float64{-300, -320}, 150, 20, 0},
		{"no handicap plays the best", []float64{10, 9, 8}, 0, 20, 0},
		{"culling picks the line nearest best - handicap", []float64{20, 10, -25, -90}, 50, 20, 2},
		{"a lead culls more", []float64{125, 100, 75, 30}, 50, 20, 3},
		{"never beyond the bound", []float64{0, -160, -400}, 150, 20, 0},
		{"a drawn position culls to the nearest line", []float64{40, -100, -199, -210}, 150, 20, 1},
		{"never a forced loss", []float64{-10, -engine.MateScore + 4}, 150, 20, 0},
		{"one line", []float64{5}, 150, 20, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := chooseLine(linesOf(tc.values...), tc.handicap, chessRules, tc.pieces)
			if got.line != tc.want {
				t.Errorf("chose line %d (%v: %s), want %d", got.line, tc.values[got.line], got.reason, tc.want)
			}
			if loss := tc.values[0] - tc.values[got.line]; loss > chessRules.Bound {
				t.Errorf("gave up %v, more than the bound", loss)
			}
		})
	}
}

func TestPieceCount(t *testing.T) {
	tests := []struct {
		game games.Game
		pos  string
		want int
	}{
		{chess.Game{}, "8/8/4k3/8/8/8/3QK3/8 w - - 0 1", 3},
		{chess.Game{}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 32},
		{checkers.Game{}, "W:WK5,K9:BK27", 3},
		{checkers.Game{}, checkers.Game{}.Start().FEN(), 24},
		{connect4.Game{}, connect4.Game{}.Start().FEN(), -1},
	}
	for _, tc := range tests {
		t.Run(tc.game.Name()+" "+tc.pos, func(t *testing.T) {
			if got := games.PieceCount(mustPosition(t, tc.game, tc.pos)); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

// TestChooseLineNeverLoses checks the rule that no move turns a position that is not lost into a lost one,
// with a bound wide enough that only that rule stands in the way.
func TestChooseLineNeverLoses(t *testing.T) {
	rules := presets.StrengthRules{Unit: 100, Bound: 400, WonBound: 100, Won: 300, Lost: 200}
	for _, values := range [][]float64{{0, -150, -210, -390}, {50, -220}, {-20, -199, -200}} {
		got := chooseLine(linesOf(values...), 400, rules, -1)
		if v := values[got.line]; v <= -rules.Lost {
			t.Errorf("%v: chose %v, a lost line", values, v)
		}
	}
}

// maxWeak returns an even-mode searcher of g at the largest handicap.
func maxWeak(t *testing.T, g games.Game) *WeakSearcher {
	t.Helper()
	w := mustSearcher(t, g, Config{Mode: EvenMode, HashMB: 8}).(*WeakSearcher)
	w.handicap = w.rules.MaxHandicap()
	return w
}

// TestEvenSafetyOnPositions checks single moves at the largest handicap: mates in one are played, a
// beginner's blunder (a piece left hanging, a free queen left) is not, a drawn position is not lost.
func TestEvenSafetyOnPositions(t *testing.T) {
	g := chess.Game{}
	tests := []struct {
		name string
		fen  string
		want []string // the move must be one of these
		bad  []string // or, the move must not be one of these
	}{
		{"back-rank mate among winning moves", "6k1/5ppp/8/8/8/2q5/1Q3PPP/R5K1 w - - 0 1", []string{"a1a8"}, nil},
		{"queen mate in the middlegame", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", []string{"h5f7"}, nil},
		{"take the free queen", "rnb1kbnr/pppp1ppp/8/4p3/3qP3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 4", []string{"f3d4"}, nil},
		{"save the attacked queen", "rnb1kbnr/pppp1ppp/8/4p1q1/8/3P1N2/PPP1PPPP/RNBQKB1R b KQkq - 0 3",
			[]string{"g5g6", "g5f6", "g5e7", "g5d8", "g5h6", "g5h5", "g5h4", "g5g4", "g5f5", "g5f4", "g5e3", "g5g2", "g5g3"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := maxWeak(t, g)
			p := mustPosition(t, g, tc.fen)
			res := w.Search(p, engine.NewControl(engine.Limits{Depth: 6}, p.ToMove()), nil)
			move := p.FormatMove(res.Move)
			if tc.want != nil && !slices.Contains(tc.want, move) {
				t.Errorf("played %s, want one of %v", move, tc.want)
			}
			if slices.Contains(tc.bad, move) {
				t.Errorf("played the blunder %s", move)
			}
			if loss := res.Lines[0].Score - res.Score; loss > w.rules.Bound {
				t.Errorf("gave up %v of %v", loss, res.Lines[0].Score)
			}
		})
	}
}

// TestEvenMatesWonEndgames plays KQK and KRK (chess) and three kings against one (checkers) to the end:
// the even player at the largest handicap against dossier's full-strength defence must win within the
// usual move counts (KQK 10 moves with best play, KRK 16; a search without tablebases takes longer, and
// must mate within the 50-move rule).
func TestEvenMatesWonEndgames(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole endgames")
	}
	tests := []struct {
		name     string
		game     games.Game
		fen      string
		maxPlies int
	}{
		{"KQK", chess.Game{}, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", 100},
		{"KRK", chess.Game{}, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 100},
		{"checkers three kings against one", checkers.Game{}, "B:WK18:BK1,K2,K3", 80},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := mustPosition(t, tc.game, tc.fen)
			attacker := maxWeak(t, tc.game)
			defender := mustSearcher(t, tc.game, Config{HashMB: 8})
			first, second := engine.Searcher(attacker), defender
			us := start.ToMove()
			outcome, plies := playGame(t, start, first, second, engine.Limits{Depth: 8}, tc.maxPlies)
			if w, ok := outcome.Result.Winner(); !ok || w != us {
				t.Fatalf("%s after %d plies, want a win", outcome.Result, plies)
			}
			t.Logf("won in %d plies", plies)
		})
	}
}

// TestEvenKeepsConnect4Values checks, on positions the solver settles, that the even player at the largest
// handicap never plays a move that turns a won or drawn position into a lost one, and always wins on the
// spot or stops the opponent's immediate win (the one-move blunders).
func TestEvenKeepsConnect4Values(t *testing.T) {
	g := connect4.Game{}
	solver := connect4solver.New(16)
	rng := rand.New(rand.NewPCG(3, 5))
	checked := 0
	for checked < 12 {
		p := randomPosition(g, rng, 14+rng.IntN(14)).(*connect4.Position)
		if games.OutcomeOf(p).Result != games.Ongoing {
			continue
		}
		value, ok := solver.SolveLimited(p, 2_000_000, nil)
		if !ok {
			continue
		}
		checked++
		w := maxWeak(t, g)
		res := w.Search(p, engine.NewControl(engine.Limits{Depth: 8}, p.ToMove()), nil)
		q := p.Clone().(*connect4.Position)
		q.Play(res.Move)
		after := 0
		if games.OutcomeOf(q).Result == games.Ongoing {
			after = -solver.Solve(q)
		} else if _, won := games.OutcomeOf(q).Result.Winner(); won {
			after = 1
		}
		if value >= 0 && after < 0 {
			t.Errorf("%s (value %d): %s loses (%d)", p.FEN(), value, p.FormatMove(res.Move), after)
		}
		if value > 0 && after == 0 {
			t.Logf("%s: a won position played to a draw by %s", p.FEN(), p.FormatMove(res.Move))
		}
	}
}

func TestEvenConnect4OneMoveBlunders(t *testing.T) {
	g := connect4.Game{}
	tests := []struct {
		name  string
		moves string // Pons digits from the empty board
		want  string
	}{
		{"win at once", "121212", "P@a4"},
		{"stop the opponent's row", "11223", "P@d1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := g.Start()
			for _, d := range tc.moves {
				col := int(d - '1')
				var buf [games.MaxMoves]games.Move
				found := false
				for _, m := range p.AppendMoves(buf[:0]) {
					if strings.HasPrefix(p.FormatMove(m), "P@"+string(rune('a'+col))) {
						p.Play(m)
						found = true
						break
					}
				}
				if !found {
					t.Fatalf("column %c is full", d)
				}
			}
			w := maxWeak(t, g)
			res := w.Search(p, engine.NewControl(engine.Limits{Depth: 6}, p.ToMove()), nil)
			got := p.FormatMove(res.Move)
			if got != tc.want {
				t.Errorf("%s: played %s, want %s", p.FEN(), got, tc.want)
			}
		})
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// TestEvenWithoutHandicapIsFullStrength checks that a handicap of zero searches as the strongest mode does:
// the same move and value at a fixed depth, and no lines to pay for.
func TestEvenWithoutHandicapIsFullStrength(t *testing.T) {
	g := chess.Game{}
	p := mustPosition(t, g, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	w := mustSearcher(t, g, Config{Mode: EvenMode, HashMB: 4}).(*WeakSearcher)
	strongest := mustSearcher(t, g, Config{HashMB: 4})
	lim := engine.Limits{Depth: 6}
	got, want := searchLimited(w, p, lim), searchLimited(strongest, p, lim)
	if got.Move != want.Move || got.Score != want.Score || got.Nodes != want.Nodes || got.Lines != nil {
		t.Errorf("even at handicap 0: %s %v (%d nodes), strongest: %s %v (%d nodes)", p.FormatMove(got.Move), got.Score,
			got.Nodes, p.FormatMove(want.Move), want.Score, want.Nodes)
	}
}
