// Contempt from the dossier: what a draw should cost against an opponent, from our results against it.

package learn

import (
	"fmt"
	"math"
)

// contemptPrior is how many games of an even score the estimate starts from, so that the first results move
// it little.
const contemptPrior = 4

// maxContemptShare bounds the contempt, as a share of the game's unit (a pawn, a man): half a pawn in chess.
const maxContemptShare = 0.5

// Contempt is the contempt the dossier sets against an opponent, and why.
type Contempt struct {
	// Value is what a draw costs the searching side, in the game's evaluation units: positive against an
	// opponent we outscore (a draw gives away what we would likely win), negative against a stronger one.
	Value float64
	// Games, Score and Elo are what it rests on: the games counted, our score in them, and the Elo
	// advantage the score shrunk towards even by contemptPrior games says; DrawRate the share of draws.
	Games    int
	Score    float64
	Elo      float64
	DrawRate float64
}

// ContemptFromResults returns the contempt against an opponent of our wins, draws and losses, in a game
// whose unit is unit evaluation units: the Elo advantage our score says (shrunk towards even), a quarter of
// a unit per 100 Elo, made larger by the share of draws (a drawish opponent we outscore is one to keep
// playing against), and bounded by half a unit either way. No games give no contempt.
func ContemptFromResults(wins, draws, losses int, unit float64) Contempt {
	n := wins + draws + losses
	if n <= 0 || wins < 0 || draws < 0 || losses < 0 {
		return Contempt{}
	}
	points := float64(wins) + float64(draws)/2
	shrunk := (points + contemptPrior/2.0) / (float64(n) + contemptPrior)
	elo := -400 * math.Log10(1/shrunk-1)
	drawRate := float64(draws) / float64(n)
	share := max(-maxContemptShare, min(maxContemptShare, elo/400*(1+drawRate)))
	return Contempt{Value: math.Round(share * unit), Games: n, Score: points / float64(n), Elo: elo, DrawRate: drawRate}
}

// String says the contempt and what it rests on, for an info string.
func (c Contempt) String() string {
	return fmt.Sprintf("contempt %+.0f from the dossier: %d games, %.0f%% (%+.0f Elo), %.0f%% draws", c.Value,
		c.Games, 100*c.Score, c.Elo, 100*c.DrawRate)
}
