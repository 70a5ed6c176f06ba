// Package prepare readies the engine for its next game against a known opponent, as a human player studies
// the openings an opponent repeats: the positions of the opponent's stored games that came up at least twice
// with us to move (its repertoire), each searched deeply within a time budget, the results handed on as
// experience for the search of the next game.
package prepare

import (
	"context"
	"errors"
	"sort"
	"time"

	"dossier/bots/analysis"
	"dossier/engine"
	"dossier/games"
	"dossier/memory"
)

// Position is one position of an opponent's repertoire where we are to move.
type Position struct {
	// FEN is the position in the game's notation.
	FEN string
	// Count is how many stored games reached it; Ply the earliest ply at which one did.
	Count, Ply int
	// Chance is the chance that the next game reaches it: the share of the opponent's games that did (the
	// repertoire), or the chance of the lines that lead there (a likely position).
	Chance float64
}

// Repertoire returns the positions that at least minCount of the opponent's stored games of g reached with
// us to move, the most frequent first (then the earliest, then by FEN, so the order is fixed), each with the
// share of those games that reached it as its chance. A game's
// later visits to a position count once; games of another game, or whose moves do not read, are skipped
// from the first move that does not.
func Repertoire(g games.Game, stored []memory.Game, minCount int) []Position {
	type seen struct{ count, ply int }
	byFEN := map[string]*seen{}
	played := 0
	for _, sg := range stored {
		if sg.Game != g.Name() {
			continue
		}
		played++
		p, err := g.ParsePosition(sg.StartFEN)
		if err != nil {
			continue
		}
		ours := games.Side(sg.OurSide)
		visited := map[string]bool{}
		for ply := 0; ply <= len(sg.Moves); ply++ { // the position after the last move too
			if p.ToMove() == ours && p.Status().Result == games.Ongoing {
				fen := p.FEN()
				if !visited[fen] {
					visited[fen] = true
					s := byFEN[fen]
					if s == nil {
						s = &seen{ply: ply}
						byFEN[fen] = s
					}
					s.count++
					s.ply = min(s.ply, ply)
				}
			}
			if ply == len(sg.Moves) {
				break
			}
			m, err := p.ParseMove(sg.Moves[ply])
			if err != nil || !games.IsLegal(p, m) {
				break
			}
			p.Play(m)
		}
	}
	var out []Position
	for fen, s := range byFEN {
		if s.count >= max(minCount, 1) {
			out = append(out, Position{FEN: fen, Count: s.count, Ply: s.ply, Chance: float64(s.count) / float64(played)})
		}
	}
	sortPositions(out)
	return out
}

// sortPositions orders positions the likeliest first, then the most frequent, the earliest, by FEN.
func sortPositions(out []Position) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Chance != b.Chance {
			return a.Chance > b.Chance
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Ply != b.Ply {
			return a.Ply < b.Ply
		}
		return a.FEN < b.FEN
	})
}

// weight is the position's part of the budget: its chance, or its count where no chance was told.
func (p Position) weight() float64 {
	if p.Chance > 0 {
		return p.Chance
	}
	return float64(p.Count)
}

// Finding is what the preparation found of one position: the best move and its value for the side to move
// (us), exact, to the depth the search completed.
type Finding struct {
	Position
	Move  string
	Score float64
	Depth int
	Bound engine.Bound
}

// Options bound a preparation.
type Options struct {
	// Budget is the time for all positions together; each gets a share by its count.
	Budget time.Duration
	// MinShare is the least time one position gets: positions beyond what the budget gives that much are
	// left out (the least frequent).
	MinShare time.Duration
	// Gate, when set, is entered before every search, so that the preparation runs only while the engine is
	// not searching itself (in an arena the next game starts at once, and the preparation goes on during the
	// opponent's turns). A search the engine cuts short is searched again for what is left of its share, and
	// the budget counts only the time searches ran.
	Gate analysis.Gate
}

// Progress is reported after each position.
type Progress struct {
	Done, Total int
	Finding     Finding
	Elapsed     time.Duration
}

// ErrNoBudget is returned when the options give no time.
var ErrNoBudget = errors.New("prepare: the budget must be positive")

// Run searches the positions in their order (the likeliest or most frequent first), each for its share of the
// budget by its weight (its chance, or its count where none is told) with search (a fresh
// search per position is not needed: the table carries over between related positions), hands every
// finding to found, and reports progress (nil: none). It stops when ctx ends, with the findings so far;
// it returns them and ctx's error in that case, or found's first error.
func Run(ctx context.Context, g games.Game, search engine.Searcher, positions []Position, opts Options,
	progress func(Progress), found func(Finding) error) ([]Finding, error) {
	if opts.Budget <= 0 {
		return nil, ErrNoBudget
	}
	minShare := max(opts.MinShare, 100*time.Millisecond)
	positions = affordable(positions, opts.Budget, minShare)
	total := 0.0
	for _, p := range positions {
		total += p.weight()
	}
	start := time.Now()
	var spent time.Duration // the time the searches ran
	var out []Finding
	for i, rp := range positions {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		pos, err := g.ParsePosition(rp.FEN)
		if err != nil {
			continue
		}
		share := max(time.Duration(float64(opts.Budget)*rp.weight()/total), minShare)
		share = min(share, opts.Budget-spent) // the budget bounds the whole run
		if share < minShare/2 {
			break
		}
		res, took, ok := searchFor(ctx, opts.Gate, search, pos, share)
		spent += took
		if !ok {
			return out, ctx.Err() // an interrupted search is not a finding
		}
		if res.Move == games.NoMove || res.Depth == 0 {
			continue
		}
		f := Finding{Position: rp, Move: pos.FormatMove(res.Move), Score: res.Score, Depth: res.Depth,
			Bound: engine.BoundExact}
		if found != nil {
			if err := found(f); err != nil {
				return out, err
			}
		}
		out = append(out, f)
		if progress != nil {
			progress(Progress{Done: i + 1, Total: len(positions), Finding: f, Elapsed: time.Since(start)})
		}
	}
	return out, nil
}

// searchFor searches pos for share of search time, through gate when set: a search the gate cuts short is
// searched again for the rest of the share (the table keeps what it found), and the deepest result counts.
// It returns the result, the time searched, and false when ctx ended first.
func searchFor(ctx context.Context, gate analysis.Gate, s engine.Searcher, pos games.Position,
	share time.Duration) (engine.Result, time.Duration, bool) {
	var best engine.Result
	var took time.Duration
	for {
		run, leave := ctx, func() {}
		if gate != nil {
			run, leave = gate.Enter(ctx)
		}
		if ctx.Err() != nil {
			leave()
			return best, took, false
		}
		ctl := engine.NewControl(engine.Limits{MoveTime: share - took}, pos.ToMove())
		stop := context.AfterFunc(run, ctl.Stop)
		begun := time.Now()
		res := s.Search(pos.Clone(), ctl, nil)
		took += time.Since(begun)
		stop()
		cut := run.Err() != nil
		leave()
		if ctx.Err() != nil {
			return best, took, false
		}
		if res.Move != games.NoMove && res.Depth >= best.Depth {
			best = res
		}
		if !cut || took >= share {
			return best, took, true
		}
	}
}

// affordable keeps the first positions (the likeliest or most frequent) that the budget can give minShare each.
func affordable(positions []Position, budget, minShare time.Duration) []Position {
	n := int(budget / minShare)
	if n < len(positions) {
		return positions[:n]
	}
	return positions
}
