// Several engine processes share one memory: the first owns the store and the others reach it through it;
// when the owner is killed (SIGKILL) in the middle of its games, another takes over, and every opponent move
// that an engine answered is in the store afterwards.

package tests

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
)

// engineGame is one engine process playing White against a random mover, with the opponent moves it answered.
type engineGame struct {
	p           *proc
	name        string
	pos         games.Position
	moves       []string
	rng         *rand.Rand
	answered    map[int]string // ply -> opponent move that a later bestmove answered
	pendingPly  int
	pendingMove string
}

// step asks the engine for a move in the current position, then plays a random reply; the reply before this
// search counts as answered once the bestmove arrives.
func (g *engineGame) step(t *testing.T) bool {
	g.p.send("position startpos moves "+strings.Join(g.moves, " "), "go depth 1")
	best, _ := g.p.expectPrefix(30*time.Second, "bestmove ")
	if g.pendingMove != "" {
		g.answered[g.pendingPly] = g.pendingMove
		g.pendingMove = ""
	}
	mine := strings.Fields(best)[1]
	m, err := g.pos.ParseMove(mine)
	if err != nil {
		t.Fatalf("%s: bestmove %q: %v", g.name, mine, err)
	}
	g.pos.Play(m)
	g.moves = append(g.moves, mine)
	if games.OutcomeOf(g.pos).Result.Over() {
		return false
	}
	var buf [games.MaxMoves]games.Move
	legal := g.pos.AppendMoves(buf[:0])
	reply := legal[g.rng.IntN(len(legal))]
	g.pendingPly, g.pendingMove = len(g.moves), g.pos.FormatMove(reply)
	g.pos.Play(reply)
	g.moves = append(g.moves, g.pendingMove)
	return !games.OutcomeOf(g.pos).Result.Over()
}

func TestMemorySharedByProcessesSurvivesTheOwnersDeath(t *testing.T) {
	if testing.Short() {
		t.Skip("four engine processes and a takeover: not in -short")
	}
	dir := filepath.Join(t.TempDir(), "memory")
	const engines = 4
	var players []*engineGame
	for i := 0; i < engines; i++ {
		p := startDossier(t, "--memory", dir, "--log-level", "info")
		name := fmt.Sprintf("player%d", i)
		p.send("uci", "setoption name UCI_Opponent value none none computer "+name, "ucinewgame", "isready")
		p.expectLine(30*time.Second, "readyok")
		players = append(players, &engineGame{p: p, name: name, pos: chess.Game{}.Start(),
			rng: rand.New(rand.NewPCG(uint64(i), 7)), answered: map[int]string{}})
	}
	owner := -1
	for i, g := range players {
		if strings.Contains(g.p.stderrText(), "serving other processes") {
			if owner >= 0 {
				t.Fatalf("two owners: %d and %d", owner, i)
			}
			owner = i
		}
	}
	if owner < 0 {
		t.Fatalf("no process owns the store; stderr of the first:\n%s", players[0].p.stderrText())
	}
	quit := make([]bool, engines) // whether quit was sent (a finished game quits at once)
	alive := make([]bool, engines)
	for i := range alive {
		alive[i] = true
	}
	play := func(rounds int) {
		for r := 0; r < rounds; r++ {
			for i, g := range players {
				if alive[i] && !g.step(t) {
					alive[i], quit[i] = false, true
					g.p.send("quit")
				}
			}
		}
	}
	play(5)
	players[owner].p.kill() // SIGKILL: no flush, no goodbye
	alive[owner] = false
	play(8)
	for i, g := range players {
		if i == owner {
			continue
		}
		if !quit[i] {
			g.p.send("quit")
		}
		if code := g.p.wait(30 * time.Second); code != 0 {
			t.Errorf("%s exited %d; stderr:\n%s", g.name, code, g.p.stderrText())
		}
	}
	took := 0
	for i, g := range players {
		if i != owner && strings.Contains(g.p.stderrText(), "serving other processes") {
			took++
		}
	}
	// One took over from the killed owner; another may take over from it when its game ends and it quits.
	if took < 1 {
		t.Error("no process took the store over")
	}

	m, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	checked := 0
	for _, g := range players {
		stored, err := m.Games(g.name)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if len(stored) != 1 {
			t.Fatalf("%s: %d games stored, want 1", g.name, len(stored))
		}
		have := map[int]string{}
		for _, r := range stored[0].Records {
			if r.ByOpponent {
				have[r.Ply] = r.Move
			}
		}
		for ply, move := range g.answered {
			checked++
			if have[ply] != move {
				t.Errorf("%s: the answered opponent move %s at ply %d is not in the store (%q there)", g.name, move, ply, have[ply])
			}
		}
	}
	t.Logf("%d answered opponent moves of %d processes checked; process %d owned the store and was killed", checked, engines, owner)
	if checked < 20 {
		t.Errorf("only %d answered moves checked", checked)
	}
}
