package report

import (
	"bytes"
	"strings"
	"testing"

	"dossier/memory"
)

func TestRepertoireLines(t *testing.T) {
	game := func(side int, score float64, moves string) memory.Game {
		return memory.Game{GameSummary: memory.GameSummary{Game: "chess", OurSide: side, OurScore: score, Plies: len(strings.Fields(moves))},
			StartFEN: "start", Moves: strings.Fields(moves)}
	}
	lines := repertoireLines([]memory.Game{
		game(0, 1, "e2e4 c7c5 g1f3 d7d6"),
		game(0, 0, "e2e4 c7c5 b1c3 b8c6"),
		game(0, 0.5, "e2e4 e7e5 g1f3"),
		game(1, 1, "d2d4 g8f6 c2c4 e7e6"),
		game(1, 0, "e2e4"), // the opponent's first move only: no move of ours
	})
	var got []string
	for _, l := range lines {
		var replies []string
		for _, r := range l.Replies {
			replies = append(replies, r.Move+":"+string(rune('0'+r.Games)))
		}
		got = append(got, l.Side+" "+l.Line+" "+scoreText(l.Wins, l.Draws, l.Losses)+" "+strings.Join(replies, ","))
	}
	want := []string{
		"black d2d4 g8f6 100% c2c4:1",
		"black d2d4 g8f6 c2c4 e7e6 100% ",
		"white e2e4 50% c7c5:2,e7e5:1",
		"white e2e4 c7c5 b1c3 0% b8c6:1",
		"white e2e4 c7c5 g1f3 100% d7d6:1",
		"white e2e4 e7e5 g1f3 50% ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var buf bytes.Buffer
	writeRepertoire(&buf, lines)
	if !strings.Contains(buf.String(), "repertoire: our lines against it") || !strings.Contains(buf.String(), "c7c5 2, e7e5 1") {
		t.Fatalf("text:\n%s", buf.String())
	}
}
