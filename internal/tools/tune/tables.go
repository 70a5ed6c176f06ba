// Tuning the chess evaluation's tables: every piece-square and mobility entry a sparse feature of its own,
// fitted by Adam with the other weights, and written back as games/chess/tables_tuned.go.

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"go/format"
	"io"
	"math"
	"os"
	"strings"

	"dossier/bots/presets"
	"dossier/games/chess"
)

// tableSpace is the tuner's feature space with the tables spread out: the evaluation's features, those
// that sum a table (pst_mg, mobility_knight_eg, ...) held at 0, then one feature per table entry.
type tableSpace struct {
	names   []string // the evaluation's features
	entries []chess.TableEntry
	summed  []bool // names[i] sums a table: its column is 0 here and its weight 1 in the evaluation
	feature []int  // entries[j]'s summing feature, an index into names
}

func newTableSpace() (tableSpace, error) {
	ts := tableSpace{names: chess.Game{}.FeatureNames(), entries: chess.TableEntries()}
	index := map[string]int{}
	for i, n := range ts.names {
		index[n] = i
	}
	ts.summed = make([]bool, len(ts.names))
	for _, e := range ts.entries {
		i, ok := index[e.Feature]
		if !ok {
			return ts, fmt.Errorf("table entry %s: no feature %s", e.Name, e.Feature)
		}
		ts.summed[i] = true
		ts.feature = append(ts.feature, i)
	}
	return ts, nil
}

// size is the number of weights in the space.
func (ts tableSpace) size() int { return len(ts.names) + len(ts.entries) }

// features returns the position's sparse vector in the space.
func (ts tableSpace) features(p *chess.Position) sparse {
	x := make([]float64, len(ts.names))
	p.Features(x)
	for i, s := range ts.summed {
		if s {
			x[i] = 0
		}
	}
	sp := toSparse(x)
	index, value := p.TableFeatures(nil, nil)
	for k, j := range index {
		sp.index = append(sp.index, int32(len(ts.names))+j)
		sp.value = append(sp.value, value[k])
	}
	return sp
}

// expand returns the space's weights of an evaluation: its weights for the features, and each entry's
// value times the weight of the feature that sums it.
func (ts tableSpace) expand(w []float64) []float64 {
	out := append([]float64(nil), w...)
	for j, e := range ts.entries {
		out = append(out, e.Value*w[ts.feature[j]])
	}
	return out
}

// fold returns the evaluation's weights and the tables of the space's weights x: the tables' weights 1,
// the piece-square tables of pawns, knights, bishops, rooks and queens shifted to mean 0 (over the
// squares the piece can stand on) with the mean added to the piece's material weight, which leaves the
// evaluation unchanged (every piece meets one entry of its table), the mobility tables the same way, and
// the king's table to mean 0 (both sides have one king, so a constant cancels).
func (ts tableSpace) fold(x []float64) (weights, tables []float64) {
	n := len(ts.names)
	weights = append([]float64(nil), x[:n]...)
	tables = append([]float64(nil), x[n:]...)
	index := map[string]int{}
	for i, name := range ts.names {
		index[name] = i
		if ts.summed[i] {
			weights[i] = 1
		}
	}
	// The tables in index order with their first and last index and the piece whose material they trade
	// with: a constant added to a table and taken from that weight changes nothing.
	pieces := []string{"pawn", "knight", "bishop", "rook", "queen", "king"}
	var spans [][3]int // first, end (both within a half), piece
	for pt := range pieces {
		first, end := pt*64, pt*64+64
		if pieces[pt] == "pawn" {
			first, end = 8, 56
		}
		spans = append(spans, [3]int{first, end, pt})
	}
	bounds := chess.TableBounds()
	for k, piece := range []int{1, 2, 3, 4} { // the mobility tables of knights, bishops, rooks and queens
		spans = append(spans, [3]int{bounds[k+1], bounds[k+2], piece})
	}
	for half, suffix := range []string{"_mg", "_eg"} {
		for _, sp := range spans {
			base := half * chess.TableSize
			var mean float64
			for i := sp[0]; i < sp[1]; i++ {
				mean += tables[base+i]
			}
			mean /= float64(sp[1] - sp[0])
			for i := sp[0]; i < sp[1]; i++ {
				tables[base+i] -= mean
			}
			if i, ok := index[pieces[sp[2]]+suffix]; ok {
				weights[i] += mean
			}
		}
	}
	return weights, tables
}

// tableFit is the result of fitTables: the evaluation's weights, the tables, and the held-out loss and
// RMS error of the start (the committed evaluation) and of the fit.
type tableFit struct {
	weights, tables []float64
	train, test     int
	loss, rms       [2]float64
	// other and otherLoss are the positions of a second file (--test) and the losses of the committed
	// evaluation and of the fit on them.
	other     int
	otherLoss [2]float64
}

// fitTables fits the evaluation and its tables to a gen file by Adam from the committed evaluation
// (the default preset and tables_tuned.go), pulled towards it by o.L2; every tenth position is held out.
// With otherPath, the losses on all of that file's positions (scores only) are measured as well: the
// held-out tenth of path shares its games with the training positions, a file of other games does not.
func fitTables(path, otherPath string, o adamOptions, mode labelMode) (tableFit, error) {
	var res tableFit
	ts, err := newTableSpace()
	if err != nil {
		return res, err
	}
	strongest, err := presets.Lookup(chess.Game{}, presets.Default)
	if err != nil {
		return res, err
	}
	start := ts.expand(strongest.Eval.Weights)
	train, test, err := readTableExamples(path, ts, mode)
	if err != nil {
		return res, err
	}
	var other []example
	if otherPath != "" {
		a, b, err := readTableExamples(otherPath, ts, labelMode{})
		if err != nil {
			return res, err
		}
		other = append(a, b...)
	}
	o.K, o.Prior = 1, start
	x := fitAdam(train, start, o)
	res.other = len(other)
	for i, w := range [][]float64{start, x} {
		res.otherLoss[i] = meanLoss(other, w, 1)
	}
	res.train, res.test = len(train), len(test)
	for i, w := range [][]float64{start, x} {
		res.loss[i] = meanLoss(test, w, 1)
		res.rms[i] = rmsTable(test, w)
	}
	res.weights, res.tables = ts.fold(x)
	return res, nil
}

// readTableExamples reads a gen file into the space's examples, every tenth held out; the held-out
// examples' targets are the scores' (their results ignored), so that losses compare across label mixes.
func readTableExamples(path string, ts tableSpace, mode labelMode) (train, test []example, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, err
	}
	sc := bufio.NewScanner(zr)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), ";")
		if len(fields) < 2 {
			return nil, nil, fmt.Errorf("%s:%d: no ';' before the score", path, line)
		}
		var y float64
		if _, err := fmt.Sscan(fields[1], &y); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: score: %v", path, line, err)
		}
		p, err := chess.ParseFEN(fields[0])
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		e := example{x: ts.features(p), target: sigmoid(y), score: y}
		if line%10 == 0 {
			test = append(test, e)
			continue
		}
		if len(fields) > 2 {
			r, err := parseResult(fields[2])
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			e.target = mode.resultWeight*r + (1-mode.resultWeight)*e.target
		}
		train = append(train, e)
	}
	return train, test, sc.Err()
}

// rmsTable is the root-mean-square difference in centipawns over the examples scored within 500.
func rmsTable(data []example, w []float64) float64 {
	var s float64
	n := 0
	for _, d := range data {
		if math.Abs(d.score) <= 500 {
			e := d.score - d.x.dot(w)
			s += e * e
			n++
		}
	}
	return math.Sqrt(s / float64(max(n, 1)))
}

// writeTables writes the tables as games/chess/tables_tuned.go's source, rounded to centipawns.
func writeTables(w io.Writer, tables []float64, comment string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// The tuned tables of the chess evaluation (see tables.go): written by internal/tools/tune fit --tables.\n\npackage chess\n\n")
	fmt.Fprintf(&b, "// tunedTables holds the middlegame and the endgame half of every table, in centipawns (%s).\n", comment)
	fmt.Fprintf(&b, "var tunedTables = [2][TableSize]int16{\n")
	for half := 0; half < 2; half++ {
		b.WriteString("\t{\n")
		for i := 0; i < chess.TableSize; i += 16 {
			b.WriteString("\t\t")
			for j := i; j < min(i+16, chess.TableSize); j++ {
				v := math.Round(tables[half*chess.TableSize+j])
				fmt.Fprintf(&b, "%d, ", int(max(min(v, math.MaxInt16), math.MinInt16)))
			}
			b.WriteString("\n")
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(src)
	return err
}
