// Rules tests: conformance playouts, draw rules, crowning, mandatory capture, notation and FEN validation.

package checkers

import (
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/gametest"
)

func mustFEN(t testing.TB, fen string) *Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

func mustPlay(t testing.TB, p *Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatalf("%s: %v", p.FEN(), err)
		}
		p.Play(m)
	}
}

func legalMoves(p *Position) map[string]bool {
	var buf [games.MaxMoves]games.Move
	return gametest.MoveSet(p, p.AppendMoves(buf[:0]))
}

func TestGameBasics(t *testing.T) {
	g := Game{}
	if g.Name() != "checkers" {
		t.Errorf("Name() = %q", g.Name())
	}
	p := g.Start()
	if p.FEN() != StartFEN || p.ToMove() != games.First || p.Ply() != 0 {
		t.Errorf("start: FEN %q, to move %v, ply %d", p.FEN(), p.ToMove(), p.Ply())
	}
	if got := len(g.FeatureNames()); got != NumFeatures || len(FeatureDocs()) != NumFeatures {
		t.Errorf("%d feature names, want %d", got, NumFeatures)
	}
	want := map[string]bool{"9-13": true, "9-14": true, "10-14": true, "10-15": true, "11-15": true, "11-16": true, "12-16": true}
	if got := legalMoves(p.(*Position)); len(got) != len(want) {
		t.Errorf("start moves %v, want %v", got, want)
	} else {
		for m := range want {
			if !got[m] {
				t.Errorf("start moves %v lack %s", got, m)
			}
		}
	}
}

func TestRandomPlayouts(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	gametest.RandomPlayouts(t, Game{}, n, 300, 1)
}

// TestRandomPlayoutsConsistency plays random games and checks, at every ply, that the move count, the
// tactical moves and the perft to depth 2 agree between the fast and the plain paths.
func TestRandomPlayoutsConsistency(t *testing.T) {
	games_ := 200
	if testing.Short() {
		games_ = 30
	}
	var buf, tbuf [games.MaxMoves]games.Move
	for g := 0; g < games_; g++ {
		p := StartPosition()
		seed := uint64(g)*0x9e3779b97f4a7c15 + 7
		for ply := 0; ply < 200; ply++ {
			moves := p.AppendMoves(buf[:0])
			if p.CountMoves() != len(moves) {
				t.Fatalf("%s: CountMoves %d, AppendMoves %d", p.FEN(), p.CountMoves(), len(moves))
			}
			if got, want := p.Perft(2), games.InterfacePerft(p, 2); got != want {
				t.Fatalf("%s: Perft(2) %d, interface %d", p.FEN(), got, want)
			}
			tactical := p.AppendTactical(tbuf[:0])
			nTactical := 0
			for _, m := range moves {
				if p.IsTactical(m) {
					nTactical++
					if p.TacticalGain(m) <= 0 {
						t.Fatalf("%s: tactical %s has gain %d", p.FEN(), p.FormatMove(m), p.TacticalGain(m))
					}
				}
			}
			if nTactical != len(tactical) {
				t.Fatalf("%s: %d tactical moves listed, %d flagged", p.FEN(), len(tactical), nTactical)
			}
			earlier := 0 // the repetition count by brute force over the whole history
			for j := len(p.history) - 2; j >= 0; j -= 2 {
				if p.history[j].board == p.board {
					earlier++
				}
			}
			if p.Repetitions() != earlier {
				t.Fatalf("%s: Repetitions() %d, brute force %d", p.FEN(), p.Repetitions(), earlier)
			}
			if len(moves) == 0 || p.Status().Result.Over() {
				break
			}
			seed = seed*6364136223846793005 + 1442695040888963407
			p.Play(moves[int(seed>>33)%len(moves)])
		}
	}
}

func TestNoMovesLoses(t *testing.T) {
	tests := []struct{ name, fen string }{
		{"no pieces", "W:W:B1,2"},
		{"blocked", "W:W29:B25,22"}, // the man on 29 can go only to 25, which is occupied and cannot be jumped
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			if got := legalMoves(p); len(got) != 0 {
				t.Fatalf("legal moves %v, want none", got)
			}
			want := games.Outcome{Result: games.FirstWins, Reason: games.NoLegalMove}
			if got := games.OutcomeOf(p); got != want {
				t.Errorf("outcome %v, want %v", got, want)
			}
		})
	}
}

func TestMandatoryCapture(t *testing.T) {
	// Black's man on 14 can take 18; the man on 1 has quiet moves, which the capture rules out.
	p := mustFEN(t, "B:W18,30:B14,1")
	got := legalMoves(p)
	if len(got) != 1 || !got["14x23"] {
		t.Fatalf("legal moves %v, want only 14x23", got)
	}
	_, err := p.ParseMove("1-6")
	if err == nil || !strings.Contains(err.Error(), "capture is mandatory") {
		t.Errorf("ParseMove(1-6) error %v, want one saying the capture is mandatory", err)
	}
	if m, err := p.ParseMove("14-23"); err != nil || p.FormatMove(m) != "14x23" {
		t.Errorf("ParseMove(14-23) = %v, %v; want the capture 14x23", m, err)
	}
}

func TestMultiJumpMustContinue(t *testing.T) {
	// Black man on 1 jumps 6 and then must go on over 15.
	p := mustFEN(t, "B:W6,15,30:B1")
	got := legalMoves(p)
	if len(got) != 1 || !got["1x10x19"] {
		t.Fatalf("legal moves %v, want only 1x10x19", got)
	}
	if _, err := p.ParseMove("1x10"); err == nil {
		t.Errorf("the partial capture 1x10 parsed")
	}
	for _, form := range []string{"1x19", "1-19", "1-10-19", " 1X10x19 "} {
		if m, err := p.ParseMove(form); err != nil || p.FormatMove(m) != "1x10x19" {
			t.Errorf("%q = %v, %v; want 1x10x19", form, m, err)
		}
	}
}

func TestChoiceOfCaptures(t *testing.T) {
	// Any capture may be chosen, not only the longest: 10x19 takes one piece, the others two.
	p := mustFEN(t, "B:W14,15,22:B9,10")
	got := legalMoves(p)
	if len(got) != 3 || !got["10x19"] || !got["9x18x25"] || !got["10x17x26"] {
		t.Errorf("legal moves %v, want 10x19 9x18x25 10x17x26", got)
	}
}

func TestCrowningByCaptureStops(t *testing.T) {
	// Black man on 22 jumps 26 to 31 and is crowned; as a king it could jump 27 next, but the move ends.
	p := mustFEN(t, "B:W26,27:B22")
	got := legalMoves(p)
	if len(got) != 1 || !got["22x31"] {
		t.Fatalf("legal moves %v, want only 22x31", got)
	}
	mustPlay(t, p, "22x31")
	if p.FEN() != "W:W27:BK31" {
		t.Errorf("after 22x31: %s, want W:W27:BK31", p.FEN())
	}
	// White man on 11 crowned by a capture on 2; as a king it could go on over 6 to 9, but the move ends.
	q := mustFEN(t, "W:W11:B6,7")
	got = legalMoves(q)
	if len(got) != 1 || !got["11x2"] {
		t.Fatalf("legal moves %v, want only 11x2", got)
	}
	mustPlay(t, q, "11x2")
	if q.FEN() != "B:WK2:B6" {
		t.Errorf("after 11x2: %s, want B:WK2:B6", q.FEN())
	}
	// A king continues where a man would stop.
	k := mustFEN(t, "B:W26,27:BK22")
	if got := legalMoves(k); !got["22x31x24"] {
		t.Errorf("king moves %v lack 22x31x24", got)
	}
}

func TestSimpleCrowning(t *testing.T) {
	p := mustFEN(t, "W:W5:B20")
	mustPlay(t, p, "5-1")
	if p.FEN() != "B:WK1:B20" {
		t.Errorf("after 5-1: %s", p.FEN())
	}
	if p.NoProgress() != 0 {
		t.Errorf("a man move leaves the no-progress count at %d", p.NoProgress())
	}
}

func TestAmbiguousStartEnd(t *testing.T) {
	// The king on 15 has three captures ending on 8: a single jump 15x8, and two loops back through 15.
	p := mustFEN(t, "B:W18,26,27,25,11,19:BK15")
	m, err := p.ParseMove("15x8")
	if err != nil || p.FormatMove(m) != "15x8" {
		t.Errorf("15x8 = %v, %v; want the single jump", m, err)
	}
	// Two routes capture the same four pieces and return to 14.
	q := mustFEN(t, "W:WK14:B19,18,11,10")
	_, err = q.ParseMove("14x14")
	if err == nil || !strings.Contains(err.Error(), "ambiguous") ||
		!strings.Contains(err.Error(), "14x23x16x7x14") || !strings.Contains(err.Error(), "14x7x16x23x14") {
		t.Errorf("14x14 error %v, want one saying it is ambiguous and listing both routes", err)
	}
	for _, full := range []string{"14x23x16x7x14", "14x7x16x23x14"} {
		m, err := q.ParseMove(full)
		if err != nil || q.FormatMove(m) != full {
			t.Errorf("%s = %v, %v", full, m, err)
		}
	}
}

func TestRepetition(t *testing.T) {
	p := mustFEN(t, "B:WK32:BK1")
	shuffle := []string{"1-5", "32-28", "5-1", "28-32"}
	for round := 0; round < 2; round++ {
		if got := p.Repetitions(); got != round {
			t.Errorf("round %d: Repetitions() = %d", round, got)
		}
		if p.Status().Result.Over() {
			t.Fatalf("round %d: over too early: %v", round, p.Status())
		}
		mustPlay(t, p, shuffle...)
	}
	want := games.Outcome{Result: games.Draw, Reason: games.Repetition}
	if p.Repetitions() != 2 || p.Status() != want {
		t.Errorf("third occurrence: Repetitions %d, Status %v", p.Repetitions(), p.Status())
	}
	p.Undo()
	if p.Repetitions() != 1 || p.Status().Result.Over() {
		t.Errorf("after Undo: Repetitions %d, Status %v", p.Repetitions(), p.Status())
	}
	// A man move starts a new history: the shuffle needs two more rounds after it to draw.
	q := mustFEN(t, "B:WK32,21:BK1")
	mustPlay(t, q, shuffle...)
	mustPlay(t, q, "1-5", "21-17")
	if got := q.Repetitions(); got != 0 {
		t.Errorf("after a man move: Repetitions() = %d, want 0", got)
	}
	mustPlay(t, q, "5-1", "32-28", "1-5", "28-32")
	if got := q.Repetitions(); got != 1 {
		t.Errorf("one shuffle after the man move: Repetitions() = %d, want 1", got)
	}
}

func TestNoProgressRule(t *testing.T) {
	p := mustFEN(t, "B:WK32,K31:BK1,K2")
	cycle := []string{"1-5", "32-28", "2-6", "31-27", "5-9", "28-24", "6-10", "27-23",
		"9-5", "24-28", "10-6", "23-27", "5-1", "28-32", "6-2", "27-31"}
	for ply := 0; ply < NoProgressPlies; ply++ {
		if p.NoProgress() != ply {
			t.Fatalf("ply %d: NoProgress() = %d", ply, p.NoProgress())
		}
		m, err := p.ParseMove(cycle[ply%len(cycle)])
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
		if ply < NoProgressPlies-1 && p.Status().Reason == games.MoveRule {
			t.Fatalf("drawn by the move rule after %d plies", ply+1)
		}
	}
	// The cycle also repeats positions, so Status says Repetition here; the move rule alone is checked below.
	if p.NoProgress() != NoProgressPlies {
		t.Fatalf("NoProgress() = %d", p.NoProgress())
	}
	long := mustFEN(t, "B:WK29,K31,K32:BK1,K2,K4")
	long.noProgress = NoProgressPlies - 1
	mustPlay(t, long, "1-5")
	want := games.Outcome{Result: games.Draw, Reason: games.MoveRule}
	if long.Status() != want {
		t.Errorf("after %d quiet plies: %v, want %v", NoProgressPlies, long.Status(), want)
	}
	long.Undo()
	if long.Status().Result.Over() || long.NoProgress() != NoProgressPlies-1 {
		t.Errorf("after Undo: %v, count %d", long.Status(), long.NoProgress())
	}
	// A capture resets the count.
	c := mustFEN(t, "B:WK10,K32:BK6")
	c.noProgress = 50
	mustPlay(t, c, "6x15")
	if c.NoProgress() != 0 {
		t.Errorf("after a capture the count is %d", c.NoProgress())
	}
}

func TestPlayUndoRestores(t *testing.T) {
	p := mustFEN(t, "W:W27,19,18,11,7,6,5:B28,26,25,20,17,10,9,4,3,2")
	fen, hash := p.FEN(), p.Hash()
	var buf [games.MaxMoves]games.Move
	for _, m := range p.AppendMoves(buf[:0]) {
		p.Play(m)
		if p.Ply() != 1 {
			t.Errorf("ply %d after one move", p.Ply())
		}
		p.Undo()
		if p.FEN() != fen || p.Hash() != hash || p.Ply() != 0 {
			t.Fatalf("Play/Undo %s: %s", p.FormatMove(m), p.FEN())
		}
	}
}

func TestParseFEN(t *testing.T) {
	tests := []struct{ in, want string }{
		{StartFEN, StartFEN},
		{"B:W21-32:B1-12", StartFEN},
		{"B:B1-12:W21-32", StartFEN},
		{` "B:W21-32:B1-12". `, StartFEN},
		{"W:WK4, 10 ,k3:B 17-18,K31", "W:WK3,K4,10:B17,18,K31"},
		{"W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", "W:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"},
		{"B:W:B1", "B:W:B1"},
		{"w:wK1-4:bK29-32", "W:WK1,K2,K3,K4:BK29,K30,K31,K32"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			p, err := ParseFEN(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if p.FEN() != tc.want {
				t.Errorf("FEN() = %q, want %q", p.FEN(), tc.want)
			}
		})
	}
}

func TestParseFENErrors(t *testing.T) {
	tests := []struct{ in, wantInErr string }{
		{"", "empty"},
		{"B:W21-32", "3 fields"},
		{"X:W21:B1", `side to move "X"`},
		{"B:W21:W22", "listed twice"},
		{"B:Q21:B1", `"Q21"`},
		{"B:W33:B1", `"33"`},
		{"B:W0:B1", `"0"`},
		{"B:W21,21:B1", "already occupied"},
		{"B:W21:B21", "already occupied"},
		{"B:W2:B1", "crowning row"},
		{"B:W21:B30", "crowning row"},
		{"B:W9-21:B5", "more than 12"},
		{"B:W9-5:B5", "backwards"},
		{"B:Wx:B3", `"x"`},
		{"B:W,:B3", "missing square"},
		{"B:W21:B1-", "missing square"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := ParseFEN(tc.in)
			if err == nil {
				t.Fatalf("ParseFEN(%q) succeeded", tc.in)
			}
			if !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("error %q does not mention %q", err, tc.wantInErr)
			}
		})
	}
}

func TestParseMoveErrors(t *testing.T) {
	p := StartPosition()
	tests := []struct{ in, wantInErr string }{
		{"", "empty"},
		{"11", "separated"},
		{"11-15-19", "no capture is possible"},
		{"11-33", `"33"`},
		{"a-15", `"a"`},
		{"13-17", "no Black piece on square 13 (it is empty)"},
		{"21-17", "holds a White piece"},
		{"11-14", "not legal"},
		{"11x18", "no capture is possible"},
		{"11-15x19", "mixes"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := p.ParseMove(tc.in)
			if err == nil {
				t.Fatalf("ParseMove(%q) succeeded", tc.in)
			}
			if !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("error %q does not mention %q", err, tc.wantInErr)
			}
		})
	}
}

func TestCloneIndependent(t *testing.T) {
	p := StartPosition()
	mustPlay(t, p, "11-15", "23-19")
	c := p.Clone().(*Position)
	mustPlay(t, c, "8-11")
	c.Undo()
	c.Undo()
	if p.FEN() != "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15" || p.Ply() != 2 {
		t.Errorf("the original changed: %s ply %d", p.FEN(), p.Ply())
	}
	p.Undo()
	p.Undo()
	if p.FEN() != StartFEN {
		t.Errorf("original history broken: %s", p.FEN())
	}
}

// TestNoAllocations checks that the calls a search makes per node allocate nothing once the history has room.
func TestNoAllocations(t *testing.T) {
	p := mustFEN(t, "B:W18,26,27,25,11,19:BK15")
	var buf [games.MaxMoves]games.Move
	feats := make([]float64, NumFeatures)
	moves := p.AppendMoves(buf[:0])
	p.Play(moves[0])
	p.Undo()
	allocs := testing.AllocsPerRun(100, func() {
		for _, m := range p.AppendMoves(buf[:0]) {
			p.Play(m)
			p.Features(feats)
			_ = p.Status()
			_ = p.Hash()
			p.Undo()
		}
		_ = p.AppendTactical(buf[:0])
		_ = p.CountMoves()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per node batch, want 0", allocs)
	}
}

func TestTacticsForced(t *testing.T) {
	var _ games.ForcedTactics = (*Position)(nil)
	cases := []struct {
		fen    string
		forced bool
	}{
		{StartFEN, false},
		{"B:W18:B14", true},    // Black's man on 14 must jump 18
		{"W:W18:B14", true},    // White's man on 18 must jump 14
		{"B:W26,27:B22", true}, // the shared README's "crowned by a capture" position: 22 must jump
		{"W:W6,7,8:B2,3,K30", false},
	}
	for _, c := range cases {
		t.Run(c.fen, func(t *testing.T) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			var buf [games.MaxMoves]games.Move
			moves := p.AppendMoves(buf[:0])
			allCaptures := len(moves) > 0
			for _, m := range moves {
				allCaptures = allCaptures && strings.Contains(p.FormatMove(m), "x")
			}
			if p.TacticsForced() != c.forced {
				t.Errorf("TacticsForced() = %v, want %v", p.TacticsForced(), c.forced)
			}
			if p.TacticsForced() != allCaptures {
				t.Errorf("TacticsForced() = %v but the legal moves %v are all captures: %v", p.TacticsForced(), gametest.MoveSet(p, moves), allCaptures)
			}
		})
	}
}
