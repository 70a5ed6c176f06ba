// kill -9 in the middle of a game: the test binary re-executed as a Player that plays black through a
// play.Tracker, as a UCI or CECP session tells it the game, and never sees the game's end. Whatever of the
// game was filed must replay from its start position (issue #34, item 9: only the opponent's moves were filed
// as they came, so a game cut off had white's moves one after another and `dossier memory games` failed).

package player

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
	"dossier/play"
)

// envUnfinishedWorker names the memory directory of the helper process; set only in it.
const envUnfinishedWorker = "DOSSIER_UNFINISHED_WORKER_DIR"

// TestUnfinishedGameWorker is not a test: re-executed with envUnfinishedWorker set, it is a Player with black
// in killedGame, told each move as a session tells it (the opponent's observed, ours played), printing
// "ply N" after each and "acked" once the memory acknowledged them all; then it waits to be killed. The
// game never ends.
func TestUnfinishedGameWorker(t *testing.T) {
	dir, g, p := workerPlayer(t, envUnfinishedWorker, "TestKillNineMidGameLeavesAReplayableGame")
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	p.SetOpponent(play.Opponent{Name: "rival", Source: "match"})
	p.NewGame(g)
	tracker := play.NewTracker(p, nil)
	tracker.Start(play.GameStart{Game: g, OurSide: games.Second, Start: g.Start()})
	pos := g.Start()
	var moves []games.Move
	for i, text := range killedGame {
		m, err := pos.ParseMove(text)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		moves = append(moves, m)
		pos.Play(m)
		if pos.ToMove() == games.Second { // white's move, the opponent's
			tracker.Observe(moves, len(moves), games.Second, -1)
		} else {
			tracker.Played(len(moves))
		}
		fmt.Println("ply", i+1)
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.Memory().Flush(context.Background()); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("acked")
	time.Sleep(time.Hour)
}

// TestKillNineMidGameLeavesAReplayableGame kills the helper during the game and once every move was
// acknowledged: the stored game's moves are always a beginning of the game played, and they replay from its
// start; once acknowledged they are every move an opponent's move followed (ours last, with no reply yet, is
// not known to be played).
func TestKillNineMidGameLeavesAReplayableGame(t *testing.T) {
	if testing.Short() {
		t.Skip("runs helper processes")
	}
	for _, moment := range []string{"ply 3", "ply 8", "ply 12", "acked"} {
		t.Run(moment, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory")
			cmd, lines := startWorker(t, "^TestUnfinishedGameWorker$", envUnfinishedWorker+"="+dir)
			await(t, lines, moment)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			_, stored, err := storedRival(t, dir)
			if err != nil {
				if moment == "acked" {
					t.Fatal(err)
				}
				return // killed before the opponent was filed
			}
			for _, g := range stored {
				if !slices.Equal(g.Moves, killedGame[:len(g.Moves)]) {
					t.Errorf("stored moves %v, want a beginning of %v", g.Moves, killedGame)
				}
				if err := replays(g); err != nil {
					t.Errorf("the stored game does not replay: %v (moves %v)", err, g.Moves)
				}
			}
			if moment == "acked" {
				if len(stored) != 1 || !slices.Equal(stored[0].Moves, killedGame[:len(killedGame)-1]) {
					t.Fatalf("%d games stored, the first with moves %v; want one with %v", len(stored),
						firstMoves(stored), killedGame[:len(killedGame)-1])
				}
			}
		})
	}
}

// replays plays a stored chess game's moves from its start position, as `dossier memory games` does.
func replays(g memory.Game) error {
	pos, err := chess.Game{}.ParsePosition(g.StartFEN)
	if err != nil {
		return err
	}
	for i, text := range g.Moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			return fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		pos.Play(m)
	}
	return nil
}

// firstMoves returns the moves of the first stored game, nil when none is.
func firstMoves(stored []memory.Game) []string {
	if len(stored) == 0 {
		return nil
	}
	return stored[0].Moves
}

// TestOurMovesAreFiledAsPlayed plays white through a play.Tracker with take-backs of one and of two plies
// (CECP's undo and remove) before the game ends unseen: the stored moves, read from the move records, are the
// game as it stands, ours included, and replay from the start.
func TestOurMovesAreFiledAsPlayed(t *testing.T) {
	g := chess.Game{}
	p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.SetOpponent(play.Opponent{Name: "rival", Source: "match"})
	p.NewGame(g)
	tracker := play.NewTracker(p, nil)
	tracker.Start(play.GameStart{Game: g, OurSide: games.First, Start: g.Start()})
	var moves []games.Move
	play1 := func(texts ...string) {
		for _, text := range texts {
			pos := g.Start()
			for _, m := range moves {
				pos.Play(m)
			}
			m, err := pos.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, m)
			if pos.ToMove() == games.First {
				tracker.Played(len(moves))
			} else {
				tracker.Observe(moves, len(moves), games.First, -1)
			}
		}
	}
	takeBack := func(keep int) {
		moves = moves[:keep]
		tracker.TakeBack(keep)
	}
	play1("e2e4", "e7e5", "g1f3", "b8c6")
	takeBack(2) // remove: our g1f3 and its reply
	play1("f1c4", "g8f6", "d2d3")
	takeBack(4) // undo: our d2d3, which no reply followed
	play1("b1c3", "f8c5", "g1f3", "d7d6")
	if err := p.Memory().Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	stored, err := p.Memory().Games("rival")
	if err != nil || len(stored) != 1 {
		t.Fatalf("%d games, %v", len(stored), err)
	}
	want := []string{"e2e4", "e7e5", "f1c4", "g8f6", "b1c3", "f8c5", "g1f3", "d7d6"}
	if !slices.Equal(stored[0].Moves, want) {
		t.Errorf("stored moves %v, want %v", stored[0].Moves, want)
	}
	if err := replays(stored[0]); err != nil {
		t.Error(err)
	}
}
