// Preparing against one stored opponent: its repertoire read from the memory, searched by our default
// preset, the findings filed as experience that the next game's search reads.

package prepare

import (
	"context"
	"fmt"
	"strings"
	"time"

	"dossier/bots/searchers"
	"dossier/games"
	"dossier/memory"
)

// Summary is what a preparation did.
type Summary struct {
	Opponent string `json:"opponent"`
	Game     string `json:"game"`
	// Repertoire counts the positions found (reached at least MinCount times); Prepared those searched.
	Repertoire int       `json:"repertoire"`
	Prepared   int       `json:"prepared"`
	Findings   []Finding `json:"findings"`
	Seconds    float64   `json:"seconds"`
}

// OpponentOptions say what to prepare against an opponent and how long to take.
type OpponentOptions struct {
	Options
	// MinCount is how many stored games must have reached a position (2 when 0).
	MinCount int
	// HashMB is the search's table size (64 when 0).
	HashMB int
	// Preset is the evaluation searched with (the game's default when "").
	Preset string
	// InBook, when set, says whether our book has a move for us in a position: the repertoire's positions
	// where it has one are left out (the book's move is played there, never a search's).
	InBook func(games.Position) bool
	// Likely are positions the next game is likely to reach beyond the repertoire, each with its Chance (the
	// ends of the book lines we are likely to play against the opponent: bots/openingbook.LikelyExits). They
	// are prepared with the repertoire, the likeliest first.
	Likely []Position
	// Steer, when set, gives InBook and Likely from the opponent's key and stored games once ForOpponent has
	// read them (`dossier memory prepare --book`: the lines the book steers into, as the preparation after a
	// game finds them).
	Steer func(key string, stored []memory.Game) (inBook func(games.Position) bool, likely []Position)
}

// Games prepares g from an opponent's stored games: their repertoire (positions reached at least opts.MinCount
// times, 2 when 0, less those opts.InBook says our book plays) with opts.Likely, searched within opts' budget by
// a one-thread search of opts.Preset (the default when "") with a table of opts.HashMB (64 when 0), each finding
// handed to found as it is made (nil: none). It returns the number of positions and the findings, which ctx's
// end keeps.
func Games(ctx context.Context, g games.Game, stored []memory.Game, opts OpponentOptions,
	progress func(Progress), found func(Finding) error) (int, []Finding, error) {
	minCount := opts.MinCount
	if minCount <= 0 {
		minCount = 2
	}
	rep := withLikely(inBookLeftOut(g, Repertoire(g, stored, minCount), opts.InBook), opts.Likely)
	if len(rep) == 0 {
		return 0, nil, nil
	}
	hash := opts.HashMB
	if hash <= 0 {
		hash = 64
	}
	s, err := searchers.New(g, searchers.Config{Preset: opts.Preset, HashMB: hash, Threads: 1})
	if err != nil {
		return len(rep), nil, err
	}
	findings, err := Run(ctx, g, s, rep, opts.Options, progress, found)
	return len(rep), findings, err
}

// ForOpponent prepares g against the stored opponent name (a name or key): its repertoire, searched within
// opts' budget, every finding filed in the memory as an experience entry of the opponent (and of every
// opponent of g). It waits until the memory has filed them, or ctx ends.
func ForOpponent(ctx context.Context, mem *memory.Memory, name string, g games.Game, opts OpponentOptions,
	progress func(Progress)) (Summary, error) {
	start := time.Now()
	prof, err := mem.Profile(name)
	if err != nil {
		return Summary{}, err
	}
	stored, err := mem.GamesBrief(prof.Key)
	if err != nil {
		return Summary{}, err
	}
	if opts.Steer != nil {
		opts.InBook, opts.Likely = opts.Steer(prof.Key, stored)
	}
	repertoire, found, runErr := Games(ctx, g, stored, opts, progress, nil)
	sum := Summary{Opponent: prof.Key, Game: g.Name(), Repertoire: repertoire, Findings: []Finding{}}
	if runErr != nil && len(found) == 0 && ctx.Err() == nil {
		return sum, runErr
	}
	sum.Findings, sum.Prepared = append(sum.Findings, found...), len(found)
	if len(found) > 0 {
		// What was found is filed even when ctx ended the run (an interrupt keeps the work done).
		if err := file(context.WithoutCancel(ctx), mem, prof.Key, g, found, start); err != nil {
			return sum, err
		}
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, runErr
}

// preparationPrefix starts the name under which a preparation files its findings in the memory, in place of
// a game id.
const preparationPrefix = "prepared-"

// IsPreparation reports whether an experience entry's game id names a preparation rather than a game.
func IsPreparation(gameID string) bool { return strings.HasPrefix(gameID, preparationPrefix) }

// file records the findings as one analysis event of the opponent (see Event).
func file(ctx context.Context, mem *memory.Memory, key string, g games.Game, found []Finding, at time.Time) error {
	return mem.Record(memory.Event{Analysis: Event(key, g, found, at)}).Wait(ctx)
}

// Event is the memory's form of a preparation's findings: one analysis of the opponent, named by the
// preparation's start in place of a game id. Each
// value is filed as a lower bound, as the analyses of games file the positions before our moves: a deep exact
// value beside the shallow values of the other moves of a node above it would make the search leave the line
// for a sibling whose shallow value happens to be higher (see bots/player's analysisEvent). The move is what
// counts: the Player plays it where the entry is deeper than its search (consultPrepared).
func Event(key string, g games.Game, found []Finding, at time.Time) *memory.Analysis {
	a := &memory.Analysis{OpponentKey: key, GameID: fmt.Sprintf("%s%d", preparationPrefix, at.UnixNano()), Game: g.Name(), At: at}
	for _, f := range found {
		p, err := g.ParsePosition(f.FEN)
		if err != nil {
			continue
		}
		a.Experience = append(a.Experience, memory.Experience{FEN: f.FEN, Hash: p.Hash(), Move: f.Move, Value: f.Score,
			Depth: f.Depth, Bound: memory.BoundLower})
	}
	return a
}

// inBookLeftOut returns the positions where inBook (nil: none) says our book has no move.
func inBookLeftOut(g games.Game, positions []Position, inBook func(games.Position) bool) []Position {
	if inBook == nil {
		return positions
	}
	var out []Position
	for _, rp := range positions {
		if p, err := g.ParsePosition(rp.FEN); err == nil && !inBook(p) {
			out = append(out, rp)
		}
	}
	return out
}

// withLikely merges the likely positions into the repertoire's: a position in both keeps its count and the
// higher chance. The likeliest come first (then the most frequent, the earliest, by FEN).
func withLikely(positions, likely []Position) []Position {
	if len(likely) == 0 {
		return positions
	}
	byFEN := map[string]int{}
	out := append([]Position(nil), positions...)
	for i, rp := range out {
		byFEN[rp.FEN] = i
	}
	for _, lp := range likely {
		if i, ok := byFEN[lp.FEN]; ok {
			out[i].Chance = max(out[i].Chance, lp.Chance)
			continue
		}
		byFEN[lp.FEN] = len(out)
		out = append(out, lp)
	}
	sortPositions(out)
	return out
}
