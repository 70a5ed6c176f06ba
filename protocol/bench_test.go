// Benchmarks of the commands a GUI sends every move.

package protocol

import (
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/chess"
)

// randomGameLine returns "position startpos moves ..." with up to plies random legal chess moves.
func randomGameLine(plies int) string {
	rng := rand.New(rand.NewPCG(3, 4))
	p := chess.Game{}.Start()
	var names []string
	var buf [games.MaxMoves]games.Move
	for range plies {
		moves := p.AppendMoves(buf[:0])
		if len(moves) == 0 || p.Status().Result.Over() {
			break
		}
		m := moves[rng.IntN(len(moves))]
		names = append(names, p.FormatMove(m))
		p.Play(m)
	}
	return "position startpos moves " + strings.Join(names, " ")
}

// BenchmarkPositionLine measures reading the position line of a 200-ply chess game (what a GUI sends
// before every go), with the game record update.
func BenchmarkPositionLine(b *testing.B) {
	line := randomGameLine(200)
	s := NewSession(newFakeEngine(0), chess.Game{}, nil, io.Discard, testConfig())
	b.ReportAllocs()
	for b.Loop() {
		s.handleLine(line)
	}
}

// BenchmarkPositionAndGo measures a whole move's round trip with an engine that answers at once: the
// position line of a 200-ply game, go (observing the opponent's move), info and bestmove.
func BenchmarkPositionAndGo(b *testing.B) {
	line := randomGameLine(200)
	s := NewSession(newFakeEngine(0), chess.Game{}, nil, io.Discard, testConfig())
	b.ReportAllocs()
	for b.Loop() {
		s.handleLine(line)
		s.handleLine("go wtime 1000 btime 1000")
		s.finishSearch()
	}
}
