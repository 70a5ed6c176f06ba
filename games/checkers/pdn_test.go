// PDN tests: the ACF archive replays legally, PDN text round-trips, and the reader's syntax errors.

package checkers

import (
	"math/bits"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/gametest"
)

// TestACFArchiveReplays replays all 9,377 games of the American Checker Federation archive.
func TestACFArchiveReplays(t *testing.T) {
	pdnGames, err := ReadPDN(gametest.OpenTestData(t, "checkers/ACF_converted.pdn.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pdnGames) != 9377 {
		t.Fatalf("read %d games, want 9377", len(pdnGames))
	}
	var plies, decisive, noMoveEnds, winnerAhead, winnerBehind int
	results := map[games.Result]int{}
	drawnEarly := map[games.Reason]int{}
	for i := range pdnGames {
		g := &pdnGames[i]
		p, moves, err := g.Replay()
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		plies += len(moves)
		// Over the board these draws must be claimed, so games may play on past them.
		start, _ := g.StartPosition()
		for _, m := range moves {
			if o := start.Status(); o.Result.Over() {
				drawnEarly[o.Reason]++
				break
			}
			start.Play(m)
		}
		results[g.Result]++
		if tag, _ := g.Tag("Result"); tag != g.Result.String() {
			t.Errorf("game %d: Result tag %q but the movetext ends with %s", i+1, tag, g.Result)
		}
		winner, ok := g.Result.Winner()
		if !ok {
			continue
		}
		decisive++
		if p.CountMoves() == 0 {
			noMoveEnds++
			if p.ToMove() == winner {
				t.Errorf("game %d: %s wins, but it is to move and has no legal move in %s", i+1, g.Result, p.FEN())
			}
		}
		// Games were mostly resigned, so only count how often material agrees with the result.
		mine, theirs := material(p, winner), material(p, winner.Other())
		switch {
		case mine > theirs:
			winnerAhead++
		case mine < theirs:
			winnerBehind++
		}
	}
	t.Logf("%d games, %d plies; results %v; %d decisive: %d end with the loser unable to move, material ahead for the winner in %d, behind in %d; play went on past a draw rule in %v",
		len(pdnGames), plies, results, decisive, noMoveEnds, winnerAhead, winnerBehind, drawnEarly)
	if winnerBehind*4 > winnerAhead {
		t.Errorf("the winner is behind in material in %d of %d decisive games: the result's colours look swapped", winnerBehind, decisive)
	}
}

// material counts men as 2 and kings as 3.
func material(p *Position, s games.Side) int {
	return 2*bits.OnesCount32(p.Men(s)) + 3*bits.OnesCount32(p.Kings(s))
}

func TestParsePDN(t *testing.T) {
	text := `% a PDN file with two games
[Event "Test \"quoted\" event"]
[Site "here"]

1. 11-15 {the Old Fourteenth starts} 23-19 2. 8-11 (2. 9-14 22-17) 22-17 $1 3.
9-13? 17-14 4. 10x17! ; a line comment
21x14 1-0

[Event "second"]
[FEN "W:W22:B9"]
1... 22-18 2. 9-14 18x9 *
[Event "third"] 1. 10-14 22-18 3. 14x23 27x18 1/2-1/2`
	got, err := ParsePDN(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d games, want 3", len(got))
	}
	first := got[0]
	if ev, _ := first.Tag("Event"); ev != `Test "quoted" event` {
		t.Errorf("Event tag %q", ev)
	}
	if strings.Join(first.Moves, " ") != "11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14" || first.Result != games.FirstWins || first.Line != 2 {
		t.Errorf("first game: moves %v, result %v, line %d", first.Moves, first.Result, first.Line)
	}
	p, _, err := first.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if p.Ply() != 8 {
		t.Errorf("ply %d after the first game", p.Ply())
	}
	second := got[1]
	p, _, err = second.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if p.FEN() != "B:W9:B" || second.Result != games.Ongoing {
		t.Errorf("second game ends in %s, result %v", p.FEN(), second.Result)
	}
	if strings.Join(got[2].Moves, " ") != "10-14 22-18 14x23 27x18" || got[2].Result != games.Draw {
		t.Errorf("third game: %v %v", got[2].Moves, got[2].Result)
	}
}

func TestParsePDNErrors(t *testing.T) {
	tests := []struct{ name, text, wantInErr string }{
		{"unclosed comment", "1. 11-15 {oops", "never closed"},
		{"unclosed variation", "1. 11-15 (2. 9-13", "never closed"},
		{"stray bracket", "1. 11-15 )", `unexpected ")"`},
		{"bad token", "1. 11-15 Nf3", `"Nf3"`},
		{"tag without value", "[Event]", "value does not start"},
		{"unclosed tag", `[Event "x"`, "missing ']'"},
		{"tag without name", `["x"]`, "without a name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePDN(tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("error %v, want one mentioning %q", err, tc.wantInErr)
			}
		})
	}
	international, err := ParsePDN(`[GameType "20"] 1. 32-28 *`)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := international[0].Replay(); err == nil || !strings.Contains(err.Error(), "GameType") {
		t.Errorf("replaying a GameType 20 game: %v", err)
	}
	g, err := ParsePDN("1. 11-15 23-19 2. 11-16 *")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g[0].Replay(); err == nil || !strings.Contains(err.Error(), `ply 3 (move 2): move "11-16"`) {
		t.Errorf("replaying an illegal move: %v", err)
	}
}

func TestWritePDNRoundTrip(t *testing.T) {
	starts := []string{StartFEN, "W:W27,19,18,11,7,6,5:B28,26,25,20,17,10,9,4,3,2", "B:WK10,K19,K23,30:BK14,K22,K27,3"}
	for i, fen := range starts {
		t.Run(fen, func(t *testing.T) {
			start := mustFEN(t, fen)
			p := start.Clone().(*Position)
			var moves []games.Move
			var buf [games.MaxMoves]games.Move
			seed := uint64(i + 1)
			for len(moves) < 120 && p.Status().Result == games.Ongoing {
				legal := p.AppendMoves(buf[:0])
				if len(legal) == 0 {
					break
				}
				seed = seed*6364136223846793005 + 1442695040888963407
				m := legal[int(seed>>33)%len(legal)]
				moves = append(moves, m)
				p.Play(m)
			}
			var sb strings.Builder
			tags := []PDNTag{{"Event", "round trip"}, {"Result", "ignored"}, {"White", `a "bot"`}}
			if err := WritePDN(&sb, tags, start, moves, games.SecondWins); err != nil {
				t.Fatal(err)
			}
			read, err := ParsePDN(sb.String())
			if err != nil || len(read) != 1 {
				t.Fatalf("reading back %d games, %v:\n%s", len(read), err, sb.String())
			}
			end, replayed, err := read[0].Replay()
			if err != nil {
				t.Fatalf("%v\n%s", err, sb.String())
			}
			if len(replayed) != len(moves) || end.FEN() != p.FEN() || read[0].Result != games.SecondWins {
				t.Errorf("round trip: %d moves to %s, want %d to %s\n%s", len(replayed), end.FEN(), len(moves), p.FEN(), sb.String())
			}
			for j := range moves {
				if replayed[j] != moves[j] {
					t.Fatalf("move %d differs", j+1)
				}
			}
			if v, _ := read[0].Tag("White"); v != `a "bot"` {
				t.Errorf("White tag %q", v)
			}
			if v, _ := read[0].Tag("GameType"); v != PDNGameType {
				t.Errorf("GameType tag %q", v)
			}
			if _, hasFEN := read[0].Tag("FEN"); hasFEN != (fen != StartFEN) {
				t.Errorf("FEN tag present %v for start %s", hasFEN, fen)
			}
			for _, line := range strings.Split(sb.String(), "\n") {
				if len(line) > pdnLineWidth && !strings.HasPrefix(line, "[") {
					t.Errorf("line longer than %d: %q", pdnLineWidth, line)
				}
			}
		})
	}
	bad := StartPosition()
	if err := WritePDN(&strings.Builder{}, nil, bad, []games.Move{games.Move(1) | games.Move(30)<<moveToShift}, games.Draw); err == nil {
		t.Errorf("WritePDN accepted an illegal move")
	}
}
