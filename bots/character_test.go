// The presets show their character: exchanges for OP, blocking and diagonal blindness for SP, and every
// preset plays complete legal games.
package bots

import (
	"slices"
	"testing"

	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

func TestEveryPresetPlaysCompleteGames(t *testing.T) {
	lim := engine.Limits{Depth: 3}
	if testing.Short() {
		lim.Depth = 2
	}
	for _, g := range bookedGames() {
		for _, preset := range PresetNames(g.Name()) {
			t.Run(g.Name()+"/"+preset, func(t *testing.T) {
				s := mustSearcher(t, g, PlayerConfig{Preset: preset, HashMB: 1})
				strongest := mustSearcher(t, g, PlayerConfig{HashMB: 1})
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
	pieces := func(line []games.Move) int {
		q := p.Clone()
		for _, m := range line {
			q.Play(m)
		}
		x := make([]float64, checkers.NumFeatures)
		q.Features(x)
		return int(x[checkers.FeatTotal])
	}
	for _, tc := range []struct {
		preset   string
		exchange bool
	}{{"mat-tot25", true}, {"mat+tot25", false}} {
		t.Run(tc.preset, func(t *testing.T) {
			res := searchLimited(mustSearcher(t, g, PlayerConfig{Preset: tc.preset}), p, engine.Limits{})
			line := formatLine(p, res.PV)
			traded := pieces(res.PV) < 8
			if traded != tc.exchange || (tc.exchange && !slices.Contains(line, "22x15")) {
				t.Errorf("principal variation %v (score %v): exchange %v, want %v", line, res.Score, traded, tc.exchange)
			}
		})
	}
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
			sp := searchLimited(mustSearcher(t, g, PlayerConfig{Preset: "sp"}), p, engine.Limits{})
			if (sp.Move == save) != tc.spBlocks {
				t.Errorf("sp plays %s (depth %d), blocking %s is %v", p.FormatMove(sp.Move), sp.Depth, tc.save, tc.spBlocks)
			}
			so := searchLimited(mustSearcher(t, g, PlayerConfig{Preset: "sophisticated"}), p, engine.Limits{Depth: 4})
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
	sp := mustSearcher(t, g, PlayerConfig{Preset: "sp"})
	so := mustSearcher(t, g, PlayerConfig{Preset: "sophisticated", HashMB: 1})
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
	strongest := mustSearcher(t, g, PlayerConfig{})
	openLines := mustSearcher(t, g, PlayerConfig{Preset: "open-lines"})
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
			for name, s := range map[string]engine.Searcher{"strongest": strongest, "open-lines": openLines} {
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
