// Behaviour of Search under its limits (checkers): legal moves always, stop latency, searchmoves, reports.
package engine

import (
	"math/rand/v2"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
)

// checkersMaterial is a material-only evaluation for checkers.
func checkersMaterial() Evaluation {
	w := make([]float64, len(checkers.Game{}.FeatureNames()))
	w[checkers.FeatMen], w[checkers.FeatKings] = 1, 1.5
	return Evaluation{Name: "material", Weights: w}
}

func TestSearchAlwaysReturnsALegalMove(t *testing.T) {
	g := checkers.Game{}
	tests := []struct {
		name string
		lim  Limits
	}{
		{"one node", Limits{Nodes: 1}},
		{"depth 1", Limits{Depth: 1}},
		{"a millisecond", Limits{MoveTime: time.Millisecond}},
		{"almost no clock", Limits{Time: [2]time.Duration{time.Millisecond, time.Millisecond}}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, threads := range []int{1, 2} {
				opts := testOptions(g)
				opts.Threads = threads
				s := NewAlphaBeta(g, checkersMaterial(), opts)
				for i := 0; i < 5; i++ {
					p := randomPosition(g, rng, rng.IntN(30))
					fen, hash := p.FEN(), p.Hash()
					res := s.Search(p, NewControl(tc.lim, p.ToMove()), nil)
					if !games.IsLegal(p, res.Move) {
						t.Fatalf("%s: %d threads returned the illegal move %d", fen, threads, res.Move)
					}
					if p.FEN() != fen || p.Hash() != hash {
						t.Fatalf("%s: the search left the position as %s", fen, p.FEN())
					}
				}
			}
		})
	}
}

func TestSearchGameOver(t *testing.T) {
	g := checkers.Game{}
	// White to move has no piece left: a loss, and no move to return.
	p, err := g.ParsePosition("W:W:B1,2")
	if err != nil {
		t.Fatal(err)
	}
	res := searchDepth(NewAlphaBeta(g, checkersMaterial(), testOptions(g)), p, 5)
	if res.Move != games.NoMove || res.Score != -MateScore {
		t.Errorf("got move %d score %v, want no move and %v", res.Move, res.Score, -MateScore)
	}
}

func TestSearchMovesRestrictsTheRoot(t *testing.T) {
	g := checkers.Game{}
	p := g.Start()
	s := NewAlphaBeta(g, checkersMaterial(), testOptions(g))
	for _, m := range p.AppendMoves(nil) {
		res := s.Search(p, NewControl(Limits{Depth: 4, SearchMoves: []games.Move{m}}, p.ToMove()), nil)
		if res.Move != m {
			t.Errorf("searchmoves %s: got %s", p.FormatMove(m), p.FormatMove(res.Move))
		}
	}
}

func TestSearchReports(t *testing.T) {
	g := checkers.Game{}
	p := g.Start()
	var infos []Info
	s := NewAlphaBeta(g, checkersMaterial(), testOptions(g))
	res := s.Search(p, NewControl(Limits{Depth: 6}, p.ToMove()), func(i Info) { infos = append(infos, i) })
	if len(infos) != 6 {
		t.Fatalf("%d reports for 6 iterations", len(infos))
	}
	for i, info := range infos {
		if info.Depth != i+1 || info.SelDepth < info.Depth || len(info.PV) == 0 {
			t.Errorf("report %d: depth %d seldepth %d PV %v", i, info.Depth, info.SelDepth, info.PV)
		}
		if i > 0 && info.Nodes <= infos[i-1].Nodes {
			t.Errorf("report %d: nodes %d after %d", i, info.Nodes, infos[i-1].Nodes)
		}
		// The PV is a sequence of legal moves.
		q := p.Clone()
		for _, m := range info.PV {
			if !games.IsLegal(q, m) {
				t.Fatalf("report %d: PV move %d illegal", i, m)
			}
			q.Play(m)
		}
	}
	last := infos[len(infos)-1]
	if res.Depth != 6 || res.Score != last.Score || res.Move != last.PV[0] || res.Nodes < last.Nodes {
		t.Errorf("result %+v does not match the last report %+v", res, last)
	}
	if len(res.PV) > 1 && res.Ponder != res.PV[1] {
		t.Errorf("ponder move %d is not the PV's second move %d", res.Ponder, res.PV[1])
	}
}

func TestStopLatency(t *testing.T) {
	g := checkers.Game{}
	for _, threads := range []int{1, 2} {
		opts := testOptions(g)
		opts.Threads = threads
		s := NewAlphaBeta(g, checkersMaterial(), opts)
		p := g.Start()
		ctl := NewControl(Limits{Infinite: true}, p.ToMove())
		done := make(chan Result)
		go func() { done <- s.Search(p, ctl, nil) }()
		time.Sleep(100 * time.Millisecond)
		select {
		case <-done:
			t.Fatal("an infinite search returned before stop")
		default:
		}
		stopped := time.Now()
		ctl.Stop()
		res := <-done
		// Very generous: CI runs this under -race on a shared 2-core machine; a search that stopped polling
		// would never return at all, which this still catches.
		if lat := time.Since(stopped); lat > 2*time.Second {
			t.Errorf("%d threads: search returned %v after stop", threads, lat)
		}
		if !games.IsLegal(p, res.Move) {
			t.Errorf("%d threads: illegal move %d after stop", threads, res.Move)
		}
	}
}

func TestProbeAllocatesNothing(t *testing.T) {
	g := checkers.Game{}
	p := randomPosition(g, rand.New(rand.NewPCG(3, 4)), 10)
	s := NewAlphaBeta(g, checkersMaterial(), testOptions(g))
	s.Probe(p, 4, -MateScore, MateScore) // first use may grow nothing, but warm up anyway
	before := s.Nodes()
	allocs := testing.AllocsPerRun(5, func() { s.Probe(p, 5, -MateScore, MateScore) })
	if allocs != 0 {
		t.Errorf("a probe of %d nodes allocates %v times", s.Nodes()-before, allocs)
	}
}

func TestForcedMoveSavesTheClock(t *testing.T) {
	g := checkers.Game{}
	// Black's only move is the capture 22x31; with an hour on the clock the search still stops early.
	p, err := g.ParsePosition("B:W26,27,12:B22,1")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.AppendMoves(nil)); n != 1 {
		t.Fatalf("%d legal moves, want 1", n)
	}
	s := NewAlphaBeta(g, checkersMaterial(), testOptions(g))
	res := s.Search(p, NewControl(Limits{Time: [2]time.Duration{time.Hour, time.Hour}}, p.ToMove()), nil)
	if res.Depth != 4 || p.FormatMove(res.Move) != "22x31" {
		t.Errorf("forced move: depth %d, move %s; want depth 4 and 22x31", res.Depth, p.FormatMove(res.Move))
	}
}

func TestClaimableDrawRootStillGetsAMove(t *testing.T) {
	g := chess.Game{}
	cases := []struct{ name, fen string }{
		{"fifty-move rule", "8/8/4k3/8/8/4K3/4R3/8 w - - 100 80"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := g.ParsePosition(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			if p.Status().Result != games.Draw {
				t.Fatalf("%s: Status = %v, want a claimable draw", c.fen, p.Status())
			}
			s := NewAlphaBeta(g, chessMaterial(), testOptions(g))
			res := s.Search(p, NewControl(Limits{Depth: 3}, p.ToMove()), nil)
			if !games.IsLegal(p, res.Move) {
				t.Errorf("no legal move (%d) from a position where the draw is only claimable", res.Move)
			}
		})
	}
	t.Run("threefold repetition", func(t *testing.T) {
		p := g.Start()
		for _, mv := range []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"} {
			m, err := p.ParseMove(mv)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
		}
		if p.Status().Reason != games.Repetition {
			t.Fatalf("Status = %v, want threefold repetition", p.Status())
		}
		s := NewAlphaBeta(g, chessMaterial(), testOptions(g))
		res := s.Search(p, NewControl(Limits{Depth: 3}, p.ToMove()), nil)
		if !games.IsLegal(p, res.Move) {
			t.Errorf("no legal move (%d) after a threefold repetition", res.Move)
		}
	})
}
