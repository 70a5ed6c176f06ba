package openingbook

import (
	"math/rand/v2"
	"testing"

	"dossier/games"
)

// shares draws ChooseAgainst n times and returns how often each move was chosen and how often as a new line.
func shares(t *testing.T, moves []Move, records map[games.Move]Record, prior float64, n int) (map[games.Move]float64, float64) {
	t.Helper()
	return sharesWith(t, moves, records, nil, prior, n)
}

// sharesWith is shares with our records against every other opponent.
func sharesWith(t *testing.T, moves []Move, records, everyone map[games.Move]Record, prior float64, n int) (map[games.Move]float64, float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	counts := map[games.Move]float64{}
	fresh := 0.0
	for i := 0; i < n; i++ {
		c, ok := ChooseAgainst(moves, records, everyone, prior, rng)
		if !ok {
			t.Fatal("no move chosen")
		}
		counts[c.Move.Move] += 1.0 / float64(n)
		if c.New {
			fresh += 1.0 / float64(n)
			if _, played := records[c.Move.Move]; played {
				t.Fatalf("move %d chosen as new but played before", c.Move.Move)
			}
		}
	}
	return counts, fresh
}

func TestChooseAgainstWithoutRecordsDrawsEveryBookMoveAlike(t *testing.T) {
	moves := []Move{{Move: 1, Weight: 70}, {Move: 2, Weight: 30}, {Move: 3, Weight: 0}}
	got, fresh := shares(t, moves, nil, 0.5, 20000)
	if fresh < 0.999 || got[1] < 0.485 || got[1] > 0.515 || got[3] != 0 {
		t.Fatalf("shares %v (new %.3f): want 1 and 2 alike, whatever their weights, never the move of weight 0", got, fresh)
	}
}

func TestChooseAgainstReplaysWhatWonAndLeavesWhatLost(t *testing.T) {
	moves := []Move{{Move: 1, Weight: 50}, {Move: 2, Weight: 30}, {Move: 3, Weight: 20}}
	// Won 1 of 1: played again every time, however many lines are new.
	won, _ := shares(t, moves, map[games.Move]Record{3: {Games: 1, Points: 1}}, 0.5, 2000)
	if won[3] < 0.999 {
		t.Errorf("a line that won its one game played %.3f of the time: want always", won[3])
	}
	// Two lines that won every game: the one of more games; of as many, the heavier in the book.
	more, _ := shares(t, moves, map[games.Move]Record{2: {Games: 3, Points: 3}, 3: {Games: 4, Points: 4}}, 0.5, 200)
	heavier, _ := shares(t, moves, map[games.Move]Record{2: {Games: 2, Points: 2}, 3: {Games: 2, Points: 2}}, 0.5, 200)
	if more[3] < 0.999 || heavier[2] < 0.999 {
		t.Errorf("of two lines that won every game: %v (3 of 3 against 4 of 4), %v (2 of 2 each): want 4 of 4, then the weight 30", more, heavier)
	}
	// Lost 3 of 3: its arm is Beta(1, 4) against the new lines' Beta(1, 1), so it wins the draw with the
	// probability of its mean, a fifth.
	lost, fresh := shares(t, moves, map[games.Move]Record{1: {Games: 3, Points: 0}}, 0.5, 20000)
	if lost[1] < 0.18 || lost[1] > 0.22 || fresh < 0.78 {
		t.Errorf("a line that lost 3 of 3 played %.3f of the time (new lines %.3f): want it left", lost[1], fresh)
	}
	// The new lines are drawn alike, not by the book's 30 to 20.
	if ratio := lost[2] / lost[3]; ratio < 0.9 || ratio > 1.1 {
		t.Errorf("new lines drawn %.3f to %.3f: want them alike", lost[2], lost[3])
	}
	// A line that drew is no longer one that won every game: Thompson sampling again. Won 4 of 5 with a draw:
	// Beta(5.5, 1.5) against the new lines' Beta(1, 1), played with the probability of its mean, 11/14.
	drew, _ := shares(t, moves, map[games.Move]Record{1: {Games: 5, Points: 4.5}}, 0.5, 20000)
	if drew[1] < 0.77 || drew[1] > 0.80 {
		t.Errorf("a line of 4.5 points in 5 games played %.3f of the time: want 11/14", drew[1])
	}
	// Once every move is played, the best record is played most, the others still sometimes.
	all, fresh := shares(t, moves, map[games.Move]Record{1: {Games: 4, Points: 1}, 2: {Games: 4, Points: 3.5}, 3: {Games: 4, Points: 2}}, 0.5, 20000)
	if fresh != 0 || all[2] < 0.6 || all[1] > all[3] || all[1] == 0 {
		t.Errorf("shares %v (new %.3f): want the 3.5 of 4 most, then 2 of 4, then 1 of 4, each sometimes", all, fresh)
	}
}

func TestChooseAgainstNeverPlaysAMoveOfWeightZero(t *testing.T) {
	moves := []Move{{Move: 1, Weight: 0}, {Move: 2, Weight: 10}}
	got, _ := shares(t, moves, map[games.Move]Record{1: {Games: 9, Points: 9}}, 0.5, 2000)
	if got[1] != 0 {
		t.Fatalf("a move of weight 0 played %.3f of the time", got[1])
	}
	if _, ok := ChooseAgainst([]Move{{Move: 1}}, nil, nil, 0.5, rand.New(rand.NewPCG(1, 1))); ok {
		t.Fatal("a choice among moves of weight 0")
	}
}

func TestChooseAgainstTriesNewLinesByOurResultsAgainstEveryOtherOpponent(t *testing.T) {
	moves := []Move{{Move: 1, Weight: 70}, {Move: 2, Weight: 30}, {Move: 3, Weight: 10}}
	// Against this opponent nothing yet; against the others move 2 scored 9 of 10, move 1 1 of 10, move 3
	// never played: priors of mean 10/12, 2/12 and 1/2, each over two games.
	everyone := map[games.Move]Record{1: {Games: 10, Points: 1}, 2: {Games: 10, Points: 9}}
	got, fresh := sharesWith(t, moves, nil, everyone, 0.5, 20000)
	if fresh < 0.999 || got[2] < 0.5 || got[1] > 0.15 || !(got[2] > got[3] && got[3] > got[1]) {
		t.Fatalf("shares %v: want the move that scored against the others most, the one never played next, the one "+
			"that lost least", got)
	}
	// A line played against this opponent keeps the others' record in its prior: lost once here, 9 of 10 there,
	// its arm is Beta(10/6, 1/3 + 1) against the new lines' best prior, Beta(1, 1).
	played, _ := sharesWith(t, moves, map[games.Move]Record{2: {Games: 1}}, everyone, 0.5, 20000)
	alone, _ := shares(t, moves, map[games.Move]Record{2: {Games: 1}}, 0.5, 20000)
	if played[2] < alone[2]+0.1 {
		t.Fatalf("a line lost once here but won 9 of 10 against the others played %.3f of the time, %.3f without "+
			"the others: want more", played[2], alone[2])
	}
	// The choice says the others' record of a new line it drew.
	c, ok := ChooseAgainst(moves[1:2], nil, everyone, 0.5, rand.New(rand.NewPCG(1, 1)))
	if !ok || !c.New || c.Everyone != everyone[2] {
		t.Fatalf("choice %+v: want move 2, new, with the others' record", c)
	}
}
