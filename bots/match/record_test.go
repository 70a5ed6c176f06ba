// Tests of the game records: PGN that notnil/chess reads back, PDN that games/checkers replays.

package match

import (
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"

	notnil "github.com/notnil/chess"
)

func TestPGNReadsBackWithNotnil(t *testing.T) {
	g := chess.Game{}
	cfg := quickConfig(g, mustSpec(t, "preset=material depth=2 name='Alpha \"A\"'"), mustSpec(t, "preset=zero depth=1"))
	cfg.Games, cfg.MaxMoves = 4, 30
	cfg.Openings = []games.Position{
		g.Start(),
		mustPos(t, g, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2"), // black to move: "2..."
	}
	_, records := collect(t, cfg)
	for n, rec := range records {
		text, err := FormatPGN(g, rec, "test event")
		if err != nil {
			t.Fatal(err)
		}
		read, err := notnil.PGN(strings.NewReader(text))
		if err != nil {
			t.Fatalf("game %d: notnil cannot read\n%s\n%v", n, text, err)
		}
		parsed := notnil.NewGame(read)
		if got := len(parsed.Moves()); got != len(rec.Moves) {
			t.Errorf("game %d: notnil read %d moves, want %d\n%s", n, got, len(rec.Moves), text)
		}
		p := rec.Start.Clone()
		for _, m := range rec.Moves {
			p.Play(m)
		}
		if got, want := parsed.Position().Board().String(), boardOf(t, p.FEN()); got != want {
			t.Errorf("game %d: notnil's final board %s, want %s", n, got, want)
		}
		for _, want := range []string{`[Event "test event"]`, `[Round "` + string(rune('0'+n)) + `"]`,
			`[Result "` + rec.Result.String() + `"]`, `[Termination "` + string(rec.Termination) + `"]`,
			`[White "` + strings.ReplaceAll(rec.Names[games.First], `"`, `\"`) + `"]`, `[PlyCount "`} {
			if !strings.Contains(text, want) {
				t.Errorf("game %d: PGN lacks %s:\n%s", n, want, text)
			}
		}
		if hasFEN := strings.Contains(text, `[FEN "`); hasFEN != (n > 2) {
			t.Errorf("game %d: FEN tag present %v, want %v", n, hasFEN, n > 2)
		}
		if n > 2 && !strings.Contains(text, "\n2... ") {
			t.Errorf("game %d starts with black to move but its movetext does not begin with 2...:\n%s", n, text)
		}
	}
}

// boardOf returns notnil's board string of a FEN's piece placement.
func boardOf(t *testing.T, fen string) string {
	t.Helper()
	f, err := notnil.FEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return notnil.NewGame(f).Position().Board().String()
}

func TestPDNReplays(t *testing.T) {
	g := checkers.Game{}
	cfg := quickConfig(g, mustSpec(t, "preset=material depth=3"), mustSpec(t, "preset=greedy depth=1"))
	cfg.Games, cfg.MaxMoves, cfg.RandomPlies = 4, 50, 3
	_, records := collect(t, cfg)
	var all strings.Builder
	for n := 1; n <= 4; n++ {
		text, err := FormatPDN(records[n], "")
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString(text)
	}
	parsed, err := checkers.ParsePDN(all.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(parsed) != 4 {
		t.Fatalf("%d games read back, want 4", len(parsed))
	}
	for i := range parsed {
		rec := records[i+1]
		_, moves, err := parsed[i].Replay()
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if len(moves) != len(rec.Moves) {
			t.Fatalf("game %d: %d moves read back, want %d", i+1, len(moves), len(rec.Moves))
		}
		for j := range moves {
			if moves[j] != rec.Moves[j] {
				t.Fatalf("game %d: move %d differs", i+1, j+1)
			}
		}
		tag := func(name string) string { v, _ := parsed[i].Tag(name); return v }
		if parsed[i].Result != rec.Result || tag("Black") != rec.Names[games.First] || tag("White") != rec.Names[games.Second] ||
			tag("FEN") != rec.Start.FEN() || tag("Termination") != string(rec.Termination) || tag("Event") != "dossier match" {
			t.Errorf("game %d: tags %v, result %v; want %v, %v", i+1, parsed[i].Tags, parsed[i].Result, rec.Names, rec.Result)
		}
	}
}

func TestConnect4PGN(t *testing.T) {
	g := connect4.Game{}
	start := g.Start()
	p := start.Clone()
	var moves []games.Move
	for _, c := range "4455667" {
		m := mustMoveOf(t, p, string(c))
		moves = append(moves, m)
		p.Play(m)
	}
	rec := GameRecord{Number: 1, Start: start, Moves: moves, Names: [2]string{"x", "o"}, Result: games.FirstWins,
		Termination: "line completed", Detail: "line completed", Limits: [2]Limits{{Depth: 4}, {Depth: 2}}}
	text, err := FormatPGN(g, rec, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Variant "cfour"]`, `[WhiteLimits "depth=4"]`, `[BlackLimits "depth=2"]`,
		"\n1. P@d1 P@d2 2. P@e1", " 1-0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("PGN lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "TerminationDetails") || strings.Contains(text, "[FEN") {
		t.Errorf("PGN repeats the termination or has a FEN for the initial position:\n%s", text)
	}
	rec.Moves = append(rec.Moves, moves[0])
	if _, err := FormatPGN(g, rec, ""); err == nil || !strings.Contains(err.Error(), "move 8") {
		t.Errorf("an illegal move 8 gave %v", err)
	}
}

func TestNewRecordWriterFormats(t *testing.T) {
	var sb strings.Builder
	if _, err := NewRecordWriter(&sb, chess.Game{}, true, ""); err == nil {
		t.Error("PDN for chess accepted")
	}
	if _, err := NewRecordWriter(&sb, checkers.Game{}, false, ""); err == nil {
		t.Error("PGN for checkers accepted")
	}
	if _, err := NewRecordWriter(&sb, checkers.Game{}, true, ""); err != nil {
		t.Error(err)
	}
}

// TestChess960Record: a Chess960 game's PGN carries the Variant, SetUp and FEN tags (FEN even for position
// 518) and castling as O-O in SAN, and the position command names castling as the king taking its rook.
func TestChess960Record(t *testing.T) {
	g := chess.Game{Chess960: true}
	tests := []struct {
		name, fen string
		moves     []string
		wantPGN   []string
		wantUCI   string
	}{
		{"position 3, castling at once", "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1", []string{"f1g1", "f8g8", "e2e4"},
			[]string{`[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"]`, "\n1. O-O O-O 2. e4 *\n"},
			"position fen bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1 moves f1g1 f8g8 e2e4"},
		{"position 518", chess.StartFEN, []string{"e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1h1"},
			[]string{`[Variant "Chess960"]`, `[FEN "` + chess.StartFEN + `"]`, "4. O-O *"},
			"position startpos moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := mustPos(t, g, tc.fen)
			p := start.Clone()
			rec := GameRecord{Number: 1, Start: start, Names: [2]string{"a", "b"}}
			for _, text := range tc.moves {
				m, err := p.ParseMove(text)
				if err != nil {
					t.Fatal(err)
				}
				rec.Moves = append(rec.Moves, m)
				p.Play(m)
			}
			text, err := FormatPGN(g, rec, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.wantPGN {
				if !strings.Contains(text, want) {
					t.Errorf("PGN lacks %q:\n%s", want, text)
				}
			}
			if got := positionCommand(g, rec.Start, rec.Moves); got != tc.wantUCI {
				t.Errorf("position command %q, want %q", got, tc.wantUCI)
			}
		})
	}
}
