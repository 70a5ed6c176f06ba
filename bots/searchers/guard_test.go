// Tests of the model-risk guard: positions where OM with a model of a 1-ply opponent plays a losing move
// (found by a scan of the Win At Chess suite, testdata/chess/WinAtChess.epd, for OM moves our own depth-4
// alpha-beta values 150 or more below its best), the guard's choice there under several ModelRisks, mates,
// and the Player's wiring (the option, read live, and the info strings).

package searchers

import (
	"math"
	"strings"
	"testing"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
)

// guardDepth is the depth of the guard's tests: the scan's.
const guardDepth = 4

// trapModel is the model of the scans: the opponent plays our own evaluation but searches one ply, so that
// OM expects it to miss every reply deeper than that.
const trapModel = "strongest@1"

// guardCase is a position where OM with trapModel plays trap at guardDepth, a move our own search values far
// below its best.
type guardCase struct {
	name, fen, trap string
}

// guardCases are the Win At Chess positions of the scan where OM's move loses what the position holds.
var guardCases = []guardCase{
	// Rc6, aiming at Rc8 mate of the 1-ply opponent (with session 16's evaluation; Rb1 with the one before,
	// Rd6 before the tuned tables); Rb7 (the suite's move) wins the a-pawn and the game.
	{"WAC.006", "7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1", "b6c6"},
	// Bh3, a speculative sacrifice against the king that a 1-ply opponent would not refute; Bb5 (the
	// suite's move) wins the queen.
	{"WAC.020", "r2qkb1r/1ppb1ppp/p7/4p3/P1Q1P3/2P5/5PPP/R1B2KNR b kq - 0 1", "d7h3"},
	// Qa5, expecting Qa8 mate of a 1-ply opponent, loses a rook to Rxe7's threats at once; Re7 holds.
	{"WAC.108", "r5k1/1q4pp/2p5/p1Q5/2P5/5R2/4RKPP/r7 w - - 0 1", "c5a5"},
}

// mateCases are Win At Chess positions where our depth-4 search sees a forced mate and OM with trapModel
// plays another move, which expects a faster mate the real opponent would not allow.
var mateCases = []guardCase{
	{"WAC.064", "8/6pp/3q1p2/3n1k2/1P6/3NQ2P/5PP1/6K1 w - - 0 1", "e3e2"},
	{"WAC.161", "3r3k/3r1P1p/pp1Nn3/2pp4/7Q/6R1/Pq4PP/5RK1 w - - 0 1", "d6e8"},
}

// guardedOM builds OM with trapModel guarded with a fixed ModelRisk.
func guardedOM(t *testing.T, g games.Game, risk int) engine.Searcher {
	t.Helper()
	s, err := NewGuarded(g, Config{Search: OMSearch, Model: trapModel, HashMB: 8},
		func() int { return risk })
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*guardSearcher); !ok {
		t.Fatalf("a model search is built as %T, not guarded", s)
	}
	return s
}

// guardedSearch runs s on the position at guardDepth and returns its result and its info strings.
func guardedSearch(s engine.Searcher, p games.Position, lim engine.Limits) (engine.Result, []string) {
	var texts []string
	res := s.Search(p.Clone(), engine.NewControl(lim, p.ToMove()), func(info engine.Info) {
		if info.Text != "" {
			texts = append(texts, info.Text)
		}
	})
	return res, texts
}

// ownValues returns our own alpha-beta's best move and value at depth, and the value of m at that depth, as
// the guard computes them (a fresh table, the full search first).
func ownValues(t *testing.T, g games.Game, p games.Position, depth int, m games.Move) (games.Move, float64, float64) {
	t.Helper()
	own := mustSearcher(t, g, Config{HashMB: 4})
	best := searchLimited(own, p.Clone(), engine.Limits{Depth: depth})
	alt := searchLimited(own, p.Clone(), engine.Limits{Depth: depth, SearchMoves: []games.Move{m}})
	return best.Move, best.Score, alt.Score
}

func TestGuardRefusesTheModelsLosingMove(t *testing.T) {
	g := chess.Game{}
	for _, tc := range guardCases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPosition(t, g, tc.fen)
			lim := engine.Limits{Depth: guardDepth}
			alone := searchLimited(mustSearcher(t, g, Config{Search: OMSearch, Model: trapModel, HashMB: 8}), p.Clone(), lim)
			if got := p.FormatMove(alone.Move); got != tc.trap {
				t.Fatalf("OM alone plays %s, not the scan's %s", got, tc.trap)
			}
			// The trap loses by our deeper search too, not only at the guard's depth.
			_, deepBest, deepTrap := ownValues(t, g, p, guardDepth+4, alone.Move)
			if deepBest-deepTrap < 3*DefaultModelRisk {
				t.Fatalf("at depth %d %s is %.0f, the best %.0f: not a losing move", guardDepth+4, tc.trap, deepTrap, deepBest)
			}
			res, texts := guardedSearch(guardedOM(t, g, DefaultModelRisk), p, lim)
			if res.Move == alone.Move {
				t.Fatalf("the guard played the model's %s (%q)", tc.trap, texts)
			}
			_, best, played := ownValues(t, g, p, guardDepth, res.Move)
			if played < best-DefaultModelRisk {
				t.Errorf("the guard played %s, %.0f below the best %.0f", p.FormatMove(res.Move), best-played, best)
			}
			if len(texts) == 0 || !strings.Contains(texts[len(texts)-1], "model risk: "+tc.trap) ||
				!strings.Contains(texts[len(texts)-1], "playing "+p.FormatMove(res.Move)) {
				t.Errorf("info strings %q do not say that %s was refused", texts, tc.trap)
			}
		})
	}
}

func TestGuardPlaysTheModelsMoveWithinModelRisk(t *testing.T) {
	g := chess.Game{}
	for _, tc := range guardCases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPosition(t, g, tc.fen)
			trap, err := p.ParseMove(tc.trap)
			if err != nil {
				t.Fatal(err)
			}
			_, best, v := ownValues(t, g, p, guardDepth, trap)
			if best >= engine.MateBound || v <= -engine.MateBound {
				t.Fatalf("best %.0f, %s %.0f: a mate, which no ModelRisk allows", best, tc.trap, v)
			}
			cost := int(math.Ceil(best - v))
			for _, risk := range []int{cost, cost + 100} {
				res, texts := guardedSearch(guardedOM(t, g, risk), p, engine.Limits{Depth: guardDepth})
				if res.Move != trap {
					t.Errorf("ModelRisk %d: played %s, not the model's %s, %d below the best (%q)", risk,
						p.FormatMove(res.Move), tc.trap, cost, texts)
				}
			}
			res, _ := guardedSearch(guardedOM(t, g, cost-1), p, engine.Limits{Depth: guardDepth})
			if res.Move == trap {
				t.Errorf("ModelRisk %d: played the model's %s, %d below the best", cost-1, tc.trap, cost)
			}
		})
	}
}

func TestGuardWithModelRiskZeroPlaysOnlyOurBestValue(t *testing.T) {
	g := chess.Game{}
	fens := []string{guardCases[0].fen, guardCases[1].fen,
		"r2q1rk1/pb1pbp1p/n1p1pnp1/1p2Q2B/P3PP2/1P4P1/2PP3P/RNB1K1NR w K - 9 13", // random play, seed PCG(7, 9)
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}
	for _, fen := range fens {
		t.Run(fen, func(t *testing.T) {
			p := mustPosition(t, g, fen)
			res, texts := guardedSearch(guardedOM(t, g, 0), p, engine.Limits{Depth: guardDepth})
			_, best, played := ownValues(t, g, p, guardDepth, res.Move)
			if played < best {
				t.Errorf("ModelRisk 0 played %s worth %.0f, our best %.0f (%q)", p.FormatMove(res.Move), played, best, texts)
			}
		})
	}
}

func TestGuardKeepsForcedMates(t *testing.T) {
	g := chess.Game{}
	for _, tc := range mateCases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPosition(t, g, tc.fen)
			alone := searchLimited(mustSearcher(t, g, Config{Search: OMSearch, Model: trapModel, HashMB: 8}), p.Clone(),
				engine.Limits{Depth: guardDepth})
			if got := p.FormatMove(alone.Move); got != tc.trap {
				t.Fatalf("OM alone plays %s, not the scan's %s", got, tc.trap)
			}
			// The largest ModelRisk short of off: only the mate rule keeps the win.
			res, texts := guardedSearch(guardedOM(t, g, ModelRiskOff-1), p, engine.Limits{Depth: guardDepth})
			// The mate comes through check extensions at depth 4, where a search restricted to the mating move
			// (with another table) may miss it; depth 6 sees it whatever the table.
			_, best, _ := ownValues(t, g, p, guardDepth, res.Move)
			_, _, played := ownValues(t, g, p, guardDepth+2, res.Move)
			if best < engine.MateBound || played < engine.MateBound {
				t.Errorf("played %s worth %s, our best %s (%q)", p.FormatMove(res.Move), scoreText(played), scoreText(best), texts)
			}
		})
	}
}

func TestGuardRiskRules(t *testing.T) {
	cases := []struct {
		name        string
		v, best     float64
		risk        float64
		want        bool
		explanation string
	}{
		{"within risk", 10, 50, 50, true, ""},
		{"beyond risk", 0, 51, 50, false, "51 below"},
		{"a slower mate", engine.MateScore - 9, engine.MateScore - 3, 50, true, ""},
		{"gives up a mate", engine.MateBound - 1, engine.MateScore - 3, 9999, false, "forced win"},
		{"walks into a mate", -(engine.MateScore - 8), 0, 9999, false, "forced loss"},
		{"a faster loss than the best's", -(engine.MateScore - 4), -(engine.MateScore - 8), 50, false, "forced loss"},
		{"the same loss", -(engine.MateScore - 8), -(engine.MateScore - 8), 0, true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, why := withinRisk(tc.v, tc.best, tc.risk)
			if ok != tc.want || !strings.Contains(why, tc.explanation) {
				t.Errorf("withinRisk(%v, %v, %v) = %v %q, want %v %q", tc.v, tc.best, tc.risk, ok, why, tc.want, tc.explanation)
			}
		})
	}
}

func TestGuardUnderAClockAMoveTimeAndNodes(t *testing.T) {
	g := chess.Game{}
	cases := []struct {
		name string
		lim  engine.Limits
	}{
		{"movetime", engine.Limits{MoveTime: 300 * time.Millisecond}},
		{"clock", engine.Limits{Time: [2]time.Duration{5 * time.Second, 5 * time.Second}}},
		{"nodes", engine.Limits{Nodes: 200_000}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPosition(t, g, guardCases[1].fen)
			res, texts := guardedSearch(guardedOM(t, g, DefaultModelRisk), p, tc.lim)
			if !games.IsLegal(p, res.Move) || len(texts) == 0 || !strings.HasPrefix(texts[len(texts)-1], "model risk: ") {
				t.Errorf("move %v, info strings %q", res.Move, texts)
			}
			t.Logf("%s at depth %d: %q", p.FormatMove(res.Move), res.Depth, texts)
		})
	}
}

func TestGuardChecksAnInfiniteSearchAfterItsStop(t *testing.T) {
	g := chess.Game{}
	p := mustPosition(t, g, guardCases[1].fen)
	s := guardedOM(t, g, DefaultModelRisk)
	ctl := engine.NewControl(engine.Limits{Infinite: true}, p.ToMove())
	time.AfterFunc(300*time.Millisecond, ctl.Stop)
	var texts []string
	var modelDepth int
	res := s.Search(p.Clone(), ctl, func(info engine.Info) {
		if info.Text != "" {
			texts = append(texts, info.Text)
		} else if len(texts) == 0 {
			modelDepth = max(modelDepth, info.Depth)
		}
	})
	if !games.IsLegal(p, res.Move) || len(texts) == 0 || !strings.HasPrefix(texts[len(texts)-1], "model risk: ") {
		t.Fatalf("move %v, info strings %q", res.Move, texts)
	}
	if p.FormatMove(res.Move) == guardCases[1].trap {
		t.Errorf("played the model's %s after an infinite search of depth %d (%q)", guardCases[1].trap, modelDepth, texts)
	}
	t.Logf("model depth %d: %q", modelDepth, texts)
}
