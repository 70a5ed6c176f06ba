// What dossier memory show reports on one opponent: its profile, results by game, side and time control, how
// well we predicted it, the yardsticks of the opponent models, the learned models and their history.

package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/memory"
	"dossier/memory/learn"
)

// ResultLine is one row of show's results table: games of one game, side and time control.
type ResultLine struct {
	Game        string `json:"game"`
	Side        string `json:"our_side"`
	TimeControl string `json:"time_control"`
	Games       int    `json:"games"`
	Wins        int    `json:"wins"`
	Draws       int    `json:"draws"`
	Losses      int    `json:"losses"`
	Unknown     int    `json:"unknown"`
}

// PredictionStats is how well our predicted replies matched the opponent's moves.
type PredictionStats struct {
	Moves     int     `json:"moves"`
	Predicted int     `json:"predicted"`
	Correct   int     `json:"correct"`
	Accuracy  float64 `json:"accuracy"`
}

// Show is what dossier memory show reports on one opponent, as text or JSON.
type Show struct {
	Profile    *memory.Profile `json:"profile"`
	Results    []ResultLine    `json:"results"`
	Prediction PredictionStats `json:"prediction"`
	Series     []ChartSeries   `json:"series"`
	// Yardsticks are how well each opponent model predicted the opponent, game by game, oldest first.
	Yardsticks []YardstickLine `json:"yardsticks"`
	// Learned are the latest state of each learned model, in short.
	Learned []LearnedLine `json:"learned"`
	// Mistakes are the moves the analyses of its games blamed, game by game.
	Mistakes []MistakeLine `json:"mistakes"`
	// Experience is what the opponent's experience table holds, by the analysis that filed it.
	Experience ExperienceSummary `json:"experience"`
	// Repertoire are the lines we played against it (see repertoireLines).
	Repertoire []RepertoireLine `json:"repertoire"`
	// games are the stored games, for the SVG report's openings.
	games []memory.Game
}

// YardstickLine is one game's yardstick: each model's score, minimax's first.
type YardstickLine struct {
	GameID string       `json:"game_id"`
	Game   string       `json:"game"`
	Scores []ModelScore `json:"scores"`
}

// ModelScore is one model's score in a game.
type ModelScore struct {
	Model string `json:"model"`
	learn.Score
}

// LearnedLine is the latest state of one learned model in short.
type LearnedLine struct {
	Model  string    `json:"model"`
	At     time.Time `json:"at"`
	GameID string    `json:"game_id,omitempty"`
	// Moves counts the opponent moves the model learned from.
	Moves int `json:"moves"`
	// Types are the type learner's most probable types (preset@depth) and their probabilities.
	Types []TypeProbability `json:"types,omitempty"`
	// Depth is the depth learner's learned depth.
	Depth int `json:"depth,omitempty"`
	// Summary is the state in one line.
	Summary string `json:"summary"`
}

// TypeProbability is one opponent type and its learned probability.
type TypeProbability struct {
	Type        string  `json:"type"`
	Probability float64 `json:"probability"`
}

// maxShownTypes bounds the types a learned type-probability line names.
const maxShownTypes = 3

// NewShow builds the report on the opponent of prof from its stored games and the experience entries of its
// own tables (memory.Memory.Experience; entries of every opponent's table are left out).
func NewShow(prof *memory.Profile, gameList []memory.Game, experience []memory.Experience) Show {
	return Show{Profile: prof, Results: resultsTable(prof.Games), Prediction: predictions(gameList),
		Series: modelSeries(prof), Yardsticks: yardstickLines(prof), Learned: learnedLines(prof), Mistakes: mistakeLines(prof),
		Experience: experienceSummary(prof, experience), Repertoire: repertoireLines(gameList), games: gameList}
}

// WriteText prints the report as text; svgFile, when not "", is where the chart was written.
func (rep Show) WriteText(w io.Writer, svgFile string) {
	prof := rep.Profile
	fmt.Fprintf(w, "%s\n", prof.Key)
	fmt.Fprintf(w, "  names:     %s\n", strings.Join(prof.Names, ", "))
	if len(prof.Aliases) > 0 {
		fmt.Fprintf(w, "  aliases:   %s\n", strings.Join(prof.Aliases, ", "))
	}
	if prof.Title != "" || prof.Kind != "" {
		fmt.Fprintf(w, "  title:     %s  kind: %s\n", orDash(prof.Title), orDash(prof.Kind))
	}
	if n := len(prof.Ratings); n > 0 {
		r := prof.Ratings[n-1]
		fmt.Fprintf(w, "  rating:    %d (%s, %s; %d ratings seen)\n", r.Elo, r.Source, r.At.Local().Format("2006-01-02"), n)
	}
	fmt.Fprintf(w, "  seen:      %s to %s\n", prof.FirstSeen.Local().Format("2006-01-02 15:04"), prof.LastSeen.Local().Format("2006-01-02 15:04"))
	fmt.Fprintf(w, "  games:     %d\n", len(prof.Games))
	if len(rep.Results) > 0 {
		tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "    GAME\tOUR SIDE\tTIME CONTROL\tGAMES\tW/D/L\tSCORE\tUNKNOWN")
		for _, r := range rep.Results {
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%d\t%d/%d/%d\t%s\t%d\n", r.Game, r.Side, orDash(r.TimeControl), r.Games,
				r.Wins, r.Draws, r.Losses, scoreText(r.Wins, r.Draws, r.Losses), r.Unknown)
		}
		tw.Flush()
	}
	writeRepertoire(w, rep.Repertoire)
	p := rep.Prediction
	if p.Moves > 0 {
		fmt.Fprintf(w, "  predicted: %d of %d opponent moves had a prediction; %d right (%.1f%%)\n", p.Predicted, p.Moves,
			p.Correct, 100*p.Accuracy)
	}
	if len(rep.Yardsticks) > 0 {
		fmt.Fprintln(w, "  yardstick: how each model predicted the opponent's moves, game by game")
		tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "    GAME\tMODEL\tMOVES\tTOP-1\tTOP-3\tLOG-LIKELIHOOD")
		for i, y := range rep.Yardsticks {
			for j, score := range y.Scores {
				label := ""
				if j == 0 {
					label = fmt.Sprintf("%d %s", i+1, y.Game)
				}
				fmt.Fprintf(tw, "    %s\t%s\t%d\t%.1f%%\t%.1f%%\t%.3f\n", label, score.Model, score.Moves, 100*score.Top1, 100*score.Top3, score.LogLikelihood)
			}
		}
		tw.Flush()
	}
	if len(rep.Learned) > 0 {
		fmt.Fprintln(w, "  learned:")
		for _, l := range rep.Learned {
			fmt.Fprintf(w, "    %-12s %s\n", l.Model, l.Summary)
		}
	}
	if len(rep.Mistakes) > 0 {
		fmt.Fprintln(w, "  mistakes:  found by analysing lost games, and drawn ones we stood better in")
		for _, m := range rep.Mistakes {
			fmt.Fprintf(w, "    game %d: %s\n", m.Number, m.Text)
		}
	}
	if x := rep.Experience; x.Entries > 0 {
		fmt.Fprintf(w, "  experience: %d entries the search reads against this opponent: %d from the analyses of %d games, %d from preparation\n",
			x.Entries, x.Entries-x.Prepared-x.Unplaced, len(x.ByGame), x.Prepared)
	}
	if len(rep.Series) > 0 {
		fmt.Fprintln(w, "  history:")
		for _, series := range rep.Series {
			fmt.Fprintf(w, "    %-28s %s  %.3g..%.3g (%d points)\n", series.Name, sparkline(series.Values), minOf(series.Values), maxOf(series.Values), len(series.Values))
		}
	}
	if svgFile != "" {
		fmt.Fprintf(w, "  chart written to %s\n", svgFile)
	}
}

// yardstickLines reads the yardsticks of the profile, oldest first; a state that does not read is skipped.
func yardstickLines(prof *memory.Profile) []YardstickLine {
	var out []YardstickLine
	for _, pt := range prof.Models[learn.ModelYardstick] {
		var y learn.GameYardstick
		if json.Unmarshal(pt.State, &y) != nil {
			continue
		}
		// The baselines first, minimax's then our search's own predictions, then the learned models by name.
		baselines := []string{learn.MinimaxModelName, learn.SearchModelName}
		names := make([]string, 0, len(y.Scores))
		for name := range y.Scores {
			if !slices.Contains(baselines, name) {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for i := len(baselines) - 1; i >= 0; i-- {
			if _, ok := y.Scores[baselines[i]]; ok {
				names = append([]string{baselines[i]}, names...)
			}
		}
		line := YardstickLine{GameID: pt.GameID, Game: y.Game}
		for _, name := range names {
			line.Scores = append(line.Scores, ModelScore{Model: name, Score: y.Scores[name]})
		}
		out = append(out, line)
	}
	return out
}

// orDash returns s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// resultsTable groups the games by game, our side and time control.
func resultsTable(list []memory.GameSummary) []ResultLine {
	byKey := map[string]*ResultLine{}
	var keys []string
	for _, g := range list {
		key := g.Game + "\x00" + fmt.Sprint(g.OurSide) + "\x00" + g.TimeControl
		r, ok := byKey[key]
		if !ok {
			r = &ResultLine{Game: g.Game, Side: sideName(g.Game, g.OurSide), TimeControl: g.TimeControl}
			byKey[key] = r
			keys = append(keys, key)
		}
		r.Games++
		switch g.OurScore {
		case 1:
			r.Wins++
		case 0.5:
			r.Draws++
		case 0:
			r.Losses++
		default:
			r.Unknown++
		}
	}
	sort.Strings(keys)
	out := make([]ResultLine, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	return out
}

// predictions measures our predicted replies against the opponent's moves.
func predictions(list []memory.Game) PredictionStats {
	var s PredictionStats
	for _, g := range list {
		for _, r := range g.Records {
			if !r.ByOpponent {
				continue
			}
			s.Moves++
			if r.Predicted != "" {
				s.Predicted++
				if r.Predicted == r.Move {
					s.Correct++
				}
			}
		}
	}
	if s.Predicted > 0 {
		s.Accuracy = float64(s.Correct) / float64(s.Predicted)
	}
	return s
}

// sideName names a side of a stored game in its game's own terms. A game this build does not know looks up as
// nil, whose sides SideName names by their order, as it does for games without side names.
func sideName(game string, side int) string {
	g, _ := catalog.Lookup(game)
	return games.SideName(g, games.Side(side))
}
