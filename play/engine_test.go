// Tests of the time control a game's first search is filed under: the clocks GUIs send at the first go.

package play

import (
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
)

func TestDescribeTimeControl(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	clocks := func(w, b, winc, binc int) engine.Limits {
		return engine.Limits{Time: [2]time.Duration{ms(w), ms(b)}, Inc: [2]time.Duration{ms(winc), ms(binc)}}
	}
	withMovesToGo := func(lim engine.Limits, n int) engine.Limits { lim.MovesToGo = n; return lim }
	tests := []struct {
		name string
		lim  engine.Limits
		ours games.Side
		want string
	}{
		// cutechess-cli adds the increment before the first move: tc=2+0.05 starts with wtime 2050.
		{"cutechess 2+0.05 as white", clocks(2050, 2050, 50, 50), games.First, "2+0.05"},
		{"cutechess 2+0.05 as black after a 30 ms move", clocks(2070, 2050, 50, 50), games.Second, "2+0.05"},
		{"cutechess 8+0.08", clocks(8080, 8080, 80, 80), games.First, "8+0.08"},
		{"cutechess 10+0.1", clocks(10100, 10100, 100, 100), games.First, "10+0.1"},
		{"cutechess 60+1", clocks(61000, 61000, 1000, 1000), games.First, "60+1"},
		{"cutechess 300+2", clocks(302000, 302000, 2000, 2000), games.First, "300+2"},
		{"cutechess 3+2: a tie of whole seconds", clocks(5000, 5000, 2000, 2000), games.First, "3+2"},
		{"a GUI that sends the base 2+0.05", clocks(2000, 2000, 50, 50), games.First, "2+0.05"},
		{"a GUI that sends the base 60+1", clocks(60000, 60000, 1000, 1000), games.First, "60+1"},
		{"a GUI that sends the base 300+2", clocks(300000, 300000, 2000, 2000), games.Second, "300+2"},
		{"an increment as large as the clock", clocks(1000, 1000, 1000, 1000), games.First, "1+1"},
		{"a clock in the middle of a game", clocks(123456, 120000, 50, 50), games.First, "123.456+0.05"},
		{"sudden death", clocks(2000, 2000, 0, 0), games.First, "2+0"},
		{"40 moves in 5 s", withMovesToGo(clocks(5000, 5000, 0, 0), 40), games.First, "40/5+0"},
		{"40 moves in 60 s plus 1 s, from cutechess", withMovesToGo(clocks(61000, 61000, 1000, 1000), 40),
			games.First, "40/60+1"},
		{"movetime", engine.Limits{MoveTime: ms(1000)}, games.First, "movetime 1000"},
		{"depth", engine.Limits{Depth: 8}, games.Second, "depth 8"},
		{"nodes", engine.Limits{Nodes: 10000}, games.First, "nodes 10000"},
		{"infinite", engine.Limits{Infinite: true}, games.First, "infinite"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := DescribeTimeControl(tc.lim, tc.ours); got != tc.want {
				t.Errorf("DescribeTimeControl(%+v, %v) = %q, want %q", tc.lim, tc.ours, got, tc.want)
			}
		})
	}
}
