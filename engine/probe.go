// Probe: the alpha-beta core called as a subroutine by the opponent-model searches.

package engine

import "dossier/games"

// SetProbeControl makes later probes poll ctl (nil: never interrupted), so that stopping an
// opponent-model search also ends the probe it is running; an interrupted probe returns 0 and the caller
// sees ctl.Stopped().
func (s *AlphaBeta) SetProbeControl(ctl *Control) { s.probeCtl = ctl }

// Probe returns the alpha-beta value of p to depth (quiescence below) for the side to move, within
// (alpha, beta) fail-soft, using the searcher's evaluation and transposition table; p is left as it was.
// Mate scores count plies from p. Draws cost Contempt for the root side of the latest Search (the first
// player before any). A probe allocates nothing; probes on one AlphaBeta must not run concurrently with
// each other or with Search.
func (s *AlphaBeta) Probe(p games.Position, depth int, alpha, beta float64) float64 {
	score, _ := s.ProbeMove(p, depth, alpha, beta)
	return score
}

// ProbeMove is Probe that also returns the best move found: the last move that raised alpha at p, or
// games.NoMove when every move failed low (or depth <= 0).
func (s *AlphaBeta) ProbeMove(p games.Position, depth int, alpha, beta float64) (float64, games.Move) {
	t := s.threads[0]
	t.bind(p)
	t.ctl = s.probeCtl
	t.contempt = s.opts.Contempt
	t.rootSide = s.contemptSide
	t.rootDepth = max(depth, 1)
	t.rootBest = games.NoMove
	score := t.search(depth, 0, alpha, beta, beta > nextUp(alpha))
	return score, t.rootBest
}

// Nodes returns the nodes the main thread searched since the last Search started (probes included).
func (s *AlphaBeta) Nodes() uint64 { return s.threads[0].nodes }
