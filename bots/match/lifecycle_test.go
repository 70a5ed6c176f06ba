// In-process players are told the game's life cycle as a UCI session tells the engine: the opponent's name,
// each game's start, every opponent move once, the end with the result the match recorded, and close.

package match

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/play"
)

// lifecycleRecorder is a play.Engine that plays with a stand-in searcher and writes down the life cycle.
type lifecycleRecorder struct {
	play.Engine
	mu     sync.Mutex
	events []string
}

func (r *lifecycleRecorder) note(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf(format, args...))
}

func (r *lifecycleRecorder) SetOpponent(o play.Opponent) { r.note("opponent %s %s", o.Name, o.Source) }
func (r *lifecycleRecorder) StartGame(g play.GameStart) {
	r.note("start %s as %s (%s)", g.Game.Name(), g.OurSide, g.TimeControl)
}
func (r *lifecycleRecorder) ObserveMove(m play.ObservedMove) {
	r.note("observe %d %s", m.Ply, m.Before.FormatMove(m.Move))
}
func (r *lifecycleRecorder) GameOver(e play.GameEnd) {
	r.note("over %s %s after %d moves", e.Outcome.Result, e.Reason, len(e.Moves))
}
func (r *lifecycleRecorder) Close() error { r.note("close"); return nil }

func TestInProcessLifecycle(t *testing.T) {
	g := checkers.Game{}
	var recorders []*lifecycleRecorder
	cfg := quickConfig(g, mustSpec(t, "preset=material depth=2 name=A"), mustSpec(t, "preset=greedy depth=1 name=B"))
	cfg.Games, cfg.MaxMoves = 2, 30
	factory := cfg.NewSearcher
	cfg.NewSearcher = func(g games.Game, spec PlayerSpec) (InProcess, error) {
		built, err := factory(g, spec)
		if err == nil && spec.Name == "A" {
			rec := &lifecycleRecorder{Engine: built.Engine}
			recorders = append(recorders, rec)
			built.Engine = rec
		}
		return built, err
	}
	_, records := collect(t, cfg)
	if len(recorders) != 1 {
		t.Fatalf("%d players A built", len(recorders))
	}
	events := recorders[0].events
	var want []string
	for n := 1; n <= 2; n++ {
		rec := records[n]
		ours := rec.Player1
		want = append(want, "opponent B match", fmt.Sprintf("start checkers as %s (depth 2)", ours))
		p := rec.Start.Clone()
		for i, m := range rec.Moves {
			if p.ToMove() != ours {
				want = append(want, fmt.Sprintf("observe %d %s", i, p.FormatMove(m)))
			}
			p.Play(m)
		}
		reason := string(rec.Termination)
		want = append(want, fmt.Sprintf("over %s %s after %d moves", rec.Result, reason, len(rec.Moves)))
	}
	want = append(want, "close")
	if strings.Join(events, "\n") != strings.Join(want, "\n") {
		t.Errorf("life cycle\n%s\nwant\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
}
