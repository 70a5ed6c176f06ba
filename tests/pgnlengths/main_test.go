// Tests of the game-length comparison on hand-written records.

package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// record writes a game's tag section as `dossier match --pgn` does (only the tags read here).
func record(round int, white, black, result, fen string, plies int) string {
	return "[Round \"" + strconv.Itoa(round) + "\"]\n[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result +
		"\"]\n[PlyCount \"" + strconv.Itoa(plies) + "\"]\n[FEN \"" + fen + "\"]\n\n1. P@a1 " + result + "\n\n"
}

func TestCompare(t *testing.T) {
	// Start x: A wins in 11 plies moving first (B in 13) and in 20 moving second (B in 20); start y: A wins in
	// 15 moving first, B loses; A loses moving second, B wins in 9.
	a := record(1, "meu", "sp d1", "1-0", "x", 11) + record(2, "sp d1", "meu", "0-1", "x", 20) +
		record(3, "meu", "sp d1", "1-0", "y", 15) + record(4, "sp d1", "meu", "1-0", "y", 30)
	b := record(1, "mm", "sp d1", "1-0", "x", 13) + record(2, "sp d1", "mm", "0-1", "x", 20) +
		record(3, "mm", "sp d1", "0-1", "y", 16) + record(4, "sp d1", "mm", "0-1", "y", 9)
	ga, err := readGames(strings.NewReader(a), "sp d1")
	if err != nil {
		t.Fatal(err)
	}
	gb, err := readGames(strings.NewReader(b), "sp d1")
	if err != nil {
		t.Fatal(err)
	}
	both, other, unpaired, err := compareLengths(ga, gb)
	if err != nil || both != (lengths{fewer: 1, same: 1}) || len(other) != 2 || unpaired != 0 {
		t.Fatalf("both %+v, other %q, unpaired %d, %v", both, other, unpaired, err)
	}
	var out bytes.Buffer
	if err := compare(&out, []string{"a.pgn", "b.pgn"}, ga, gb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"A meu (a.pgn): +3 =0 -1; moving first +2 =0 -0, second +1 =0 -1",
		"B mm (b.pgn): +3 =0 -1; moving first +1 =0 -1, second +2 =0 -0", "all games: both won 2: A in fewer plies 1, more 0, same 1; other outcomes 2",
		"A moving first: both won 1: A in fewer plies 1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := readGames(strings.NewReader(record(1, "a", "b", "1-0", "x", 3)), "sp d1"); err == nil ||
		!strings.Contains(err.Error(), `neither White "a" nor Black "b" is the opponent "sp d1"`) {
		t.Errorf("a game without the opponent: %v", err)
	}
	if _, err := readGames(strings.NewReader(record(1, "a", "sp d1", "*", "x", 3)), "sp d1"); err == nil {
		t.Error("an unfinished game: no error")
	}
}
