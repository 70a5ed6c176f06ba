// The experience through the Player: an entry deeper than the search changes its move and value and says so,
// a shallower one does not; entries of another game, stale ones and unreadable ones are ignored with a warning;
// the opponent's entry wins over every opponent's, the deeper over the shallower.

package player

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"dossier/bots/prepare"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/memory"
	"dossier/play"
)

// mustMove reads a move of p or fails the test.
func mustMove(t testing.TB, p games.Position, text string) games.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// experiencePlayer returns a chess Player searching depth plies with the memory in a temporary directory, its
// warnings observed, against the opponent rival.
func experiencePlayer(t *testing.T, depth int) (*Engine, *observer.ObservedLogs, play.Opponent) {
	t.Helper()
	core, logs := observer.New(zapcore.WarnLevel)
	p := New(chess.Game{}, searchers.Config{HashMB: 1, Depth: depth, Search: searchers.AlphaBetaSearch})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory"), Logger: zap.New(core)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	rival := play.Opponent{Name: "rival", Source: "match"}
	p.SetOpponent(rival)
	p.WaitPrepared()
	return p, logs, rival
}

// fileExperience records entries, and the mistake when not nil, as the analysis of a game against key and
// reloads the Player's memory.
func fileExperience(t *testing.T, p *Engine, key string, mistake *memory.Mistake, entries ...memory.Experience) {
	t.Helper()
	p.NewGame(chess.Game{})
	p.WaitPrepared()
	err := p.Memory().Record(memory.Event{Analysis: &memory.Analysis{OpponentKey: key, GameID: "game-1", Game: "chess",
		Mistake: mistake, Experience: entries}}).Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.NewGame(chess.Game{}) // reads the memory again, off the clock
	p.WaitPrepared()
}

// searchInfo searches pos under lim with the Player and returns the result and its info strings.
func searchInfo(p *Engine, pos games.Position, lim engine.Limits) (engine.Result, []string) {
	var texts []string
	res := p.Search(pos.Clone(), engine.NewControl(lim, pos.ToMove()), func(i engine.Info) {
		if i.Text != "" {
			texts = append(texts, i.Text)
		}
	})
	return res, texts
}

func TestExperienceDeeperThanTheSearchChangesItsMoveAndValue(t *testing.T) {
	g := chess.Game{}
	start := g.Start()
	lim := engine.Limits{Depth: 4}
	cases := []struct {
		name    string
		depth   int // of the entry after the search's own move
		changes bool
	}{
		{"an entry deeper than the search", 12, true},
		// One ply: late-move reductions may search 1.e4 two plies deep below a 4-ply root, where an entry of
		// depth 2 rightly settles it (with the tuned evaluation 1.e4 and 1.e3 differ by less than a centipawn).
		{"an entry shallower than the search", 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, logs, rival := experiencePlayer(t, 0)
			p.NewGame(g)
			p.WaitPrepared()
			before, _ := searchInfo(p, start, lim)
			// Every search below starts from a new game (an empty table, no history), so that what it finds
			// depends on the experience alone: the selective search's values depend on what the table holds.
			only := lim
			only.SearchMoves = []games.Move{before.Move}
			p.NewGame(g)
			p.WaitPrepared()
			baseline, _ := searchInfo(p, start, only)
			after := start.Clone()
			after.Play(before.Move)
			// The deep search found the reply wins a rook for the side to move after our move.
			played := start.FormatMove(before.Move)
			fileExperience(t, p, rival.Key(), &memory.Mistake{FEN: start.FEN(), Move: played, Value: -500, Best: played,
				BestValue: 0, Depth: c.depth}, memory.Experience{FEN: after.FEN(), Hash: after.Hash(), Value: 500,
				Depth: c.depth, Bound: memory.BoundExact})
			again, _ := searchInfo(p, start, only)
			p.NewGame(g)
			p.WaitPrepared()
			res, infos := searchInfo(p, start, lim)
			changed := res.Move != before.Move
			if changed != c.changes {
				t.Fatalf("move %s, before the entry %s (value %.0f, then %.0f): changed %v, want %v",
					start.FormatMove(res.Move), start.FormatMove(before.Move), before.Score, res.Score, changed, c.changes)
			}
			// The search says why it leaves the move of the game the mistake was found in, or that it plays it again.
			why := map[bool]string{
				true: ", 1." + games.RecordMove(start, before.Move) + "? an analysed game no longer stored (-5.0 at depth 12)",
				false: "experience: 1." + games.RecordMove(start, before.Move) +
					" again, although it was blamed in an analysed game no longer stored (-5.0 at depth 1"}[c.changes]
			if said := strings.Join(infos, "\n"); !strings.Contains(said, why) {
				t.Errorf("info strings %q, want one saying %q", infos, why)
			}
			// The move played before is now valued at the entry's value (for us, a rook down); a shallower
			// entry leaves its value as the search found it.
			if wantValue := map[bool]float64{true: -500, false: baseline.Score}[c.changes]; again.Score != wantValue {
				t.Errorf("%s valued %.0f, want %.0f", start.FormatMove(before.Move), again.Score, wantValue)
			}
			if logs.Len() != 0 {
				t.Errorf("warnings: %v", logs.All())
			}
		})
	}
}

func TestExperienceIgnoresEntriesOfAnotherGameAndStaleOnes(t *testing.T) {
	g := chess.Game{}
	start := g.Start()
	after := start.Clone()
	after.Play(mustMove(t, after, "e2e4"))
	cp := checkers.Game{}.Start()
	cases := []struct {
		name  string
		entry memory.Experience
		warns string
	}{
		{"a position of another game", memory.Experience{FEN: cp.FEN(), Hash: cp.Hash(), Value: 500, Depth: 12,
			Bound: memory.BoundExact}, "does not read in chess"},
		{"a stale entry", memory.Experience{FEN: after.FEN(), Hash: after.Hash(), Value: 500, Depth: 12,
			Bound: memory.BoundExact, Version: memory.ExperienceVersion + 1}, "stale entry"},
		{"a move not legal in its position", memory.Experience{FEN: after.FEN(), Hash: after.Hash(), Move: "e2e4",
			Value: 500, Depth: 12, Bound: memory.BoundExact}, "not legal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, logs, rival := experiencePlayer(t, 0)
			fileExperience(t, p, rival.Key(), nil, c.entry)
			x := p.gameMemory.experienceOf("chess")
			if x.size() != 0 {
				t.Errorf("%d entries taken, want none", x.size())
			}
			found := false
			for _, e := range logs.All() {
				found = found || strings.Contains(e.Message, c.warns)
			}
			if !found {
				t.Errorf("no warning saying %q: %v", c.warns, logs.All())
			}
		})
	}
}

func TestBuildExperienceKeepsTheOpponentsEntryThenTheDeeper(t *testing.T) {
	g := chess.Game{}
	p := g.Start()
	entry := func(key string, depth int, value float64, hash uint64) memory.Experience {
		return memory.Experience{OpponentKey: key, Game: "chess", FEN: p.FEN(), Hash: hash, Move: "e2e4", Value: value,
			Depth: depth, Bound: memory.BoundLower, Version: memory.ExperienceVersion}
	}
	cases := []struct {
		name    string
		entries []memory.Experience
		want    float64
	}{
		{"the opponent's over every opponent's deeper one", []memory.Experience{entry("", 20, 1, p.Hash()), entry("rival", 8, 2, p.Hash())}, 2},
		{"the opponent's first, then every opponent's", []memory.Experience{entry("rival", 8, 2, p.Hash()), entry("", 20, 1, p.Hash())}, 2},
		{"the deeper of every opponent's", []memory.Experience{entry("", 8, 1, p.Hash()), entry("", 9, 3, p.Hash())}, 3},
		{"filed under another hash", []memory.Experience{entry("", 8, 4, 12345)}, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			core, logs := observer.New(zapcore.WarnLevel)
			x := buildExperience(g, c.entries, zap.New(core), nil)
			e, ok := x.Lookup(p.Hash())
			if !ok || e.Score != c.want || e.Bound != engine.BoundLower || e.Move != mustMove(t, p, "e2e4") {
				t.Errorf("entry %+v (%v), want value %v", e, ok, c.want)
			}
			if logs.Len() != 0 {
				t.Errorf("warnings: %v", logs.All())
			}
		})
	}
}

func TestBuildExperienceWarnsOfEntriesOfAnotherGame(t *testing.T) {
	g := chess.Game{}
	p := g.Start()
	cases := []struct {
		name  string
		entry memory.Experience
		warns string
	}{
		{"filed as checkers", memory.Experience{Game: "checkers", FEN: p.FEN(), Hash: p.Hash(), Value: 1, Depth: 8,
			Bound: memory.BoundExact, Version: memory.ExperienceVersion}, "an entry of checkers, not chess"},
		{"an unknown bound", memory.Experience{Game: "chess", FEN: p.FEN(), Hash: p.Hash(), Value: 1, Depth: 8,
			Bound: "about", Version: memory.ExperienceVersion}, "unknown bound"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			core, logs := observer.New(zapcore.WarnLevel)
			x := buildExperience(g, []memory.Experience{c.entry}, zap.New(core), nil)
			if x.size() != 0 {
				t.Errorf("%d entries taken", x.size())
			}
			if logs.Len() != 1 || !strings.Contains(logs.All()[0].Message, c.warns) {
				t.Errorf("warnings %v, want one saying %q", logs.All(), c.warns)
			}
		})
	}
}

func TestRecallNamesTheGameOfEachMistake(t *testing.T) {
	g := chess.Game{}
	start := g.Start().FEN()
	stored := []memory.Game{
		{GameSummary: memory.GameSummary{ID: "g1", Game: "chess", OurScore: 1}, StartFEN: start},
		{GameSummary: memory.GameSummary{ID: "g2", Game: "chess", OurScore: 0}, StartFEN: start},
		{GameSummary: memory.GameSummary{ID: "g3", Game: "chess", OurScore: 0.5}, StartFEN: start},
	}
	cases := []struct {
		id, fen, want string
	}{
		{"g2", "fen of g2", "lost game 2"},
		{"g3", "fen of g3", "drew game 3"},
		{"gone", "fen of gone", "an analysed game no longer stored"},
	}
	var mistakes []memory.Mistake
	for _, c := range cases {
		mistakes = append(mistakes, memory.Mistake{GameID: c.id, Game: "chess", FEN: c.fen})
	}
	mistakes = append(mistakes, memory.Mistake{GameID: "g2", Game: "checkers", FEN: "a checkers position"})
	r := newRecall("rival", g, stored, mistakes, nil)
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			if got := r.mistakes[c.fen].game; got != c.want {
				t.Errorf("named %q, want %q", got, c.want)
			}
		})
	}
	if _, ok := r.mistakes["a checkers position"]; ok {
		t.Errorf("a mistake of another game was taken")
	}
}

// The table's filter never hides an entry: every position put is found, with its entry, in the table and in a
// copy made for a preparation's finding; a hash never put is not.
func TestExperienceTableFindsEveryEntry(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 33))
	x := newExperienceTable(chess.Game{})
	put := map[uint64]int{}
	for i := range 50000 {
		h := r.Uint64()
		if i%3 == 0 {
			h &= 0xffff // hashes that vary in their low bits only
		}
		if _, dup := put[h]; dup {
			continue
		}
		put[h] = i%60 + 1
		x.put(h, engine.ExperienceEntry{Depth: i%60 + 1, Bound: engine.BoundExact}, true, false)
	}
	y := x.withPrepared(chess.Game{}, prepare.Finding{Position: prepare.Position{FEN: "not a position"}})
	for h, depth := range put {
		for name, table := range map[string]*experienceTable{"table": x, "copy": y} {
			if e, ok := table.Lookup(h); !ok || e.Depth != depth {
				t.Fatalf("%s: hash %#x: got %+v, %v, want the entry of depth %d", name, h, e, ok, depth)
			}
		}
	}
	for range 100000 {
		if h := r.Uint64(); put[h] == 0 {
			if e, ok := x.Lookup(h); ok {
				t.Fatalf("hash %#x never put: found %+v", h, e)
			}
		}
	}
}
