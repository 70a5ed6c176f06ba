// Progress reports while a match runs: a redrawn line on a terminal, one plain line per game otherwise.
package match

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress reports finished games. On a terminal it redraws one line with a bar (schollz/progressbar);
// elsewhere it writes a line per game, so that logs stay readable.
type Progress struct {
	w     io.Writer
	total int
	bar   *progressbar.ProgressBar // nil: plain lines
	drawn bool
}

// NewProgress returns a reporter writing to w for a match of total games; terminal selects the redrawn bar.
func NewProgress(w io.Writer, total int, terminal bool) *Progress {
	p := &Progress{w: w, total: total}
	if terminal {
		p.bar = progressbar.NewOptions(max(total, 1),
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetWidth(progressBarWidth),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionSetTheme(progressbar.Theme{Saucer: "#", SaucerPadding: ".", BarStart: "[", BarEnd: "]"}))
	}
	return p
}

// IsTerminal reports whether w is a terminal, where a redrawn line makes sense.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressBarWidth is the number of cells of the bar.
const progressBarWidth = 24

// Game reports a finished game and the tally so far.
func (p *Progress) Game(rec GameRecord, sum Summary) {
	diff, half := EloInterval(sum.Wins, sum.Draws, sum.Losses)
	tally := fmt.Sprintf("+%d =%d -%d  score %.1f%%  elo %s ± %s", sum.Wins, sum.Draws, sum.Losses,
		100*sum.Score(), formatElo(diff), strings.TrimPrefix(formatElo(half), "+"))
	if p.bar == nil {
		why := string(rec.Termination)
		if rec.Detail != "" && rec.Detail != why {
			why += ": " + rec.Detail
		}
		fmt.Fprintf(p.w, "game %d/%d (%d finished): %s vs %s %s (%s); %s\n", rec.Number, p.total, sum.Games,
			rec.Names[0], rec.Names[1], rec.Result, why, tally)
		return
	}
	p.bar.Describe(tally)
	// A write error on the terminal cannot be reported anywhere better than the terminal itself.
	_ = p.bar.Set(min(sum.Games, p.total))
	p.drawn = true
}

// Done ends the redrawn line, so that what follows starts on a line of its own.
func (p *Progress) Done() {
	if p.drawn {
		_ = p.bar.Exit()
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}
