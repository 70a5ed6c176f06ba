// Tests of the EPD suite reader: no text makes it panic, and every entry it accepts is whole.

package bench

import (
	"strings"
	"testing"
)

// wacSuite is a one-position EPD suite, a back-rank mate in one.
const wacSuite = `6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8; id "mate1";` + "\n"

// FuzzReadSuite checks that no EPD text makes the suite reader panic, and that every entry it accepts has a
// position and at least one best move.
func FuzzReadSuite(f *testing.F) {
	for _, seed := range []string{wacSuite, "8/8/8/8/8/8/8/8 w - - bm Qg6;\n", "# comment\n\n", "a b c d e f\n",
		`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6 Qh5; id "x y";`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		entries, err := readSuite(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.pos == nil || len(e.best) == 0 || e.id == "" {
				t.Errorf("%q: accepted an entry without position, best move or id: %+v", text, e)
			}
		}
	})
}
