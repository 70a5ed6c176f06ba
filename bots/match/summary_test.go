// Tests of the Elo arithmetic and of the tally: points, score, table and JSON.

package match

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dossier/games"
)

func TestEloDiff(t *testing.T) {
	cases := []struct{ score, want float64 }{
		{0.5, 0},
		{0.75, 190.848501887865}, // 400·log10(3)
		{0.25, -190.848501887865},
		{0.9, 381.697003775730}, // 400·log10(9)
		{10.0 / 11, 400},        // odds of 10 to 1
	}
	for _, c := range cases {
		if got := EloDiff(c.score); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("EloDiff(%v) = %v, want %v", c.score, got, c.want)
		}
	}
	if !math.IsInf(EloDiff(1), 1) || !math.IsInf(EloDiff(0), -1) {
		t.Error("EloDiff at 1 and 0 should be +Inf and -Inf")
	}
}

func TestEloInterval(t *testing.T) {
	// Values computed independently (Python, the formula of EloInterval's comment).
	cases := []struct {
		w, d, l    int
		diff, half float64
	}{
		{6, 2, 2, 147.19071411783776, 268.71632112333936},
		{10, 10, 10, 0, 104.55786329400974},
		{30, 40, 10, 88.73949984654251, 54.23352170028882},
		{400, 300, 100, 136.96907232888248, 19.52699780970807},
		{50, 0, 50, 0, 68.9887510667099},
		{0, 40, 0, 0, 0}, // all draws: no variance
	}
	for _, c := range cases {
		diff, half := EloInterval(c.w, c.d, c.l)
		if math.Abs(diff-c.diff) > 1e-9 || math.Abs(half-c.half) > 1e-9 {
			t.Errorf("EloInterval(%d, %d, %d) = %v ± %v, want %v ± %v", c.w, c.d, c.l, diff, half, c.diff, c.half)
		}
	}
	if diff, half := EloInterval(1, 1, 0); math.Abs(diff-190.848501887865) > 1e-9 || !math.IsInf(half, 1) {
		t.Errorf("1/1/0: %v ± %v, want 190.85 ± Inf (the interval reaches a score of 1)", diff, half)
	}
	if diff, half := EloInterval(0, 0, 0); !math.IsNaN(diff) || !math.IsNaN(half) {
		t.Errorf("no games: %v ± %v, want NaN", diff, half)
	}
}

// record returns a finished game for the tally.
func record(player1 games.Side, result games.Result, t Termination) GameRecord {
	return GameRecord{Player1: player1, Result: result, Termination: t}
}

func TestSummaryBookkeeping(t *testing.T) {
	var s Summary
	s.Players = [2]string{"alpha", "beta"}
	played := []GameRecord{
		record(games.First, games.FirstWins, "checkmate"),       // player 1 wins with the first move
		record(games.Second, games.FirstWins, "checkmate"),      // player 1 loses as second
		record(games.Second, games.SecondWins, TimeForfeit),     // player 1 wins as second
		record(games.First, games.Draw, "threefold repetition"), // draw
		record(games.Second, games.Draw, MoveLimit),             // draw
		record(games.First, games.SecondWins, EngineDied),       // player 1 loses as first
		record(games.Second, games.SecondWins, "no legal move"), // player 1 wins as second
		record(games.First, games.FirstWins, IllegalMove),       // player 1 wins as first
		record(games.Second, games.Draw, AdjudicatedDraw),       // draw
		record(games.First, games.SecondWins, Resignation),      // player 1 loses
		record(games.First, games.FirstWins, EngineStalled),     // player 1 wins
		record(games.Second, games.FirstWins, "line completed"), // player 1 loses
		record(games.First, games.Draw, "board full"),           // draw
		record(games.Second, games.SecondWins, "no legal move"), // player 1 wins
	}
	for _, g := range played {
		s.Add(g)
	}
	if s.Games != 14 || s.Wins != 6 || s.Draws != 4 || s.Losses != 4 {
		t.Fatalf("tally %d games +%d =%d -%d, want 14 +6 =4 -4", s.Games, s.Wins, s.Draws, s.Losses)
	}
	if p1, p2 := s.Points(); p1 != 16 || p2 != 12 {
		t.Errorf("points %d-%d, want 16-12 (2 a win, 1 a draw)", p1, p2)
	}
	if math.Abs(s.Score()-8.0/14) > 1e-12 {
		t.Errorf("score %v, want 8/14", s.Score())
	}
	if s.FirstWins != 5 || s.SecondWins != 5 {
		t.Errorf("first/second player wins %d/%d, want 5/5", s.FirstWins, s.SecondWins)
	}
	if s.Terminations["checkmate"] != 2 || s.Terminations["no legal move"] != 2 || s.Terminations[EngineDied] != 1 {
		t.Errorf("terminations %v", s.Terminations)
	}

	var decoded struct {
		Players      [2]string
		Games        int
		Wins         int
		Draws        int
		Losses       int
		Score        float64
		Points       int
		Opponent     int `json:"opponent_points"`
		Elo          *float64
		Elo95        *float64
		Terminations map[string]int
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	diff, half := EloInterval(6, 4, 4)
	if decoded.Games != 14 || decoded.Wins != 6 || decoded.Draws != 4 || decoded.Losses != 4 ||
		decoded.Points != 16 || decoded.Opponent != 12 || math.Abs(decoded.Score-0.5714) > 1e-9 ||
		decoded.Elo == nil || math.Abs(*decoded.Elo-diff) > 0.006 || decoded.Elo95 == nil ||
		math.Abs(*decoded.Elo95-half) > 0.006 || decoded.Players[1] != "beta" {
		t.Errorf("JSON %s does not match the tally", b)
	}
	total := 0
	for _, n := range decoded.Terminations {
		total += n
	}
	if total != 14 {
		t.Errorf("terminations add up to %d, want 14: %s", total, b)
	}

	var table bytes.Buffer
	s.WriteTable(&table)
	for _, want := range []string{"alpha", "beta", "    16 ", "    12 ", "57.1%", "42.9%",
		"terminations: adjudicated draw 1, board full 1, checkmate 2"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

func TestSummaryJSONUndefinedElo(t *testing.T) {
	cases := []struct {
		name    string
		results []games.Result
		want    []string
	}{
		{"all won", []games.Result{games.FirstWins, games.FirstWins}, []string{`"elo":null`, `"elo95":null`, `"score":1`}},
		{"all drawn", []games.Result{games.Draw, games.Draw}, []string{`"elo":0,`, `"elo95":0,`, `"score":0.5`}},
		{"none", nil, []string{`"games":0`, `"score":null`, `"elo":null`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s Summary
			for _, r := range c.results {
				s.Add(record(games.First, r, "checkmate"))
			}
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s lacks %s", b, w)
				}
			}
		})
	}
}
