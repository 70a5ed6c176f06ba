// A memory that knows nothing of an opponent changes nothing: through the built binary, the first game against a
// new opponent is played move for move and node for node as without memory, in both colours.

package tests

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/chess"
)

// TestFreshMemoryPlaysAsWithout plays the same game twice, at a fixed node count against a weaker dossier
// without memory (2,000 nodes a move, so deterministic), once with an empty memory and once without one, and asks for the same searches: the same best
// move, score and node count at every move. Whatever the memory does in a game it has learned nothing for
// (filing moves, learning the opponent, Search auto's choice, the background work between games) must not
// touch the search; the experiment's "clean" games (docs/log/experiments.md) rely on it.
func TestFreshMemoryPlaysAsWithout(t *testing.T) {
	for _, white := range []bool{true, false} {
		t.Run(fmt.Sprintf("white=%v", white), func(t *testing.T) {
			without := playSeeded(t, white, "--no-memory")
			with := playSeeded(t, white, "--memory", filepath.Join(t.TempDir(), "memory"))
			if len(with) != len(without) {
				t.Fatalf("%d searches with the memory, %d without", len(with), len(without))
			}
			for i := range with {
				if with[i] != without[i] {
					t.Fatalf("search %d: with the memory %q, without %q", i+1, with[i], without[i])
				}
			}
			t.Logf("%d searches the same, the last %q", len(with), with[len(with)-1])
		})
	}
}

// playSeeded plays one game of dossier (started with args) against dossier without memory at 2,000 nodes a
// move, dossier with White or Black, at 20,000 nodes a move, for at most 24 of its moves, and returns each search as "bestmove, the
// last info's score and nodes".
func playSeeded(t *testing.T, white bool, args ...string) []string {
	p := startDossier(t, args...)
	p.send("uci", "setoption name UCI_Opponent value none none computer weakerdossier", "ucinewgame", "isready")
	p.expectLine(30*time.Second, "readyok")
	opp := startDossier(t, "--no-memory")
	opp.send("uci", "ucinewgame", "isready")
	opp.expectLine(30*time.Second, "readyok")
	pos := chess.Game{}.Start()
	var moves, searches []string
	reply := func() {
		opp.send("position startpos moves "+strings.Join(moves, " "), "go nodes 2000")
		line, _ := opp.expectPrefix(60*time.Second, "bestmove ")
		best := strings.Fields(line)[1]
		m, err := pos.ParseMove(best)
		if err != nil {
			t.Fatalf("the opponent's bestmove %q: %v", best, err)
		}
		moves = append(moves, best)
		pos.Play(m)
	}
	if !white {
		reply()
	}
	for len(searches) < 24 && !games.OutcomeOf(pos).Result.Over() {
		p.send("position startpos moves "+strings.Join(moves, " "), "go nodes 20000")
		line, skipped := p.expectPrefix(60*time.Second, "bestmove ")
		best := strings.Fields(line)[1]
		last := ""
		for _, s := range skipped {
			if f := strings.Fields(s); len(f) > 0 && f[0] == "info" && strings.Contains(s, " nodes ") {
				last = infoField(f, "score") + " nodes " + infoField(f, "nodes")
			}
		}
		searches = append(searches, best+" "+last)
		m, err := pos.ParseMove(best)
		if err != nil {
			t.Fatalf("bestmove %q: %v", best, err)
		}
		pos.Play(m)
		moves = append(moves, best)
		if games.OutcomeOf(pos).Result.Over() {
			break
		}
		reply()
	}
	p.send("quit")
	p.wait(30 * time.Second)
	opp.send("quit")
	opp.wait(30 * time.Second)
	return searches
}

// infoField returns the words after key in an info line's fields (two for score: "cp 31"), "" when absent.
func infoField(f []string, key string) string {
	for i, w := range f {
		if w != key || i+1 >= len(f) {
			continue
		}
		if key == "score" && i+2 < len(f) {
			return f[i+1] + " " + f[i+2]
		}
		return f[i+1]
	}
	return ""
}
