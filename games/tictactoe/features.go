// Tic-tac-toe features: Carmel & Markovitch's open lines advantage and simple line and square counts.

package tictactoe

import "math/bits"

// Feature indices, all from the side to move's point of view. A line is a row, column or diagonal.
//   - OpenLines: lines with none of the opponent's stones minus lines with none of mine (Carmel &
//     Markovitch's "open lines advantage"; an empty line counts for both sides and cancels out).
//   - TwosMine: lines with two of my stones and none of the opponent's (threats to complete).
//   - TwosTheirs: lines with two of the opponent's stones and none of mine.
//   - Centre: 1 if I hold the centre square, -1 if the opponent does, else 0.
//   - Corners: my stones on corner squares minus the opponent's.
const (
	OpenLines = iota
	TwosMine
	TwosTheirs
	Centre
	Corners
	NumFeatures
)

// featureNames names the features in index order.
var featureNames = [NumFeatures]string{"open_lines", "twos_mine", "twos_theirs", "centre", "corners"}

// FeatureNames names the entries of the feature vector (see the feature index constants).
func (Game) FeatureNames() []string {
	names := make([]string, NumFeatures)
	copy(names, featureNames[:])
	return names
}

// Features writes the feature vector of the position from the side to move's point of view.
func (p *Position) Features(dst []float64) {
	side := p.ToMove()
	mine, theirs := p.stones[side], p.stones[side.Other()]
	open, twosMine, twosTheirs := 0, 0, 0
	for _, l := range lines {
		m, t := bits.OnesCount16(mine&l), bits.OnesCount16(theirs&l)
		if t == 0 {
			open++
			if m == 2 {
				twosMine++
			}
		}
		if m == 0 {
			open--
			if t == 2 {
				twosTheirs++
			}
		}
	}
	dst[OpenLines] = float64(open)
	dst[TwosMine] = float64(twosMine)
	dst[TwosTheirs] = float64(twosTheirs)
	dst[Centre] = float64(bits.OnesCount16(mine&centreMask) - bits.OnesCount16(theirs&centreMask))
	dst[Corners] = float64(bits.OnesCount16(mine&cornersMask) - bits.OnesCount16(theirs&cornersMask))
}
