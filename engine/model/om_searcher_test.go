// Tests of the opponent-model searches as Searchers: iterative deepening under limits, a legal move
// always, the predicted reply reported, the position left as it was, finished games.
package model

import (
	"dossier/engine"
	"math/rand/v2"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/catalog"
)

// omSearchersFor builds every opponent-model Searcher for g with random evaluations.
func omSearchersFor(t *testing.T, g games.Game, rng *rand.Rand) map[string]engine.Searcher {
	t.Helper()
	own, a, b := omRandomEval(g, rng, "own"), omRandomEval(g, rng, "a"), omRandomEval(g, rng, "b")
	om, err := NewOMSearch(g, own, OMModel{Opponent: a}, DefaultOMOptions(g))
	if err != nil {
		t.Fatal(err)
	}
	prom, err := NewPromSearch(g, own, PromModel{
		Types:             []OpponentType{{"own", own}, {"a", a}, {"b", b}},
		TypeProbabilities: []float64{0.5, 0.3, 0.2},
	}, DefaultOMOptions(g))
	if err != nil {
		t.Fatal(err)
	}
	meu, err := NewMEU(g, own, RankModel{Ps: 0.7}, DefaultMEUOptions(g))
	if err != nil {
		t.Fatal(err)
	}
	sym, err := NewSymmetricSearch(g, SymmetricModel{Competitive: own, Common: b, Bound: 5}, SymmetricOptions{Pruning: true})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]engine.Searcher{"OM": om, "PrOM": prom, "MEU": meu, "symmetric": sym}
}

func TestModelSearchersPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for _, gc := range omGames {
		g, err := catalog.Lookup(gc.name)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range omSearchersFor(t, g, rng) {
			t.Run(gc.name+" "+name, func(t *testing.T) {
				depth := 3
				if g.Name() == "chess" {
					depth = 2 // MEU searches the replies in full
				}
				for _, p := range omPositions(g, rng, 3) {
					before := p.FEN()
					var infos []engine.Info
					res := s.Search(p, engine.NewControl(engine.Limits{Depth: depth}, p.ToMove()), func(i engine.Info) { infos = append(infos, i) })
					if p.FEN() != before {
						t.Fatalf("the search left %s as %s", before, p.FEN())
					}
					if !omLegal(p, res.Move) || res.Depth != len(infos) || len(infos) == 0 || infos[len(infos)-1].Depth > depth {
						t.Fatalf("%s: move %s, depth %d, %d reports", p.FEN(), p.FormatMove(res.Move), res.Depth, len(infos))
					}
					last := infos[len(infos)-1]
					p.Play(res.Move)
					over := games.OutcomeOf(p).Result != games.Ongoing
					predictedLegal := res.Ponder == games.NoMove || omLegal(p, res.Ponder)
					p.Undo()
					if !predictedLegal || last.Predicted != res.Ponder || (!over && last.Depth >= 2 && res.Ponder == games.NoMove) {
						t.Errorf("%s: predicted reply %d after %s (reported %d, game over %v)", p.FEN(), res.Ponder,
							p.FormatMove(res.Move), last.Predicted, over)
					}
					if last.Score != res.Score || last.PV[0] != res.Move {
						t.Errorf("%s: last report %+v, result %+v", p.FEN(), last, res)
					}
				}
			})
		}
	}
}

func TestModelSearchersStop(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2))
	g, err := catalog.Lookup("chess")
	if err != nil {
		t.Fatal(err)
	}
	p := omPositions(g, rng, 1)[0]
	for name, s := range omSearchersFor(t, g, rng) {
		t.Run(name, func(t *testing.T) {
			for _, lim := range []engine.Limits{{Nodes: 3000}, {MoveTime: 30 * time.Millisecond}, {Infinite: true}} {
				ctl := engine.NewControl(lim, p.ToMove())
				if lim.Infinite {
					time.AfterFunc(40*time.Millisecond, ctl.Stop)
				}
				start := time.Now()
				res := s.Search(p, ctl, nil)
				if !omLegal(p, res.Move) {
					t.Errorf("limits %+v: move %d is not legal", lim, res.Move)
				}
				if el := time.Since(start); el > 5*time.Second {
					t.Errorf("limits %+v: the search took %v", lim, el)
				}
			}
		})
	}
}

func TestModelSearchersGameOver(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	g, err := catalog.Lookup("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	won, err := g.ParsePosition("PPP/pp1/3[PPpp] b - - 0 5") // X has three in a row: O to move has lost
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range omSearchersFor(t, g, rng) {
		res := s.Search(won, engine.NewControl(engine.Limits{Depth: 3}, won.ToMove()), nil)
		if res.Move != games.NoMove || res.Score != -engine.MateScore {
			t.Errorf("%s: move %d, score %v in a lost position; want no move, -MateScore", name, res.Move, res.Score)
		}
	}
}
