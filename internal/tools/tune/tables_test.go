// Tests of the table tuner: Adam recovers known piece-square and mobility values, folding the tables
// leaves the evaluation unchanged, and fit --tables writes a Go file.

package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"dossier/bots/presets"
	"dossier/games/chess"
)

// randomTablePositions returns n positions of random games (one in three) as vectors in the table space.
func randomTablePositions(rng *rand.Rand, ts tableSpace, n int) []sparse {
	var out []sparse
	walkRandomGames(rng, n, 3, func(p *chess.Position) bool {
		out = append(out, ts.features(p))
		return true
	})
	return out
}

func TestTablesRecoverKnownValues(t *testing.T) {
	ts, err := newTableSpace()
	if err != nil {
		t.Fatal(err)
	}
	strongest, err := presets.Lookup(chess.Game{}, presets.Default)
	if err != nil {
		t.Fatal(err)
	}
	start := ts.expand(strongest.Eval.Weights)
	n := len(ts.names)
	cases := []struct {
		name string
		// shift returns the true value's difference from the start's for entry j.
		shift func(j int, e chess.TableEntry) float64
	}{
		{"knights and pawns favour the queen's side, by file", func(j int, e chess.TableEntry) float64 {
			sq := j % chess.TableSize
			if sq < 2*64 { // pawns and knights
				return float64(3-sq&7) * 6
			}
			return 0
		}},
		{"mobility worth 4 cp a square more, the king's middlegame table 20 cp higher on the first rank", func(j int, e chess.TableEntry) float64 {
			i := j % chess.TableSize
			switch {
			case i >= 6*64:
				return 4 * float64(len(e.Name)%7) // an irregular pattern over the counts
			case i >= 5*64 && i < 5*64+8 && j < chess.TableSize:
				return 20
			}
			return 0
		}},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci)+11, 5))
			xs := randomTablePositions(rng, ts, 6000)
			truth := append([]float64(nil), start...)
			for j, e := range ts.entries {
				truth[n+j] += c.shift(j, e)
			}
			data := make([]example, len(xs))
			seen := make([]int, ts.size())
			for i, x := range xs {
				data[i] = example{x: x, target: sigmoid(x.dot(truth))}
				for _, j := range x.index {
					seen[j]++
				}
			}
			o := defaultAdamOptions()
			got := fitAdam(data, start, o)
			// The entries that many positions meet are found again up to a constant per table (a constant
			// trades with the piece's material weight, or cancels for the king): their differences from
			// the truth spread over 3 cp at most.
			_, gt := ts.fold(got)
			_, tt := ts.fold(truth)
			bounds := append([]int{0, 64, 128, 192, 256, 320}, chess.TableBounds()[1:]...)
			checked := 0
			for half := 0; half < 2; half++ {
				for k := 0; k+1 < len(bounds); k++ {
					lo, hi := math.Inf(1), math.Inf(-1)
					for j := half*chess.TableSize + bounds[k]; j < half*chess.TableSize+bounds[k+1]; j++ {
						if seen[n+j] < 300 {
							continue
						}
						checked++
						d := gt[j] - tt[j]
						lo, hi = min(lo, d), max(hi, d)
					}
					if hi-lo > 3 {
						t.Errorf("%s...: the well-met entries are off the truth by %.1f to %.1f cp", ts.entries[half*chess.TableSize+bounds[k]].Name, lo, hi)
					}
				}
			}
			if checked < 200 {
				t.Errorf("only %d entries met in 300 positions or more", checked)
			}
			// The evaluations agree within 1.5 cp (RMS).
			var sq float64
			for _, x := range xs {
				d := x.dot(got) - x.dot(truth)
				sq += d * d
			}
			if rms := math.Sqrt(sq / float64(len(xs))); rms > 1.5 {
				t.Errorf("evaluations %.2f cp (RMS) off the truth", rms)
			}
			if before, after := meanLoss(data, start, 1), meanLoss(data, got, 1); after > before/100 {
				t.Errorf("the loss went from %.3g to %.3g only", before, after)
			}
			// Folding leaves every evaluation as it was.
			gw, gt := ts.fold(got)
			folded := append(append([]float64(nil), gw...), gt...)
			for _, x := range xs[:200] {
				if a, b := x.dot(got), x.dot(folded); math.Abs(a-b) > 1e-6 {
					t.Fatalf("evaluation %.6f before folding, %.6f after", a, b)
				}
			}
		})
	}
}

func TestFitTablesCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tables_tuned.go")
	var stdout, stderr bytes.Buffer
	code := run([]string{"fit", "--method", "adam", "--tables", out, "--epochs", "4", "--in", "testdata/positions.txt.gz", "--test", "testdata/positions.txt.gz"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	m := regexp.MustCompile(`held-out logistic loss: committed ([0-9.]+), fit ([0-9.]+)`).FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("no losses in %q", stdout.String())
	}
	before, _ := strconv.ParseFloat(m[1], 64)
	after, _ := strconv.ParseFloat(m[2], 64)
	if !(after > 0 && after < before*1.05) {
		t.Errorf("held-out loss %v after the fit, %v before", after, before)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), out, src, 0)
	if err != nil || f.Name.Name != "chess" || !bytes.Contains(src, []byte("var tunedTables = [2][TableSize]int16{")) {
		t.Errorf("the tables file does not parse as package chess's tunedTables: %v\n%s", err, src)
	}
	for _, name := range []string{`"pst_mg": 1.0`, `"mobility_queen_eg": 1.0`, `"knight_mg": `, "10000 positions of testdata/positions.txt.gz: logistic loss committed 0.0"} {
		if !bytes.Contains(stdout.Bytes(), []byte(name)) {
			t.Errorf("no %s in the weights printed", name)
		}
	}
}
