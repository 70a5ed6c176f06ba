// Identifying an unnamed opponent: the identifier's arithmetic on hand-made games, move classes.

package learn

import (
	"math"
	"slices"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
	"dossier/memory"
	"dossier/play"
)

// storedGame makes a stored game of g from its start, ours the side we played, moves in protocol notation.
func storedGame(g games.Game, ours games.Side, moves ...string) memory.Game {
	return memory.Game{GameSummary: memory.GameSummary{Game: g.Name(), OurSide: int(ours)}, StartFEN: g.Start().FEN(),
		Moves: moves}
}

// observeLine feeds the moves of a line from g's start to the identifier, the unnamed opponent playing side
// opp.
func observeLine(t *testing.T, id *Identifier, g games.Game, opp games.Side, moves ...string) {
	t.Helper()
	p := g.Start()
	for ply, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("move %d %s: %v", ply+1, text, err)
		}
		if p.ToMove() == opp {
			id.Observe(p, m, ply)
		}
		p.Play(m)
	}
}

func TestIdentifierRanking(t *testing.T) {
	g := tictactoe.Game{}
	// Two opponents who always answered our corner opening differently (we moved first), and one of
	// another game, who must be left out.
	stored := []OpponentGames{
		{Key: "centre", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@b2"), storedGame(g, games.First, "P@a1", "P@b2")}},
		{Key: "edge", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@a2"), storedGame(g, games.First, "P@a1", "P@a2")}},
		{Key: "checkers player", Games: []memory.Game{storedGame(checkers.Game{}, games.First, "11-15")}},
		{Key: play.UnknownKey, Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@c3")}},
	}
	tests := []struct {
		name  string
		games [][]string // the unnamed opponent's games (it plays second), each from the start
		want  string     // the first of the ranking
		ident bool       // whether it is identified at the default threshold
	}{
		{"no moves: someone new ties the stored ones", nil, NewOpponentKey, false},
		{"one game like centre's", [][]string{{"P@a1", "P@b2"}}, "centre", false},
		{"five games like centre's", slices.Repeat([][]string{{"P@a1", "P@b2"}}, 5), "centre", true},
		{"five games like edge's", slices.Repeat([][]string{{"P@a1", "P@a2"}}, 5), "edge", true},
		{"moves nobody played", [][]string{{"P@a1", "P@c1"}, {"P@a1", "P@c1"}}, NewOpponentKey, false},
		{"positions nobody saw", [][]string{{"P@b2", "P@a1"}, {"P@c3", "P@a1"}}, NewOpponentKey, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := NewIdentifier(g, stored, IdentifierOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if id.Opponents() != 2 {
				t.Fatalf("%d opponents, want 2 (centre and edge)", id.Opponents())
			}
			for _, line := range tc.games {
				id.StartGame()
				observeLine(t, id, g, games.Second, line...)
			}
			r := id.Ranking()
			if len(r) != 3 {
				t.Fatalf("ranking %v: want 3 hypotheses", r)
			}
			sum := 0.0
			for _, c := range r {
				sum += c.Probability
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("posteriors sum to %g", sum)
			}
			// A tie is broken by key, and "(new)" sorts before the letters: check the top probability instead.
			top := slices.IndexFunc(r, func(c IdentifyCandidate) bool { return c.Key == tc.want })
			if top < 0 || r[top].Probability < r[0].Probability {
				t.Errorf("ranking %+v: want %s first", r, tc.want)
			}
			if tc.want != NewOpponentKey && r[0].Key != tc.want {
				t.Errorf("ranking %+v: want %s first", r, tc.want)
			}
			if _, ok := id.Identified(); ok != tc.ident {
				t.Errorf("identified %v, want %v (ranking %+v)", ok, tc.ident, r)
			}
		})
	}
}

func TestIdentifierPosteriorByHand(t *testing.T) {
	// centre played b2 after a1 twice, edge a2 twice; the unnamed opponent plays b2 once. Tic-tac-toe after a1
	// has 8 legal moves; a = b = 1.
	g := tictactoe.Game{}
	stored := []OpponentGames{
		{Key: "centre", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@b2"), storedGame(g, games.First, "P@a1", "P@b2")}},
		{Key: "edge", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@a2"), storedGame(g, games.First, "P@a1", "P@a2")}},
	}
	id, err := NewIdentifier(g, stored, IdentifierOptions{Alpha: 1, Beta: 1})
	if err != nil {
		t.Fatal(err)
	}
	observeLine(t, id, g, games.Second, "P@a1", "P@b2")
	// Someone new: u(b2) = (2 + 1/8) / (4 + 1). centre: u_-centre(b2) = (0 + 1/8) / (2 + 1), P = (2 + u) / 3.
	// edge: u_-edge(b2) = (2 + 1/8) / (2 + 1), P = (0 + u) / 3.
	pNew := (2 + 1.0/8) / 5
	pCentre := (2 + (1.0/8)/3) / 3
	pEdge := ((2 + 1.0/8) / 3) / 3
	sum := pNew + pCentre + pEdge
	want := map[string]float64{NewOpponentKey: pNew / sum, "centre": pCentre / sum, "edge": pEdge / sum}
	for _, c := range id.Ranking() {
		if math.Abs(c.Probability-want[c.Key]) > 1e-12 {
			t.Errorf("%s: posterior %g, want %g", c.Key, c.Probability, want[c.Key])
		}
	}
	// Taking the move back removes its evidence.
	id.TakeBack(1)
	for _, c := range id.Ranking() {
		if math.Abs(c.Probability-1.0/3) > 1e-12 {
			t.Errorf("after the take-back %s: posterior %g, want 1/3", c.Key, c.Probability)
		}
	}
}

func TestIdentifierRefusesBadInput(t *testing.T) {
	g := tictactoe.Game{}
	tests := []struct {
		name string
		game games.Game
		opts IdentifierOptions
	}{
		{"no game", nil, IdentifierOptions{}},
		{"threshold above 1", g, IdentifierOptions{Threshold: 1.5}},
		{"negative alpha", g, IdentifierOptions{Alpha: -1}},
		{"negative beta", g, IdentifierOptions{Beta: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewIdentifier(tc.game, nil, tc.opts); err == nil {
				t.Error("no error")
			}
		})
	}
	// Stored games that do not replay are skipped, counted, and keep the moves before the bad one.
	stored := []OpponentGames{{Key: "x", Games: []memory.Game{storedGame(g, games.First, "P@a1", "P@b2", "nonsense"),
		{GameSummary: memory.GameSummary{Game: g.Name()}, StartFEN: "not a position", Moves: []string{"P@a1"}}}}}
	id, err := NewIdentifier(g, stored, IdentifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if id.Skipped() != 2 || id.Opponents() != 1 || id.Positions() != 1 {
		t.Errorf("skipped %d, opponents %d, positions %d; want 2, 1, 1", id.Skipped(), id.Opponents(), id.Positions())
	}
}

func TestMoveClass(t *testing.T) {
	g := chess.Game{}
	tests := []struct {
		fen, move string
		want      int // piece index in PNBRQK (castling 6) x 4, + 2 for a capture or promotion, + 1 for a check
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", 0},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", 4},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", 2},
		{"rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "d1h5", 4*4 + 1},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 6 * 4},
		{"8/P7/8/8/8/8/7k/5K2 w - - 0 1", "a7a8q", 2},
	}
	for _, tc := range tests {
		t.Run(tc.move, func(t *testing.T) {
			p := mustParse(t, g, tc.fen)
			m, err := p.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := moveClass(p, m); got != tc.want {
				t.Errorf("class %d, want %d", got, tc.want)
			}
		})
	}
	// A game without a notation that tells kinds of move apart has one class, or two with tactical moves.
	c4 := connect4.Game{}.Start()
	var buf [games.MaxMoves]games.Move
	if got := moveClass(c4, c4.AppendMoves(buf[:0])[0]); got != 0 {
		t.Errorf("Connect-Four: class %d, want 0", got)
	}
}

func TestIdentifierClassesUseEveryMove(t *testing.T) {
	g := chess.Game{}
	// knight answers our first move with a knight, pawn with a pawn; the unnamed opponent meets openings
	// neither saw and answers with knights.
	stored := []OpponentGames{
		{Key: "knight", Games: []memory.Game{storedGame(g, games.First, "e2e4", "g8f6"), storedGame(g, games.First, "d2d4", "b8c6"),
			storedGame(g, games.First, "c2c4", "g8h6")}},
		{Key: "pawn", Games: []memory.Game{storedGame(g, games.First, "e2e4", "e7e5"), storedGame(g, games.First, "d2d4", "d7d5"),
			storedGame(g, games.First, "c2c4", "c7c5")}},
	}
	heldOut := [][]string{{"a2a3", "b8c6"}, {"h2h3", "g8f6"}, {"b2b3", "b8a6"}}
	tests := []struct {
		name string
		opts IdentifierOptions
		want string // the first of the ranking; "" when all tie
	}{
		{"classes: knight", IdentifierOptions{Classes: true}, "knight"},
		{"pooled: no evidence", IdentifierOptions{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := NewIdentifier(g, stored, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range heldOut {
				id.StartGame()
				observeLine(t, id, g, games.Second, line...)
			}
			r := id.Ranking()
			if tc.want == "" {
				for _, c := range r {
					if math.Abs(c.Probability-1.0/3) > 1e-12 {
						t.Errorf("ranking %+v: want a three-way tie", r)
					}
				}
				return
			}
			if r[0].Key != tc.want {
				t.Errorf("ranking %+v: want %s first", r, tc.want)
			}
			// Taking the last game's move back removes its evidence, for every opponent.
			before := id.Ranking()
			id.TakeBack(1)
			if after := id.Ranking(); after[0].Probability >= before[0].Probability {
				t.Errorf("take-back kept the evidence: %+v then %+v", before, after)
			}
		})
	}
}

// mustParse reads a position string or fails the test.
func mustParse(t testing.TB, g games.Game, s string) games.Position {
	t.Helper()
	p, err := g.ParsePosition(s)
	if err != nil {
		t.Fatalf("%s position %q: %v", g.Name(), s, err)
	}
	return p
}
