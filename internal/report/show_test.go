// Tests of memory show's report: the sides of the results table named in each game's terms.

package report

import "testing"

func TestSideNames(t *testing.T) {
	for _, tc := range []struct {
		game string
		side int
		want string
	}{{"chess", 0, "white"}, {"checkers", 0, "black"}, {"checkers", 1, "white"}, {"connect4", 1, "second"}, {"go", 0, "first"}} {
		if got := sideName(tc.game, tc.side); got != tc.want {
			t.Errorf("sideName(%s, %d) = %q, want %q", tc.game, tc.side, got, tc.want)
		}
	}
}
