// The Player's own opening book over UCI: OwnBook, BookFile, BookDepth, the built-in repertoire, and a bad
// file that is reported while the engine plays on.

package player

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dossier/bots/openingbook"
	"dossier/bots/openingbook/booktest"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/memory"
	"dossier/play"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// writeBook writes a chess book of (moves before, move, weight) entries and returns its path.
func writeBook(t *testing.T, entries ...struct {
	before, move string
	weight       uint16
}) string {
	t.Helper()
	lines := make([]booktest.Line, len(entries))
	for i, e := range entries {
		lines[i] = booktest.Line{Before: e.before, Move: e.move, Weight: e.weight}
	}
	return booktest.File(t, lines...)
}

// useBookFile turns OwnBook on with the book file at path, through the options as a front end sets them.
func useBookFile(t *testing.T, p *Engine, path string) {
	t.Helper()
	for _, o := range p.Options() {
		switch o.Name {
		case "OwnBook":
			o.Set("true", true)
		case "BookFile":
			if err := o.Set(path, true); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// searchedNotBooked checks that a search of 3 plies in the position (a UCI position command's argument) searches
// rather than plays from the book; what names the case.
func searchedNotBooked(t *testing.T, tr *transcript, position, what string) {
	t.Helper()
	tr.send("position " + position)
	if depth, texts, _ := tr.search("depth 3"); depth != 3 || bookText(texts) != "" {
		t.Errorf("%s: depth %d, %q; want a search", what, depth, texts)
	}
}

// bookText returns the "book: ..." info string among texts, or "".
func bookText(texts []string) string {
	for _, s := range texts {
		if strings.HasPrefix(s, "book: ") {
			return s
		}
	}
	return ""
}

func TestOwnBookPlaysTheBooksMoves(t *testing.T) {
	path := writeBook(t, []struct {
		before, move string
		weight       uint16
	}{{"", "e2e4", 3}, {"", "d2d4", 1}, {"e2e4 e7e5", "g1f3", 1}}...)
	tr := newTranscript(t, New(chess.Game{}, searchers.Config{}), chess.Game{})
	tr.send("uci")
	tr.until("uciok")
	tr.send("setoption name Hash value 1")
	tr.send("setoption name OwnBook value true")
	tr.send("setoption name BookFile value " + path)
	tr.send("isready")
	tr.until("readyok")

	const draws = 200
	e4 := 0
	for i := 0; i < draws; i++ {
		tr.send("position startpos")
		depth, texts, move := tr.search("wtime 60000 btime 60000")
		if depth != 0 || !strings.Contains(bookText(texts), "book: "+move+" (weight ") {
			t.Fatalf("start: played %s after depth %d, info strings %q: want a book move, no search", move, depth, texts)
		}
		switch move {
		case "e2e4":
			e4++
		case "d2d4":
		default:
			t.Fatalf("start: %s is not in the book", move)
		}
	}
	// e2e4's weight is 3 of 4: 150 of 200 expected, 4 standard deviations either side.
	if e4 < 126 || e4 > 174 {
		t.Errorf("e2e4 played %d times of %d, its weight says about %d", e4, draws, draws*3/4)
	}

	tr.send("position startpos moves e2e4 e7e5")
	if _, texts, move := tr.search("wtime 60000 btime 60000"); move != "g1f3" || bookText(texts) == "" {
		t.Errorf("after 1.e4 e5: %s, %q; want the book's g1f3", move, texts)
	}
	searchedNotBooked(t, tr, "startpos moves g1f3", "out of book")
	// Pondering in a book position: the move waits for ponderhit.
	tr.send("position startpos moves e2e4 e7e5")
	tr.send("go ponder wtime 60000 btime 60000")
	tr.send("isready")
	if lines := tr.until("readyok"); slicesContainPrefix(lines, "bestmove") {
		t.Errorf("a ponder search in the book answered before ponderhit: %q", lines)
	}
	tr.send("ponderhit")
	if lines := tr.until("bestmove"); lines[len(lines)-1] != "bestmove g1f3" {
		t.Errorf("ponderhit in the book: %q", lines)
	}
	// Analysis is searched: several lines asked.
	tr.send("setoption name MultiPV value 2")
	searchedNotBooked(t, tr, "startpos", "MultiPV 2")
	tr.send("setoption name MultiPV value 1")
	// BookDepth 2: the book plays the first two plies of a game and no more.
	tr.send("setoption name BookDepth value 2")
	searchedNotBooked(t, tr, "startpos moves e2e4 e7e5", "BookDepth 2 at ply 2")
	tr.send("position startpos")
	if depth, texts, _ := tr.search("depth 3"); depth != 0 || bookText(texts) == "" {
		t.Errorf("BookDepth 2 at ply 0: depth %d, %q; want the book", depth, texts)
	}
	tr.send("setoption name BookDepth value 0")
	tr.send("setoption name OwnBook value false")
	searchedNotBooked(t, tr, "startpos", "OwnBook off")
	tr.send("quit")
}

func TestABadBookFileIsReportedAndTheEnginePlaysOn(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.bin")
	if err := os.WriteFile(corrupt, []byte("not a book at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing.bin"), corrupt, dir} {
		tr := newTranscript(t, New(chess.Game{}, searchers.Config{}), chess.Game{})
		tr.send("uci")
		tr.until("uciok")
		tr.send("setoption name Hash value 1")
		tr.send("setoption name OwnBook value true")
		tr.send("setoption name BookFile value " + path)
		tr.send("isready")
		lines := tr.until("readyok")
		if !strings.Contains(strings.Join(lines, "\n"), "info string error") || !strings.Contains(strings.Join(lines, "\n"), path) {
			t.Errorf("BookFile %s: no error naming it: %q", path, lines)
		}
		tr.send("position startpos")
		depth, texts, move := tr.search("depth 3")
		if depth != 3 || bookText(texts) != "" || !legalText(chess.Game{}.Start(), move) {
			t.Errorf("BookFile %s: depth %d move %s %q: want a search without a book", path, depth, move, texts)
		}
		tr.send("quit")
	}
}

func TestOwnBookPlaysTheBuiltInRepertoire(t *testing.T) {
	book, err := openingbook.Default("chess")
	if err != nil || book == nil {
		t.Fatalf("no chess repertoire: %v", err)
	}
	start := chess.Game{}.Start()
	inBook, err := book.Moves(start)
	if err != nil || len(inBook) < 2 {
		t.Fatalf("the repertoire has %d moves at the start (%v): want a choice", len(inBook), err)
	}
	tr := newTranscript(t, New(chess.Game{}, searchers.Config{}), chess.Game{})
	tr.send("uci")
	lines := tr.until("uciok")
	if !slicesContain(lines, "option name OwnBook type check default false") ||
		!slicesContain(lines, "option name BookFile type string default "+DefaultBookFile) ||
		!slicesContain(lines, "option name BookDepth type spin default 0 min 0 max 1000") {
		t.Fatalf("the book's options are not announced as documented: %q", lines)
	}
	tr.send("setoption name Hash value 1")
	tr.send("setoption name OwnBook value true")
	tr.send("position startpos")
	_, texts, move := tr.search("wtime 60000 btime 60000")
	m, err := start.ParseMove(move)
	found := false
	for _, b := range inBook {
		found = found || (err == nil && b.Move == m)
	}
	if !found || !strings.Contains(bookText(texts), "chess repertoire") {
		t.Errorf("played %s, %q: want a move of the chess repertoire", move, texts)
	}
	tr.send("quit")
}

func TestOwnBookWithoutARepertoireSearches(t *testing.T) {
	if book, _ := openingbook.Default("connect4"); book != nil {
		t.Skip("Connect-Four has a repertoire now: this test is about a game without one")
	}
	tr := newTranscript(t, New(connect4.Game{}, searchers.Config{}), connect4.Game{})
	tr.send("uci")
	tr.until("uciok")
	tr.send("setoption name UCI_Variant value cfour")
	tr.send("setoption name OwnBook value true")
	tr.send("position startpos moves P@d1")
	if depth, texts, _ := tr.search("depth 3"); depth != 3 || bookText(texts) != "" {
		t.Errorf("depth %d, %q: want a search", depth, texts)
	}
	tr.send("quit")
}

// slicesContain reports whether a line of lines equals want.
func slicesContain(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

// storedGame is a game of the memory: our side, our score and the moves from the start.
func storedGame(id string, ourSide games.Side, score float64, moves string) memory.Game {
	return memory.Game{GameSummary: memory.GameSummary{ID: id, OpponentKey: "rival", Game: "chess", OurSide: int(ourSide),
		OurScore: score}, StartFEN: chess.Game{}.Start().FEN(), Moves: strings.Fields(moves)}
}

// TestTheBookChoosesByOurResultsAgainstTheOpponent installs a game memory of an opponent in which 1.d4 won
// three games as White and 1.e4 lost three, and counts the book's first moves against it: d4 most of the time,
// though the book weighs e4 three times as much; e4 rarely; as Black (no record), the book's own choice.
func TestTheBookChoosesByOurResultsAgainstTheOpponent(t *testing.T) {
	path := writeBook(t, []struct {
		before, move string
		weight       uint16
	}{{"", "e2e4", 60}, {"", "d2d4", 20}, {"", "c2c4", 20}, {"e2e4", "c7c5", 1}}...)
	p := New(chess.Game{}, searchers.Config{HashMB: 1})
	useBookFile(t, p, path)
	stored := []memory.Game{
		storedGame("1", games.First, 1, "d2d4 d7d5"), storedGame("2", games.First, 1, "d2d4 g8f6"),
		storedGame("3", games.First, 1, "d2d4 d7d5"), storedGame("4", games.First, 0, "e2e4 c7c5"),
		storedGame("5", games.First, 0, "e2e4 e7e5"), storedGame("6", games.First, 0, "e2e4 c7c5"),
	}
	p.gameMemory.set("rival", newRecall("rival", chess.Game{}, stored, nil, nil), nil)
	count := func(moves string) (map[string]int, []string) {
		pos := chess.Game{}.Start()
		for _, tok := range strings.Fields(moves) {
			m, _ := pos.ParseMove(tok)
			pos.Play(m)
		}
		counts := map[string]int{}
		var texts []string
		for i := 0; i < 400; i++ {
			ctl := engine.NewControl(engine.Limits{Depth: 1}, pos.ToMove())
			res, ok := p.bookMove(pos, ctl, func(info engine.Info) { texts = append(texts, info.Text) })
			if !ok {
				t.Fatal("no book move")
			}
			counts[pos.FormatMove(res.Move)]++
		}
		return counts, texts
	}
	white, texts := count("")
	if white["d2d4"] < 240 || white["e2e4"] > 60 {
		t.Errorf("as White against the rival: %v; want 1.d4 (3 wins of 3) most, 1.e4 (3 losses of 3) seldom", white)
	}
	if !slicesContainPrefix(texts, "book: d2d4 (weight 20 of 100 in test.bin); against rival: 3 games, 100%") {
		t.Errorf("no info string of d4's record: %q", texts[:min(len(texts), 5)])
	}
	black, texts := count("e2e4")
	if black["c7c5"] != 400 || !slicesContainPrefix(texts, "book: c7c5 (weight 1 of 1 in test.bin); a line new against rival") {
		t.Errorf("as Black: %v %q", black, texts[:min(len(texts), 3)])
	}
}

// slicesContainPrefix reports whether a line of lines starts with prefix.
func slicesContainPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func TestThePreparationsBookOpensOrIsLeftOut(t *testing.T) {
	g := chess.Game{}
	if b, closeBook := openBook(g, "", zap.NewNop()); b != nil {
		closeBook()
		t.Fatal("a book opened where OwnBook was off")
	}
	b, closeBook := openBook(g, DefaultBookFile, zap.NewNop())
	if b == nil || b.Len() == 0 {
		t.Fatal("the built-in repertoire did not open")
	}
	closeBook()
	if moves, err := b.Moves(g.Start()); err != nil || len(moves) == 0 { // shared: closing it is not the preparation's
		t.Fatalf("the built-in repertoire after the preparation: %v, %v", moves, err)
	}
	core, logs := observer.New(zap.WarnLevel)
	if b, closeBook := openBook(g, filepath.Join(t.TempDir(), "gone.bin"), zap.New(core)); b != nil {
		closeBook()
		t.Fatal("a missing book file opened")
	}
	if logs.Len() != 1 || !strings.Contains(logs.All()[0].Message, "without the book") {
		t.Fatalf("log %v: want one warning that the preparation goes on without the book", logs.All())
	}
}

func TestTheBookTriesNewLinesByOurResultsAgainstTheOtherOpponents(t *testing.T) {
	g := chess.Game{}
	path := writeBook(t, []struct {
		before, move string
		weight       uint16
	}{{"", "e2e4", 60}, {"", "d2d4", 20}, {"", "c2c4", 20}}...)
	p := New(g, searchers.Config{HashMB: 1, Preset: "materialist"})
	if err := p.UseMemory(MemoryConfig{Enabled: true, Dir: filepath.Join(t.TempDir(), "memory")}); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.analysisOff = true
	useBookFile(t, p, path)
	// Against another opponent, as White: 1.d4 won three games, 1.e4 lost three.
	p.SetOpponent(play.Opponent{Name: "other", Source: "match"})
	p.WaitPrepared()
	for _, line := range [][]string{{"d2d4", "d7d5"}, {"e2e4", "c7c5"}, {"d2d4", "g8f6"}, {"e2e4", "e7e5"},
		{"d2d4", "d7d5"}, {"e2e4", "c7c5"}} {
		result := games.FirstWins
		if line[0] == "e2e4" {
			result = games.SecondWins
		}
		playedGame(t, p, g, result, line...)
	}
	if err := p.Memory().Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A new opponent: no line of ours is known against it, and the new ones are tried by the others' results.
	p.SetOpponent(play.Opponent{Name: "newcomer", Source: "match"})
	p.NewGame(g)
	p.WaitPrepared()
	counts := map[string]int{}
	var texts []string
	for range 400 {
		ctl := engine.NewControl(engine.Limits{Depth: 1}, games.First)
		res, ok := p.bookMove(g.Start(), ctl, func(info engine.Info) { texts = append(texts, info.Text) })
		if !ok {
			t.Fatal("no book move")
		}
		counts[g.Start().FormatMove(res.Move)]++
	}
	// Priors of mean (3 + 1)/5 for 1.d4, 1/5 for 1.e4, 1/2 for 1.c4 (never played), each over two games.
	if counts["d2d4"] < 170 || counts["e2e4"] > 80 || counts["d2d4"] <= counts["c2c4"] || counts["c2c4"] <= counts["e2e4"] {
		t.Errorf("against a newcomer: %v; want 1.d4 (won 3 of 3 against another) most, then 1.c4, 1.e4 (lost 3 of 3) least", counts)
	}
	if !slicesContainPrefix(texts, "book: d2d4 (weight 20 of 100 in test.bin); a line new against newcomer (against the others: 3 games, 100%)") {
		t.Errorf("no info string of d4's record against the others: %q", texts[:min(len(texts), 5)])
	}
}
