// Benchmarks of the PostgreSQL backend on the test server (localhost): one update with 1 and 8 writers (each
// its own Memory, as 8 engines), and a profile opened in a database of 10,000 opponents and a million move
// records, with the bytes a game takes beside badger's.

package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"dossier/internal/pgtest"
	"dossier/play/opponent"
)

// serverFsync turns the test server's fsync on (as a production server has it) for the benchmark, and back;
// DOSSIER_BENCH_FSYNC=off leaves it off, to tell what the disk costs.
func serverFsync(b *testing.B, srv *pgtest.Server) {
	set := func(v string) {
		if err := srv.Exec(context.Background(), "postgres", "ALTER SYSTEM SET fsync = "+v, "SELECT pg_reload_conf()"); err != nil {
			b.Logf("cannot set fsync %s: %v", v, err)
		}
	}
	if srv.Throwaway() && os.Getenv("DOSSIER_BENCH_FSYNC") != "off" {
		set("on")
		b.Cleanup(func() { set("off") })
	}
}

// BenchmarkUpdatePostgres measures one update, Record to commit, with writers Memories on one database, each
// recording a move and waiting for its commit, then the next.
func BenchmarkUpdatePostgres(b *testing.B) {
	srv := pgtest.Start(b)
	serverFsync(b, srv)
	for _, writers := range []int{1, 8} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			schema := pgtest.Schema()
			mems := make([]*Memory, writers)
			for w := range mems {
				m, err := Open(Options{Dir: srv.URL, Schema: schema, SpoolDir: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				defer m.Close()
				mems[w] = m
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
						if err := mems[w].Record(benchMove(id, i%maxPly)).Wait(context.Background()); err != nil {
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
		})
	}
}

// BenchmarkScalePostgres builds the store of BenchmarkScale in a database (through the store's own event path,
// a thousand events a commit, four writers), reports the bytes a game takes (the table, its index and TOAST),
// then times a profile, one opponent's games and the list of every opponent.
func BenchmarkScalePostgres(b *testing.B) {
	srv := pgtest.Start(b)
	schema := "scale"
	opts := Options{Dir: srv.URL, Schema: schema, SpoolDir: b.TempDir()}
	m, err := Open(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	movesEach := scaleMoves / scaleOpponents / scaleGamesEach
	games := scaleOpponents * scaleGamesEach
	if ps, err := m.Opponents(); err != nil || len(ps) != scaleOpponents {
		buildScalePostgres(b, m)
	}
	var size int64
	table := pgx.Identifier{schema, "records"}.Sanitize()
	if err := m.own.st.kv.(*pgKV).pool.QueryRow(context.Background(),
		"SELECT pg_total_relation_size($1)", table).Scan(&size); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d opponents, %d games, %d move records: %d MB in the database, %d bytes a game",
		scaleOpponents, games, games*movesEach, size>>20, size/int64(games))
	key := func(i int) string { return opponent.NameKey(fmt.Sprintf("Opponent %05d", i)) }
	b.Run("profile", func(b *testing.B) {
		b.ReportMetric(float64(size)/float64(games), "bytes/game")
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
}

// buildScalePostgres files BenchmarkScale's games into m, four writers each taking every fourth opponent.
func buildScalePostgres(b *testing.B, m *Memory) {
	start := time.Now()
	movesEach := scaleMoves / scaleOpponents / scaleGamesEach
	const writers = 4
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var batch []*eventRec
			flush := func() {
				for _, err := range m.own.st.commitEvents(batch) {
					if err != nil {
						b.Error(err)
					}
				}
				batch = batch[:0]
			}
			add := func(ev Event) {
				rec, err := ev.record(t0)
				if err != nil {
					b.Error(err)
					return
				}
				if batch = append(batch, rec); len(batch) == 1000 {
					flush()
				}
			}
			for o := w; o < scaleOpponents; o += writers {
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
				}
			}
			flush()
		}()
	}
	wg.Wait()
	b.Logf("built %d games in %v", scaleOpponents*scaleGamesEach, time.Since(start).Round(time.Second))
}
