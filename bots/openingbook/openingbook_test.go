package openingbook

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/games/chess"
)

// play returns the chess position after the moves (UCI notation) from the start.
func play(t testing.TB, moves string) games.Position {
	t.Helper()
	p := chess.Game{}.Start()
	for _, tok := range strings.Fields(moves) {
		m, err := p.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	return p
}

// entry returns the entry of move (UCI) in the position after moves, with a weight.
func entry(t testing.TB, moves, move string, weight uint16) Entry {
	t.Helper()
	p := play(t, moves)
	m, err := p.ParseMove(move)
	if err != nil {
		t.Fatal(err)
	}
	e, err := EntryOf(p, m, weight)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// written returns the bytes of a book of the entries.
func written(t testing.TB, entries ...Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, entries); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// names returns the moves as UCI strings in p, in order.
func names(p games.Position, moves []Move) string {
	var s []string
	for _, m := range moves {
		s = append(s, p.FormatMove(m.Move))
	}
	return strings.Join(s, " ")
}

func TestWriteThenReadAFile(t *testing.T) {
	data := written(t,
		entry(t, "e2e4", "c7c5", 10),
		entry(t, "", "d2d4", 30),
		entry(t, "", "e2e4", 50),
		entry(t, "", "e2e4", 5), // a second entry of one move: added up
		entry(t, "e2e4", "e7e5", 20),
	)
	path := filepath.Join(t.TempDir(), "small.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Len() != 5 || b.Name() != "small.bin" {
		t.Fatalf("Len %d Name %q", b.Len(), b.Name())
	}
	start := play(t, "")
	moves, err := b.Moves(start)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(start, moves); got != "e2e4 d2d4" || moves[0].Weight != 55 || moves[1].Weight != 30 {
		t.Fatalf("start: %s %+v", got, moves)
	}
	after := play(t, "e2e4")
	moves, err = b.Moves(after)
	if err != nil || names(after, moves) != "e7e5 c7c5" {
		t.Fatalf("after e2e4: %s %v", names(after, moves), err)
	}
	if moves, err := b.Moves(play(t, "d2d4")); err != nil || len(moves) != 0 {
		t.Fatalf("after d2d4: %v %v", moves, err)
	}
	b.Close()
	if _, err := b.Moves(start); err == nil {
		t.Fatal("a closed book answered")
	}
}

func TestAnEntryThatIsNoLegalMoveIsLeftOut(t *testing.T) {
	good := entry(t, "", "g1f3", 7)
	bad := good
	bad.Move = 0o7777 // h8h8: no move
	b, err := FromBytes("test", written(t, good, bad))
	if err != nil {
		t.Fatal(err)
	}
	start := play(t, "")
	moves, err := b.Moves(start)
	if err != nil || names(start, moves) != "g1f3" {
		t.Fatalf("%s %v", names(start, moves), err)
	}
}

func TestBadBooksAreRefusedWithAClearError(t *testing.T) {
	sorted := written(t, entry(t, "", "e2e4", 1), entry(t, "e2e4", "e7e5", 1))
	unsorted := append(append([]byte{}, sorted[16:]...), sorted[:16]...)
	if bytes.Equal(unsorted, sorted) {
		t.Fatal("the two keys are equal: nothing to unsort")
	}
	dir := t.TempDir()
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty.bin", nil, "empty"},
		{"truncated.bin", sorted[:20], "not a multiple of 16"},
		{"unsorted.bin", unsorted, "not sorted"},
		{"text.bin", []byte(strings.Repeat("[Event \"x\"]\n1. e4 *\n", 4)[:64]), "not sorted"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming the file and saying %q", c.name, err, c.want)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing.bin")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: %v", err)
	}
}

func TestChooseDrawsByWeight(t *testing.T) {
	moves := []Move{{Move: 1, Weight: 60}, {Move: 2, Weight: 0}, {Move: 3, Weight: 30}, {Move: 4, Weight: 10}}
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[games.Move]int{}
	const draws = 20000
	for i := 0; i < draws; i++ {
		m, ok := Choose(moves, rng.Float64())
		if !ok {
			t.Fatal("no move chosen")
		}
		counts[m.Move]++
	}
	for _, m := range moves {
		share := float64(counts[m.Move]) / draws
		want := float64(m.Weight) / 100
		if share < want-0.015 || share > want+0.015 {
			t.Errorf("move %d drawn %.3f of the time, its weight says %.2f", m.Move, share, want)
		}
	}
	if m, ok := Choose(moves, 0.999999999); !ok || m.Move != 4 {
		t.Errorf("u near 1: %v %v", m, ok)
	}
	if _, ok := Choose([]Move{{Move: 1}}, 0.5); ok {
		t.Error("a move of weight 0 was chosen")
	}
	if _, ok := Choose(nil, 0.5); ok {
		t.Error("a move was chosen from none")
	}
}

func TestMakerCountsWeighsAndFilters(t *testing.T) {
	g := chess.Game{}
	start := g.Start()
	line := func(moves string) []games.Move {
		p := start.Clone()
		var out []games.Move
		for _, tok := range strings.Fields(moves) {
			m, err := p.ParseMove(tok)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
			p.Play(m)
		}
		return out
	}
	mk := NewMaker(2)
	for _, game := range []struct {
		moves  string
		result games.Result
	}{
		{"e2e4 e7e5 g1f3", games.FirstWins},
		{"e2e4 c7c5", games.SecondWins},
		{"e2e4 e7e5", games.Draw},
		{"d2d4 d7d5", games.FirstWins},
	} {
		if err := mk.Add(start, line(game.moves), game.result); err != nil {
			t.Fatal(err)
		}
	}
	if mk.Games() != 4 || mk.Positions() != 3 {
		t.Fatalf("games %d positions %d, want 4 and 3 (the start, after e4, after d4: two plies)", mk.Games(), mk.Positions())
	}
	book := func(o MakeOptions) *Book {
		entries, err := mk.Entries(o)
		if err != nil {
			t.Fatal(err)
		}
		b, err := FromBytes("made", written(t, entries...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	weights := func(b *Book, moves string) string {
		p := play(t, moves)
		found, err := b.Moves(p)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, m := range found {
			s = append(s, p.FormatMove(m.Move)+":"+string(rune('0'+m.Weight)))
		}
		return strings.Join(s, " ")
	}
	byGames := book(MakeOptions{})
	if got := weights(byGames, ""); got != "e2e4:3 d2d4:1" {
		t.Errorf("by games, the start: %s", got)
	}
	if got := weights(byGames, "e2e4"); got != "e7e5:2 c7c5:1" {
		t.Errorf("by games, after e4: %s", got)
	}
	if got := weights(byGames, "e2e4 e7e5"); got != "" {
		t.Errorf("the third ply is beyond the maker's two: %s", got)
	}
	byResults := book(MakeOptions{Weighing: ByResults})
	// e2e4: a win, a loss and a draw for White (2+0+1); d2d4 a win (2). After e4: e5 a loss and a draw
	// for Black (0+1), c5 a win (2).
	if got := weights(byResults, ""); got != "e2e4:3 d2d4:2" {
		t.Errorf("by results, the start: %s", got)
	}
	if got := weights(byResults, "e2e4"); got != "c7c5:2 e7e5:1" {
		t.Errorf("by results, after e4: %s", got)
	}
	twoGames := book(MakeOptions{MinGames: 2})
	if got := weights(twoGames, ""); got != "e2e4:3" {
		t.Errorf("at least two games, the start: %s", got)
	}
	leaveC5 := func(p games.Position, moves []games.Move) ([]bool, error) {
		keep := make([]bool, len(moves))
		for i, m := range moves {
			keep[i] = p.FormatMove(m) != "c7c5"
		}
		return keep, nil
	}
	vetted := book(MakeOptions{Vetters: []Vet{leaveC5, leaveC5}})
	if got := weights(vetted, "e2e4"); got != "e7e5:2" {
		t.Errorf("vetted, after e4: %s", got)
	}
	if _, err := mk.Entries(MakeOptions{MinGames: 5}); err == nil {
		t.Error("a book with no move was made")
	}
}

func TestMakerScalesWeightsIntoAnEntry(t *testing.T) {
	mk := NewMaker(1)
	start := chess.Game{}.Start()
	e4, _ := start.ParseMove("e2e4")
	d4, _ := start.ParseMove("d2d4")
	for i := 0; i < 70000; i++ {
		mk.Add(start, []games.Move{e4}, games.Ongoing)
	}
	mk.Add(start, []games.Move{d4}, games.Ongoing)
	entries, err := mk.Entries(MakeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := FromBytes("scaled", written(t, entries...))
	moves, _ := b.Moves(start)
	if len(moves) != 2 || moves[0].Weight != 65535 || moves[1].Weight != 1 {
		t.Fatalf("%+v: want e2e4 at 65535 and d2d4 kept at 1", moves)
	}
}

// TestSearchVetLeavesOutABlunder makes a book of two replies to 1.e4 e5 2.Qh5, one of which loses the queen
// (2...Nc6 3.Qxe5+?? is not it: 2...g6 is fine, 2...Ke7?? allows Qxe5 mate); our search at a shallow depth
// vets them.
func TestSearchVetLeavesOutABlunder(t *testing.T) {
	g, _ := catalog.Lookup("chess")
	s := newTestSearcher(t, g)
	p := play(t, "e2e4 e7e5 d1h5")
	var moves []games.Move
	for _, tok := range []string{"b8c6", "e8e7"} {
		m, err := p.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
	}
	keep, err := SearchVet(s, 4, 50)(p, moves)
	if err != nil {
		t.Fatal(err)
	}
	if !keep[0] || keep[1] {
		t.Fatalf("kept %v, want Nc6 kept and Ke7 (Qxe5 mate) left out", keep)
	}
}
