// Benchmarks: the latency of one update (Record to its commit), alone and from several writers, as the owner
// and as a client, with and without SyncWrites; and opening a profile in a store of 10,000 opponents and a
// million observations, with the bytes a game takes on disk.

package memory

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"dossier/play/opponent"
)

// reportLatencies reports the 50th and 99th percentiles and the maximum of the latencies.
func reportLatencies(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(math.Ceil(q*float64(len(lat))))-1)].Microseconds())
	}
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
}

// benchMove is an opponent move as the engine records it.
func benchMove(id string, ply int) Event {
	return Event{Move: &MoveRecord{GameID: id, Ply: ply, ByOpponent: true, PositionKey: rand.Uint64(),
		FEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", Move: "g1f3", TimeMS: 830,
		Predicted: "g1f3", Probability: 0.62, Eval: 24}}
}

// BenchmarkUpdate measures one update, Record to commit, as the engine makes them: writers goroutines each
// record a move and wait for its commit, then the next. The client variants write through a second Memory on
// the same directory, over the socket.
func BenchmarkUpdate(b *testing.B) {
	for _, sync := range []bool{false, true} {
		for _, client := range []bool{false, true} {
			for _, writers := range []int{1, 4} {
				name := fmt.Sprintf("sync=%v/client=%v/writers=%d", sync, client, writers)
				b.Run(name, func(b *testing.B) { benchUpdate(b, sync, client, writers) })
			}
		}
	}
}

func benchUpdate(b *testing.B, syncWrites, client bool, writers int) {
	dir := b.TempDir()
	owner, err := Open(Options{Dir: dir, SyncWrites: syncWrites, GCInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer owner.Close()
	m := owner
	if client {
		if m, err = Open(Options{Dir: dir}); err != nil {
			b.Fatal(err)
		}
		defer m.Close()
	}
	lat := make([][]time.Duration, writers)
	var wg sync.WaitGroup
	b.ResetTimer()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := NewGameID()
			for i := w; i < b.N; i += writers {
				start := time.Now()
				if err := m.Record(benchMove(id, i%maxPly)).Wait(context.Background()); err != nil {
					b.Error(err)
					return
				}
				lat[w] = append(lat[w], time.Since(start))
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	reportLatencies(b, slices.Concat(lat...))
}

// Scale of the big store.
const (
	scaleOpponents = 10000
	scaleMoves     = 1000000
	scaleGamesEach = 2
)

// diskUsage sums the blocks the files under dir take (badger's memtable files are sparse).
func diskUsage(b *testing.B, dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		var st syscall.Stat_t
		if syscall.Stat(path, &st) == nil {
			total += st.Blocks * 512
		}
		return nil
	})
	return total
}

// BenchmarkScale builds a store of 10,000 opponents with two games each and a million move records (through
// the store's own event path, a thousand events a commit), reports its size per game, then times what reads
// it: a profile (what the engine opens at UCI_Opponent), one opponent's games with their moves, and the list
// of every opponent. Building takes about a minute; it is left out of normal test runs as a benchmark.
//
// With DOSSIER_MEMORY_SCALE_DIR set, the store is built in that directory the first time and reused after.
func BenchmarkScale(b *testing.B) {
	dir := os.Getenv("DOSSIER_MEMORY_SCALE_DIR")
	reuse := false
	if dir == "" {
		dir = b.TempDir()
	} else if _, err := os.Stat(filepath.Join(dir, storeDir)); err == nil {
		reuse = true
	}
	movesEach := scaleMoves / scaleOpponents / scaleGamesEach
	games := scaleOpponents * scaleGamesEach
	if !reuse {
		buildScale(b, dir)
	}
	size := diskUsage(b, filepath.Join(dir, storeDir))
	b.Logf("%d opponents, %d games, %d move records: %d MB on disk, %d bytes a game",
		scaleOpponents, games, games*movesEach, size>>20, size/int64(games))

	key := func(i int) string { return opponent.NameKey(fmt.Sprintf("Opponent %05d", i)) }
	opened := time.Now()
	m, err := Open(Options{Dir: dir, GCInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	openTime := time.Since(opened)
	firstProfile := time.Now()
	if _, err := m.Profile(key(scaleOpponents / 2)); err != nil {
		b.Fatal(err)
	}
	first := time.Since(firstProfile)
	b.Run("profile", func(b *testing.B) {
		b.ReportMetric(float64(size)/float64(games), "bytes/game")
		b.ReportMetric(float64(openTime.Microseconds()), "open-µs")
		b.ReportMetric(float64(first.Microseconds()), "first-profile-µs")
		lat := make([]time.Duration, 0, b.N)
		for i := 0; i < b.N; i++ {
			begin := time.Now()
			p, err := m.Profile(key(rand.N(scaleOpponents)))
			if err != nil || len(p.Games) != scaleGamesEach {
				b.Fatalf("%+v %v", p, err)
			}
			lat = append(lat, time.Since(begin))
		}
		reportLatencies(b, lat)
	})
	b.Run("games", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			g, err := m.Games(key(rand.N(scaleOpponents)))
			if err != nil || len(g) != scaleGamesEach || len(g[0].Records) != movesEach {
				b.Fatalf("%d games, %v", len(g), err)
			}
		}
	})
	b.Run("opponents", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			s, err := m.Opponents()
			if err != nil || len(s) != scaleOpponents {
				b.Fatalf("%d opponents, %v", len(s), err)
			}
		}
	})
	b.Run("compact", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := m.Compact(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// buildScale writes the big store into dir.
func buildScale(b *testing.B, dir string) {
	m, err := Open(Options{Dir: dir, GCInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	movesEach := scaleMoves / scaleOpponents / scaleGamesEach
	var batch []*eventRec
	flush := func() {
		for _, err := range m.own.st.commitEvents(batch) {
			if err != nil {
				b.Fatal(err)
			}
		}
		batch = batch[:0]
	}
	add := func(ev Event) {
		rec, err := ev.record(t0)
		if err != nil {
			b.Fatal(err)
		}
		if batch = append(batch, rec); len(batch) == 1000 {
			flush()
		}
	}
	games := 0
	for o := range scaleOpponents {
		opp := opponent.Opponent{Name: fmt.Sprintf("Opponent %05d", o), Elo: 1500 + o%1000, Kind: opponent.Computer, Source: "uci"}
		for g := range scaleGamesEach {
			id := fmt.Sprintf("%s-%05d-%d", t0.Format(gameIDTime), o, g)
			at := t0.Add(time.Duration(o*scaleGamesEach+g) * time.Hour)
			add(Event{Start: &GameStart{GameID: id, Opponent: opp, Game: "chess", Variant: "standard", OurSide: g % 2,
				TimeControl: "40/60+0.5", StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", At: at}})
			moves := make([]string, movesEach)
			for ply := range movesEach {
				ev := benchMove(id, ply)
				ev.Move.ByOpponent = ply%2 != g%2
				ev.Move.At = at.Add(time.Duration(ply) * time.Second)
				moves[ply] = ev.Move.Move
				add(ev)
			}
			add(Event{End: &GameEnd{GameID: id, Result: "1-0", Reason: "checkmate", OurScore: float64(1 - g%2),
				Moves: moves, FinalFEN: "8/8/8/8/8/8/8/8 w - - 0 1", At: at.Add(time.Hour)}})
			add(Event{Model: &ModelUpdate{OpponentKey: opp.Key(), Model: "typeprobs", GameID: id, At: at.Add(time.Hour),
				State: []byte(`{"strongest":0.5,"materialist":0.3,"attacker":0.2}`)}})
			games++
		}
	}
	flush()
	if err := m.Close(); err != nil {
		b.Fatal(err)
	}
	b.Logf("built %d games in %v", games, time.Since(start).Round(time.Second))
}
