// Connect-Four features for Sen & Arora's "sophisticated" evaluation: open windows of four by direction.

package connect4

import "math/bits"

// Feature indices. A window is any four consecutive cells of a line on the board (horizontal, vertical or
// either diagonal). "Mine" counts the windows holding exactly k stones of the side to move and none of the
// opponent's, "theirs" the windows holding exactly k of the opponent's stones and none of the mover's,
// for k = 1, 2, 3, grouped by direction: horizontal (H), vertical (V) and diagonal (D, both diagonals
// together). A weight vector with zeros on the D entries is blind to diagonals, as Sen & Arora's simple
// player is. Centre is the side to move's stones in the centre column (the two central columns on an even
// width) minus the opponent's.
const (
	H1Mine = iota
	H1Theirs
	H2Mine
	H2Theirs
	H3Mine
	H3Theirs
	V1Mine
	V1Theirs
	V2Mine
	V2Theirs
	V3Mine
	V3Theirs
	D1Mine
	D1Theirs
	D2Mine
	D2Theirs
	D3Mine
	D3Theirs
	Centre
	NumFeatures
)

// featureNames names the features in index order.
var featureNames = [NumFeatures]string{
	"h1_mine", "h1_theirs", "h2_mine", "h2_theirs", "h3_mine", "h3_theirs",
	"v1_mine", "v1_theirs", "v2_mine", "v2_theirs", "v3_mine", "v3_theirs",
	"d1_mine", "d1_theirs", "d2_mine", "d2_theirs", "d3_mine", "d3_theirs",
	"centre",
}

// FeatureNames names the entries of the feature vector (see the feature index constants).
func (g Game) FeatureNames() []string {
	names := make([]string, NumFeatures)
	copy(names, featureNames[:])
	return names
}

// groupBase maps a direction to the index of its k=1 "mine" feature.
var groupBase = [numDirections]int{horizontal: H1Mine, vertical: V1Mine, diagonalUp: D1Mine, diagonalDown: D1Mine}

// Features writes the window counts and the centre balance from the side to move's point of view.
func (p *Position) Features(dst []float64) {
	clear(dst[:NumFeatures])
	g := p.geo
	mine, theirs := p.current, p.current^p.mask
	for d := range numDirections {
		base := groupBase[d]
		s := g.shifts[d]
		m1, m2, m3 := windowCounts(mine, theirs, s, g.starts[d])
		t1, t2, t3 := windowCounts(theirs, mine, s, g.starts[d])
		dst[base+0] += float64(m1)
		dst[base+1] += float64(t1)
		dst[base+2] += float64(m2)
		dst[base+3] += float64(t2)
		dst[base+4] += float64(m3)
		dst[base+5] += float64(t3)
	}
	dst[Centre] = float64(bits.OnesCount64(mine&g.centre) - bits.OnesCount64(theirs&g.centre))
}

// windowCounts counts the windows of four cells (cell b, b+s, b+2s, b+3s for every start b in starts)
// that hold none of other's stones and exactly one, two and three of own's. It adds up the four cells of
// all windows at once, bit-sliced: each window's count lives in bit b of the three sum bitboards.
func windowCounts(own, other uint64, s uint, starts uint64) (one, two, three int) {
	free := starts &^ (other | other>>s | other>>(2*s) | other>>(3*s))
	b0, b1, b2, b3 := own, own>>s, own>>(2*s), own>>(3*s)
	x, y := b0^b1, b2^b3 // half sums of the two pairs
	c1, c2 := b0&b1, b2&b3
	carry := x & y
	sum0 := x ^ y                                   // weight-1 bit of the count
	sum1 := carry ^ c1 ^ c2                         // weight-2 bit
	sum2 := (carry & c1) | (carry & c2) | (c1 & c2) // weight-4 bit: all four cells
	one = bits.OnesCount64(free & sum0 &^ sum1 &^ sum2)
	two = bits.OnesCount64(free &^ sum0 & sum1)
	three = bits.OnesCount64(free & sum0 & sum1)
	return one, two, three
}
