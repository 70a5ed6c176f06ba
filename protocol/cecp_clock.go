// CECP's clocks: level, st, sd, time and otim, and the limits of the engine's searches they give.

package protocol

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"dossier/engine"
	"dossier/games"
)

// limits returns the limits of the engine's next search: st's fixed time, or the clocks of time and otim
// (the level's base before they are sent) with the level's increment and moves to go; sd's depth on top.
func (c *cecp) limits(ours games.Side) engine.Limits {
	lim := c.clockLimits(ours)
	if c.nps <= 0 {
		return lim
	}
	// nps: the engine's clock runs in nodes, nps of them a second; the move's time becomes its node limit.
	budget := lim.MoveTime
	if budget <= 0 {
		soft, hard := engine.TimeBudget(lim, ours)
		if budget = soft; budget <= 0 {
			budget = hard
		}
	}
	nodes := budget.Seconds() * float64(c.nps)
	return engine.Limits{Depth: c.depth, Nodes: uint64(max(min(nodes, maxNodes), 1))}
}

// maxNodes bounds the node limit nps gives.
const maxNodes = 1 << 62

// clockLimits returns the limits of the next search by the wall clock: st's fixed time, or the clocks.
func (c *cecp) clockLimits(ours games.Side) engine.Limits {
	lim := engine.Limits{Depth: c.depth}
	if c.moveTime > 0 {
		lim.MoveTime = c.moveTime
		return lim
	}
	clock := func(t time.Duration) time.Duration {
		if t < 0 {
			t = c.base
		}
		return max(t, time.Millisecond) // an overdrawn or empty clock: move at once
	}
	lim.Time[ours], lim.Time[ours.Other()] = clock(c.ourTime), clock(c.oppTime)
	lim.Inc[ours], lim.Inc[ours.Other()] = c.inc, c.inc
	if c.mps > 0 {
		played := 0
		p := c.s.record.start.Clone()
		for _, m := range c.s.record.moves {
			if p.ToMove() == ours {
				played++
			}
			p.Play(m)
		}
		lim.MovesToGo = c.mps - played%c.mps
	}
	return lim
}

// timeControl describes the time control for the memory: "40/300+0" from level 40 5 0, "300+2" from
// level 0 5 2, "movetime 1000" from st 1; sd adds " depth N".
func (c *cecp) timeControl() string {
	seconds := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	var tc string
	switch {
	case c.moveTime > 0 && c.nps > 0:
		tc = fmt.Sprintf("nodes %d", c.limits(games.First).Nodes)
	case c.moveTime > 0:
		tc = fmt.Sprintf("movetime %d", c.moveTime.Milliseconds())
	case c.mps > 0:
		tc = fmt.Sprintf("%d/%s+%s", c.mps, seconds(c.base), seconds(c.inc))
	default:
		tc = seconds(c.base) + "+" + seconds(c.inc)
	}
	if c.nps > 0 && c.moveTime <= 0 {
		tc += fmt.Sprintf(" nps %d", c.nps)
	}
	if c.depth > 0 {
		tc += fmt.Sprintf(" depth %d", c.depth)
	}
	return tc
}

// cmdLevel reads "level MPS BASE INC": MPS moves per period (0: the whole game), BASE minutes or
// minutes:seconds, INC seconds. It replaces st.
func (c *cecp) cmdLevel(cmd command) {
	w := cmd.words()
	if len(w) != 3 {
		c.s.errorf("level wants MPS BASE INC, e.g. level 40 5 0 or level 0 2:30 1")
		return
	}
	mps, err := strconv.Atoi(w[0])
	if err != nil || mps < 0 || mps > maxMovesToGo {
		c.s.errorf("level: moves per period %s is not a whole number in 0..%d", quoteToken(w[0]), maxMovesToGo)
		return
	}
	base, err := parseLevelBase(w[1])
	if err != nil {
		c.s.errorf("level: base %s: %v", quoteToken(w[1]), err)
		return
	}
	inc, err := parseSeconds(w[2])
	if err != nil {
		c.s.errorf("level: increment %s: %v", quoteToken(w[2]), err)
		return
	}
	// level 0 0:00 0 is no mistake: python-chess sends "level 0 M:SS INC" from the clock before every move,
	// so a game without increment ends with it; the clock comes from time, and without one the engine
	// moves at once (see limits).
	c.mps, c.base, c.inc, c.moveTime = mps, base, inc, 0
}

// parseLevelBase reads level's base time: minutes ("5", "0.5") or minutes:seconds ("2:30").
func parseLevelBase(text string) (time.Duration, error) {
	minutes, secs, hasSecs := strings.Cut(text, ":")
	m, err := strconv.ParseFloat(minutes, 64)
	if err != nil || m < 0 || math.IsNaN(m) || math.IsInf(m, 0) {
		return 0, fmt.Errorf("minutes are not a number")
	}
	total := m * 60
	if hasSecs {
		sec, err := parseSeconds(secs)
		if err != nil {
			return 0, err
		}
		total += sec.Seconds()
	}
	if total*1000 > maxMillis {
		return 0, fmt.Errorf("out of range")
	}
	return time.Duration(total * float64(time.Second)).Round(time.Millisecond), nil
}

// parseSeconds reads a non-negative number of seconds ("2", "0.5").
func parseSeconds(text string) (time.Duration, error) { return parseSecondsUpTo(text, maxMillis) }

// maxSTMillis bounds st, which under nps 1 is a node count (python-chess's node limit: "nps 1", "st N").
const maxSTMillis = 1_000_000_000_000 // 1e9 seconds, far from overflowing a time.Duration

// parseSecondsUpTo reads a non-negative number of seconds, at most limit milliseconds.
func parseSecondsUpTo(text string, limit float64) (time.Duration, error) {
	sec, err := strconv.ParseFloat(text, 64)
	if err != nil || sec < 0 || math.IsNaN(sec) || math.IsInf(sec, 0) {
		return 0, fmt.Errorf("%s is not a number of seconds", quoteToken(text))
	}
	if sec*1000 > limit {
		return 0, fmt.Errorf("%s seconds is out of range", text)
	}
	return time.Duration(sec * float64(time.Second)).Round(time.Millisecond), nil
}

// cmdST reads "st SECONDS", a fixed time for every move, which replaces level.
func (c *cecp) cmdST(cmd command) {
	w := cmd.words()
	if len(w) != 1 {
		c.s.errorf("st needs a number of seconds")
		return
	}
	d, err := parseSecondsUpTo(w[0], maxSTMillis)
	if err != nil || d <= 0 {
		c.s.errorf("st: %s is not a positive number of seconds", quoteToken(w[0]))
		return
	}
	c.moveTime = d
}

// cmdNPS reads "nps RATE": from now until new the engine's clock counts nodes, RATE of them a second, as
// the protocol asks (st 8 and nps 10000 are 80,000 nodes a move); nps 0 returns to the wall clock (the
// protocol's user CPU time is not measured).
func (c *cecp) cmdNPS(cmd command) {
	w := cmd.words()
	var n int64
	var err error
	if len(w) == 1 {
		n, err = strconv.ParseInt(w[0], 10, 64)
	}
	if len(w) != 1 || err != nil || n < 0 || n > maxNodes {
		c.s.errorf("nps needs a number of nodes a second")
		return
	}
	c.nps = n
}

// cmdSD reads "sd DEPTH", a depth limit on top of the clock.
func (c *cecp) cmdSD(cmd command) {
	w := cmd.words()
	n := 0
	var err error
	if len(w) == 1 {
		n, err = strconv.Atoi(w[0])
	}
	if len(w) != 1 || err != nil || n < 1 || n > maxDepth {
		c.s.errorf("sd needs a depth in 1..%d", maxDepth)
		return
	}
	c.depth = n
}

// cmdClock reads time or otim: a clock in centiseconds (negative when overdrawn).
func (c *cecp) cmdClock(cmd command, clock *time.Duration) {
	w := cmd.words()
	n := int64(0)
	var err error
	if len(w) == 1 {
		n, err = strconv.ParseInt(w[0], 10, 64)
	}
	if len(w) != 1 || err != nil {
		c.s.errorf("want a clock in centiseconds")
		return
	}
	*clock = time.Duration(max(min(n, maxCentis), -maxCentis)) * 10 * time.Millisecond
}
