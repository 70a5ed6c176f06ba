// Tests of the openings reader and of random openings.

package match

import (
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/gametest"
	"dossier/games/tictactoe"
)

func TestReadOpenings(t *testing.T) {
	cases := []struct {
		name     string
		game     games.Game
		text     string
		maxPlies int
		fens     []string // the positions' FENs, in order
	}{
		{"chess FEN and EPD", chess.Game{}, `# comment line

rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
`, 0, []string{
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
			"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
		}},
		{"checkers FEN, FEN tag and moves", checkers.Game{}, `B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15
[FEN "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"]
1. 11-15 23-19 2. 8-11 22-17
11-15 23-19 8-11 22-17 4-8
`, 0, []string{
			"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15",
			"W:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29",
			"B:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15",
			"W:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,5,6,7,8,9,10,11,12,15",
		}},
		{"checkers moves cut to two plies", checkers.Game{}, "1. 11-15 23-19 2. 8-11 22-17\n1. 11-15 23-19 2. 9-13\n", 2,
			[]string{"B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"}},
		{"checkers PDN games", checkers.Game{}, `[Event "a"]
1. 11-15 23-19 *

[Event "b"]
[FEN "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"]
1... 10-14 *
`, 0, []string{
			"B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
			"B:WK14,K15,18,24,27,28:B12,16,20,K22,K25,K29",
		}},
		{"connect4 Pons digits", connect4.Game{}, "4453 -3\n44\n4453\n", 0, []string{
			"7/7/7/7/3p3/2pPP2[PPPPPPPPPPPPPPPPPPPppppppppppppppppppp] w - - 0 3",
			"7/7/7/7/3p3/3P3[PPPPPPPPPPPPPPPPPPPPpppppppppppppppppppp] w - - 0 2",
		}},
		{"connect4 digits cut", connect4.Game{}, "4453\n", 1,
			[]string{"7/7/7/7/7/3P3[PPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] b - - 0 1"}},
		{"tictactoe", tictactoe.Game{}, tictactoe.Game{}.Start().FEN() + "\n", 0, []string{tictactoe.Game{}.Start().FEN()}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadOpenings(c.game, strings.NewReader(c.text), c.maxPlies)
			if err != nil {
				t.Fatal(err)
			}
			var fens []string
			for _, p := range got {
				fens = append(fens, p.FEN())
			}
			if strings.Join(fens, "\n") != strings.Join(c.fens, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(fens, "\n"), strings.Join(c.fens, "\n"))
			}
		})
	}
}

func TestReadOpeningsErrors(t *testing.T) {
	cases := []struct {
		name string
		game games.Game
		text string
		want string
	}{
		{"empty", chess.Game{}, "\n# nothing\n", "no opening found"},
		{"short chess line", chess.Game{}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n8/8 w\n", "line 2"},
		{"bad chess board", chess.Game{}, "rnbqkbnr/ppppzppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n", "line 1"},
		{"checkmated", chess.Game{}, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n", "already over"},
		{"illegal checkers move", checkers.Game{}, "1. 11-15 11-15\n", "line 1"},
		{"bad checkers FEN", checkers.Game{}, "B:W33:B1\n", "line 1"},
		{"bad PDN game", checkers.Game{}, "[Event \"x\"]\n1. 11-19 *\n", "11-19"},
		{"connect4 bad digit", connect4.Game{}, "4459\n", "line 1"},
		{"connect4 won", connect4.Game{}, "4545454\n", "already over"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadOpenings(c.game, strings.NewReader(c.text), 0)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestReadOpeningsSharedFiles(t *testing.T) {
	cases := []struct {
		name     string
		game     games.Game
		file     string
		maxPlies int
		min, max int
	}{
		{"WinAtChess EPD", chess.Game{}, "chess/WinAtChess.epd", 0, 290, 300},
		// The SPRT's openings: 2,000 lines of the UHO book, gzip'd, all distinct and playable.
		{"UHO sample", chess.Game{}, "chess/uho_4060_v3_2000.epd.gz", 0, 2000, 2000},
		// The gauntlets' balanced openings: 200 PGN games of the 8-move book, each replayed to its end.
		{"8moves sample", chess.Game{}, "chess/8moves_v3_200.pgn.gz", 0, 195, 200},
		{"8moves sample, 4 plies", chess.Game{}, "chess/8moves_v3_200.pgn.gz", 4, 20, 200},
		{"Pons L3_R1", connect4.Game{}, "connect4/Test_L3_R1", 0, 990, 1000},
		{"Pons L1_R1 first 4 plies", connect4.Game{}, "connect4/Test_L1_R1", 4, 50, 7 * 7 * 7 * 7},
	}
	if !testing.Short() {
		cases = append(cases, struct {
			name     string
			game     games.Game
			file     string
			maxPlies int
			min, max int
		}{"ACF games' first 6 plies", checkers.Game{}, "checkers/ACF_converted.pdn.gz", 6, 50, 7 * 7 * 7 * 7 * 7 * 7})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadOpenings(c.game, gametest.OpenTestData(t, c.file), c.maxPlies)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) < c.min || len(got) > c.max {
				t.Errorf("%d openings, want %d..%d", len(got), c.min, c.max)
			}
			for _, p := range got {
				if c.maxPlies > 0 && p.Ply() > c.maxPlies {
					t.Fatalf("opening %s has %d plies, want at most %d", p.FEN(), p.Ply(), c.maxPlies)
				}
			}
		})
	}
}

func TestRandomOpening(t *testing.T) {
	for _, g := range []games.Game{chess.Game{}, checkers.Game{}, connect4.Game{}, tictactoe.Game{}} {
		t.Run(g.Name(), func(t *testing.T) {
			start := g.Start()
			before := start.FEN()
			a, err := RandomOpening(start, 6, openingRNG(7, 3))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := RandomOpening(start, 6, openingRNG(7, 3))
			if a.FEN() != b.FEN() {
				t.Errorf("the same seed and pair gave %s and %s", a.FEN(), b.FEN())
			}
			if a.Ply() != start.Ply()+6 || start.FEN() != before {
				t.Errorf("opening at ply %d (want %d), start changed: %v", a.Ply(), start.Ply()+6, start.FEN() != before)
			}
			distinct := map[string]bool{}
			for pair := 0; pair < 20; pair++ {
				p, err := RandomOpening(start, 6, openingRNG(7, pair))
				if err != nil {
					t.Fatal(err)
				}
				if o := games.OutcomeOf(p); o.Result.Over() {
					t.Fatalf("random opening %s is over", p.FEN())
				}
				distinct[p.FEN()] = true
			}
			if len(distinct) < 10 {
				t.Errorf("20 pairs gave only %d distinct openings", len(distinct))
			}
		})
	}
	if _, err := RandomOpening(tictactoe.Game{}.Start(), 9, openingRNG(1, 0)); err == nil {
		t.Error("nine random plies of tic-tac-toe always end the game, but no error was returned")
	}
}
