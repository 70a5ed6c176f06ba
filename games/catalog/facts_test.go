// The games' facts as front ends read them: side names, the side called White, protocol names and pieces.

package catalog

import (
	"testing"

	"dossier/games"
)

func TestGameFacts(t *testing.T) {
	cases := []struct {
		game          string
		first, second string
		white         games.Side
		variants      games.Variants
		startPieces   int
	}{
		{"chess", "white", "black", games.First, games.Variants{CECP: "normal"}, 32},
		{"chess960", "white", "black", games.First, games.Variants{CECP: "fischerandom", Record: "Chess960"}, 32},
		{"checkers", "black", "white", games.Second, games.Variants{UCI: "checkers", CECP: "checkers"}, 24},
		{"connect4", "first", "second", games.First, games.Variants{UCI: "cfour", CECP: "cfour", Record: "cfour"}, -1},
		{"tictactoe", "first", "second", games.First, games.Variants{UCI: "tictactoe", CECP: "tictactoe", Record: "tictactoe"}, -1},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			g, err := Lookup(c.game)
			if err != nil {
				t.Fatal(err)
			}
			if got := [2]string{games.SideName(g, games.First), games.SideName(g, games.Second)}; got != [2]string{c.first, c.second} {
				t.Errorf("side names %v, want %s and %s", got, c.first, c.second)
			}
			if got := games.WhiteSide(g); got != c.white {
				t.Errorf("white side %v, want %v", got, c.white)
			}
			if got := games.VariantsOf(g); got != c.variants {
				t.Errorf("variants %+v, want %+v", got, c.variants)
			}
			if got := games.PieceCount(g.Start()); got != c.startPieces {
				t.Errorf("start position has %d pieces, want %d", got, c.startPieces)
			}
		})
	}
	t.Run("pieces after a capture", func(t *testing.T) {
		g, _ := Lookup("chess")
		p, err := g.ParsePosition("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove("e4d5")
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
		if got := games.PieceCount(p); got != 3 {
			t.Fatalf("%d pieces after exd5, want 3", got)
		}
		ck, _ := Lookup("checkers")
		q, err := ck.ParsePosition("W:W21,22,K5:B1-4")
		if err != nil {
			t.Fatal(err)
		}
		if got := games.PieceCount(q); got != 7 {
			t.Fatalf("%d pieces in W:W21,22,K5:B1-4, want 7", got)
		}
	})
}

// TestRecordAndOpeningFacts: every game's record format, and one line of an openings file in each game's
// own form (EPD, PDN movetext, Pons digits, a position string) with a whole-records file where one exists.
func TestRecordAndOpeningFacts(t *testing.T) {
	cases := []struct {
		game, format string
		// opening is a line of an openings file read with maxPlies 2, wantFEN the position it gives.
		opening, wantFEN string
		// records is an openings file of whole game records ("" for a game that reads none).
		records string
	}{
		{"chess", "PGN", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "[Event \"e\"]\n1. e4 e5 *\n"},
		{"chess960", "PGN", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "[Event \"e\"]\n1. e4 e5 *\n"},
		{"checkers", "PDN", "1. 11-15 23-19 2. 8-11", "", "[Event \"e\"]\n1. 11-15 23-19 *\n"},
		{"connect4", "PGN", "4453 2", "", ""},
		{"tictactoe", "PGN", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			g, err := Lookup(c.game)
			if err != nil {
				t.Fatal(err)
			}
			if got := games.RecordFormat(g); got != c.format {
				t.Errorf("record format %s, want %s", got, c.format)
			}
			if c.opening == "" {
				c.opening, c.wantFEN = g.Start().FEN(), g.Start().FEN()
			}
			p, err := games.ParseOpening(g, c.opening, 2)
			if err != nil {
				t.Fatalf("opening %q: %v", c.opening, err)
			}
			if c.wantFEN == "" { // an opening of moves: its first two plies from the start
				if p.Ply() != 2 {
					t.Errorf("opening %q at ply %d, want 2", c.opening, p.Ply())
				}
			} else if p.FEN() != c.wantFEN {
				t.Errorf("opening %q is %s, want %s", c.opening, p.FEN(), c.wantFEN)
			}
			reader, reads := g.(games.RecordOpeningsReader)
			if reads != (c.records != "") {
				t.Fatalf("reads whole records: %v, want %v", reads, c.records != "")
			}
			if !reads {
				return
			}
			openings, lines, isRecords, err := reader.ReadRecordOpenings(c.records, 1)
			if err != nil || !isRecords || len(openings) != 1 || lines[0] != 1 || openings[0].Ply() != 1 {
				t.Errorf("records %q: %d openings at lines %v, records %v, error %v; want one at ply 1 from line 1",
					c.records, len(openings), lines, isRecords, err)
			}
			if _, _, isRecords, _ := reader.ReadRecordOpenings(c.opening, 0); isRecords {
				t.Errorf("the opening line %q is taken for records", c.opening)
			}
		})
	}
}
