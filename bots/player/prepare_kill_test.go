// kill -9 during the preparation after a game: the test binary re-executed as a Player that plays two games and
// prepares for the next, killed at moments spread over the preparation; the acknowledged games are always there
// after, and every prepared entry that was filed is whole (each finding is one event).

package player

import (
	"testing"

	"dossier/bots/prepare"
	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
)

// envPrepareWorker names the memory directory of the helper process; set only in it.
const envPrepareWorker = "DOSSIER_PREPARE_WORKER_DIR"

// preparedGames are the helper's two games as White through 1.e4 e5: the start and the position after 1...e5
// are the repertoire it prepares.
var preparedGames = []struct {
	result games.Result
	moves  []string
}{
	{games.FirstWins, []string{"e2e4", "e7e5", "g1f3", "b8c6"}},
	{games.Draw, []string{"e2e4", "e7e5", "f1c4", "f8c5"}},
}

// TestPrepareWorker is not a test: re-executed with envPrepareWorker set, it is a Player that plays
// preparedGames with 4 s of preparation, prints "acked" once the memory acknowledged both games, "prepared" once
// the analysis and the preparation are filed, and then waits to be killed.
func TestPrepareWorker(t *testing.T) {
	dir, g, p := workerPlayer(t, envPrepareWorker, "TestKillNineDuringThePreparation")
	p.analysisDepth = 2 // the analysis is quick, the preparation takes the time
	p.setPrepareSeconds(4)
	p.setBackgroundNice(0)
	workAndWait(p, dir, "prepared", func() {
		for i, pg := range preparedGames {
			if i > 0 {
				p.analyst.wait() // the first game's analysis files its positions first, as in an arena's pause
			}
			playedGame(t, p, g, pg.result, pg.moves...)
		}
	})
}

// storedPreparation reads the helper's games and its prepared entries from the memory dir, failing on a game
// that is not whole or an entry that does not read.
func storedPreparation(t *testing.T, dir string) []memory.Experience {
	t.Helper()
	m, stored, err := storedRival(t, dir)
	if err != nil || len(stored) != len(preparedGames) {
		t.Fatalf("games %+v, %v; want the %d acknowledged", stored, err, len(preparedGames))
	}
	for i, game := range stored {
		if len(game.Moves) != len(preparedGames[i].moves) {
			t.Errorf("game %d: %d moves, want %d", i+1, len(game.Moves), len(preparedGames[i].moves))
		}
	}
	entries, err := m.Experience("rival", "chess")
	if err != nil {
		t.Fatal(err)
	}
	var prepared []memory.Experience
	for _, e := range entries {
		if e.OpponentKey != "rival" || !prepare.IsPreparation(e.GameID) {
			continue
		}
		prepared = append(prepared, e)
		pos, err := chess.Game{}.ParsePosition(e.FEN)
		if err != nil {
			t.Errorf("a prepared entry's position %q: %v", e.FEN, err)
			continue
		}
		if _, err := pos.ParseMove(e.Move); err != nil || e.Depth <= 0 || e.Version != memory.ExperienceVersion {
			t.Errorf("a prepared entry is not whole: %+v (%v)", e, err)
		}
	}
	return prepared
}

func TestKillNineDuringThePreparation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs helper processes")
	}
	var ref int
	var counts []int
	killAtMoments(t, "^TestPrepareWorker$", envPrepareWorker, "prepared", func(refDir string) {
		if ref = len(storedPreparation(t, refDir)); ref != 2 {
			t.Fatalf("the finished preparation filed %d entries, want the repertoire's 2", ref)
		}
	}, func(t *testing.T, dir string) {
		prepared := storedPreparation(t, dir)
		if len(prepared) > ref {
			t.Errorf("%d prepared entries, more than the finished preparation's %d", len(prepared), ref)
		}
		counts = append(counts, len(prepared))
	})
	t.Logf("prepared entries filed by the killed helpers, from the earliest kill: %v", counts)
}
