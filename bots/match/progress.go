// Progress reports while a match (or any long run) goes on: a redrawn line on a terminal, one plain line per game otherwise.
package match

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress reports finished games (or other items). On a terminal it redraws one line with a bar (schollz/progressbar);
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
	if sum.SPRT != nil {
		lower, upper := sum.SPRT.Bounds()
		tally += fmt.Sprintf("  pairs %d  LLR %.2f [%.2f, %.2f]", sum.Pairs(), sum.SPRT.LLR(sum.Pentanomial), lower, upper)
		if sum.Verdict != Undecided {
			tally += " " + sum.Verdict.String()
		}
	}
	why := string(rec.Termination)
	if rec.Detail != "" && rec.Detail != why {
		why += ": " + rec.Detail
	}
	p.Step(sum.Games, tally, fmt.Sprintf("game %d/%d (%d finished): %s vs %s %s (%s); %s", rec.Number, p.total,
		sum.Games, rec.Names[0], rec.Names[1], rec.Result, why, tally))
}

// Step reports that done of the total items are finished, for any long run (a match, a test suite): on a
// terminal the bar moves to done with tally beside it, elsewhere line is written as a line of its own.
func (p *Progress) Step(done int, tally, line string) {
	if p.bar == nil {
		fmt.Fprintln(p.w, line)
		return
	}
	p.bar.Describe(tally)
	// A write error on the terminal cannot be reported anywhere better than the terminal itself.
	_ = p.bar.Set(min(done, p.total))
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
