// The conformance suite: one table of tests of what the memory promises (profiles, move records, take-backs,
// idempotent events, bad events, merges, forgetting, dumps and imports, analyses, the job queue), run against
// every backend.

package memory

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"dossier/internal/pgtest"
	"dossier/play/opponent"
)

// opener opens a new, empty memory for one test, closed when the test ends.
type opener func(t testing.TB, with ...func(*Options)) *Memory

// backends are the stores the conformance suite runs against.
var backends = []struct {
	name string
	open opener
}{
	{"badger", openTemp},
	{"postgres", openPostgresTemp},
}

// openPostgresTemp opens a memory in a schema of its own on the test server (skipping where there is none).
func openPostgresTemp(t testing.TB, with ...func(*Options)) *Memory {
	t.Helper()
	srv := pgtest.Start(t)
	o := Options{Dir: srv.URL, Schema: pgtest.Schema(), SpoolDir: t.TempDir()}
	for _, f := range with {
		f(&o)
	}
	m, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// conformance is the suite: each test gets the backend's opener.
var conformance = []struct {
	name string
	run  func(t *testing.T, open opener)
}{
	{"SightingsInAnyOrderGiveOneProfile", conformSightingsInAnyOrderGiveOneProfile},
	{"CompactKeepsEverything", conformCompactKeepsEverything},
	{"ProfileAfterSightingsAndGames", conformProfileAfterSightingsAndGames},
	{"MoveRecordsKeepWhatWasRecorded", conformMoveRecordsKeepWhatWasRecorded},
	{"TakeBackRemovesMovesFromThePly", conformTakeBackRemovesMovesFromThePly},
	{"EventsAreIdempotent", conformEventsAreIdempotent},
	{"BadEventsFailTheirPendingOnly", conformBadEventsFailTheirPendingOnly},
	{"MergeMovesGamesAndNames", conformMergeMovesGamesAndNames},
	{"ForgetRemovesEverything", conformForgetRemovesEverything},
	{"DumpImportRoundTrip", conformDumpImportRoundTrip},
	{"ImportRefusesMalformedInputWhole", conformImportRefusesMalformedInputWhole},
	{"AnalysisFilesMistakeAndExperience", conformAnalysisFilesMistakeAndExperience},
	{"BadAnalysesAreRefused", conformBadAnalysesAreRefused},
	{"AnalysesFollowMergeAndForget", conformAnalysesFollowMergeAndForget},
	{"AnalysesDumpAndImport", conformAnalysesDumpAndImport},
	{"ExperienceTablesKeepTheirLimit", conformExperienceTablesKeepTheirLimit},
	{"JobsFileClaimFinish", conformJobsFileClaimFinish},
	{"JobLeaseExpires", conformJobLeaseExpires},
	{"JobsAreDoneOnce", conformJobsAreDoneOnce},
	{"JobGivenUpAfterThreeClaims", conformJobGivenUpAfterThreeClaims},
	{"JobProgressIsKept", conformJobProgressIsKept},
	{"JobsDumpImportMergeForget", conformJobsDumpImportMergeForget},
	{"BadJobsAreRefused", conformBadJobsAreRefused},
}

func TestConformance(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range conformance {
				t.Run(c.name, func(t *testing.T) { c.run(t, b.open) })
			}
		})
	}
}

func conformProfileAfterSightingsAndGames(t *testing.T, open opener) {
	m := open(t)
	sightings := []opponent.Opponent{
		{Name: "Stockfish 16", Elo: 3000, Kind: opponent.Computer, Source: "uci"},
		{Name: "stockfish  16", Elo: 3000, Kind: opponent.Computer, Source: "uci"}, // same rating: not history
		{Name: "STOCKFISH 16", Elo: 3100, Title: "BOT", Source: "uci"},
	}
	for i, o := range sightings {
		mustRecord(t, m, Event{Sighting: &Sighting{Opponent: o, At: t0.Add(time.Duration(i) * time.Minute)}})
	}
	id1 := playGame(t, m, "Stockfish 16", t0.Add(time.Hour), 4, 0)
	id2 := playGame(t, m, "Stockfish 16", t0.Add(3*time.Hour), 5, 0.5)
	p, err := m.Profile("stockfish 16")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Stockfish 16", "stockfish  16", "STOCKFISH 16"}; !slices.Equal(p.Names, want) {
		t.Errorf("names %q, want %q", p.Names, want)
	}
	var elos []int
	for _, r := range p.Ratings {
		elos = append(elos, r.Elo)
	}
	// The games' starts name the opponent at 2000, a change from 3100.
	if want := []int{3000, 3100, 2000}; !slices.Equal(elos, want) {
		t.Errorf("ratings %v, want %v", elos, want)
	}
	if p.Title != "BOT" || p.Kind != "computer" {
		t.Errorf("title %q kind %q, want BOT computer", p.Title, p.Kind)
	}
	if !p.FirstSeen.Equal(t0) || !p.LastSeen.Equal(t0.Add(4*time.Hour)) {
		t.Errorf("seen %v to %v, want %v to %v", p.FirstSeen, p.LastSeen, t0, t0.Add(4*time.Hour))
	}
	if len(p.Games) != 2 || p.Games[0].ID != id1 || p.Games[1].ID != id2 {
		t.Fatalf("games %+v, want %s then %s", p.Games, id1, id2)
	}
	g := p.Games[1]
	if g.Result != "1/2-1/2" || g.OurScore != 0.5 || g.Plies != 5 || g.Reason != "checkmate" || g.Game != "chess" {
		t.Errorf("second game %+v", g)
	}
	if pts := p.Models["typeprobs"]; len(pts) != 2 || pts[0].GameID != id1 || string(pts[1].State) != `{"p":0.5}` {
		t.Errorf("model history %+v", p.Models)
	}
	sums, err := m.Opponents()
	if err != nil {
		t.Fatal(err)
	}
	want := Summary{Key: "stockfish 16", Name: "Stockfish 16", Games: 2, Draws: 1, Losses: 1,
		LastSeen: t0.Add(4 * time.Hour), Elo: 2000, Kind: "computer", Models: []string{"typeprobs"}}
	if len(sums) != 1 || !sums[0].LastSeen.Equal(want.LastSeen) {
		t.Fatalf("opponents %+v, want %+v", sums, want)
	}
	sums[0].LastSeen = want.LastSeen
	if !equalJSON(t, sums[0], want) {
		t.Errorf("summary %+v, want %+v", sums[0], want)
	}
	if _, err := m.Profile("nobody"); !errors.Is(err, ErrUnknownOpponent) || !strings.Contains(err.Error(), m.Dir()) {
		t.Errorf("profile of nobody: %v, want ErrUnknownOpponent naming %s", err, m.Dir())
	}
}

func conformMoveRecordsKeepWhatWasRecorded(t *testing.T, open opener) {
	m := open(t)
	id := NewGameID()
	mustRecord(t, m, Event{Start: &GameStart{GameID: id, Opponent: opponent.Opponent{Name: "alice", Kind: opponent.Human},
		Game: "checkers", OurSide: 1, StartFEN: "B:W21,22:B1,2", At: t0}})
	recs := []MoveRecord{
		{GameID: id, Ply: 0, ByOpponent: true, PositionKey: math.MaxUint64, FEN: "f0", Move: "11-15", TimeMS: -1,
			Probability: -1, Eval: math.NaN(), At: t0},
		{GameID: id, Ply: 1, PositionKey: 1, FEN: "f1", Move: "23-19", TimeMS: 0, Predicted: "9-13", Probability: 0,
			Eval: -12.5, At: t0.Add(time.Second)},
		{GameID: id, Ply: 2, ByOpponent: true, PositionKey: 2, FEN: "f2", Move: "8-11", TimeMS: 1500,
			Predicted: "8-11", Probability: 1, Eval: math.Inf(1), At: t0.Add(2 * time.Second)},
	}
	for _, r := range recs {
		mustRecord(t, m, Event{Move: &r})
	}
	games, err := m.Games("ALICE")
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("%d games, want 1", len(games))
	}
	g := games[0]
	if g.Result != "*" || g.OurScore != -1 || g.OurSide != 1 || g.StartFEN != "B:W21,22:B1,2" || g.Plies != 3 {
		t.Errorf("unfinished game %+v", g.GameSummary)
	}
	if want := []string{"11-15", "23-19", "8-11"}; !slices.Equal(g.Moves, want) {
		t.Errorf("moves %q, want %q (from the records, the end having none)", g.Moves, want)
	}
	for i, got := range g.Records {
		want := recs[i]
		if math.IsInf(want.Eval, 0) {
			want.Eval = math.NaN() // an evaluation JSON cannot hold is stored as none
		}
		if got.PositionKey != want.PositionKey || got.TimeMS != want.TimeMS || got.Probability != want.Probability ||
			got.Predicted != want.Predicted || got.Move != want.Move || got.FEN != want.FEN || !got.At.Equal(want.At) ||
			got.ByOpponent != want.ByOpponent || got.Ply != want.Ply ||
			!(got.Eval == want.Eval || math.IsNaN(got.Eval) && math.IsNaN(want.Eval)) {
			t.Errorf("record %d: got %+v, want %+v", i, got, want)
		}
	}
}

func conformTakeBackRemovesMovesFromThePly(t *testing.T, open opener) {
	m := open(t)
	id := NewGameID()
	mustRecord(t, m, Event{Start: &GameStart{GameID: id, Opponent: opponent.Opponent{Name: "bob"}, Game: "connect4", At: t0}})
	for ply := range 6 {
		mustRecord(t, m, Event{Move: &MoveRecord{GameID: id, Ply: ply, ByOpponent: ply%2 == 1, Move: "P@d1",
			TimeMS: -1, Probability: -1, Eval: math.NaN()}})
	}
	for _, tb := range []int{4, 4, 9} { // again, and past the end: nothing more goes
		mustRecord(t, m, Event{TakeBack: &TakeBack{GameID: id, ToPly: tb}})
	}
	mustRecord(t, m, Event{Move: &MoveRecord{GameID: id, Ply: 4, Move: "P@a1", TimeMS: -1, Probability: -1}})
	games, err := m.Games("bob")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"P@d1", "P@d1", "P@d1", "P@d1", "P@a1"}; !slices.Equal(games[0].Moves, want) {
		t.Errorf("moves after taking back to ply 4 and playing a1: %q, want %q", games[0].Moves, want)
	}
}

// TestEventsAreIdempotent applies every kind of event twice, as a client resending after a takeover does, and
// checks the store is as after once.
func conformEventsAreIdempotent(t *testing.T, open opener) {
	once, twice := open(t), open(t)
	id := "game-1"
	opp := opponent.Opponent{Name: "Carol", Elo: 1500, Kind: opponent.Human, Source: "cecp"}
	events := []Event{
		{Sighting: &Sighting{Opponent: opp, At: t0}},
		{Start: &GameStart{GameID: id, Opponent: opp, Game: "tictactoe", At: t0}},
		{Move: &MoveRecord{GameID: id, Ply: 0, Move: "P@b2", TimeMS: 5, Probability: -1, At: t0}},
		{Move: &MoveRecord{GameID: id, Ply: 1, ByOpponent: true, Move: "P@a1", TimeMS: 7, Probability: 0.5, At: t0}},
		{TakeBack: &TakeBack{GameID: id, ToPly: 1}},
		{Move: &MoveRecord{GameID: id, Ply: 1, ByOpponent: true, Move: "P@c3", TimeMS: 7, Probability: 0.5, At: t0}},
		{End: &GameEnd{GameID: id, Result: "1/2-1/2", Reason: "draw", OurScore: 0.5, At: t0}},
		{Model: &ModelUpdate{OpponentKey: "carol", Model: "depth", State: []byte(`[1,2]`), GameID: id, At: t0}},
		{Analysis: analysisOf("carol", id, 8, t0)},
	}
	recs := make([]*eventRec, len(events))
	for i, ev := range events {
		var err error
		if recs[i], err = ev.record(t0); err != nil {
			t.Fatal(err)
		}
	}
	apply := func(m *Memory, recs ...*eventRec) {
		for _, rec := range recs {
			if err := m.own.st.commitEvents([]*eventRec{rec})[0]; err != nil {
				t.Fatal(err)
			}
		}
	}
	apply(once, recs...)
	// Each event at once again, then all of them again, as a resend after a takeover does.
	for _, rec := range recs {
		apply(twice, rec, rec)
	}
	apply(twice, recs...)
	if a, b := dumpString(t, once), dumpString(t, twice); a != b {
		t.Errorf("applied once:\n%s\napplied twice:\n%s", a, b)
	}
}

func dumpString(t testing.TB, m *Memory) string {
	t.Helper()
	var buf bytes.Buffer
	if err := m.Dump(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func conformBadEventsFailTheirPendingOnly(t *testing.T, open opener) {
	m := open(t)
	good := MoveRecord{GameID: "g", Move: "e2e4", TimeMS: -1, Probability: -1}
	with := func(f func(r *MoveRecord)) Event {
		r := good
		f(&r)
		return Event{Move: &r}
	}
	cases := []struct {
		name string
		ev   Event
		want string
	}{
		{"no field", Event{}, "exactly one"},
		{"two fields", Event{Move: &good, TakeBack: &TakeBack{GameID: "g"}}, "exactly one"},
		{"no game id", with(func(r *MoveRecord) { r.GameID = "" }), "game id is empty"},
		{"control in id", with(func(r *MoveRecord) { r.GameID = "a\nb" }), "control character"},
		{"negative ply", with(func(r *MoveRecord) { r.Ply = -1 }), "ply -1"},
		{"no move", with(func(r *MoveRecord) { r.Move = "" }), "move of game g ply 0 is empty"},
		{"probability above 1", with(func(r *MoveRecord) { r.Probability = 1.5 }), "probability 1.5"},
		{"long FEN", with(func(r *MoveRecord) { r.FEN = strings.Repeat("x", 2000) }), "FEN is 2000 bytes"},
		{"bad model state", Event{Model: &ModelUpdate{OpponentKey: "x", Model: "m", State: []byte("{")}}, "not JSON"},
		{"model key not normalised", Event{Model: &ModelUpdate{OpponentKey: "X", Model: "m", State: []byte("1")}}, "not a normalised"},
		{"side 2", Event{Start: &GameStart{GameID: "g", OurSide: 2}}, "our side 2"},
		{"score 2", Event{End: &GameEnd{GameID: "g", OurScore: 2}}, "our score 2"},
		{"elo", Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "x", Elo: 10000}}}, "rating 10000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := m.Record(c.ev).Wait(context.Background())
			if !errors.Is(err, ErrBadEvent) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), m.Dir()) {
				t.Errorf("got %v, want ErrBadEvent naming %q and the directory", err, c.want)
			}
		})
	}
	mustRecord(t, m, Event{Move: &good}) // the memory goes on serving
}

func conformMergeMovesGamesAndNames(t *testing.T, open opener) {
	m := open(t)
	playGame(t, m, "SF", t0, 2, 1)
	playGame(t, m, "Stockfish", t0.Add(time.Hour), 2, 0)
	mustRecord(t, m, Event{Sighting: &Sighting{Opponent: opponent.Opponent{}, At: t0}}) // the unnamed opponent
	if err := m.Merge("sf", "stockfish"); err != nil {
		t.Fatal(err)
	}
	if err := m.Merge("SF", "Stockfish"); err != nil {
		t.Errorf("merging again: %v, want nothing to do", err)
	}
	mustRecord(t, m, Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "sf", Title: "BOT"}, At: t0.Add(5 * time.Hour)}})
	for _, name := range []string{"sf", "stockfish"} {
		p, err := m.Profile(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Key != "stockfish" || !slices.Equal(p.Aliases, []string{"sf"}) || len(p.Games) != 2 ||
			len(p.Models["typeprobs"]) != 2 || p.Title != "BOT" {
			t.Errorf("profile of %s after the merge: %+v", name, p)
		}
		if want := []string{"Stockfish", "SF", "sf"}; !slices.Equal(p.Names, want) {
			t.Errorf("names %q, want %q", p.Names, want)
		}
	}
	games, _ := m.Games("sf")
	for _, g := range games {
		if g.OpponentKey != "stockfish" {
			t.Errorf("game %s still filed under %q", g.ID, g.OpponentKey)
		}
	}
	refused := []struct{ alias, into string }{{"", "stockfish"}, {"stockfish", ""}, {opponent.UnknownKey, "stockfish"},
		{"stockfish", "stockfish"}}
	for _, r := range refused {
		if err := m.Merge(r.alias, r.into); !errors.Is(err, ErrMerge) {
			t.Errorf("Merge(%q, %q): %v, want ErrMerge", r.alias, r.into, err)
		}
	}
	if err := m.Merge("nobody", "stockfish"); !errors.Is(err, ErrUnknownOpponent) {
		t.Errorf("merging an unknown opponent: %v, want ErrUnknownOpponent", err)
	}
	sums, _ := m.Opponents()
	if len(sums) != 2 || sums[0].Key != opponent.UnknownKey || sums[1].Key != "stockfish" || sums[1].Games != 2 {
		t.Errorf("opponents after the merge %+v", sums)
	}
}

func conformForgetRemovesEverything(t *testing.T, open opener) {
	m := open(t)
	playGame(t, m, "keep", t0, 3, 1)
	before := dumpString(t, m)
	playGame(t, m, "gone", t0, 3, 1)
	playGame(t, m, "gone too", t0, 3, 1)
	if err := m.Merge("gone too", "gone"); err != nil {
		t.Fatal(err)
	}
	if err := m.Forget("Gone"); err != nil {
		t.Fatal(err)
	}
	if after := dumpString(t, m); after != before {
		t.Errorf("after forgetting, the dump is\n%s\nwant\n%s", after, before)
	}
	if err := m.Forget("gone"); !errors.Is(err, ErrUnknownOpponent) {
		t.Errorf("forgetting twice: %v, want ErrUnknownOpponent", err)
	}
	if _, err := m.Profile("gone too"); !errors.Is(err, ErrUnknownOpponent) {
		t.Errorf("the forgotten alias: %v, want ErrUnknownOpponent", err)
	}
}

func conformDumpImportRoundTrip(t *testing.T, open opener) {
	src := open(t)
	playGame(t, src, "Leela", t0, 5, 1)
	playGame(t, src, "lc0", t0.Add(time.Hour), 4, 0.5)
	mustRecord(t, src, Event{Sighting: &Sighting{Opponent: opponent.Opponent{Name: "  "}, At: t0}})
	if err := src.Merge("lc0", "leela"); err != nil {
		t.Fatal(err)
	}
	dump := dumpString(t, src)
	dst := open(t)
	playGame(t, dst, "lc0", t0.Add(2*time.Hour), 2, 0) // a game the destination has of its own, before the merge
	stats, err := dst.Import(strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(dump, "\n")
	if stats.Records != lines || stats.Added == 0 {
		t.Errorf("first import %+v of %d lines", stats, lines)
	}
	first := dumpString(t, dst)
	stats, err = dst.Import(strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	if stats.Added != 0 || stats.Unchanged != lines {
		t.Errorf("second import %+v, want all %d unchanged", stats, lines)
	}
	if again := dumpString(t, dst); again != first {
		t.Errorf("importing twice changed the store:\n%s\nthen\n%s", first, again)
	}
	p, err := dst.Profile("lc0")
	if err != nil {
		t.Fatal(err)
	}
	if p.Key != "leela" || len(p.Games) != 3 {
		t.Errorf("imported profile %+v, want leela with 3 games (lc0's own merged in)", p)
	}
	empty := open(t)
	if _, err := empty.Import(strings.NewReader(dump)); err != nil {
		t.Fatal(err)
	}
	if got := dumpString(t, empty); got != dump {
		t.Errorf("a dump imported into an empty store dumps as\n%s\nwant\n%s", got, dump)
	}
}

func conformImportRefusesMalformedInputWhole(t *testing.T, open opener) {
	m := open(t)
	playGame(t, m, "x", t0, 2, 1)
	good := dumpString(t, m)
	lines := strings.SplitAfter(strings.TrimSuffix(good, "\n"), "\n")
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"empty", "", "empty"},
		{"no schema", strings.Join(lines[1:], ""), "line 1: the dump does not start with its schema line"},
		{"newer schema", `{"type":"schema","version":4}` + "\n", "line 1: " + ErrNewerSchema.Error()},
		{"bad json at line 3", lines[0] + lines[1] + "{nope\n", "line 3"},
		{"unknown type", lines[0] + `{"type":"secret"}` + "\n", `line 2: unknown record type "secret"`},
		{"unknown field", lines[0] + `{"type":"alias","alias":"a","key":"b","extra":1}` + "\n", `line 2: json: unknown field "extra"`},
		{"bad record", lines[0] + `{"type":"move","game":"g","ply":-3,"move":"a"}` + "\n", "line 2: ply -3"},
		{"second schema", good + lines[0], "the schema line must come first"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			other := open(t)
			_, err := other.Import(strings.NewReader(c.input))
			if !errors.Is(err, ErrBadImport) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want ErrBadImport with %q", err, c.want)
			}
			if d := dumpString(t, other); d != lines[0] {
				t.Errorf("a refused import left\n%s", d)
			}
		})
	}
}

// conformSightingsInAnyOrderGiveOneProfile files the same sightings (one rating named at every game, a rating
// from a second source, several names) in time order and shuffled: the profiles are the same.
func conformSightingsInAnyOrderGiveOneProfile(t *testing.T, open opener) {
	var sightings []Event
	for i := range 6 {
		o := opponent.Opponent{Name: "Rival", Elo: 2400, Kind: opponent.Computer, Source: "uci"}
		if i%3 == 2 {
			o.Source, o.Elo = "fide", 2350
		}
		sightings = append(sightings, Event{Sighting: &Sighting{Opponent: o, At: t0.Add(time.Duration(i) * time.Hour)}})
	}
	var profiles []*Profile
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5}, {5, 3, 1, 4, 0, 2}, {2, 4, 0, 5, 1, 3}} {
		m := open(t)
		for _, i := range order {
			mustRecord(t, m, sightings[i])
		}
		p, err := m.Profile("rival")
		if err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, p)
	}
	want := []Rating{{Elo: 2400, Source: "uci", At: t0}, {Elo: 2350, Source: "fide", At: t0.Add(2 * time.Hour)}}
	for i, p := range profiles {
		if !equalJSON(t, p.Ratings, want) || !equalJSON(t, p, profiles[0]) {
			t.Errorf("order %d: ratings %+v, want %+v", i, p.Ratings, want)
		}
	}
}

// conformCompactKeepsEverything compacts after games were rewritten and an opponent forgotten: what the store
// holds is unchanged, and it goes on recording.
func conformCompactKeepsEverything(t *testing.T, open opener) {
	m := open(t)
	playGame(t, m, "kept", t0, 6, 1)
	playGame(t, m, "forgotten", t0, 6, 0)
	if err := m.Forget("forgotten"); err != nil {
		t.Fatal(err)
	}
	before := dumpString(t, m)
	if err := m.Compact(); err != nil {
		t.Fatal(err)
	}
	if after := dumpString(t, m); after != before {
		t.Errorf("compacting changed the store:\n%s\nwas\n%s", after, before)
	}
	playGame(t, m, "kept", t0.Add(time.Hour), 2, 0.5)
	if p, err := m.Profile("kept"); err != nil || len(p.Games) != 2 {
		t.Errorf("after compacting: %v", err)
	}
}
