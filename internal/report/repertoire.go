// Our repertoire against an opponent, as dossier memory show reports it: the lines we played against it to
// our first and second moves of each game, with our score in them and its replies.

package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"dossier/memory"
)

// RepertoireLine is one line we played against the opponent: the moves of a game from its start up to one of
// our moves, the games that went through it and its replies there.
type RepertoireLine struct {
	Game    string `json:"game"`
	Side    string `json:"our_side"`
	Line    string `json:"line"`
	Games   int    `json:"games"`
	Wins    int    `json:"wins"`
	Draws   int    `json:"draws"`
	Losses  int    `json:"losses"`
	Replies []struct {
		Move  string `json:"move"`
		Games int    `json:"games"`
	} `json:"replies"`
}

// repertoireMoves is how many of our own moves a line goes to: the first and the second.
const repertoireMoves = 2

// maxRepertoireLines bounds the lines shown per game and side, the most played first.
const maxRepertoireLines = 8

// repertoireLines groups the stored games that start from the game's initial position by game, our side and
// line: every line up to our first and our second move, the most played first.
func repertoireLines(list []memory.Game) []RepertoireLine {
	type group struct {
		line    RepertoireLine
		replies map[string]int
	}
	groups := map[string]*group{}
	for _, g := range list {
		if g.Plies == 0 && len(g.Moves) == 0 {
			continue
		}
		first := 0 // the index of our first move
		if g.OurSide == 1 {
			first = 1
		}
		for own := 0; own < repertoireMoves; own++ {
			end := first + 2*own + 1 // the moves up to and including our move
			if end > len(g.Moves) {
				break
			}
			line := strings.Join(g.Moves[:end], " ")
			key := g.Game + "\x00" + fmt.Sprint(g.OurSide) + "\x00" + g.StartFEN + "\x00" + line
			gr := groups[key]
			if gr == nil {
				gr = &group{line: RepertoireLine{Game: g.Game, Side: sideName(g.Game, g.OurSide), Line: line}, replies: map[string]int{}}
				groups[key] = gr
			}
			gr.line.Games++
			switch g.OurScore {
			case 1:
				gr.line.Wins++
			case 0.5:
				gr.line.Draws++
			case 0:
				gr.line.Losses++
			}
			if end < len(g.Moves) {
				gr.replies[g.Moves[end]]++
			}
		}
	}
	var out []RepertoireLine
	for _, gr := range groups {
		for move, n := range gr.replies {
			gr.line.Replies = append(gr.line.Replies, struct {
				Move  string `json:"move"`
				Games int    `json:"games"`
			}{move, n})
		}
		sort.Slice(gr.line.Replies, func(i, j int) bool {
			a, b := gr.line.Replies[i], gr.line.Replies[j]
			return a.Games > b.Games || a.Games == b.Games && a.Move < b.Move
		})
		out = append(out, gr.line)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Game != b.Game || a.Side != b.Side {
			return a.Game+a.Side < b.Game+b.Side
		}
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		return a.Line < b.Line
	})
	shown := out[:0]
	count := map[string]int{}
	for _, l := range out {
		if count[l.Game+l.Side] < maxRepertoireLines {
			shown = append(shown, l)
			count[l.Game+l.Side]++
		}
	}
	return shown
}

// writeRepertoire prints the repertoire lines as a table.
func writeRepertoire(w io.Writer, lines []RepertoireLine) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "  repertoire: our lines against it, to our first and second moves; its replies there")
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "    GAME\tOUR SIDE\tLINE\tGAMES\tW/D/L\tSCORE\tITS REPLIES")
	for _, l := range lines {
		var replies []string
		for _, r := range l.Replies {
			replies = append(replies, fmt.Sprintf("%s %d", r.Move, r.Games))
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\t%d\t%d/%d/%d\t%s\t%s\n", l.Game, l.Side, l.Line, l.Games, l.Wins, l.Draws, l.Losses,
			scoreText(l.Wins, l.Draws, l.Losses), orDash(strings.Join(replies, ", ")))
	}
	tw.Flush()
}
