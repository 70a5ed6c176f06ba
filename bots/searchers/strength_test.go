// The weakened player: the choice among lines, rule by rule and in its frequencies, the level tables, and
// real positions at the weakest level (mates, won endgames played out against a defending engine,
// Connect-Four's won positions kept per the solver).

package searchers

import (
	"math"
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
	"dossier/games/tictactoe"
	"dossier/memory/learn"
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
	chessRules := presets.StrengthRules{Unit: 100, Won: 300, Lost: 200, EndgamePieces: 6}
	wide := presets.Level{Depth: 1, Spread: 1000, Bound: 150}
	mate := engine.MateScore - 3
	tests := []struct {
		name   string
		values []float64
		level  presets.Level
		pieces int
		u      float64
		want   int // index of the line
	}{
		{"a forced win plays the mate", []float64{mate, 900, 850}, wide, 20, 0.99, 0},
		{"a won endgame plays the best", []float64{800, 700, 650}, wide, 3, 0.99, 0},
		{"a won middlegame is played at the level", []float64{800, 780, 760}, wide, 20, 0.99, 2},
		{"no spread plays the best", []float64{10, 9, 8}, presets.Level{Depth: 3, Bound: 150}, 20, 0.99, 0},
		{"never beyond the bound", []float64{0, -160, -400}, wide, 20, 0.99, 0},
		{"not from a drawn position to a lost one", []float64{-60, -199, -230}, presets.Level{Spread: 1000, Bound: 300}, 20, 0.99, 1},
		{"behind is played at the level too", []float64{-300, -320, -330}, wide, 20, 0.99, 2},
		{"never a forced loss", []float64{-10, -engine.MateScore + 4}, presets.Level{Spread: 1000, Bound: engine.MateScore}, 20, 0.99, 0},
		{"one line", []float64{5}, wide, 20, 0.99, 0},
		// Weights 1, 1/e, 1/e^2 (sum 1.503): u below 1/1.503 draws the best, up to 1.368/1.503 the second.
		{"the draw: the best", []float64{0, -50, -100}, presets.Level{Spread: 50, Bound: 150}, 20, 0.6, 0},
		{"the draw: the second", []float64{0, -50, -100}, presets.Level{Spread: 50, Bound: 150}, 20, 0.7, 1},
		{"the draw: the third", []float64{0, -50, -100}, presets.Level{Spread: 50, Bound: 150}, 20, 0.95, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := chooseLine(linesOf(tc.values...), tc.level, chessRules, tc.pieces, tc.u)
			if got.line != tc.want {
				t.Errorf("chose line %d (%v: %s), want %d", got.line, tc.values[got.line], got.reason, tc.want)
			}
			if loss := tc.values[0] - tc.values[got.line]; loss > tc.level.Bound {
				t.Errorf("gave up %v, more than the bound", loss)
			}
		})
	}
}

// TestChooseLineFrequencies draws many times among lines and checks that each safe line comes up as often
// as its weight exp(-loss/Spread) says, and a line beyond the bound never.
func TestChooseLineFrequencies(t *testing.T) {
	rules := presets.StrengthRules{Unit: 100, Won: 300, Lost: 200}
	lvl := presets.Level{Spread: 40, Bound: 100}
	values := []float64{30, 10, -20, -90}
	rng := rand.New(rand.NewPCG(1, 2))
	counts := make([]int, len(values))
	const n = 20000
	for range n {
		counts[chooseLine(linesOf(values...), lvl, rules, 20, rng.Float64()).line]++
	}
	var sum float64
	for _, v := range values[:3] {
		sum += math.Exp(-(values[0] - v) / lvl.Spread)
	}
	for i, v := range values[:3] {
		want := math.Exp(-(values[0]-v)/lvl.Spread) / sum
		if got := float64(counts[i]) / n; math.Abs(got-want) > 0.015 {
			t.Errorf("line %d (%v) drawn %.3f of the time, want %.3f", i, v, got, want)
		}
	}
	if counts[3] != 0 {
		t.Errorf("the line beyond the bound was drawn %d times", counts[3])
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
// with a bound wide enough that only that rule stands in the way, whatever the draw.
func TestChooseLineNeverLoses(t *testing.T) {
	rules := presets.StrengthRules{Unit: 100, Won: 300, Lost: 200}
	lvl := presets.Level{Spread: 10000, Bound: 400}
	for _, values := range [][]float64{{0, -150, -210, -390}, {50, -220}, {-20, -199, -200}} {
		for _, u := range []float64{0, 0.3, 0.6, 0.99} {
			got := chooseLine(linesOf(values...), lvl, rules, -1, u)
			if v := values[got.line]; v <= -rules.Lost {
				t.Errorf("%v, u %v: chose %v, a lost line", values, u, v)
			}
		}
	}
}

// weakest returns an even-mode searcher of g at the weakest level.
func weakest(t *testing.T, g games.Game) *WeakSearcher {
	t.Helper()
	w := mustSearcher(t, g, Config{Mode: EvenMode, HashMB: 8}).(*WeakSearcher)
	w.SetLevel(learn.MinLevel)
	return w
}

// TestLevelsOfEachGame checks every game's level table: from MinLevel to FullLevel, every step stronger
// (deeper, with less spread and a smaller bound), interpolated in between, full strength from FullLevel up.
func TestLevelsOfEachGame(t *testing.T) {
	for _, g := range []games.Game{chess.Game{}, checkers.Game{}, connect4.Game{}, tictactoe.Game{}} {
		r := presets.Strength(g)
		t.Run(g.Name(), func(t *testing.T) {
			if r.Levels[0].Elo != learn.MinLevel || r.Levels[len(r.Levels)-1].Elo != learn.FullLevel {
				t.Fatalf("the table runs from %v to %v", r.Levels[0].Elo, r.Levels[len(r.Levels)-1].Elo)
			}
			prev, _ := r.LevelAt(learn.MinLevel - 100)
			if prev != r.Levels[0] {
				t.Errorf("below the table: %+v", prev)
			}
			for elo := float64(learn.MinLevel) + 50; elo < learn.FullLevel; elo += 50 {
				l, weak := r.LevelAt(elo)
				if !weak || l.Depth < prev.Depth || l.Spread > prev.Spread || l.Bound > prev.Bound || l.Depth < 1 {
					t.Errorf("level %v: %+v after %+v", elo, l, prev)
				}
				prev = l
			}
			if _, weak := r.LevelAt(learn.FullLevel); weak {
				t.Error("FullLevel is not full strength")
			}
		})
	}
}

// TestEvenSafetyOnPositions checks single moves at the weakest level, many times over (the choice is drawn):
// mates in one are played, a free queen is taken, an attacked queen is saved.
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
			w := weakest(t, g)
			lvl, _ := w.rules.LevelAt(learn.MinLevel)
			for range 20 {
				w.NewGame()
				p := mustPosition(t, g, tc.fen)
				res := w.Search(p, engine.NewControl(engine.Limits{Depth: 6}, p.ToMove()), nil)
				move := p.FormatMove(res.Move)
				if tc.want != nil && !slices.Contains(tc.want, move) {
					t.Fatalf("played %s, want one of %v", move, tc.want)
				}
				if slices.Contains(tc.bad, move) {
					t.Fatalf("played the blunder %s", move)
				}
				if len(res.Lines) > 0 && res.Lines[0].Score-res.Score > lvl.Bound {
					t.Fatalf("gave up %v of %v", res.Lines[0].Score-res.Score, res.Lines[0].Score)
				}
			}
		})
	}
}

// TestEvenMatesWonEndgames plays KQK and KRK (chess) and three kings against one (checkers) to the end:
// the even player at the weakest level against dossier's full-strength defence must win within the
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
			attacker := weakest(t, tc.game)
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

// TestEvenKeepsConnect4Wins checks, on positions the solver settles as won, that the even player at the
// weakest level keeps the win (Connect-Four's won endgame), and that at 1000 (two plies, connect4Levels) it
// stops the opponent's immediate win in every position where a move does.
func TestEvenKeepsConnect4Wins(t *testing.T) {
	g := connect4.Game{}
	solver := connect4solver.New(16)
	rng := rand.New(rand.NewPCG(3, 5))
	won, checked := 0, 0
	for won < 8 || checked < 16 {
		p := randomPosition(g, rng, 14+rng.IntN(14)).(*connect4.Position)
		if games.OutcomeOf(p).Result != games.Ongoing {
			continue
		}
		value, ok := solver.SolveLimited(p, 2_000_000, nil)
		if !ok {
			continue
		}
		checked++
		w := weakest(t, g)
		res := w.Search(p, engine.NewControl(engine.Limits{Depth: 8}, p.ToMove()), nil)
		q := p.Clone().(*connect4.Position)
		q.Play(res.Move)
		w.NewGame()
		w.SetLevel(1000)
		at1000 := w.Search(p, engine.NewControl(engine.Limits{Depth: 8}, p.ToMove()), nil)
		r := p.Clone()
		r.Play(at1000.Move)
		after := 0
		if games.OutcomeOf(q).Result == games.Ongoing {
			after = -solver.Solve(q)
		} else if _, over := games.OutcomeOf(q).Result.Winner(); over {
			after = 1
		}
		if value > 0 {
			won++
			if after <= 0 {
				t.Errorf("%s (won, %d): %s gives the win away (%d)", p.FEN(), value, p.FormatMove(res.Move), after)
			}
		}
		if games.OutcomeOf(r).Result == games.Ongoing && opponentWinsAtOnce(r) && canStopImmediateWins(p) {
			t.Errorf("%s: %s at 1000 lets the opponent win at once", p.FEN(), p.FormatMove(at1000.Move))
		}
	}
}

// canStopImmediateWins reports whether the side to move in p has a move after which the opponent cannot
// win at once.
func canStopImmediateWins(p games.Position) bool {
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		q := p.Clone()
		q.Play(m)
		if games.OutcomeOf(q).Result != games.Ongoing || !opponentWinsAtOnce(q) {
			return true
		}
	}
	return false
}

// opponentWinsAtOnce reports whether the side to move in p has a move that ends the game in its favour.
func opponentWinsAtOnce(p games.Position) bool {
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		q := p.Clone()
		q.Play(m)
		if w, ok := games.OutcomeOf(q).Result.Winner(); ok && w == p.ToMove() {
			return true
		}
	}
	return false
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
			w := weakest(t, g)
			w.SetLevel(1000) // the weakest level searches one ply and may miss the opponent's threat
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

// TestEvenAtFullLevelIsFullStrength checks that FullLevel searches as the strongest mode does: the same move
// and value at a fixed depth, and no lines to pay for.
func TestEvenAtFullLevelIsFullStrength(t *testing.T) {
	g := chess.Game{}
	p := mustPosition(t, g, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	w := mustSearcher(t, g, Config{Mode: EvenMode, HashMB: 4}).(*WeakSearcher)
	w.SetLevel(learn.FullLevel)
	strongest := mustSearcher(t, g, Config{HashMB: 4})
	lim := engine.Limits{Depth: 6}
	got, want := searchLimited(w, p, lim), searchLimited(strongest, p, lim)
	if got.Move != want.Move || got.Score != want.Score || got.Nodes != want.Nodes || got.Lines != nil {
		t.Errorf("even at FullLevel: %s %v (%d nodes), strongest: %s %v (%d nodes)", p.FormatMove(got.Move), got.Score,
			got.Nodes, p.FormatMove(want.Move), want.Score, want.Nodes)
	}
}
