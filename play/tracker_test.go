// Tests of the game tracker: each opponent move observed once, take-backs, and the end of the game inferred
// from the final position, in every game.

package play

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// recordingEngine writes down the life-cycle calls a tracker makes.
type recordingEngine struct {
	events []string
}

func (e *recordingEngine) Options() []Option      { return nil }
func (e *recordingEngine) NewGame(games.Game)     {}
func (e *recordingEngine) SetOpponent(o Opponent) {}
func (e *recordingEngine) TakeBack(keep int)      { e.add("takeback %d", keep) }
func (e *recordingEngine) Close() error           { return nil }
func (e *recordingEngine) add(f string, a ...any) { e.events = append(e.events, fmt.Sprintf(f, a...)) }
func (e *recordingEngine) StartGame(g GameStart)  { e.add("start %v", g.OurSide) }
func (e *recordingEngine) ObserveMove(m ObservedMove) {
	e.add("observe %d %s %v", m.Ply, m.Before.FormatMove(m.Move), m.Elapsed)
}
func (e *recordingEngine) GameOver(end GameEnd) {
	e.add("over %s %s after %d moves", end.Outcome.Result, end.Reason, len(end.Moves))
}
func (e *recordingEngine) Search(games.Position, *engine.Control, func(engine.Info)) engine.Result {
	return engine.Result{}
}

// parseMoves reads moves of g in its notation, played from start.
func parseMoves(t *testing.T, start games.Position, texts ...string) []games.Move {
	t.Helper()
	p := start.Clone()
	var moves []games.Move
	for _, text := range texts {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("move %s: %v", text, err)
		}
		p.Play(m)
		moves = append(moves, m)
	}
	return moves
}

// TestTrackerEnds plays each game to its end, the engine playing the first side and seeing the game move by
// move as a front end shows it, and checks what the engine was told: every opponent move once, and the
// outcome inferred from the final position.
func TestTrackerEnds(t *testing.T) {
	tests := []struct {
		name  string
		game  games.Game
		fen   string // "" for the start position
		moves []string
		want  string // the GameOver event
	}{
		{"chess: mate", chess.Game{}, "", []string{"f2f3", "e7e5", "g2g4", "d8h4"},
			"over 0-1 checkmate after 4 moves"},
		{"chess: a draw rule (repetition)", chess.Game{}, "",
			[]string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"},
			"over 1/2-1/2 threefold repetition after 8 moves"},
		{"checkers: no moves", checkers.Game{}, "W:W22:B18", []string{"22x15"},
			"over 0-1 no legal move after 1 moves"},
		{"connect4: a line", connect4.Game{}, "", []string{"P@a1", "P@b1", "P@a2", "P@b2", "P@a3", "P@b3", "P@a4"},
			"over 1-0 line completed after 7 moves"},
		{"tictactoe: unfinished", tictactoe.Game{}, "", []string{"b2", "a1"},
			"over * unknown after 2 moves"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := tc.game.Start()
			if tc.fen != "" {
				var err error
				if start, err = tc.game.ParsePosition(tc.fen); err != nil {
					t.Fatal(err)
				}
			}
			moves := parseMoves(t, start, tc.moves...)
			eng := &recordingEngine{}
			tracker := NewTracker(eng, nil)
			ours := start.ToMove()
			tracker.Start(GameStart{Game: tc.game, OurSide: ours, Start: start})
			var wantObserved []string
			p := start.Clone()
			for i, m := range moves {
				// The front end shows the game so far at each of our moves, and again at the end.
				if p.ToMove() == ours {
					tracker.Observe(moves, i, ours, -1)
					tracker.Observe(moves, i, ours, -1)
					tracker.Played(i + 1)
				} else {
					wantObserved = append(wantObserved, fmt.Sprintf("observe %d %s -1ns", i, p.FormatMove(m)))
				}
				p.Play(m)
			}
			end, ok := tracker.End(moves, games.NoMove, nil)
			want := append(append([]string{"start " + ours.String()}, wantObserved...), tc.want)
			if !ok || !slices.Equal(eng.events, want) {
				t.Errorf("events\n%s\nwant\n%s", strings.Join(eng.events, "\n"), strings.Join(want, "\n"))
			}
			if len(end.Moves) != len(moves) {
				t.Errorf("the end has %d moves, want %d", len(end.Moves), len(moves))
			}
			if _, again := tracker.End(moves, games.NoMove, nil); again {
				t.Errorf("a second End reported the game over again")
			}
		})
	}
}

// TestTrackerLifeCycle checks take-backs, the elapsed time of the last observed move, the engine's last move
// that ended the game without the front end passing it, and a verdict that differs from the position's.
func TestTrackerLifeCycle(t *testing.T) {
	start := chess.Game{}.Start()
	fools := parseMoves(t, start, "f2f3", "e7e5", "g2g4", "d8h4")
	tests := []struct {
		name string
		run  func(*Tracker)
		want []string
	}{
		{"a take-back observes the replaced moves again", func(tr *Tracker) {
			tr.Start(GameStart{OurSide: games.Second, Start: start})
			tr.Observe(fools, 1, games.Second, 2*time.Second)
			tr.Played(2)
			tr.TakeBack(0)
			tr.Observe(fools, 3, games.Second, -1)
		}, []string{"start second", "observe 0 f2f3 2s", "takeback 0", "observe 0 f2f3 -1ns", "observe 2 g2g4 -1ns"}},
		{"a take-back before the start is not told", func(tr *Tracker) {
			tr.TakeBack(0)
			tr.Observe(fools, 2, games.Second, -1)
		}, nil},
		{"our last move, not passed back, ends the game", func(tr *Tracker) {
			tr.Start(GameStart{OurSide: games.Second, Start: start})
			tr.Observe(fools, 3, games.Second, -1)
			tr.End(fools[:3], fools[3], nil)
		}, []string{"start second", "observe 0 f2f3 -1ns", "observe 2 g2g4 -1ns", "over 0-1 checkmate after 4 moves"}},
		{"a verdict that agrees keeps the rule, its words replace the reason", func(tr *Tracker) {
			tr.Start(GameStart{OurSide: games.Second, Start: start})
			tr.End(fools, games.NoMove, &Verdict{Result: games.SecondWins, Reason: "Black mates"})
		}, []string{"start second", "observe 0 f2f3 -1ns", "observe 2 g2g4 -1ns", "over 0-1 Black mates after 4 moves"}},
		{"a verdict that differs is taken bare", func(tr *Tracker) {
			tr.Start(GameStart{OurSide: games.First, Start: start})
			tr.End(fools[:2], games.NoMove, &Verdict{Result: games.Draw})
		}, []string{"start first", "observe 1 e7e5 -1ns", "over 1/2-1/2 unknown after 2 moves"}},
		{"a forgotten game is not ended", func(tr *Tracker) {
			tr.Start(GameStart{OurSide: games.First, Start: start})
			tr.Forget()
			tr.End(fools, games.NoMove, nil)
		}, []string{"start first"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eng := &recordingEngine{}
			tracker := NewTracker(eng, nil)
			tc.run(&tracker)
			if !slices.Equal(eng.events, tc.want) {
				t.Errorf("events\n%s\nwant\n%s", strings.Join(eng.events, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestTrackerGuard: every call into the engine goes through the guard, which names it.
func TestTrackerGuard(t *testing.T) {
	var calls []string
	tracker := NewTracker(&recordingEngine{}, func(what string, call func()) {
		calls = append(calls, what)
		call()
	})
	start := tictactoe.Game{}.Start()
	moves := parseMoves(t, start, "b2", "a1")
	tracker.Start(GameStart{OurSide: games.Second, Start: start})
	tracker.Observe(moves, 1, games.Second, -1)
	tracker.TakeBack(0)
	tracker.End(moves, games.NoMove, nil)
	if want := []string{"StartGame", "ObserveMove", "TakeBack", "ObserveMove", "GameOver"}; !slices.Equal(calls, want) {
		t.Errorf("calls %q, want %q", calls, want)
	}
}
