// The evaluation's tuned tables (piece-square values and mobility by count) and their layout for the tuner.

package chess

// The tables are data, not weights: internal/tools/tune fits every entry as a sparse feature of its own
// and writes them into tables_tuned.go, and the evaluation keeps one feature per table (pst_mg, pst_eg,
// mobility_knight_mg, ...) whose raw value sums the entries a side's pieces meet, so that a weight of 1 on
// it is the tuned evaluation and a preset can still scale it as a whole. Each table has a middlegame and an
// endgame half (entry i of tunedTables[0] and of tunedTables[1]).
//
// Layout of an index: piece-square values at (type-1)*64 + square, the square from the piece's own side
// (a1 is the side's left corner on its first rank); then mobility by the number of safe squares a piece
// attacks (see Features): knights 0-8, bishops 0-13, rooks 0-14, queens 0-27.
const (
	tablePST            = 0
	tableMobilityKnight = tablePST + 6*64
	tableMobilityBishop = tableMobilityKnight + 9
	tableMobilityRook   = tableMobilityBishop + 14
	tableMobilityQueen  = tableMobilityRook + 15
	TableSize           = tableMobilityQueen + 28
)

// tableParts names the tables in index order: the first index of each and the feature that sums it (the
// middlegame half's name with _mg, the endgame half's with _eg).
var tableParts = []struct {
	first   int
	feature string
}{
	{tablePST, "pst"},
	{tableMobilityKnight, "mobility_knight"},
	{tableMobilityBishop, "mobility_bishop"},
	{tableMobilityRook, "mobility_rook"},
	{tableMobilityQueen, "mobility_queen"},
}

// TableBounds returns the first index of each table (piece-square values, then the mobility of knights,
// bishops, rooks and queens) and TableSize.
func TableBounds() []int {
	out := make([]int, 0, len(tableParts)+1)
	for _, p := range tableParts {
		out = append(out, p.first)
	}
	return append(out, TableSize)
}

// TableMaxAbs returns the largest absolute value among the entries that feature sums (e.g. "pst_eg",
// "mobility_rook_mg"), 0 for a feature that sums no table: a piece adds at most that to the feature.
func TableMaxAbs(feature string) float64 {
	var m float64
	for _, e := range TableEntries() {
		if e.Feature == feature {
			m = max(m, e.Value, -e.Value)
		}
	}
	return m
}

// TableEntry describes one entry of the tuned tables for the tuner.
type TableEntry struct {
	Name    string  // e.g. "pst_mg knight e4" or "mobility_rook_eg 7"
	Feature string  // the evaluation feature whose raw value sums this entry, e.g. "pst_mg"
	Value   float64 // its value now, in centipawns
}

var pieceTypeNames = [7]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}

// TableEntries lists the entries of both halves: the middlegame half's TableSize entries, then the
// endgame half's, in the order of TableFeatures' indices.
func TableEntries() []TableEntry {
	out := make([]TableEntry, 0, 2*TableSize)
	for half, suffix := range []string{"_mg", "_eg"} {
		for i := 0; i < TableSize; i++ {
			part := 0
			for part+1 < len(tableParts) && tableParts[part+1].first <= i {
				part++
			}
			feature := tableParts[part].feature + suffix
			name := feature
			if i < tableMobilityKnight {
				sq := i & 63
				name += " " + pieceTypeNames[i/64+1] + " " + string(rune('a'+sq&7)) + string(rune('1'+sq>>3))
			} else {
				name += " " + itoa(i-tableParts[part].first)
			}
			out = append(out, TableEntry{Name: name, Feature: feature, Value: float64(tunedTables[half][i])})
		}
	}
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TableFeatures appends the position's table features from the side to move's point of view, sparse:
// for entry i of TableEntries, the number of the side to move's pieces that meet it minus the opponent's,
// times phase for the middlegame half and times (1-phase)·scale for the endgame half, as Features scales
// pst_mg and pst_eg. Zero entries are left out. With every table feature's weight 1, the evaluation is
// the other features' weights · Features plus the tables' values · these.
func (p *Position) TableFeatures(index []int32, value []float64) ([]int32, []float64) {
	var counts [2][TableSize]int8
	var raw [2][numRaw]int32
	phase, egScale := p.st.features(&raw, &counts)
	us := int(p.st.side)
	for half, scale := range []float64{phase, (1 - phase) * egScale} {
		for i := range TableSize {
			if c := counts[us][i] - counts[us^1][i]; c != 0 && scale != 0 {
				index = append(index, int32(half*TableSize+i))
				value = append(value, float64(c)*scale)
			}
		}
	}
	return index, value
}
