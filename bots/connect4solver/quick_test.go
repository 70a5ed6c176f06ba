package connect4solver

import (
	"testing"
	"time"
)

func TestQuickSets(t *testing.T) {
	s := New(64)
	for _, name := range []string{"Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L2_R2"} {
		cases := loadSet(t, name)
		start := time.Now()
		n0 := s.Nodes()
		bad := 0
		for _, c := range cases {
			if got := s.Solve(c.position); got != c.score {
				bad++
				if bad < 5 {
					t.Errorf("%s:%d %s: got %d want %d", name, c.line, c.moves, got, c.score)
				}
			}
		}
		el := time.Since(start)
		t.Logf("%s: %v per position, %d nodes, %.1f Mn/s", name, el/time.Duration(len(cases)), s.Nodes()-n0, float64(s.Nodes()-n0)/el.Seconds()/1e6)
	}
}
