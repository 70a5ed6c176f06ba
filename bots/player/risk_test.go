// The Player's risk options and live model over UCI: ModelRisk read live by the guard, the live model read at every move, the strength options.

package player

import (
	"strings"
	"sync"
	"testing"

	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games/checkers"
	"dossier/games/chess"
)

func TestPlayerGuardsModelSearchesAndReadsModelRiskLive(t *testing.T) {
	g := chess.Game{}
	tc := struct{ fen, trap string }{"7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1", "b6c6"} // WAC.006: OM plays Rc6, which our search values far below Rb7
	player := New(g, searchers.Config{HashMB: 8})
	tr := newTranscript(t, player, g)
	tr.send("uci")
	tr.until("uciok")
	tr.send("setoption name Search value om")
	tr.send("setoption name OpponentModel value " + trapModel)
	tr.send("ucinewgame")
	tr.send("position fen " + tc.fen)
	tr.send("isready")
	tr.until("readyok")
	_, texts, move := tr.search("depth 4")
	if move == tc.trap || !strings.Contains(strings.Join(texts, "\n"), "model risk: "+tc.trap) {
		t.Errorf("ModelRisk %d: bestmove %s, info strings %q", searchers.DefaultModelRisk, move, texts)
	}
	player.mu.Lock()
	built := player.searcher
	player.mu.Unlock()
	tr.send("setoption name ModelRisk value 1000")
	tr.send("isready")
	tr.until("readyok")
	if _, texts, move = tr.search("depth 4"); move != tc.trap {
		t.Errorf("ModelRisk 1000: bestmove %s, not the model's %s (%q)", move, tc.trap, texts)
	}
	tr.send("setoption name ModelRisk value 10000")
	tr.send("isready")
	tr.until("readyok")
	if _, texts, move = tr.search("depth 4"); move != tc.trap || strings.Contains(strings.Join(texts, "\n"), "model risk") {
		t.Errorf("ModelRisk off: bestmove %s, info strings %q", move, texts)
	}
	player.mu.Lock()
	rebuilt := player.searcher != built
	player.mu.Unlock()
	if rebuilt {
		t.Errorf("the ModelRisk option rebuilt the searcher")
	}
	tr.send("quit")
}

func TestLiveModel(t *testing.T) {
	g := checkers.Game{}
	live := &countingModel{}
	live.set("mat-tot25@2", 1)
	player := New(g, searchers.Config{Preset: "mat-tot25", Search: searchers.MStarSearch, HashMB: 1})
	player.SetLiveModel(live)
	search := func() engine.Result {
		ctl := engine.NewControl(engine.Limits{Depth: 3}, g.Start().ToMove())
		return player.Search(g.Start(), ctl, nil)
	}
	first := search()
	if live.count() != 1 || first.Move == 0 {
		t.Fatalf("after one search: %d reads, move %v", live.count(), first.Move)
	}
	// An option change rebuilds the searcher; the live model stays and is read again.
	for _, o := range player.Options() {
		if o.Name == "Hash" {
			if err := o.Set("2", true); err != nil {
				t.Fatal(err)
			}
		}
	}
	search()
	if live.count() != 2 {
		t.Errorf("after an option change: %d reads, want 2", live.count())
	}
	if player.Config().Live != searchers.LiveModel(live) {
		t.Error("the option change dropped the live model")
	}
	// A new state (a term of the wrong form for M*: a probability) is read at the next move and reported.
	live.set("mat-tot25@2:0.5,mat+tot25@2:0.5", 2)
	var texts []string
	ctl := engine.NewControl(engine.Limits{Depth: 3}, g.Start().ToMove())
	res := player.Search(g.Start(), ctl, func(i engine.Info) {
		if i.Text != "" {
			texts = append(texts, i.Text)
		}
	})
	if res.Move == 0 || len(texts) == 0 {
		t.Errorf("a state M* cannot take: move %v, info strings %q", res.Move, texts)
	}
}

// TestStrengthOptionsOverUCI drives the options through a UCI session: they are announced, MultiPV prints one
// numbered line per move and depth, Mode even and UCI_LimitStrength say their level, a model search
// refuses them, and the bestmove is always legal.
func TestStrengthOptionsOverUCI(t *testing.T) {
	g := chess.Game{}
	tr := newTranscript(t, New(g, searchers.Config{HashMB: 4}), g)
	tr.send("uci")
	text := strings.Join(tr.until("uciok"), "\n")
	for _, want := range []string{
		"option name Mode type combo default strongest var strongest var even\n",
		"option name UCI_LimitStrength type check default false\n",
		"option name UCI_Elo type spin default 1800 min 1000 max 2600\n",
		"option name MultiPV type spin default 1 min 1 max 256\n",
	} {
		if !strings.Contains(text+"\n", want) {
			t.Errorf("uci reply lacks %q", want)
		}
	}
	tr.send("setoption name MultiPV value 3")
	tr.send("position startpos moves e2e4")
	tr.send("go depth 3")
	lines := tr.until("bestmove")
	for depth := 1; depth <= 3; depth++ {
		for k := 1; k <= 3; k++ {
			prefix := "info depth " + string(rune('0'+depth)) + " seldepth "
			found := false
			for _, l := range lines {
				found = found || strings.HasPrefix(l, prefix) && strings.Contains(l, " multipv "+string(rune('0'+k))+" ")
			}
			if !found {
				t.Errorf("no multipv %d line at depth %d in %q", k, depth, lines)
			}
		}
	}
	tr.send("setoption name MultiPV value 1")
	tr.send("setoption name Mode value even")
	_, texts, move := tr.search("depth 4")
	if !containsPrefix(texts, "even: level 1800 at depth 4, ") || !legalText(mustPosition(t, g, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), move) {
		t.Errorf("even: texts %q, move %s", texts, move)
	}
	tr.send("setoption name UCI_LimitStrength value true")
	tr.send("setoption name UCI_Elo value 1350")
	_, texts, _ = tr.search("depth 4")
	if !containsPrefix(texts, "UCI_Elo 1350: level 1350 at depth ") {
		t.Errorf("UCI_Elo: texts %q", texts)
	}
	tr.send("setoption name Search value om")
	_, texts, move = tr.search("depth 2")
	if !containsPrefix(texts, "error: UCI_Elo 1350 plays with alphabeta, not om") || move == "" {
		t.Errorf("model search: texts %q, move %s", texts, move)
	}
}

// countingModel is a LiveModel whose state a test replaces, counting how often searches read it.
type countingModel struct {
	mu    sync.Mutex
	state searchers.LiveModelState
	reads int
}

func (m *countingModel) Current() searchers.LiveModelState {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	return m.state
}

func (m *countingModel) set(spec string, version uint64) {
	parsed, err := searchers.ParseModelSpec(spec)
	if err != nil {
		panic(err)
	}
	m.mu.Lock()
	m.state = searchers.LiveModelState{Spec: parsed, Version: version}
	m.mu.Unlock()
}

func (m *countingModel) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reads
}

// containsPrefix reports whether a string of list starts with prefix.
func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
