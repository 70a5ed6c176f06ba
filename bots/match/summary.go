// Match results: the running tally, points in the papers' convention, Elo with its 95% interval, and the
// final table and JSON.
package match

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"sort"
	"strings"

	"dossier/games"
)

// EloDiff returns the Elo difference that an expected score s (0 < s < 1) implies in the logistic model:
// s = 1 / (1 + 10^(-diff/400)), so diff = -400 log10(1/s - 1). It is ±Inf at s = 1 and s = 0.
func EloDiff(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// EloInterval returns the Elo difference of a score of wins, draws and losses, and the half width of its
// 95% interval. With n games and score s = (w + d/2)/n, a game's result x (1, 1/2 or 0) has variance
// σ² = (w(1-s)² + d(1/2-s)² + l(0-s)²)/n, so the score's standard error is σ/√n; the interval is
// [EloDiff(s - z·σ/√n), EloDiff(s + z·σ/√n)] with z = 1.96, and the half width is half its length (the ±
// that cutechess prints). The difference is ±Inf for a score of 0 or 1, the half width +Inf when an end
// of the score interval reaches 0 or 1, and both are NaN without games.
func EloInterval(wins, draws, losses int) (diff, halfWidth float64) {
	n := float64(wins + draws + losses)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	s := (float64(wins) + float64(draws)/2) / n
	variance := (float64(wins)*(1-s)*(1-s) + float64(draws)*(0.5-s)*(0.5-s) + float64(losses)*s*s) / n
	se := math.Sqrt(variance / n)
	lo, hi := s-z95*se, s+z95*se
	diff = EloDiff(s)
	if lo <= 0 || hi >= 1 {
		return diff, math.Inf(1)
	}
	return diff, (EloDiff(hi) - EloDiff(lo)) / 2
}

// Summary is the tally of a match from player 1's point of view.
type Summary struct {
	// Players are the display names of player 1 and player 2.
	Players [2]string
	// Games counts the finished games; Wins, Draws and Losses are player 1's.
	Games, Wins, Draws, Losses int
	// Terminations counts the games by why they ended.
	Terminations map[Termination]int
	// FirstWins, SecondWins count the decisive games by the side that won (the first mover's advantage).
	FirstWins, SecondWins int
	// Pentanomial counts the finished game pairs (games 2k-1 and 2k: one opening, colours swapped) by player
	// 1's points in them: [LL, LD, DD or WL, WD, WW] (PentanomialNames).
	Pentanomial [5]int
	// SPRT is the match's sequential test, nil without one. Verdict is its decision, made when the LLR first
	// crossed a bound after VerdictPairs pairs (the pairs already started are finished and counted after it).
	SPRT         *SPRT
	Verdict      Verdict
	VerdictPairs int
	// pending holds player 1's points in the pairs of which one game has finished, by pair number.
	pending map[int]float64
}

// Add counts a finished game.
func (s *Summary) Add(r GameRecord) {
	if s.Terminations == nil {
		s.Terminations = map[Termination]int{}
	}
	s.Games++
	s.Terminations[r.Termination]++
	points := r.Result.PointsFor(r.Player1)
	s.addToPair((r.Number-1)/2, points)
	switch points {
	case 1:
		s.Wins++
	case 0.5:
		s.Draws++
	default:
		s.Losses++
	}
	if side, ok := r.Result.Winner(); ok {
		if side == games.First {
			s.FirstWins++
		} else {
			s.SecondWins++
		}
	}
}

// addToPair counts a game of pair number pair in which player 1 scored points; the pair enters the
// pentanomial counts with its second game.
func (s *Summary) addToPair(pair int, points float64) {
	if first, ok := s.pending[pair]; ok {
		delete(s.pending, pair)
		s.Pentanomial[pairIndex(first+points)]++
		return
	}
	if s.pending == nil {
		s.pending = map[int]float64{}
	}
	s.pending[pair] = points
}

// Pairs returns the number of finished game pairs.
func (s Summary) Pairs() int {
	n := 0
	for _, c := range s.Pentanomial {
		n += c
	}
	return n
}

// clone returns a copy of the summary that shares no map with it.
func (s Summary) clone() Summary {
	s.Terminations = maps.Clone(s.Terminations)
	s.pending = maps.Clone(s.pending)
	return s
}

// Points returns both players' points in the papers' convention: 2 for a win, 1 for a draw.
func (s Summary) Points() (player1, player2 int) {
	return 2*s.Wins + s.Draws, 2*s.Losses + s.Draws
}

// Score returns player 1's score fraction (wins plus half the draws, over the games), or NaN without games.
func (s Summary) Score() float64 {
	if s.Games == 0 {
		return math.NaN()
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games)
}

// summaryJSON is the JSON form of a Summary; undefined numbers (an Elo at a 0% or 100% score) are null.
type summaryJSON struct {
	Players      [2]string      `json:"players"`
	Games        int            `json:"games"`
	Wins         int            `json:"wins"`
	Draws        int            `json:"draws"`
	Losses       int            `json:"losses"`
	Score        *float64       `json:"score"`
	Points       int            `json:"points"`
	Points2      int            `json:"opponent_points"`
	Elo          *float64       `json:"elo"`
	Elo95        *float64       `json:"elo95"`
	FirstWins    int            `json:"first_player_wins"`
	SecondWins   int            `json:"second_player_wins"`
	Terminations map[string]int `json:"terminations"`
	Pentanomial  [5]int         `json:"pentanomial"`
	Pairs        int            `json:"pairs"`
	PairElo      *float64       `json:"pair_elo"`
	PairEloLow   *float64       `json:"pair_elo_low"`
	PairEloHigh  *float64       `json:"pair_elo_high"`
	SPRT         *sprtJSON      `json:"sprt,omitempty"`
}

// finite returns a pointer to x rounded to 0.01, or nil when x is not a finite number.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	x = math.Round(x*100)/100 + 0 // + 0 turns -0 into 0
	return &x
}

// MarshalJSON writes the summary as one JSON object: players, games, wins, draws, losses and score (a
// fraction) from player 1's view, points and opponent_points (2 per win, 1 per draw), elo and elo95 (the
// half width of the 95% interval; null when infinite), wins by the first and second player, and the
// count of each termination; then the pentanomial counts of the finished pairs ([LL, LD, DD/WL, WD, WW]),
// their number, the Elo from the pairs with its 95% interval (pair_elo, pair_elo_low, pair_elo_high), and
// with an SPRT the test's settings, LLR, bounds and verdict ("H0", "H1" or "undecided").
func (s Summary) MarshalJSON() ([]byte, error) {
	p1, p2 := s.Points()
	diff, half := EloInterval(s.Wins, s.Draws, s.Losses)
	out := summaryJSON{Players: s.Players, Games: s.Games, Wins: s.Wins, Draws: s.Draws, Losses: s.Losses,
		Score: finite(s.Score()), Points: p1, Points2: p2, Elo: finite(diff), Elo95: finite(half),
		FirstWins: s.FirstWins, SecondWins: s.SecondWins, Terminations: map[string]int{}}
	if out.Score != nil {
		score := math.Round(s.Score()*10000) / 10000
		out.Score = &score
	}
	for t, n := range s.Terminations {
		out.Terminations[string(t)] = n
	}
	out.Pentanomial, out.Pairs = s.Pentanomial, s.Pairs()
	elo, lo, hi := PentanomialElo(s.Pentanomial)
	out.PairElo, out.PairEloLow, out.PairEloHigh = finite(elo), finite(lo), finite(hi)
	out.SPRT = s.sprtJSON()
	return json.Marshal(out)
}

// formatElo writes an Elo figure with its sign, or +inf/-inf/nan.
func formatElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.Abs(x) < 0.05:
		return "+0.0" // not "-0.0"
	}
	return fmt.Sprintf("%+.1f", x)
}

// WriteTable writes the final table: a row per player with W/D/L, points (2 per win, 1 per draw), score
// and Elo difference with its 95% interval, then the terminations.
func (s Summary) WriteTable(w io.Writer) {
	p1, p2 := s.Points()
	diff, half := EloInterval(s.Wins, s.Draws, s.Losses)
	width := max(len(s.Players[0]), len(s.Players[1]), len("player"))
	fmt.Fprintf(w, "%-*s %5s %5s %5s %7s %7s  %s\n", width, "player", "W", "D", "L", "points", "score", "elo (95%)")
	row := func(name string, wins, draws, losses, points int, sign float64) {
		score := "-"
		if s.Games > 0 {
			score = fmt.Sprintf("%.1f%%", 100*(float64(wins)+float64(draws)/2)/float64(s.Games))
		}
		fmt.Fprintf(w, "%-*s %5d %5d %5d %7d %7s  %s ± %s\n", width, name, wins, draws, losses, points, score,
			formatElo(sign*diff), strings.TrimPrefix(formatElo(half), "+"))
	}
	row(s.Players[0], s.Wins, s.Draws, s.Losses, p1, 1)
	row(s.Players[1], s.Losses, s.Draws, s.Wins, p2, -1)
	fmt.Fprintf(w, "%d games; first player won %d, second player won %d\n", s.Games, s.FirstWins, s.SecondWins)
	if len(s.Terminations) > 0 {
		names := make([]string, 0, len(s.Terminations))
		for t := range s.Terminations {
			names = append(names, string(t))
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = fmt.Sprintf("%s %d", n, s.Terminations[Termination(n)])
		}
		fmt.Fprintf(w, "terminations: %s\n", strings.Join(parts, ", "))
	}
	s.writePairs(w)
}
