// Analyses in the memory on every backend: a mistake and its experience filed whole, the deeper entry kept, bad
// analyses refused, merges and forget, dumps; and the migration of version 2's "mistakes" states.

package memory

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/play/opponent"
)

// analysisOf returns an analysis of game id against key: a mistake at ply 4 and two entries (the position
// before it with the better move, and the position after it), at depth.
func analysisOf(key, id string, depth int, at time.Time) *Analysis {
	return &Analysis{OpponentKey: key, GameID: id, Game: "chess", At: at,
		Mistake: &Mistake{Ply: 4, FEN: "fen before", Move: "d1h5", Value: -815, Best: "b1c3", BestValue: 35, Depth: depth},
		Experience: []Experience{
			{FEN: "fen before", Hash: 0x1111, Move: "b1c3", Value: 35, Depth: depth, Bound: BoundExact},
			{FEN: "fen after", Hash: 0x2222, Value: 815, Depth: depth - 1, Bound: BoundLower},
		}}
}

// experienceByTable indexes entries by their table ("" every opponent's) and hash.
func experienceByTable(entries []Experience) map[string]map[uint64]Experience {
	out := map[string]map[uint64]Experience{}
	for _, e := range entries {
		if out[e.OpponentKey] == nil {
			out[e.OpponentKey] = map[uint64]Experience{}
		}
		out[e.OpponentKey][e.Hash] = e
	}
	return out
}

func conformAnalysisFilesMistakeAndExperience(t *testing.T, open opener) {
	m := open(t)
	id := playGame(t, m, "Dana", t0, 6, 0)
	mustRecord(t, m, Event{Analysis: analysisOf("dana", id, 8, t0.Add(2*time.Hour))})
	p, err := m.Profile("dana")
	if err != nil {
		t.Fatal(err)
	}
	want := Mistake{GameID: id, Game: "chess", Ply: 4, FEN: "fen before", Move: "d1h5", Value: -815, Best: "b1c3",
		BestValue: 35, Depth: 8, At: t0.Add(2 * time.Hour)}
	if len(p.Mistakes) != 1 || !equalJSON(t, p.Mistakes[0], want) {
		t.Fatalf("mistakes %+v, want %+v", p.Mistakes, want)
	}
	// The brief profile: the same mistakes and names, no games or models.
	brief, err := m.ProfileBrief("Dana")
	if err != nil {
		t.Fatal(err)
	}
	if len(brief.Mistakes) != 1 || !equalJSON(t, brief.Mistakes[0], want) || !slices.Equal(brief.Names, p.Names) ||
		len(brief.Games) != 0 || len(brief.Models) != 0 {
		t.Fatalf("brief profile %+v, want the mistakes %+v and names %q alone", brief, want, p.Names)
	}
	if _, err := m.ProfileBrief("nobody"); !errors.Is(err, ErrUnknownOpponent) {
		t.Fatalf("brief profile of nobody: %v, want ErrUnknownOpponent", err)
	}
	// Another opponent's analysis through the same positions: shallower where it is not deeper.
	other := playGame(t, m, "Erin", t0.Add(3*time.Hour), 6, 0)
	shallow := analysisOf("erin", other, 6, t0.Add(4*time.Hour))
	shallow.Experience[1].Depth = 12 // deeper than Dana's entry after the move
	shallow.Experience[1].Value = 900
	mustRecord(t, m, Event{Analysis: shallow})
	cases := []struct {
		name, key, game string
		tables          map[string]map[uint64]int // table -> hash -> depth
	}{
		{"dana's and every opponent's", "Dana", "chess", map[string]map[uint64]int{
			"dana": {0x1111: 8, 0x2222: 7}, "": {0x1111: 8, 0x2222: 12}}},
		{"erin's and every opponent's", "erin", "chess", map[string]map[uint64]int{
			"erin": {0x1111: 6, 0x2222: 12}, "": {0x1111: 8, 0x2222: 12}}},
		{"an unknown opponent reads every opponent's", "nobody", "chess", map[string]map[uint64]int{
			"": {0x1111: 8, 0x2222: 12}}},
		{"another game has none", "dana", "checkers", map[string]map[uint64]int{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := m.Experience(c.key, c.game)
			if err != nil {
				t.Fatal(err)
			}
			tables := experienceByTable(got)
			if len(tables) != len(c.tables) {
				t.Fatalf("tables %v, want %v", tables, c.tables)
			}
			for table, depths := range c.tables {
				for hash, depth := range depths {
					e, ok := tables[table][hash]
					if !ok || e.Depth != depth || e.Version != ExperienceVersion || e.Game != "chess" {
						t.Errorf("table %q entry %x: %+v (%v), want depth %d", table, hash, e, ok, depth)
					}
				}
			}
		})
	}
	all, _ := m.Experience("", "chess")
	if e := experienceByTable(all)[""][0x2222]; e.Value != 900 || e.Bound != BoundLower || e.Move != "" || e.GameID != other {
		t.Errorf("every opponent's entry after the move: %+v", e)
	}
}

func conformExperienceTablesKeepTheirLimit(t *testing.T, open opener) {
	const limit = 20
	m := open(t, func(o *Options) { o.ExperienceLimit = limit })
	id := playGame(t, m, "Dana", t0, 6, 0)
	// Three analyses of 8 entries each, at depths 10, 5 and 20: the third takes both tables past the limit.
	depths := []int{10, 5, 20}
	for i, depth := range depths {
		a := &Analysis{OpponentKey: "dana", GameID: id, Game: "chess", At: t0.Add(time.Duration(i+1) * time.Hour)}
		for j := range 8 {
			hash := uint64(i*100 + j + 1)
			a.Experience = append(a.Experience, Experience{FEN: fmt.Sprintf("fen %d", hash), Hash: hash, Value: 1,
				Depth: depth, Bound: BoundExact})
		}
		mustRecord(t, m, Event{Analysis: a})
	}
	got, err := m.Experience("dana", "chess")
	if err != nil {
		t.Fatal(err)
	}
	for table, entries := range experienceByTable(got) {
		// 24 entries > 20: the shallowest go until 18 (a tenth of the room free) are left: 6 of depth 5.
		if len(entries) != limit-limit/10 {
			t.Errorf("table %q holds %d entries, want %d", table, len(entries), limit-limit/10)
		}
		kept := map[int]int{}
		for _, e := range entries {
			kept[e.Depth]++
		}
		if kept[10] != 8 || kept[20] != 8 || kept[5] != 2 {
			t.Errorf("table %q keeps entries by depth %v, want 8 of 10 and 20, 2 of 5", table, kept)
		}
	}
	if len(experienceByTable(got)) != 2 {
		t.Errorf("tables %v, want dana's and every opponent's", experienceByTable(got))
	}
	// Another game's table is another table: chess's limit leaves it alone.
	a := &Analysis{OpponentKey: "dana", GameID: id, Game: "checkers", At: t0.Add(5 * time.Hour),
		Experience: []Experience{{FEN: "a checkers position", Hash: 7, Value: 1, Depth: 1, Bound: BoundExact}}}
	mustRecord(t, m, Event{Analysis: a})
	if got, _ := m.Experience("dana", "checkers"); len(got) != 2 {
		t.Errorf("checkers experience %v, want its one entry in both tables", got)
	}
}

func conformBadAnalysesAreRefused(t *testing.T, open opener) {
	m := open(t)
	cases := []struct {
		name   string
		change func(a *Analysis)
		says   string
	}{
		{"a value that is no number", func(a *Analysis) { a.Experience[0].Value = math.NaN() }, "not a number"},
		{"an unknown bound", func(a *Analysis) { a.Experience[1].Bound = "about" }, "bound"},
		{"a mistake without its better move", func(a *Analysis) { a.Mistake.Best = "" }, "better move"},
		{"no game", func(a *Analysis) { a.Game = "" }, "game is empty"},
		{"an opponent key that is not normalised", func(a *Analysis) { a.OpponentKey = "Dana" }, "normalised"},
		{"depth 0", func(a *Analysis) { a.Experience[0].Depth = 0 }, "depth 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := analysisOf("dana", "game-1", 8, t0)
			c.change(a)
			err := m.Record(Event{Analysis: a}).Wait(context.Background())
			if !errors.Is(err, ErrBadEvent) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("got %v, want ErrBadEvent saying %q", err, c.says)
			}
		})
	}
	if _, err := m.Profile("dana"); !errors.Is(err, ErrUnknownOpponent) {
		t.Errorf("a refused analysis left a profile: %v", err)
	}
	if got, err := m.Experience("", "chess"); err != nil || len(got) != 0 {
		t.Errorf("a refused analysis left experience: %+v %v", got, err)
	}
}

func conformAnalysesFollowMergeAndForget(t *testing.T, open opener) {
	m := open(t)
	id := playGame(t, m, "Frank", t0, 6, 0)
	mustRecord(t, m, Event{Analysis: analysisOf("frank", id, 8, t0)})
	playGame(t, m, "Frank II", t0.Add(time.Hour), 4, 1)
	if err := m.Merge("frank", "frank ii"); err != nil {
		t.Fatal(err)
	}
	p, err := m.Profile("frank ii")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Mistakes) != 1 || p.Mistakes[0].GameID != id {
		t.Errorf("mistakes after the merge: %+v", p.Mistakes)
	}
	got, _ := m.Experience("frank ii", "chess")
	if tables := experienceByTable(got); len(tables["frank ii"]) != 2 || len(tables["frank"]) != 0 {
		t.Errorf("experience after the merge: %v", tables)
	}
	if err := m.Forget("frank ii"); err != nil {
		t.Fatal(err)
	}
	got, _ = m.Experience("frank ii", "chess")
	if tables := experienceByTable(got); len(tables) != 1 || len(tables[""]) != 2 {
		t.Errorf("after forget, want every opponent's table alone: %v", tables)
	}
	if dump := dumpString(t, m); strings.Contains(dump, `"type":"mistake"`) {
		t.Errorf("forget left a mistake:\n%s", dump)
	}
}

func conformAnalysesDumpAndImport(t *testing.T, open opener) {
	src, dst := open(t), open(t)
	id := playGame(t, src, "Gina", t0, 6, 0.5)
	mustRecord(t, src, Event{Analysis: analysisOf("gina", id, 9, t0)})
	dump := dumpString(t, src)
	for _, want := range []string{`"type":"mistake"`, `"type":"experience","key":"gina"`, `"type":"experience","game":"chess"`} {
		if !strings.Contains(dump, want) {
			t.Errorf("the dump has no %s:\n%s", want, dump)
		}
	}
	for range 2 { // twice: the second changes nothing
		if _, err := dst.Import(strings.NewReader(dump)); err != nil {
			t.Fatal(err)
		}
	}
	if got := dumpString(t, dst); got != dump {
		t.Errorf("imported:\n%s\nwant:\n%s", got, dump)
	}
}

// TestMigrateFromVersion2 writes version 2's "mistakes" states into a store marked version 2 and opens it:
// the state that blamed a move becomes that game's mistake record, the others are dropped with a warning, every
// state goes, and the version is 3.
func TestMigrateFromVersion2(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	blamed := playGame(t, m, "Hugo", t0, 6, 0)
	clean := playGame(t, m, "Hugo", t0.Add(time.Hour), 6, 0)
	states := map[string]string{
		blamed: `{"Moves":[{"Ply":0,"Before":"f0","Played":"e2e4","Best":"e2e4","Value":20,"BestValue":20,"Depth":8},` +
			`{"Ply":4,"Before":"f4","Played":"d1h5","Best":"b1c3","Value":-815,"BestValue":35,"Depth":8}],"Mistake":1,"Complete":true}`,
		clean:     `{"Moves":[{"Ply":0,"Before":"f0","Played":"e2e4","Best":"e2e4","Value":20,"BestValue":20,"Depth":8}],"Mistake":-1,"Complete":true}`,
		"missing": `{"Moves":[{"Ply":2,"Before":"f2","Played":"a2a3","Best":"d2d4","Value":-300,"BestValue":10,"Depth":8}],"Mistake":0}`,
	}
	err = m.own.st.update(func(txn kvTxn) error {
		for id, state := range states {
			rec := &modelRec{Key: "hugo", Model: mistakesModelV2, At: t0.Add(2 * time.Hour), Game: id, State: []byte(state)}
			if err := txn.set(modelKey("hugo", rec.Model, rec.At, id), encodeValue(rec)); err != nil {
				return err
			}
		}
		return txn.set([]byte(keySchema), []byte("2"))
	})
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	for open := range 2 { // the second open finds version 3 and changes nothing
		m, err := Open(Options{Dir: dir})
		if err != nil {
			t.Fatalf("open %d: %v", open, err)
		}
		p, err := m.Profile("hugo")
		if err != nil {
			t.Fatal(err)
		}
		want := Mistake{GameID: blamed, Game: "chess", Ply: 4, FEN: "f4", Move: "d1h5", Value: -815, Best: "b1c3",
			BestValue: 35, Depth: 8, At: t0.Add(2 * time.Hour)}
		if len(p.Mistakes) != 1 || !equalJSON(t, p.Mistakes[0], want) {
			t.Errorf("open %d: mistakes %+v, want %+v", open, p.Mistakes, want)
		}
		if pts := p.Models[mistakesModelV2]; len(pts) != 0 || len(p.Models["typeprobs"]) != 2 {
			t.Errorf("open %d: models %v, want the mistakes states gone and the others kept", open, p.Models)
		}
		version := ""
		m.own.st.kv.view(func(txn kvTxn) error {
			v, _, err := txn.get([]byte(keySchema))
			version = string(v)
			return err
		})
		if version != "3" {
			t.Errorf("open %d: schema version %q", open, version)
		}
		m.Close()
	}
}

// TestAnalysisIsFiledWholeOrNotAtAll: an analysis whose last entry breaks a rule is refused whole, nothing of
// its mistake or first entries kept (one event, one transaction).
func TestAnalysisIsFiledWholeOrNotAtAll(t *testing.T) {
	m := openTemp(t)
	a := analysisOf(opponent.NameKey("Ivy"), "game-9", 8, t0)
	a.Experience = append(a.Experience, Experience{FEN: "x", Hash: 3, Value: 1, Depth: 2000, Bound: BoundExact})
	if err := m.Record(Event{Analysis: a}).Wait(context.Background()); !errors.Is(err, ErrBadEvent) {
		t.Fatalf("got %v, want ErrBadEvent", err)
	}
	if dump := dumpString(t, m); strings.Count(dump, "\n") != 1 {
		t.Errorf("the refused analysis left records:\n%s", dump)
	}
}

// TestAnalysisThroughTheSocket: a client files an analysis and reads the experience and the mistake back through
// the owner's socket, as a second engine on one memory does.
func TestAnalysisThroughTheSocket(t *testing.T) {
	owner, client := openTwice(t, t.TempDir())
	defer owner.Close()
	defer client.Close()
	if client.Owner() {
		t.Fatal("the second memory owns the store")
	}
	id := playGame(t, client, "Jane", t0, 6, 0)
	mustRecord(t, client, Event{Analysis: analysisOf("jane", id, 8, t0)})
	for name, m := range map[string]*Memory{"owner": owner, "client": client} {
		entries, err := m.Experience("jane", "chess")
		if err != nil || len(entries) != 4 {
			t.Errorf("%s: %d entries (%v), want 2 in each table", name, len(entries), err)
		}
		p, err := m.Profile("jane")
		if err != nil || len(p.Mistakes) != 1 || p.Mistakes[0].GameID != id {
			t.Errorf("%s: mistakes %+v (%v)", name, p.Mistakes, err)
		}
	}
}
