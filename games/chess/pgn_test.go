// Tests of PGN writing: an exact small game, and random games read back by notnil/chess.

package chess

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	notnil "github.com/notnil/chess"

	"dossier/games"
)

// TestWritePGNExact compares a short game with its exact PGN text.
func TestWritePGNExact(t *testing.T) {
	p := StartPosition()
	var moves []games.Move
	for _, tok := range strings.Fields("f3 e5 g4 Qh4#") {
		m, err := p.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		p.Play(m)
	}
	var b bytes.Buffer
	tags := []PGNTag{{"White", "dossier"}, {"Black", `Mr "Q"`}, {"Event", "test"}, {"TimeControl", "40/60"}, {"FEN", "ignored"}}
	if err := WritePGN(&b, tags, nil, moves, games.SecondWins); err != nil {
		t.Fatal(err)
	}
	want := `[Event "test"]
[Site "?"]
[Date "?"]
[Round "?"]
[White "dossier"]
[Black "Mr \"Q\""]
[Result "0-1"]
[TimeControl "40/60"]

1. f3 e5 2. g4 Qh4# 0-1

`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestWritePGNFromFEN checks the SetUp/FEN tags, black-to-move numbering and illegal-move errors.
func TestWritePGNFromFEN(t *testing.T) {
	start := mustFEN(t, "4k3/8/8/8/8/8/4P3/4K2R b K - 5 30")
	p := start.Copy()
	var moves []games.Move
	for _, tok := range strings.Fields("Kd7 O-O Kc6") {
		m, err := p.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		p.Play(m)
	}
	var b bytes.Buffer
	if err := WritePGN(&b, nil, start, moves, games.Ongoing); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K2R b K - 5 30\"]\n", "\n30... Kd7 31. O-O Kc6 *\n", `[Result "*"]`} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("PGN lacks %q:\n%s", want, b.String())
		}
	}
	if start.FEN() != "4k3/8/8/8/8/8/4P3/4K2R b K - 5 30" {
		t.Fatal("WritePGN changed the start position")
	}
	if err := WritePGN(&b, nil, start, moves[1:], games.Ongoing); err == nil || !strings.Contains(err.Error(), "move 1 (e1g1) is not legal") {
		t.Fatalf("an illegal move gives error %v", err)
	}
}

// TestWritePGNReadByNotnil writes random games and reads them back with notnil/chess's PGN decoder.
func TestWritePGNReadByNotnil(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 5
	}
	rng := rand.New(rand.NewPCG(3, 33))
	var buf [games.MaxMoves]games.Move
	for g := 0; g < n; g++ {
		start := StartPosition()
		if g%3 == 1 {
			start = mustFEN(t, kiwipeteFEN)
		}
		p := start.Copy()
		var moves []games.Move
		for ply := 0; ply < 150; ply++ {
			legal := p.AppendMoves(buf[:0])
			if len(legal) == 0 || p.Status().Result.Over() {
				break
			}
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, m)
			p.Play(m)
		}
		result := games.OutcomeOf(p).Result
		var b bytes.Buffer
		if err := WritePGN(&b, []PGNTag{{"White", "a"}, {"Black", "b"}}, start, moves, result); err != nil {
			t.Fatal(err)
		}
		read, err := notnil.PGN(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("notnil cannot read\n%s: %v", b.String(), err)
		}
		game := notnil.NewGame(read)
		got := game.Moves()
		if len(got) != len(moves) {
			t.Fatalf("notnil read %d moves, wrote %d:\n%s", len(got), len(moves), b.String())
		}
		for i, m := range got {
			if m.String() != FormatUCI(moves[i]) {
				t.Fatalf("move %d read as %s, wrote %s", i+1, m, FormatUCI(moves[i]))
			}
		}
		if string(game.Outcome()) != result.String() {
			t.Fatalf("result read as %s, wrote %s", game.Outcome(), result)
		}
	}
}
