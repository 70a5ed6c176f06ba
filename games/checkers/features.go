// Evaluation features: material for Carmel & Markovitch's functions and a Samuel-style positional set.

package checkers

import (
	"math/bits"

	"dossier/games"
)

// The feature indices, in FeatureNames order. Unless noted, each is measured for the side to move minus the
// same measure for the opponent ("mine minus theirs").
const (
	FeatMen          = iota // men
	FeatKings               // kings
	FeatTotal               // pieces on the board, both sides together (not a difference)
	FeatAdvance             // sum over men of the rows advanced from the own back row (0-6)
	FeatBackRank            // men still on the own back row (guarding the king row)
	FeatBridge              // 1 if men hold the bridge, squares 1 and 3 for Black, 30 and 32 for White
	FeatOreo                // 1 if men hold the oreo triangle, 2, 3, 7 for Black, 26, 30, 31 for White
	FeatCentreMen           // men on the centre squares 10, 11, 14, 15, 18, 19, 22, 23
	FeatCentreKings         // kings on those centre squares
	FeatMobility            // simple (non-capturing) moves available, counted for each side as if it were to move
	FeatThreats             // opposing pieces that could be jumped at once, for each side as if it were to move
	FeatRunaway             // men with no opposing piece anywhere in the cone ahead of them up to the crowning row
	FeatDogHole             // men stuck in the dog hole: White on 5 with a Black piece on 1, Black on 28 with White on 32
	FeatMainDiagonal        // pieces on the long diagonal 29-25-22-18-15-11-8-4
	FeatDoubleCorner        // pieces on the two double-corner diagonals 1-6-...-28 and 5-9-...-32
	FeatEdge                // pieces on the side files a and h (squares 4, 5, 12, 13, 20, 21, 28, 29)
	FeatBacked              // men whose squares diagonally behind are friendly or off the board (safe from jumps from the front)
	FeatIsolated            // pieces with no friendly piece on a diagonally adjacent square
	FeatNearCrown           // men one step from crowning
	NumFeatures             // the length of the feature vector
)

// featureInfo names and documents each feature, in index order.
var featureInfo = [NumFeatures]struct{ name, doc string }{
	{"men", "men, mine minus theirs"},
	{"kings", "kings, mine minus theirs"},
	{"tot", "pieces on the board, both sides (Carmel & Markovitch's Tot)"},
	{"advance", "rows advanced by men, summed, mine minus theirs"},
	{"backRank", "men on the own back row, mine minus theirs"},
	{"bridge", "back-row bridge held (1, 3 / 30, 32), mine minus theirs"},
	{"oreo", "oreo triangle held (2, 3, 7 / 26, 30, 31), mine minus theirs"},
	{"centreMen", "men on the eight centre squares, mine minus theirs"},
	{"centreKings", "kings on the eight centre squares, mine minus theirs"},
	{"mobility", "simple moves available, mine minus theirs"},
	{"threats", "opposing pieces en prise to a single jump, mine minus theirs"},
	{"runaway", "men with a clear cone to the crowning row, mine minus theirs"},
	{"dogHole", "men stuck in the dog hole, mine minus theirs"},
	{"mainDiagonal", "pieces on the long diagonal, mine minus theirs"},
	{"doubleCorner", "pieces on the double-corner diagonals, mine minus theirs"},
	{"edge", "pieces on the side files, mine minus theirs"},
	{"backed", "men protected from behind, mine minus theirs"},
	{"isolated", "pieces with no friendly neighbour, mine minus theirs"},
	{"nearCrown", "men one step from crowning, mine minus theirs"},
}

// FeatureDocs returns a one-line description of each feature, in FeatureNames order.
func FeatureDocs() []string {
	docs := make([]string, len(featureInfo))
	for i, f := range featureInfo {
		docs[i] = f.doc
	}
	return docs
}

// Square sets used by the features (bit i is square i+1).
const (
	centreSquares   uint32 = 1<<9 | 1<<10 | 1<<13 | 1<<14 | 1<<17 | 1<<18 | 1<<21 | 1<<22
	mainDiagonal    uint32 = 1<<28 | 1<<24 | 1<<21 | 1<<17 | 1<<14 | 1<<10 | 1<<7 | 1<<3
	doubleDiagonals uint32 = 1<<0 | 1<<5 | 1<<9 | 1<<14 | 1<<18 | 1<<23 | 1<<27 |
		1<<4 | 1<<8 | 1<<13 | 1<<17 | 1<<22 | 1<<26 | 1<<31
	sideFiles uint32 = 1<<3 | 1<<4 | 1<<11 | 1<<12 | 1<<19 | 1<<20 | 1<<27 | 1<<28
)

// Formations and row masks by side.
var (
	bridgeSquares = [2]uint32{1<<0 | 1<<2, 1<<29 | 1<<31}
	oreoSquares   = [2]uint32{1<<1 | 1<<2 | 1<<6, 1<<25 | 1<<29 | 1<<30}
	backRow       = [2]uint32{topRow, bottomRow}
	nextToCrown   = [2]uint32{0x0F000000, 0x000000F0} // squares 25-28 for Black, 5-8 for White
	dogHoleMan    = [2]uint32{1 << 27, 1 << 4}        // Black man on 28, White man on 5
	dogHoleWarden = [2]uint32{1 << 31, 1 << 0}        // the opposing piece that shuts it in: White on 32, Black on 1
)

// runawayCone[s][sq] holds the squares ahead of a man of side s on sq from which an opposing piece could
// meet or stop it on its way to the crowning row.
var runawayCone [2][32]uint32

func init() {
	for sq := 0; sq < 32; sq++ {
		row, file := int(squareRow[sq]), int(squareFile[sq])
		for other := 0; other < 32; other++ {
			r, f := int(squareRow[other]), int(squareFile[other])
			df := f - file
			if df < 0 {
				df = -df
			}
			if r > row && df <= r-row+1 {
				runawayCone[games.First][sq] |= 1 << other
			}
			if r < row && df <= row-r+1 {
				runawayCone[games.Second][sq] |= 1 << other
			}
		}
	}
}

// Features writes the feature vector (see the Feat constants) from the side to move's point of view.
func (p *Position) Features(dst []float64) {
	b := &p.board
	me := b.side
	var mine, theirs [NumFeatures]int
	sideFeatures(b, me, &mine)
	sideFeatures(b, me^1, &theirs)
	for i := range dst {
		if i < NumFeatures {
			dst[i] = float64(mine[i] - theirs[i])
		}
	}
	if FeatTotal < len(dst) {
		dst[FeatTotal] = float64(bits.OnesCount32(b.pieces[0] | b.pieces[1]))
	}
}

// sideFeatures measures side s's half of each difference feature.
func sideFeatures(b *board, s games.Side, out *[NumFeatures]int) {
	own, opp := b.pieces[s], b.pieces[s^1]
	men, kings := own&^b.kings, own&b.kings
	empty := ^(own | opp)
	out[FeatMen] = bits.OnesCount32(men)
	out[FeatKings] = bits.OnesCount32(kings)

	advance := 0
	for m := men; m != 0; m &= m - 1 {
		row := int(squareRow[bits.TrailingZeros32(m)])
		if s == games.First {
			advance += row
		} else {
			advance += 7 - row
		}
	}
	out[FeatAdvance] = advance
	out[FeatBackRank] = bits.OnesCount32(men & backRow[s])
	if men&bridgeSquares[s] == bridgeSquares[s] {
		out[FeatBridge] = 1
	}
	if men&oreoSquares[s] == oreoSquares[s] {
		out[FeatOreo] = 1
	}
	out[FeatCentreMen] = bits.OnesCount32(men & centreSquares)
	out[FeatCentreKings] = bits.OnesCount32(kings & centreSquares)

	first, last := forwardDirs(s)
	mobility := 0
	var enPrise uint32
	for d := 0; d < 4; d++ {
		movers := kings
		if d == first || d == last {
			movers = own
		}
		mobility += bits.OnesCount32(step(movers, d) & empty)
		// Opposing pieces next to a mover in direction d with an empty square beyond them.
		enPrise |= step(movers, d) & opp & step(empty, 3-d)
	}
	out[FeatMobility] = mobility
	out[FeatThreats] = bits.OnesCount32(enPrise)

	runaway := 0
	for m := men; m != 0; m &= m - 1 {
		if runawayCone[s][bits.TrailingZeros32(m)]&opp == 0 {
			runaway++
		}
	}
	out[FeatRunaway] = runaway
	if men&dogHoleMan[s] != 0 && opp&dogHoleWarden[s] != 0 {
		out[FeatDogHole] = 1
	}
	out[FeatMainDiagonal] = bits.OnesCount32(own & mainDiagonal)
	out[FeatDoubleCorner] = bits.OnesCount32(own & doubleDiagonals)
	out[FeatEdge] = bits.OnesCount32(own & sideFiles)

	// A man is backed when each square diagonally behind it is friendly or off the board: step the friendly
	// pieces and the off-board fill forward and require both.
	back0, back1 := 3-first, 3-last // the backward directions of side s, as seen from the man
	behindOK := func(d int) uint32 {
		// Squares whose neighbour in direction d is friendly, or which have no neighbour that way.
		onBoard := step(allSquares, 3-d)
		return step(own, 3-d) | ^onBoard
	}
	out[FeatBacked] = bits.OnesCount32(men & behindOK(back0) & behindOK(back1))

	var neighbours uint32
	for d := 0; d < 4; d++ {
		neighbours |= step(own, d)
	}
	out[FeatIsolated] = bits.OnesCount32(own &^ neighbours)
	out[FeatNearCrown] = bits.OnesCount32(men & nextToCrown[s])
}
