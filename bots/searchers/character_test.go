// The presets show their character: exchanges for OP, blocking and diagonal blindness for SP, and every
// preset plays complete legal games.

package searchers

import (
	"slices"
	"testing"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

func TestEveryPresetPlaysCompleteGames(t *testing.T) {
	// The node limit keeps Connect-Four's solver to 50,000 nodes a move; the other searches stay below it.
	lim := engine.Limits{Depth: 3, Nodes: 100_000}
	if testing.Short() {
		lim.Depth = 2
	}
	for _, g := range bookedGames() {
		for _, preset := range presets.Names(g.Name()) {
			t.Run(g.Name()+"/"+preset, func(t *testing.T) {
				s := mustSearcher(t, g, Config{Preset: preset, HashMB: 1})
				strongest := mustSearcher(t, g, Config{HashMB: 1})
				for _, asFirst := range []bool{true, false} {
					first, second := s, strongest
					if !asFirst {
						first, second = strongest, s
					}
					o, plies := playGame(t, g.Start(), first, second, lim, 1000)
					if o.Reason == games.NotOver {
						t.Errorf("game over after %d plies without a reason: %+v", plies, o)
					}
				}
			})
		}
	}
}

func TestCheckersOPTradesWhenAheadAndItsMirrorDoesNot(t *testing.T) {
	// Black is two men up. 14-18 offers a man that White must take (22x15) and Black retakes (10x19); OP
	// (Mat - Tot/25) heads for that exchange, its mirror (Mat + Tot/25) keeps every piece on the board.
	g := checkers.Game{}
	p := mustPosition(t, g, "B:W22,29,30:B1,2,3,10,14")
	for _, tc := range []struct {
		preset   string
		exchange bool
	}{{"mat-tot25", true}, {"mat+tot25", false}, {"mat12-tot25", true}, {"mat12+tot25", false}} {
		t.Run(tc.preset, func(t *testing.T) {
			res := searchLimited(mustSearcher(t, g, Config{Preset: tc.preset}), p, engine.Limits{})
			line := formatLine(p, res.PV)
			_, tot := checkersLineEnd(p, res.PV)
			traded := tot < 8
			if traded != tc.exchange || (tc.exchange && !slices.Contains(line, "22x15")) {
				t.Errorf("principal variation %v (score %v): exchange %v, want %v", line, res.Score, traded, tc.exchange)
			}
		})
	}
}

func TestCheckersMat12GivesAManForExchanges(t *testing.T) {
	// Black to move, material level, 14 pieces (from an ACF game). 18-22 gives two men for one (26x17x10,
	// 6x15): Mat/12 - Tot/25 takes that, as three pieces off are worth more to it than a man; Mat - Tot/25
	// with Mat in men keeps its material.
	g := checkers.Game{}
	p := mustPosition(t, g, "B:W20,21,26,27,28,29,31:B1,2,6,8,12,14,18")
	for _, tc := range []struct {
		preset    string
		sacrifice bool
	}{{"mat12-tot25", true}, {"mat-tot25", false}} {
		t.Run(tc.preset, func(t *testing.T) {
			res := searchLimited(mustSearcher(t, g, Config{Preset: tc.preset}), p, engine.Limits{})
			line := formatLine(p, res.PV)
			material, tot := checkersLineEnd(p, res.PV)
			gave := len(line) > 0 && line[0] == "18-22" && material == -1 && tot == 11
			if gave != tc.sacrifice || (!tc.sacrifice && material < 0) {
				t.Errorf("principal variation %v (score %v) ends %v men, %v pieces; giving a man for exchanges %v, want %v",
					line, res.Score, material, tot, gave, tc.sacrifice)
			}
		})
	}
}

// checkersLineEnd plays line from p (on a copy) and returns the material of p's side to move at its end, in
// men with a king worth 1.5, and the pieces left on the board.
func checkersLineEnd(p games.Position, line []games.Move) (material, tot float64) {
	q := p.Clone()
	for _, m := range line {
		q.Play(m)
	}
	x := make([]float64, checkers.NumFeatures)
	q.Features(x)
	material = x[checkers.FeatMen] + presets.CheckersKing/presets.CheckersMan*x[checkers.FeatKings]
	if q.ToMove() != p.ToMove() {
		material = -material
	}
	return material, x[checkers.FeatTotal]
}

func TestConnect4SimplePlayer(t *testing.T) {
	// Positions as Pons's column digits; the side to move must drop in the given column or lose at once.
	tests := []struct {
		name     string
		moves    string
		save     string
		spBlocks bool
	}{
		{"horizontal threat", "17273", "d", true},
		{"vertical threat", "12131", "a", true},
		{"diagonal threat c1-d2-e3-f4", "14665226276765364", "e", false},
	}
	g := connect4.Game{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPosition(t, g, tc.moves)
			save, err := p.ParseMove(tc.save)
			if err != nil {
				t.Fatal(err)
			}
			sp := searchLimited(mustSearcher(t, g, Config{Preset: "sp"}), p, engine.Limits{})
			if (sp.Move == save) != tc.spBlocks {
				t.Errorf("sp plays %s (depth %d), blocking %s is %v", p.FormatMove(sp.Move), sp.Depth, tc.save, tc.spBlocks)
			}
			so := searchLimited(mustSearcher(t, g, Config{Preset: "sophisticated"}), p, engine.Limits{Depth: 4})
			if so.Move != save {
				t.Errorf("sophisticated plays %s, not the block %s", p.FormatMove(so.Move), tc.save)
			}
		})
	}
}

func TestConnect4SophisticatedBeatsTheSimplePlayer(t *testing.T) {
	// Sen & Arora's MM player searched a few plies with the sophisticated evaluation and beat SP; from a
	// handful of openings, sophisticated at 4 plies must score well over half of the points.
	g := connect4.Game{}
	openings := []string{"", "1", "4", "7", "44", "35", "26", "443", "1726"}
	if testing.Short() {
		openings = openings[:3]
	}
	sp := mustSearcher(t, g, Config{Preset: "sp"})
	so := mustSearcher(t, g, Config{Preset: "sophisticated", HashMB: 1})
	lim := engine.Limits{Depth: 4}
	points, played := 0.0, 0
	for _, opening := range openings {
		start := g.Start()
		if opening != "" {
			start = mustPosition(t, g, opening)
		}
		for _, soFirst := range []bool{true, false} {
			first, second := so, sp
			if !soFirst {
				first, second = sp, so
			}
			if start.ToMove() == games.Second {
				first, second = second, first
			}
			o, _ := playGame(t, start, first, second, lim, 50)
			soSide := games.First
			if (start.ToMove() == games.First) != soFirst {
				soSide = games.Second
			}
			points += o.Result.PointsFor(soSide)
			played++
		}
	}
	t.Logf("sophisticated scored %.1f of %d against sp", points, played)
	if points < 0.8*float64(played) {
		t.Errorf("sophisticated scored %.1f of %d against sp", points, played)
	}
}

func TestTicTacToeStrongestIsPerfectAndOpenLinesIsNot(t *testing.T) {
	// From every two-move opening, each preset plays both sides against strongest. A player "errs" when it
	// loses a game whose opening was not lost for it (the game value comes from a full search). Strongest
	// searches to the end and never errs; open-lines at 2 plies opens in the centre and errs.
	g := tictactoe.Game{}
	strongest := mustSearcher(t, g, Config{})
	openLines := mustSearcher(t, g, Config{Preset: "open-lines"})
	if first := searchLimited(openLines, g.Start(), engine.Limits{}); g.Start().FormatMove(first.Move) != "P@b2" {
		t.Errorf("open-lines opens with %s, not the centre", g.Start().FormatMove(first.Move))
	}
	errors := map[string]int{}
	var buf, replies [games.MaxMoves]games.Move
	start := g.Start()
	for _, m := range start.AppendMoves(buf[:0]) {
		p := start.Clone()
		p.Play(m)
		for _, r := range p.AppendMoves(replies[:0]) {
			q := p.Clone()
			q.Play(r)
			value := searchLimited(strongest, q, engine.Limits{}).Score // for the side to move in q (First)
			// In a fixed order: the searchers keep their tables from game to game, so the order of the games
			// decides what each finds in its table.
			for _, ps := range []struct {
				name string
				s    engine.Searcher
			}{{"strongest", strongest}, {"open-lines", openLines}} {
				name, s := ps.name, ps.s
				for _, side := range []games.Side{games.First, games.Second} {
					first, second := s, strongest
					if side == games.Second {
						first, second = strongest, s
					}
					lost := (side == games.First && value < 0) || (side == games.Second && value > 0)
					if o, _ := playGame(t, q, first, second, engine.Limits{}, 9); o.Result.PointsFor(side) == 0 && !lost {
						errors[name]++
					}
				}
			}
		}
	}
	if errors["strongest"] != 0 || errors["open-lines"] == 0 {
		t.Errorf("games lost from openings that were not lost: %v; want none for strongest, some for open-lines", errors)
	}
	t.Logf("games lost from openings that were not lost: %v", errors)
}

// chessPair is two positions with the same material and the same side to move, the first the better one
// for the side to move by a wide consensus of chess knowledge.
type chessPair struct {
	name          string
	better, worse string
}

var chessPairs = []chessPair{
	{"centralised knight", "rnbqkbnr/pppppppp/8/8/3N4/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/N7/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1"},
	// The kings stand away from both pawns: the black king catches d3 (inside its square), not d6. (Before
	// the king-distance terms the black king stood on e8, in front of both pawns: two draws.)
	{"advanced passed pawn", "7k/8/3P4/8/8/8/8/K7 w - - 0 1", "7k/8/8/8/8/3P4/8/K7 w - - 0 1"},
	{"healthy pawns against doubled isolated ones", "4k3/ppp5/8/8/8/8/PPP5/4K3 w - - 0 1",
		"4k3/ppp5/8/8/8/P7/P1P5/4K3 w - - 0 1"},
	{"intact king shelter", "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1",
		"r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P1PP/2N2N2/PPPP1P2/R1BQ1RK1 w - - 0 1"},
	{"developed knights", "rnbqkbnr/pppppppp/8/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
}

// chessPreference is how much preset prefers the pair's better position, in its evaluation units.
func chessPreference(t *testing.T, preset string, pair chessPair) float64 {
	t.Helper()
	g := chess.Game{}
	p, err := presets.Lookup(g, preset)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(g.FeatureNames()))
	mustPosition(t, g, pair.better).Features(x)
	better := p.Eval.Value(x)
	mustPosition(t, g, pair.worse).Features(x)
	return better - p.Eval.Value(x)
}

func TestChessStrongestPrefersTheBetterPosition(t *testing.T) {
	for _, pair := range chessPairs {
		t.Run(pair.name, func(t *testing.T) {
			if d := chessPreference(t, presets.Default, pair); d <= 0 {
				t.Errorf("strongest prefers the worse position by %.1f", -d)
			}
			if d := chessPreference(t, "materialist", pair); d != 0 {
				t.Errorf("materialist sees a difference of %.1f in equal material", d)
			}
		})
	}
}

func TestChessPresetsShowTheirCharacter(t *testing.T) {
	attack := chessPair{"knight on g5 eyeing f7 and h7",
		"r1bq1rk1/pppp1ppp/2n2n2/2b1p1N1/2B1P3/2N5/PPPP1PPP/R1BQ1RK1 w - - 0 1",
		"r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1"}
	// Each row: in the pair, the first preset likes the better position more than the second does.
	tests := []struct {
		pair         chessPair
		more, less   string
		whatItValues string
	}{
		{attack, "attacker", presets.Default, "attacks on the king"},
		{attack, presets.Default, "defender", "attacks on the king"},
		{chessPairs[3], "defender", presets.Default, "the king's shelter"},
		{chessPairs[3], "defender", "attacker", "the king's shelter"},
		{chessPairs[2], "positional", presets.Default, "pawn structure"},
		{chessPairs[1], "positional", presets.Default, "passed pawns"},
	}
	for _, tc := range tests {
		t.Run(tc.more+" over "+tc.less+" on "+tc.whatItValues, func(t *testing.T) {
			more, less := chessPreference(t, tc.more, tc.pair), chessPreference(t, tc.less, tc.pair)
			if more <= less {
				t.Errorf("%s prefers %s by %.1f, %s by %.1f", tc.more, tc.pair.name, more, tc.less, less)
			}
		})
	}
}

func TestChessEveryPresetTakesAFreePiece(t *testing.T) {
	// The black knight on g4 is attacked by the f3 pawn and defended by nothing.
	g := chess.Game{}
	p := mustPosition(t, g, "rnbqkb1r/pppppppp/8/8/6n1/5P2/PPPPP1PP/RNBQKBNR w KQkq - 1 2")
	for _, preset := range presets.Names(g.Name()) {
		t.Run(preset, func(t *testing.T) {
			res := searchLimited(mustSearcher(t, g, Config{Preset: preset, HashMB: 1}), p, engine.Limits{Depth: 4})
			if got := p.FormatMove(res.Move); got != "f3g4" {
				t.Errorf("plays %s (score %.0f), not f3g4", got, res.Score)
			}
		})
	}
}
