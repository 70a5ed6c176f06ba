package memorycost

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/games/catalog"
	"dossier/memory"
	"dossier/play/opponent"
)

// TestSynthesizeFilesTheGamesAndEntries checks the synthesized memory: the games finished and whole, the
// entries readable for the opponent.
func TestSynthesizeFilesTheGamesAndEntries(t *testing.T) {
	g, err := catalog.Lookup("chess")
	if err != nil {
		t.Fatal(err)
	}
	mem, err := memory.Open(memory.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if err := Synthesize(mem, g, "someone", 6, 500, 3); err != nil {
		t.Fatal(err)
	}
	key := opponent.NameKey("someone")
	prof, err := mem.Profile(key)
	if err != nil {
		t.Fatal(err)
	}
	if len(prof.Games) != 6 {
		t.Fatalf("%d games filed, want 6", len(prof.Games))
	}
	stored, err := mem.Games(key)
	if err != nil {
		t.Fatal(err)
	}
	for _, gm := range stored {
		if gm.End.IsZero() || len(gm.Moves) == 0 {
			t.Errorf("game %s: end %v, %d moves", gm.ID, gm.End, len(gm.Moves))
		}
	}
	xp, err := mem.Experience(key, g.Name())
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for _, e := range xp {
		if e.OpponentKey == key {
			own++
		}
	}
	if own < 490 || own > 500 { // a position met twice keeps one entry
		t.Fatalf("%d entries of the opponent, want about 500", own)
	}
}

// TestMeasureSearchesWithAndWithoutTheMemory runs the measurement on a small memory in each flow (isready, go at
// once, go at once with one Player a game): both Players searched every move, the memory was read. Timing
// is not asserted here (BenchmarkMemoryCost and dossier bench --memory-cost report it).
func TestMeasureSearchesWithAndWithoutTheMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games with each Player")
	}
	g, _ := catalog.Lookup("chess")
	dir := t.TempDir()
	for _, flow := range []struct{ ask, perGame bool }{{true, false}, {false, false}, {false, true}} {
		rep, err := Measure(Options{Game: g, Games: 8, Entries: 400, Dir: dir, MoveTime: 20 * time.Millisecond, Moves: 4,
			AskReady: flow.ask, ProcessPerGame: flow.perGame})
		if err != nil {
			t.Fatal(err)
		}
		if rep.With.Searches != 4 || rep.Without.Searches != 4 {
			t.Fatalf("%+v: searches: %d with, %d without, want 4 each", flow, rep.With.Searches, rep.Without.Searches)
		}
		if rep.Games != 8 || rep.Entries < 390 || rep.ExperienceLoaded < rep.Entries {
			t.Fatalf("%+v: memory of %d games and %d entries (%d read by the Player), want 8 and about 400",
				flow, rep.Games, rep.Entries, rep.ExperienceLoaded)
		}
		if rep.With.Nodes == 0 || rep.Without.Nodes == 0 || rep.NPSRatio <= 0 {
			t.Fatalf("report without nodes: %+v", rep)
		}
		// The searching thread's CPU is counted, and is never more than the moves' time.
		for _, side := range []Side{rep.With, rep.Without} {
			if side.SearchCPU <= 0 || side.CPUShare() > 1.05 {
				t.Fatalf("%+v: the search's thread had %v of the CPU in %v of moves", flow, side.SearchCPU, side.MoveTime)
			}
		}
		if rep.ProcessPerGame != flow.perGame || strings.Contains(rep.String(), "one process a game") != flow.perGame {
			t.Fatalf("report does not say its flow: %s", rep)
		}
		// What a game's start allocated is counted where the front end waits for the reading: more with the
		// memory than without.
		if counted := rep.With.Readings == 1 && rep.Without.Readings == 1; counted != flow.ask ||
			flow.ask && rep.With.ReadingBytes <= rep.Without.ReadingBytes {
			t.Fatalf("%+v: readings %d and %d, %d bytes with the memory and %d without", flow, rep.With.Readings,
				rep.Without.Readings, rep.With.ReadingBytes, rep.Without.ReadingBytes)
		}
	}
}

// TestBaselinePlaysBothSidesWithoutTheMemory checks the measure of the bench's own noise: the side "with" reads
// no memory (no experience loaded, a game's start allocating about what it does without), and the report says so.
func TestBaselinePlaysBothSidesWithoutTheMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games with each Player")
	}
	g, _ := catalog.Lookup("chess")
	rep, err := Measure(Options{Game: g, Games: 8, Entries: 400, Dir: t.TempDir(), MoveTime: 20 * time.Millisecond, Moves: 4,
		AskReady: true, Baseline: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExperienceLoaded != 0 || rep.With.Searches != 4 || rep.Without.Searches != 4 || rep.NPSRatio <= 0 {
		t.Fatalf("baseline: %d experience entries read, %d and %d searches, ratio %v; want none, 4 each, a ratio",
			rep.ExperienceLoaded, rep.With.Searches, rep.Without.Searches, rep.NPSRatio)
	}
	// Without a memory a game's start allocates a few hundred kilobytes (the searcher's bookkeeping); the
	// memory's reading allocates megabytes even for 8 games.
	if rep.With.ReadingBytes > 2*rep.Without.ReadingBytes+1<<20 || !strings.Contains(rep.String(), "baseline") {
		t.Fatalf("baseline: a game's start allocated %d bytes against %d; report %s", rep.With.ReadingBytes,
			rep.Without.ReadingBytes, rep)
	}
}

// BenchmarkMemoryCost is issue 33's speed target: at 50 ms a move on one processor, with a memory of 1,000
// games and 100,000 experience entries against the opponent, nodes per second within 3% of no memory and the
// first depth within 1 ms. The memory is synthesized once into DOSSIER_MEMORYCOST_DIR when set (kept for the
// next run), else a temporary directory. DOSSIER_MEMORYCOST_GAMES and _ENTRIES change its size.
func BenchmarkMemoryCost(b *testing.B) {
	g, _ := catalog.Lookup("chess")
	games, entries := envInt("DOSSIER_MEMORYCOST_GAMES", 1000), envInt("DOSSIER_MEMORYCOST_ENTRIES", 100000)
	dir := os.Getenv("DOSSIER_MEMORYCOST_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	for b.Loop() {
		reps, err := MeasureFlows(Options{Game: g, Games: games, Entries: entries, Dir: dir, MoveTime: 50 * time.Millisecond,
			Moves: 20, Rounds: 6})
		if err != nil {
			b.Fatal(err)
		}
		for i, name := range []string{"isready", "at-once", "process-per-game"} {
			b.ReportMetric(reps[i].NPSRatio, "nps-ratio-"+name)
			b.ReportMetric(float64(reps[i].FirstInfoDelta.Microseconds()), "first-info-delta-µs-"+name)
			b.Log(reps[i])
		}
		b.ReportMetric(reps[0].With.ReadingMB(), "reading-MB")
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
