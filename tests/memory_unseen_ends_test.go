// Game ends a UCI engine never sees, as lichess-bot plays them, in the memory that `dossier memory show`
// reads: a mate against us that the GUI never sends, and a game that ends while we ponder (issue #34).

package tests

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMemoryFilesUnseenEnds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	p := startDossier(t, "--memory", dir)
	p.send("uci")
	p.expectLine(10*time.Second, "uciok")
	p.send("setoption name UCI_Opponent value BOT 2000 computer Unseen Ends", "setoption name Ponder value true")

	// We (White) have only king moves, each met by Rb1#; the GUI never sends the mate, the next game starts.
	p.send("ucinewgame", "isready")
	p.expectLine(10*time.Second, "readyok")
	p.send("position fen "+matedNextFEN, "go depth 2")
	p.expectPrefix(30*time.Second, "bestmove ")

	// We (Black) answer e2e4, ponder on the guess g1f3, and the opponent resigns: stop, then the next game.
	p.send("ucinewgame", "isready")
	p.expectLine(10*time.Second, "readyok")
	p.send("position startpos moves e2e4", "go wtime 60000 btime 60000")
	best, _ := p.expectPrefix(30*time.Second, "bestmove ")
	ours := strings.Fields(best)[1]
	p.send("position startpos moves e2e4 "+ours+" g1f3", "go ponder wtime 59000 btime 59500")
	time.Sleep(100 * time.Millisecond)
	p.send("stop")
	p.expectPrefix(30*time.Second, "bestmove ")
	p.send("ucinewgame", "isready")
	p.expectLine(10*time.Second, "readyok")
	p.send("quit")
	if code := p.wait(30 * time.Second); code != 0 {
		t.Fatalf("dossier exited %d", code)
	}

	games := showMemory(t, dir, "Unseen Ends").Profile.Games
	if len(games) != 2 {
		t.Fatalf("%d games stored, want 2: %+v", len(games), games)
	}
	if g := games[0]; g.OurSide != 0 || g.Result != "0-1" || g.OurScore != 0 || g.Plies != 1 ||
		!strings.HasPrefix(g.Reason, "checkmate (inferred: ") {
		t.Errorf("the mate the GUI never sent: %+v, want a loss after our one move, inferred", g)
	}
	if g := games[1]; g.OurSide != 1 || g.Result != "*" || g.Plies != 2 {
		t.Errorf("the game that ended while we pondered: %+v, want 2 plies (e2e4 and ours, not the guess)", g)
	}
}
