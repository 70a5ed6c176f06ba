// Vetting a made book's moves with a search of ours.

package openingbook

import (
	"dossier/engine"
	"dossier/games"
)

// SearchVet returns a MakeOptions.Vet that keeps a move of the games when a search of depth plies values it
// at most margin (in the search's units, centipawns in chess) below the best move of the position: the
// book then holds no move the engine itself thinks is a mistake at that depth. It searches each position
// twice: once for the best value, once for the exact values of the games' moves (MultiPV over them).
func SearchVet(s engine.Searcher, depth int, margin float64) Vet {
	return func(p games.Position, moves []games.Move) ([]bool, error) {
		s.NewGame()
		side := p.ToMove()
		best := s.Search(p, engine.NewControl(engine.Limits{Depth: depth}, side), nil)
		s.NewGame()
		lines := s.Search(p, engine.NewControl(engine.Limits{Depth: depth, SearchMoves: moves, MultiPV: len(moves)}, side), nil)
		value := map[games.Move]float64{lines.Move: lines.Score}
		for _, l := range lines.Lines {
			value[l.Move] = l.Score
		}
		keep := make([]bool, len(moves))
		for i, m := range moves {
			v, ok := value[m]
			keep[i] = ok && v >= best.Score-margin
		}
		return keep, nil
	}
}
