// Progress reports while a match runs: a redrawn line on a terminal, one plain line per game otherwise.
package match

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
)

// Progress reports finished games. On a terminal it redraws one line with a bar; elsewhere it writes a
// line per game, so that logs stay readable.
type Progress struct {
	w        io.Writer
	terminal bool
	total    int
	start    time.Time
	drawn    bool
}

// NewProgress returns a reporter writing to w for a match of total games; terminal selects the redrawn bar.
func NewProgress(w io.Writer, total int, terminal bool) *Progress {
	return &Progress{w: w, terminal: terminal, total: total, start: time.Now()}
}

// IsTerminal reports whether w is a character device (a terminal), where a redrawn line makes sense.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progressBarWidth is the number of cells of the bar.
const progressBarWidth = 24

// Game reports a finished game and the tally so far.
func (p *Progress) Game(rec GameRecord, sum Summary) {
	diff, half := EloInterval(sum.Wins, sum.Draws, sum.Losses)
	tally := fmt.Sprintf("+%d =%d -%d  score %.1f%%  elo %s ± %s", sum.Wins, sum.Draws, sum.Losses,
		100*sum.Score(), formatElo(diff), strings.TrimPrefix(formatElo(half), "+"))
	if !p.terminal {
		why := string(rec.Termination)
		if rec.Detail != "" && rec.Detail != why {
			why += ": " + rec.Detail
		}
		fmt.Fprintf(p.w, "game %d/%d (%d finished): %s vs %s %s (%s); %s\n", rec.Number, p.total, sum.Games,
			rec.Names[0], rec.Names[1], rec.Result, why, tally)
		return
	}
	filled := int(math.Round(float64(progressBarWidth) * float64(sum.Games) / float64(max(p.total, 1))))
	filled = max(0, min(filled, progressBarWidth))
	bar := strings.Repeat("#", filled) + strings.Repeat(".", progressBarWidth-filled)
	eta := ""
	if sum.Games > 0 && sum.Games < p.total {
		left := time.Since(p.start) / time.Duration(sum.Games) * time.Duration(p.total-sum.Games)
		eta = "  eta " + left.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%s] %d/%d  %s%s", bar, sum.Games, p.total, tally, eta)
	p.drawn = true
}

// Done ends the redrawn line, so that what follows starts on a line of its own.
func (p *Progress) Done() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}
