// The calibration of UCI_Elo: the handicap, in pawns, that plays at each rating, and its inverse.
package learn

// The UCI_Elo range: the calibration table's ends.
const (
	MinElo = 1000
	MaxElo = 2600
)

// eloTable is the calibration of UCI_Elo: the handicap (in pawns, times the game's unit) that plays at
// each rating, interpolated linearly in between. The way to measure it is the ladder (tests/ladder.sh):
// the handicap the even mode settles at against Stockfish at UCI_Elo X is the handicap that scores 50%
// against X. docs/even-game.md gives what was measured; the entries not measured there are a
// first guess, monotone between the measured ones.
var eloTable = []struct {
	elo      int
	handicap float64
}{
	{MinElo, 2.0},
	{1350, 1.38}, // measured: the mean handicap of the last 20 of 40 even games against Stockfish 1350
	{1600, 0.36}, // measured: the same against Stockfish 1600
	{1800, 0.20}, // measured the same way against Stockfish 1800, with the rules of this file
	{FullStrengthElo, 0},
	{MaxElo, 0},
}

// FullStrengthElo is where the table puts dossier at full strength: against Stockfish 2000 the even mode's
// handicap fell to zero after 2 games and it scored 17.5% over 40 (10+0.1 on a loaded 2-core machine, with
// the first rules, which searched five lines even at handicap zero), so every rating from there up plays at
// full strength.
const FullStrengthElo = 2000

// HandicapForElo returns the handicap, in pawns, that plays at rating elo (clamped to MinElo..MaxElo).
func HandicapForElo(elo int) float64 {
	elo = max(MinElo, min(elo, MaxElo))
	for i := 1; i < len(eloTable); i++ {
		lo, hi := eloTable[i-1], eloTable[i]
		if elo <= hi.elo {
			f := float64(elo-lo.elo) / float64(hi.elo-lo.elo)
			return lo.handicap + f*(hi.handicap-lo.handicap)
		}
	}
	return 0
}

// EloForHandicap is HandicapForElo's inverse: the rating a handicap in pawns plays at (FullStrengthElo for
// no handicap).
func EloForHandicap(h float64) float64 {
	if h >= eloTable[0].handicap {
		return MinElo
	}
	for i := 1; i < len(eloTable); i++ {
		lo, hi := eloTable[i-1], eloTable[i]
		if h >= hi.handicap && lo.handicap > hi.handicap {
			f := (lo.handicap - h) / (lo.handicap - hi.handicap)
			return float64(lo.elo) + f*float64(hi.elo-lo.elo)
		}
	}
	return MaxElo
}
