// Where the next game against an opponent is likely to leave the book: the book walked as our choice against
// the opponent (ChooseAgainst) and its replies in our games would walk it, so that the preparation searches the
// positions the first searched moves of the next game will be played in.

package openingbook

import (
	"maps"
	"math/rand/v2"
	"slices"
	"sort"

	"dossier/games"
)

// Lines are our moves in the positions of our games against one opponent, with our results: what ChooseAgainst
// reads. Keyed by the position's hash, so that transpositions meet.
type Lines map[uint64]map[string]Record

// Add adds a game that played our move (in the game's notation) in the position of hash, scoring score for us.
func (l Lines) Add(hash uint64, move string, score float64) {
	if l[hash] == nil {
		l[hash] = map[string]Record{}
	}
	r := l[hash][move]
	r.Games++
	r.Points += score
	l[hash][move] = r
}

// ByMove returns the records of the book's moves in p (nil when none has one).
func (l Lines) ByMove(p games.Position, moves []Move) map[games.Move]Record {
	byText := l[p.Hash()]
	if len(byText) == 0 {
		return nil
	}
	out := map[games.Move]Record{}
	for _, m := range moves {
		if r, ok := byText[p.FormatMove(m.Move)]; ok {
			out[m.Move] = r
		}
	}
	return out
}

// Replies are the opponent's moves in the positions of our games against it (by the position's hash): the
// move in the game's notation and how many games played it there.
type Replies map[uint64]map[string]int

// Add adds a game in which the opponent played move in the position of hash.
func (r Replies) Add(hash uint64, move string) {
	if r[hash] == nil {
		r[hash] = map[string]int{}
	}
	r[hash][move]++
}

// Prior is the prior of ChooseAgainst from our results against the opponent: our expected score by Laplace's
// rule, points out of games.
func Prior(points float64, games int) float64 {
	return (points + 1) / float64(games+2)
}

// Exit is a position, us to move, where the book has no move for us: where the search plays the game's first
// move of its own.
type Exit struct {
	FEN string
	Ply int
	// Chance is the chance that the next game reaches it.
	Chance float64
}

// LikelyExitsOptions say how the book is walked.
type LikelyExitsOptions struct {
	// Depth is the book's depth as BookDepth sets it (see PastDepth).
	Depth int
	// Lines, Everyone, Prior: what ChooseAgainst chooses our moves by (our games against the opponent, against
	// every other one, and our expected score against it).
	Lines    Lines
	Everyone Lines
	Prior    float64
	// Replies are the opponent's moves in our games; where it never played, its moves are taken by the book's
	// weights (an opponent with a book of its own plays moves that books know).
	Replies Replies
	// MinChance is the chance below which a line is not followed (0.01 when 0).
	MinChance float64
	// Draws is how many draws of ChooseAgainst estimate the chance of each of our moves (200 when 0).
	Draws int
}

// LikelyExits walks b from start, with us playing ours, as the next game would: our moves as ChooseAgainst
// chooses them by opts.Lines (each move's chance estimated by opts.Draws draws of rng), the opponent's as it
// played them in our games, by how often, or by the book's weights where it never played. It returns the
// positions us to move where the book has no move for us (or opts.Depth ends it), the likeliest first, with the
// chance of each; lines less likely than opts.MinChance are not followed, and a line the opponent leaves for a
// position neither our games nor the book know ends there (its next position cannot be told).
func LikelyExits(start games.Position, ours games.Side, b *Book, rng *rand.Rand, opts LikelyExitsOptions) ([]Exit, error) {
	if opts.MinChance <= 0 {
		opts.MinChance = 0.01
	}
	if opts.Draws <= 0 {
		opts.Draws = 200
	}
	w := walk{b: b, ours: ours, rng: rng, opts: opts, exits: map[string]*Exit{}}
	if err := w.node(start.Clone(), 1); err != nil {
		return nil, err
	}
	out := make([]Exit, 0, len(w.exits))
	for _, e := range w.exits {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Chance != out[j].Chance {
			return out[i].Chance > out[j].Chance
		}
		if out[i].Ply != out[j].Ply {
			return out[i].Ply < out[j].Ply
		}
		return out[i].FEN < out[j].FEN
	})
	return out, nil
}

// walk is one LikelyExits: the exits found so far, by FEN (lines that transpose add up).
type walk struct {
	b     *Book
	ours  games.Side
	rng   *rand.Rand
	opts  LikelyExitsOptions
	exits map[string]*Exit
}

// maxWalkPlies bounds the walk: deeper than any book's lines.
const maxWalkPlies = 60

// node walks p, reached with chance.
func (w *walk) node(p games.Position, chance float64) error {
	if chance < w.opts.MinChance || p.Status().Result != games.Ongoing || p.Ply() >= maxWalkPlies {
		return nil
	}
	var next map[games.Move]float64
	var err error
	if p.ToMove() == w.ours {
		next, err = w.ourMoves(p)
		if err == nil && len(next) == 0 {
			fen := p.FEN()
			e := w.exits[fen]
			if e == nil {
				e = &Exit{FEN: fen, Ply: p.Ply()}
				w.exits[fen] = e
			}
			e.Chance += chance
			return nil
		}
	} else {
		next, err = w.theirMoves(p)
	}
	if err != nil {
		return err
	}
	for _, m := range slices.Sorted(maps.Keys(next)) { // a fixed order: the draws repeat with the seed
		p.Play(m)
		err := w.node(p, chance*next[m])
		p.Undo()
		if err != nil {
			return err
		}
	}
	return nil
}

// ourMoves returns the chance of each of our book moves in p (none: the book ends here for us).
func (w *walk) ourMoves(p games.Position) (map[games.Move]float64, error) {
	if PastDepth(p, w.opts.Depth) {
		return nil, nil
	}
	moves, err := w.b.Moves(p)
	if err != nil || len(moves) == 0 {
		return nil, err
	}
	records, everyone := w.opts.Lines.ByMove(p, moves), w.opts.Everyone.ByMove(p, moves)
	out := map[games.Move]float64{}
	for range w.opts.Draws {
		if c, ok := ChooseAgainst(moves, records, everyone, w.opts.Prior, w.rng); ok {
			out[c.Move.Move] += 1 / float64(w.opts.Draws)
		}
	}
	return out, nil
}

// theirMoves returns the chance of each of the opponent's moves in p: by how often it played them in our games,
// or by the book's weights where it never played in p.
func (w *walk) theirMoves(p games.Position) (map[games.Move]float64, error) {
	out := map[games.Move]float64{}
	if played := w.opts.Replies[p.Hash()]; len(played) > 0 {
		total := 0
		for _, n := range played {
			total += n
		}
		for text, n := range played {
			if m, err := p.ParseMove(text); err == nil && games.IsLegal(p, m) {
				out[m] += float64(n) / float64(total)
			}
		}
		return out, nil
	}
	moves, err := w.b.Moves(p)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, m := range moves {
		total += m.Weight
	}
	for _, m := range moves {
		if m.Weight > 0 {
			out[m.Move] += float64(m.Weight) / float64(total)
		}
	}
	return out, nil
}
