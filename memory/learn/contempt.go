// Contempt from the dossier: what a draw should cost against an opponent, from our results against it and the
// ratings a front end sends.

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
	// advantage the score shrunk towards the prior by contemptPrior games says; DrawRate the share of draws.
	Games    int
	Score    float64
	Elo      float64
	DrawRate float64
	// Rating is our rating advantage as the front end sent it, when HasRating.
	Rating    float64
	HasRating bool
}

// Rating is our rating minus the opponent's as a front end sent them; Known is false when it sent none.
type Rating struct {
	Advantage float64
	Known     bool
}

// ContemptFromResults returns the contempt against an opponent of our wins, draws and losses, in a game
// whose unit is unit evaluation units: the Elo advantage our score says, shrunk towards the rating advantage
// (even when no rating is known) as if contemptPrior games had been played at the score it expects, a
// quarter of a unit per 100 Elo, made larger by the share of draws (a drawish opponent we outscore is one to
// keep playing against), and bounded by half a unit either way. No games and no rating give no contempt.
func ContemptFromResults(wins, draws, losses int, unit float64, rating Rating) Contempt {
	n := wins + draws + losses
	if wins < 0 || draws < 0 || losses < 0 || n == 0 && !rating.Known {
		return Contempt{}
	}
	expected := 0.5
	if rating.Known {
		expected = 1 / (1 + math.Pow(10, -rating.Advantage/400))
	}
	points := float64(wins) + float64(draws)/2
	shrunk := (points + contemptPrior*expected) / (float64(n) + contemptPrior)
	shrunk = min(max(shrunk, 1e-6), 1-1e-6) // a rating of ±2,400 or more says no more than this
	elo := -400 * math.Log10(1/shrunk-1)
	var drawRate, score float64
	if n > 0 {
		drawRate, score = float64(draws)/float64(n), points/float64(n)
	}
	share := max(-maxContemptShare, min(maxContemptShare, elo/400*(1+drawRate)))
	return Contempt{Value: math.Round(share * unit), Games: n, Score: score, Elo: elo, DrawRate: drawRate,
		Rating: rating.Advantage, HasRating: rating.Known}
}

// String says the contempt and what it rests on, for an info string.
func (c Contempt) String() string {
	if c.Games == 0 {
		return fmt.Sprintf("contempt %+.0f from the dossier: no games yet, rating %+.0f", c.Value, c.Rating)
	}
	s := fmt.Sprintf("contempt %+.0f from the dossier: %d games, %.0f%% (%+.0f Elo), %.0f%% draws", c.Value,
		c.Games, 100*c.Score, c.Elo, 100*c.DrawRate)
	if c.HasRating {
		s += fmt.Sprintf(", rating %+.0f", c.Rating)
	}
	return s
}
