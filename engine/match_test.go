// Self-play matches between search configurations, the measurement behind each technique's default.
package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
)

// matchResult is the score of configuration A over a match.
type matchResult struct {
	points, games float64
	wins, losses  int
	nodesA        uint64
	nodesB        uint64
}

// eloDiff is the rating difference a score share implies, with a rough 95% error margin from the games
// played (draws make it smaller than shown).
func (r matchResult) eloDiff() (elo, margin float64) {
	share := min(max(r.points/r.games, 0.001), 0.999)
	elo = -400 * math.Log10(1/share-1)
	sd := math.Sqrt(share*(1-share)/r.games) * 1.96
	hi := min(share+sd, 0.999)
	return elo, -400*math.Log10(1/hi-1) - elo
}

// playMatch plays pairs of games between two searchers from random openings (each opening once with
// either side), every move searched within the same node budget, and returns A's score.
func playMatch(g games.Game, a, b *AlphaBeta, pairs, openingPlies int, nodes uint64, seed uint64) matchResult {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var r matchResult
	for i := 0; i < pairs; i++ {
		opening := randomPosition(g, rng, openingPlies)
		for _, aFirst := range []bool{true, false} {
			p := opening.Clone()
			a.NewGame()
			b.NewGame()
			aSide := p.ToMove()
			if !aFirst {
				aSide = aSide.Other()
			}
			outcome := games.Outcome{}
			for ply := 0; ply < 400; ply++ {
				if outcome = games.OutcomeOf(p); outcome.Result != games.Ongoing {
					break
				}
				s := b
				if p.ToMove() == aSide {
					s = a
				}
				res := s.Search(p, NewControl(Limits{Nodes: nodes}, p.ToMove()), nil)
				if s == a {
					r.nodesA += res.Nodes
				} else {
					r.nodesB += res.Nodes
				}
				p.Play(res.Move)
			}
			if outcome.Result == games.Ongoing {
				outcome.Result = games.Draw
			}
			pts := outcome.Result.PointsFor(aSide)
			r.points += pts
			r.games++
			switch pts {
			case 1:
				r.wins++
			case 0:
				r.losses++
			}
		}
	}
	return r
}

// BenchmarkTechniques measures each switchable technique by a match of the default configuration against
// the same configuration with the technique toggled, at an equal node budget per move. Run it with
// -benchtime=1x; it reports A's score share and the Elo difference (technique on minus off).
func BenchmarkTechniques(b *testing.B) {
	ck, ch := checkers.Game{}, chess.Game{}
	type trial struct {
		game   games.Game
		eval   Evaluation
		name   string
		toggle func(*AlphaBetaOptions)
		nodes  uint64
		pairs  int
	}
	trials := []trial{
		{ck, checkersMaterial(), "LMR", func(o *AlphaBetaOptions) { o.LMR = !o.LMR }, 20000, 50},
		{ch, chessMaterial(), "LMR", func(o *AlphaBetaOptions) { o.LMR = !o.LMR }, 20000, 50},
		{ch, chessMaterial(), "NullMove", func(o *AlphaBetaOptions) { o.NullMove = !o.NullMove }, 20000, 50},
		{ch, chessMaterial(), "CheckExtension", func(o *AlphaBetaOptions) { o.CheckExtension = !o.CheckExtension }, 20000, 50},
		{ch, chessMaterial(), "Aspiration", func(o *AlphaBetaOptions) { o.Aspiration = !o.Aspiration }, 20000, 50},
	}
	for _, tr := range trials {
		b.Run(fmt.Sprintf("%s/%s", tr.game.Name(), tr.name), func(b *testing.B) {
			for b.Loop() {
				on := DefaultAlphaBetaOptions(tr.game)
				on.HashMB = 4
				off := on
				tr.toggle(&off)
				if !isOn(on, tr.name) {
					on, off = off, on
				}
				r := playMatch(tr.game, NewAlphaBeta(tr.game, tr.eval, on), NewAlphaBeta(tr.game, tr.eval, off), tr.pairs, 6, tr.nodes, 7)
				elo, margin := r.eloDiff()
				b.ReportMetric(r.points/r.games, "score")
				b.ReportMetric(elo, "elo")
				b.ReportMetric(margin, "elo±")
				b.ReportMetric(float64(r.wins), "wins")
				b.ReportMetric(float64(r.losses), "losses")
				b.ReportMetric(float64(r.nodesA)/float64(max(r.nodesB, 1)), "nodeRatio")
			}
		})
	}
}

// isOn reports whether the named switch is on in o.
func isOn(o AlphaBetaOptions, name string) bool {
	switch name {
	case "LMR":
		return o.LMR
	case "NullMove":
		return o.NullMove
	case "CheckExtension":
		return o.CheckExtension
	case "Aspiration":
		return o.Aspiration
	}
	panic("unknown switch " + name)
}
