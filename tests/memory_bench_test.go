// What the memory costs the engine's moves: the time from go to bestmove at a fixed depth, with the memory on
// and off, through the built binary against a random mover (every move an observation to commit).

package tests

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/chess"
)

// BenchmarkBestmoveLatency reports p50 and p99 of go-to-bestmove at depth 4 over b.N moves; run it as
// go test ./tests -run '^$' -bench BestmoveLatency -benchtime 300x
func BenchmarkBestmoveLatency(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("memory=%v", on), func(b *testing.B) {
			args := []string{"--no-memory"}
			if on {
				args = []string{"--memory", filepath.Join(b.TempDir(), "memory")}
			}
			p := startDossier(b, args...)
			p.send("uci", "setoption name UCI_Opponent value none none computer randommover", "ucinewgame", "isready")
			p.expectLine(30*time.Second, "readyok")
			rng := rand.New(rand.NewPCG(1, 2))
			pos := chess.Game{}.Start()
			var moves []string
			latencies := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if games.OutcomeOf(pos).Result.Over() || len(moves) > 160 {
					p.send("ucinewgame")
					pos, moves = chess.Game{}.Start(), nil
				}
				sent := p.send("position startpos moves "+strings.Join(moves, " "), "go depth 4")
				line, _ := p.expect(60*time.Second, "bestmove", func(s string) bool { return strings.HasPrefix(s, "bestmove ") })
				latencies = append(latencies, line.at.Sub(sent))
				m, err := pos.ParseMove(strings.Fields(line.text)[1])
				if err != nil {
					b.Fatal(err)
				}
				pos.Play(m)
				moves = append(moves, strings.Fields(line.text)[1])
				if games.OutcomeOf(pos).Result.Over() {
					continue
				}
				var buf [games.MaxMoves]games.Move
				legal := pos.AppendMoves(buf[:0])
				reply := legal[rng.IntN(len(legal))]
				moves = append(moves, pos.FormatMove(reply))
				pos.Play(reply)
			}
			b.StopTimer()
			p.send("quit")
			p.wait(30 * time.Second)
			slices.Sort(latencies)
			b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
