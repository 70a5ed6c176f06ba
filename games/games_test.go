// Tests of the helpers every game shares.

package games_test

import (
	"testing"

	"dossier/games"
	"dossier/games/tictactoe"
)

func TestIsLegal(t *testing.T) {
	p := tictactoe.Game{}.Start()
	centre, err := p.ParseMove("b2")
	if err != nil {
		t.Fatal(err)
	}
	if !games.IsLegal(p, centre) {
		t.Errorf("b2 is not legal at the start")
	}
	if games.IsLegal(p, games.NoMove) {
		t.Errorf("NoMove is legal")
	}
	p.Play(centre)
	if games.IsLegal(p, centre) {
		t.Errorf("b2 is legal after it was played")
	}
}

func TestParseResultReadsWhatStringWrites(t *testing.T) {
	for _, r := range []games.Result{games.Ongoing, games.Draw, games.FirstWins, games.SecondWins} {
		if got, ok := games.ParseResult(r.String()); !ok || got != r {
			t.Errorf("ParseResult(%q) = %v, %v", r.String(), got, ok)
		}
	}
	for _, tok := range []string{"", "1-1", "½-½", "1/2"} {
		if _, ok := games.ParseResult(tok); ok {
			t.Errorf("ParseResult(%q) read a result", tok)
		}
	}
}
