// End-to-end tests of the opponent-model searches: UCI transcripts with Search and OpponentModel in chess and
// checkers (bestmove, predicted replies, a malformed model), and a `dossier match` between a model search and
// the player it models.
package tests

import (
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/games"
)

// predictedReplies returns the moves of the "info string predicted reply" lines among lines.
func predictedReplies(lines []string) []string {
	var out []string
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "info string predicted reply "); ok {
			out = append(out, rest)
		}
	}
	return out
}

// checkPrediction fails the test unless lines predict a reply that is legal after best in pos.
func checkPrediction(p *proc, pos games.Position, best string, lines []string) {
	p.t.Helper()
	replies := predictedReplies(lines)
	if len(replies) == 0 {
		p.fatalf("no info string predicted reply before bestmove %s", best)
	}
	m, _ := legalMove(pos, best)
	pos.Play(m)
	defer pos.Undo()
	if _, ok := legalMove(pos, replies[len(replies)-1]); !ok {
		p.fatalf("predicted reply %s is not legal after %s", replies[len(replies)-1], best)
	}
}

func TestModelSearchesOverUCI(t *testing.T) {
	p := startDossier(t)
	lines := handshake(p)
	var search, model string
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "option name Search type combo "); ok {
			search = rest
		}
		if rest, ok := strings.CutPrefix(l, "option name OpponentModel type "); ok {
			model = rest
		}
	}
	for _, name := range []string{"alphabeta", "mstar", "mstar-1pass", "alphabeta-star", "mstar-strategy", "mstar-risk",
		"om", "prom", "meu", "symmetric"} {
		if !slices.Contains(strings.Fields(search), name) {
			t.Errorf("the Search option %q does not offer %s", search, name)
		}
	}
	if model != "string default <empty>" {
		t.Errorf("OpponentModel is %q, want a string option", model)
	}

	// Chess: PrOM with the three types.
	chessGame := newReplay(t, "chess")
	p.send("setoption name Search value prom",
		"setoption name OpponentModel value strongest:0.5,materialist:0.3,attacker:0.2",
		"ucinewgame", chessGame.positionCommand(), "go depth 3")
	best, before := bestMove(p, chessGame.pos, searchTimeout)
	if errs := errorLines(before); len(errs) > 0 {
		p.fatalf("errors: %q", errs)
	}
	checkPrediction(p, chessGame.pos, best, before)

	// Checkers: M* against mat-tot25 searching 3 plies, two moves of a game.
	game := newReplay(t, "checkers")
	p.send("setoption name UCI_Variant value checkers", "setoption name Preset value mat-tot25",
		"setoption name Search value mstar", "setoption name OpponentModel value mat-tot25@3", "ucinewgame")
	for range 2 {
		p.send(game.positionCommand(), "go depth 4")
		best, before := bestMove(p, game.pos, searchTimeout)
		if errs := errorLines(before); len(errs) > 0 {
			p.fatalf("errors: %q", errs)
		}
		checkPrediction(p, game.pos, best, before)
		game.play(p, best)
	}

	// A malformed model: an error naming the term, the engine still answers, with alpha-beta.
	p.send("setoption name OpponentModel value mat-tot25@x")
	errs := errorLines(ready(p))
	if len(errs) != 1 || !strings.Contains(errs[0], `term "mat-tot25@x": depth "x" is not a whole number`) {
		p.fatalf("malformed model: error lines %q", errs)
	}
	p.send(game.positionCommand(), "go depth 2")
	_, before = bestMove(p, game.pos, searchTimeout)
	errs = errorLines(before)
	if len(errs) == 0 || !strings.Contains(errs[0], "playing checkers mat-tot25 with alphabeta") {
		p.fatalf("search with a malformed model: error lines %q", errs)
	}
	ready(p)
	p.send("quit")
	if code := p.wait(promptTimeout); code != 0 {
		p.fatalf("exit code %d", code)
	}
}

func TestMatchModelSearchAgainstItsModel(t *testing.T) {
	sum := runMatch(t, 2*time.Minute, "--game", "checkers", "--games", "2", "--random-plies", "4", "--seed", "3",
		"--max-moves", "100", "--depth", "4",
		"--player1", "preset=mat-tot25 search=mstar model=mat-tot25@3", "--player2", "preset=mat-tot25")
	if sum.Games != 2 {
		t.Fatalf("%d games, want 2", sum.Games)
	}
	if sum.Players[0] != "mat-tot25 d4 mstar(mat-tot25@3)" {
		t.Errorf("player 1 is named %q", sum.Players[0])
	}
	t.Logf("%s vs %s: +%d =%d -%d", sum.Players[0], sum.Players[1], sum.Wins, sum.Draws, sum.Losses)

	_, stderr, code := runDossier(t, time.Minute, "", "match", "--game", "checkers", "--depth", "1",
		"--player1", "search=prom model='mat-tot25:0.5, mat+tot25:0.4'", "--player2", "depth=1")
	if code != 1 || !strings.Contains(stderr, "the probabilities sum to 0.9, want 1") {
		t.Errorf("a model whose probabilities do not sum to 1: exit %d, stderr %q", code, stderr)
	}
}
