// Package review judges the moves of recorded chess games by a UCI engine's values at a fixed depth: each
// player's average centipawn loss, inaccuracies, mistakes and blunders, as lichess's analysis reports them.
package review

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"dossier/games"
	"dossier/games/chess"
	"dossier/internal/pgntext"
)

// The review's rules, in centipawns.
const (
	reviewClamp      = 1000 // values are clamped to +-reviewClamp, and a loss capped at it
	reviewDecided    = 500  // a position valued this much or more for either side is decided
	reviewInaccuracy = 50
	reviewMistake    = 100
	reviewBlunder    = 200
)

// PlayerReview is one player's figures over the games reviewed.
type PlayerReview struct {
	Name  string `json:"name"`
	Games int    `json:"games"`
	// Plies is the total length of the player's games in plies (both sides' moves).
	Plies int `json:"plies"`
	// Moves counts the player's moves that were judged (in positions not decided yet); Loss sums their
	// centipawn losses.
	Moves        int     `json:"moves"`
	Loss         float64 `json:"loss"`
	ACPL         float64 `json:"acpl"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// PositionValue is how All asks for the value of a game's position after ply plies, from the side to
// move there, in centipawns (mates as engine.MateScore minus plies).
type PositionValue func(g pgntext.ChessGame, ply int, pos games.Position) (float64, error)

// Blunder is one blunder found, for --blunders.
type Blunder struct {
	Game, Ply            int // numbered from 1
	White, Black, Player string
	SAN                  string
	Loss, Before         float64
}

// String is the blunder's line in --blunders' list.
func (b Blunder) String() string {
	return fmt.Sprintf("game %d (%s - %s), ply %d, %s %s: loses %.0f (%.0f before)", b.Game, b.White, b.Black, b.Ply,
		b.Player, b.SAN, b.Loss, b.Before)
}

// All values every position of every game and returns the players' figures, in order of first
// appearance; onBlunder, when not nil, is told every blunder.
func All(list []pgntext.ChessGame, value PositionValue, onBlunder func(Blunder)) ([]PlayerReview, error) {
	var players []PlayerReview
	index := map[string]int{}
	player := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(players)
			index[name] = i
			players = append(players, PlayerReview{Name: name})
		}
		return i
	}
	for n, g := range list {
		values, err := gameValues(g, value)
		if err != nil {
			return nil, fmt.Errorf("game %d (%s - %s): %w", n+1, g.White, g.Black, err)
		}
		sides := [2]int{player(g.White), player(g.Black)}
		for _, i := range sides {
			players[i].Games++
			players[i].Plies += len(g.Moves)
		}
		for ply := range g.Moves {
			loss, counts := MoveLoss(values[ply], values[ply+1])
			if !counts {
				continue
			}
			side := (int(g.Start.ToMove()) + ply) % 2
			pr := &players[sides[side]]
			pr.Moves++
			pr.Loss += loss
			switch {
			case loss >= reviewBlunder:
				pr.Blunders++
				if onBlunder != nil {
					q := g.Start.Clone()
					for _, m := range g.Moves[:ply] {
						q.Play(m)
					}
					onBlunder(Blunder{Game: n + 1, Ply: ply + 1, White: g.White, Black: g.Black, Player: pr.Name,
						SAN: q.(*chess.Position).SAN(g.Moves[ply]), Loss: loss, Before: values[ply]})
				}
			case loss >= reviewMistake:
				pr.Mistakes++
			case loss >= reviewInaccuracy:
				pr.Inaccuracies++
			}
		}
	}
	for i := range players {
		if players[i].Moves > 0 {
			players[i].ACPL = players[i].Loss / float64(players[i].Moves)
		}
	}
	return players, nil
}

// gameValues values the positions of a game, the start and after every move, each from its side to move,
// clamped: finished positions by the rules (a mate is -reviewClamp for the mated side, a draw 0), the others
// by value.
func gameValues(g pgntext.ChessGame, value PositionValue) ([]float64, error) {
	values := make([]float64, len(g.Moves)+1)
	p := g.Start.Clone()
	for ply := 0; ply <= len(g.Moves); ply++ {
		if ply > 0 {
			p.Play(g.Moves[ply-1])
		}
		if o := games.OutcomeOf(p); o.Result != games.Ongoing {
			if _, won := o.Result.Winner(); won {
				values[ply] = -reviewClamp // the side to move has lost
			}
			continue
		}
		v, err := value(g, ply, p.Clone())
		if err != nil {
			return nil, fmt.Errorf("ply %d: %w", ply, err)
		}
		values[ply] = clampValue(v)
	}
	return values, nil
}

// clampValue clamps a value to +-reviewClamp (mates included); NaN counts as 0.
func clampValue(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return max(-reviewClamp, min(v, reviewClamp))
}

// MoveLoss is the mover's loss from the value before its move (its side to move) to the value after it (the
// opponent to move), and whether the move counts: only in a position not decided yet.
func MoveLoss(before, after float64) (float64, bool) {
	if math.Abs(before) >= reviewDecided {
		return 0, false
	}
	return min(max(0, before+after), reviewClamp), true
}

// WriteTable prints the players' figures as a table.
func WriteTable(w io.Writer, players []PlayerReview, depth int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tgames\tavg length\tmoves judged\tACPL\tinaccuracies\tmistakes\tblunders\t")
	for _, p := range players {
		length := 0.0
		if p.Games > 0 {
			length = float64(p.Plies) / float64(p.Games) / 2
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%d\t%.1f\t%d\t%d\t%d\t\n", p.Name, p.Games, length, p.Moves, p.ACPL,
			p.Inaccuracies, p.Mistakes, p.Blunders)
	}
	tw.Flush()
	fmt.Fprintf(w, "depth %d; avg length in moves; a move counts when |value before| < %d cp; inaccuracy >= %d, mistake >= %d, blunder >= %d cp\n",
		depth, reviewDecided, reviewInaccuracy, reviewMistake, reviewBlunder)
}
