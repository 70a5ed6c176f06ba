// The analyst: a lost game's mistake found in the background after the game and filed in the memory with the
// experience it learned; a won game re-checked, nothing blamed; the next game starts at once and the analysis
// goes on between our searches.

package player

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/memory"
	"dossier/play"
)

// playedGame plays the moves through the Player's life cycle as a front end would and reports the end.
func playedGame(t *testing.T, p *Engine, g games.Game, result games.Result, texts ...string) {
	t.Helper()
	p.NewGame(g)
	p.WaitPrepared()
	p.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: g.Start()})
	pos := g.Start()
	var moves []games.Move
	for _, text := range texts {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos.Play(m)
	}
	p.GameOver(play.GameEnd{Outcome: games.Outcome{Result: result}, Reason: "test", Moves: moves})
}

func TestAnalystFilesTheLostGamesMistake(t *testing.T) {
	g := chess.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	rival := play.Opponent{Name: "rival", Source: "match"}
	p.SetOpponent(rival)
	p.WaitPrepared()
	playedGame(t, p, g, games.FirstWins, "e2e4", "e7e5", "g1f3", "b8c6") // won: re-checked, nothing blamed
	p.analyst.wait()
	if prof, err := p.Memory().Profile(rival.Key()); err != nil || len(prof.Mistakes) != 0 {
		t.Fatalf("after the won game: mistakes %+v (%v), want none", prof.Mistakes, err)
	}
	if rechecked, err := p.Memory().Experience(rival.Key(), "chess"); err != nil || len(rechecked) != 4 {
		t.Errorf("the won game's re-check filed %d entries (%v), want its 2 positions of ours in both tables",
			len(rechecked), err)
	}
	playedGame(t, p, g, games.SecondWins, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	p.analyst.wait()
	mem := p.Memory()
	prof, err := mem.Profile(rival.Key())
	if err != nil {
		t.Fatal(err)
	}
	if len(prof.Mistakes) != 1 {
		t.Fatalf("%d mistakes filed, want the lost game's alone", len(prof.Mistakes))
	}
	m := prof.Mistakes[0]
	if m.Move != "h5f7" || m.Best == "h5f7" || m.Depth != analysisDepth || m.Game != "chess" || m.Value >= m.BestValue {
		t.Fatalf("blamed %+v, want 3.Qxf7+ with a better move", m)
	}
	if games := prof.Games; len(games) != 2 || m.GameID != games[1].ID {
		t.Errorf("the mistake is filed for game %q, want the lost game's", m.GameID)
	}
	// The experience: the positions of our moves up to 3.Qxf7+ (where the analysis of a lost game ends) with
	// their best moves, and the position after 3.Qxf7+ at its deep value for Black, in the opponent's table and
	// in every opponent's.
	entries, err := mem.Experience(rival.Key(), "chess")
	if err != nil {
		t.Fatal(err)
	}
	after := mustPosition(t, g, m.FEN)
	after.Play(mustMove(t, after, m.Move))
	tables := map[string]int{}
	found := false
	for _, e := range entries {
		tables[e.OpponentKey]++
		if e.OpponentKey != "" && e.Hash == after.Hash() {
			found = e.Value == -m.Value && e.Depth == analysisDepth-1 && e.Bound == memory.BoundExact && e.Move == ""
		}
	}
	if tables[rival.Key()] != 4 || tables[""] != tables[rival.Key()] || !found {
		t.Errorf("experience tables %v (the position after the mistake found right: %v)", tables, found)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestAnalysisGoesOnIntoTheNextGame: the next game starts at once, the analysis of the lost game goes on
// between our searches and files the game's mistake, and no search of the analysis runs while ours does.
func TestAnalysisGoesOnIntoTheNextGame(t *testing.T) {
	g := chess.Game{}
	p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rival := play.Opponent{Name: "rival", Source: "match"}
	p.SetOpponent(rival)
	p.WaitPrepared()
	playedGame(t, p, g, games.SecondWins, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	begun := time.Now()
	p.NewGame(g)
	p.WaitPrepared()
	p.StartGame(play.GameStart{Game: g, OurSide: games.First, Start: g.Start()})
	if waited := time.Since(begun); waited > time.Second {
		t.Errorf("the next game's start waited %v for the analysis", waited)
	}
	// Our search of the new game: while it runs, the analysis waits.
	if during := backgroundDuring(p, g.Start(), 3, 50*time.Millisecond); during != 0 {
		t.Errorf("%d searches of the analysis began during ours", during)
	}
	p.analyst.wait()
	prof, err := p.Memory().Profile(rival.Key())
	if err != nil {
		t.Fatal(err)
	}
	if len(prof.Mistakes) != 1 || prof.Mistakes[0].Move != "h5f7" {
		t.Errorf("mistakes filed after the next game began: %+v, want 3.Qxf7+", prof.Mistakes)
	}
}

// TestAnalystBlamesADrawnGameOnlyWhereWeStoodBetter: a drawn game is analysed, its experience filed; a move is
// blamed only when our deep value reached a pawn and a half before it (2...Qh4?? gave us a queen, 4.Ba6?? gave
// a bishop back), not in a game we never stood better in (3.Qxf7+?? from an even position).
func TestAnalystBlamesADrawnGameOnlyWhereWeStoodBetter(t *testing.T) {
	cases := []struct {
		name   string
		moves  []string
		blamed string // "" for none
	}{
		{"we stood better", []string{"e2e4", "e7e5", "g1f3", "d8h4", "f3h4", "d7d6", "f1a6", "b7a6"}, "f1a6"},
		{"we never stood better", []string{"e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := chess.Game{}
			p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
			p.analysisDepth = 6
			if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			rival := play.Opponent{Name: "rival", Source: "match"}
			p.SetOpponent(rival)
			p.WaitPrepared()
			playedGame(t, p, g, games.Draw, c.moves...)
			p.analyst.wait()
			prof, err := p.Memory().Profile(rival.Key())
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.blamed == "" && len(prof.Mistakes) != 0:
				t.Errorf("blamed %+v in a game we never stood better in", prof.Mistakes)
			case c.blamed != "" && (len(prof.Mistakes) != 1 || prof.Mistakes[0].Move != c.blamed):
				t.Errorf("mistakes %+v, want %s", prof.Mistakes, c.blamed)
			}
			entries, err := p.Memory().Experience(rival.Key(), "chess")
			if err != nil || len(entries) < 2*(len(c.moves)/2) {
				t.Errorf("%d experience entries (%v), want each of our %d positions in both tables", len(entries), err,
					len(c.moves)/2)
			}
		})
	}
}

// backgroundDuring searches pos to depth with the Player, holding the foreground a little longer (linger) as
// Search does, so that the count sees the whole hold, and returns how many background searches began meanwhile.
func backgroundDuring(p *Engine, pos games.Position, depth int, linger time.Duration) int {
	fg := p.analyst.foreground()
	fg.hold()
	fg.busy() // waits until the bookkeeper marked the hold
	fg.mu.Lock()
	before := fg.began
	fg.mu.Unlock()
	p.Search(pos, engine.NewControl(engine.Limits{Depth: depth}, pos.ToMove()), nil)
	time.Sleep(linger)
	fg.mu.Lock()
	during := fg.began - before
	fg.mu.Unlock()
	fg.release()
	return during
}

// TestAnalysisDeeperThanItsQuickPass: a game analysed deeper than analysisDepth is analysed first at
// analysisDepth, filed at once, and then at its depth, whose findings are kept over the quick ones; and a quick
// pass waiting goes before any deep one.
func TestAnalysisDeeperThanItsQuickPass(t *testing.T) {
	g := chess.Game{}
	core, logs := observer.New(zapcore.InfoLevel)
	p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
	p.analysisDepth = analysisDepth + 2
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory"), Logger: zap.New(core)}); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rival := play.Opponent{Name: "rival", Source: "match"}
	p.SetOpponent(rival)
	p.WaitPrepared()
	playedGame(t, p, g, games.SecondWins, "e2e4", "e7e5", "d1h5", "b8c6", "h5f7", "e8f7", "f1c4", "d7d5")
	p.analyst.wait()
	var depths []int64
	for _, e := range logs.FilterMessage("the game's mistake").All() {
		fields := e.ContextMap()
		if fields["move"] != "h5f7" {
			t.Errorf("a pass blamed %v, want 3.Qxf7+", fields)
		}
		d, _ := fields["depth"].(int64)
		depths = append(depths, d)
	}
	if !slices.Equal(depths, []int64{analysisDepth, analysisDepth + 2}) {
		t.Fatalf("the passes that blamed a move were at depths %v, want %d then %d", depths, analysisDepth, analysisDepth+2)
	}
	prof, err := p.Memory().Profile(rival.Key())
	if err != nil {
		t.Fatal(err)
	}
	if len(prof.Mistakes) != 1 || prof.Mistakes[0].Depth != analysisDepth+2 {
		t.Errorf("mistakes filed %+v, want the deep pass's, at depth %d", prof.Mistakes, analysisDepth+2)
	}
	entries, err := p.Memory().Experience(rival.Key(), "chess")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Depth < analysisDepth+1 {
			t.Errorf("an entry of depth %d was kept where the deep pass filed one deeper: %+v", e.Depth, e)
		}
	}

	deep := analysisJob{lg: lostGame{depth: 12, deep: true}}
	quick := analysisJob{lg: lostGame{depth: 12, won: true}}
	// In the memory's queue the lower priority is taken first.
	at := time.Now()
	if pd, pq := analysisPriority(deep.rank(), at), analysisPriority(quick.rank(), at.Add(-time.Hour)); pd <= pq {
		t.Errorf("a deep pass of a lost game (priority %d) goes before the quick pass of a won one (%d)", pd, pq)
	}
	lost := analysisJob{lg: lostGame{depth: 8}}
	if older, newer := analysisPriority(lost.rank(), at), analysisPriority(lost.rank(), at.Add(time.Minute)); newer >= older {
		t.Errorf("of two lost games the older (priority %d) goes before the latest (%d)", older, newer)
	}
	if first, then, ok := quick.quickPass(); !ok || first.lg.depth != analysisDepth || then.lg.depth != 12 || !then.lg.deep {
		t.Errorf("the passes of a 12-ply analysis: %+v then %+v (%v)", first.lg, then.lg, ok)
	}
	if _, _, ok := (analysisJob{lg: lostGame{depth: analysisDepth}}).quickPass(); ok {
		t.Errorf("an analysis at %d plies got a quick pass before it", analysisDepth)
	}
}
