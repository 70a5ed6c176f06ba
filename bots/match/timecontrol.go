// Time controls ("40/60+0.6") and the chess clock that applies one to a player.

package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a chess clock setting: Base time for every Moves moves (0: for the whole game), plus Inc
// after every move.
type TimeControl struct {
	Moves int
	Base  time.Duration
	Inc   time.Duration
}

// IsZero reports whether there is no time control.
func (tc TimeControl) IsZero() bool { return tc.Base == 0 }

// String writes the control as ParseTimeControl reads it.
func (tc TimeControl) String() string {
	if tc.IsZero() {
		return "none"
	}
	s := formatSeconds(tc.Base)
	if tc.Moves > 0 {
		s = strconv.Itoa(tc.Moves) + "/" + s
	}
	if tc.Inc > 0 {
		s += "+" + formatSeconds(tc.Inc)
	}
	return s
}

func formatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// maxClockSeconds bounds a time control's times (a week: far beyond any match).
const maxClockSeconds = 7 * 24 * 3600

// ParseTimeControl reads a time control as cutechess writes it: [MOVES/]TIME[+INC], where TIME is seconds
// ("60", "0.5") or minutes:seconds ("1:30") and INC is seconds. "40/60+0.6" is 60 s for every 40 moves
// plus 0.6 s a move; "10+0.1" is 10 s for the game plus 0.1 s a move.
func ParseTimeControl(text string) (TimeControl, error) {
	var tc TimeControl
	rest := strings.TrimSpace(text)
	if rest == "" {
		return tc, fmt.Errorf("time control is empty: want [MOVES/]SECONDS[+INC], e.g. 40/60+0.6")
	}
	if movesText, after, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(movesText)
		if err != nil || n < 1 || n > 1000 {
			return tc, fmt.Errorf("time control %q: moves %q is not a whole number in 1..1000", text, movesText)
		}
		tc.Moves, rest = n, after
	}
	baseText, incText, hasInc := strings.Cut(rest, "+")
	base, err := parseClockTime(baseText, true)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: time %w", text, err)
	}
	if base == 0 {
		return TimeControl{}, fmt.Errorf("time control %q: time %q is not positive", text, baseText)
	}
	tc.Base = base
	if hasInc {
		inc, err := parseClockTime(incText, false)
		if err != nil {
			return TimeControl{}, fmt.Errorf("time control %q: increment %w", text, err)
		}
		tc.Inc = inc
	}
	return tc, nil
}

// parseClockTime reads seconds ("0.6"), or minutes:seconds when colon is allowed ("1:30").
func parseClockTime(text string, colon bool) (time.Duration, error) {
	minutes := 0.0
	secText := text
	if m, s, ok := strings.Cut(text, ":"); ok {
		if !colon {
			return 0, fmt.Errorf("%q: want seconds", text)
		}
		n, err := strconv.Atoi(m)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q: minutes %q are not a whole number", text, m)
		}
		minutes, secText = float64(n), s
	}
	if secText == "" || strings.Trim(secText, "0123456789.") != "" {
		return 0, fmt.Errorf("%q is not a number of seconds", text)
	}
	sec, err := strconv.ParseFloat(secText, 64)
	if err != nil || sec < 0 || math.IsNaN(sec) {
		return 0, fmt.Errorf("%q is not a number of seconds", text)
	}
	total := minutes*60 + sec
	if total > maxClockSeconds {
		return 0, fmt.Errorf("%q is longer than a week", text)
	}
	return time.Duration(math.Round(total*1000)) * time.Millisecond, nil
}

// Clock is one player's clock under a time control.
type Clock struct {
	tc        TimeControl
	remaining time.Duration
	moves     int // moves this player has made
}

// NewClock returns a clock set to the control's base time.
func NewClock(tc TimeControl) *Clock { return &Clock{tc: tc, remaining: tc.Base} }

// Remaining returns the time left on the clock.
func (c *Clock) Remaining() time.Duration { return c.remaining }

// MovesToGo returns the moves left until the next time control, or 0 when the base time is for the game.
func (c *Clock) MovesToGo() int {
	if c.tc.Moves == 0 {
		return 0
	}
	return c.tc.Moves - c.moves%c.tc.Moves
}

// Punch charges a move that took elapsed to the clock and reports whether the flag stayed up, allowing
// margin past zero for the delays of pipes and scheduling. The increment and, at the end of a period, the
// next period's time are added after the charge.
func (c *Clock) Punch(elapsed, margin time.Duration) bool {
	c.remaining -= elapsed
	if c.remaining < -margin {
		return false
	}
	c.remaining = max(c.remaining, 0) + c.tc.Inc
	c.moves++
	if c.tc.Moves > 0 && c.moves%c.tc.Moves == 0 {
		c.remaining += c.tc.Base
	}
	return true
}
