// Making a book from games: every move of their first plies, weighed by how often it was played or by its
// results, as polyglot make-book does, then vetted by a search of ours when the maker is given one.

package openingbook

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"dossier/games"
)

// Tally is what a book's games say of one move: in how many it was played and how it scored for its player.
type Tally struct {
	Games, Wins, Draws, Losses int
}

// candidate is one move of the games in one position.
type candidate struct {
	move  games.Move
	tally Tally
}

// bookPosition is one position of the games, with a copy to vet its moves in.
type bookPosition struct {
	position games.Position
	moves    map[uint16]*candidate
}

// Maker gathers games into a book. The zero Maker is not usable: NewMaker.
type Maker struct {
	maxPlies  int
	positions map[uint64]*bookPosition
	games     int
}

// NewMaker returns a Maker that takes the first maxPlies moves of each game (all when maxPlies <= 0).
func NewMaker(maxPlies int) *Maker {
	return &Maker{maxPlies: maxPlies, positions: map[uint64]*bookPosition{}}
}

// Games returns the number of games added.
func (mk *Maker) Games() int { return mk.games }

// Positions returns the number of positions the games went through (within the plies taken).
func (mk *Maker) Positions() int { return len(mk.positions) }

// Add adds a game: its moves from start (which Add leaves as it found it), and its result (Ongoing when
// unknown: the moves are counted without results).
func (mk *Maker) Add(start games.Position, moves []games.Move, result games.Result) error {
	p := start.Clone()
	if _, ok := p.(games.BookCoder); !ok {
		return ErrNoBookFormat
	}
	mk.games++
	for i, m := range moves {
		if mk.maxPlies > 0 && i >= mk.maxPlies {
			break
		}
		coder := p.(games.BookCoder)
		key, code := coder.BookKey(), coder.BookMove(m)
		bp := mk.positions[key]
		if bp == nil {
			bp = &bookPosition{position: p.Clone(), moves: map[uint16]*candidate{}}
			mk.positions[key] = bp
		}
		c := bp.moves[code]
		if c == nil {
			c = &candidate{move: m}
			bp.moves[code] = c
		}
		c.tally.Games++
		switch {
		case result == games.Draw:
			c.tally.Draws++
		case result == games.WinFor(p.ToMove()):
			c.tally.Wins++
		case result == games.LossFor(p.ToMove()):
			c.tally.Losses++
		}
		p.Play(m)
	}
	return nil
}

// Weighing says how a made book weighs its moves.
type Weighing int

// The weighings.
const (
	// ByGames weighs a move by the number of games it was played in: for games without results, such as
	// a book of openings.
	ByGames Weighing = iota
	// ByResults weighs a move by 2 a win and 1 a draw for its player, polyglot make-book's weight.
	ByResults
)

// MakeOptions say which of the games' moves a book keeps and how it weighs them.
type MakeOptions struct {
	// MinGames leaves out a move played in fewer games (at least 1).
	MinGames int
	// Weighing is how the kept moves are weighed.
	Weighing Weighing
	// Vetters, when set, are asked for each position's moves that are left (p is a copy they may use): each
	// returns for each move whether the book keeps it, our search's say on a move the games played. The
	// positions are shared among them, each vetter on a goroutine of its own.
	Vetters []Vet
	// Progress, when set, is told how many of the positions to vet are done, now and then and at the end.
	Progress func(done, total int)
}

// Vet says of each of a position's moves whether a book keeps it.
type Vet func(p games.Position, moves []games.Move) ([]bool, error)

// vet leaves out of candidates (by key, in keys' order) the moves the vetters refuse.
func (mk *Maker) vet(keys []uint64, candidates [][]uint16, o MakeOptions) error {
	if len(o.Vetters) == 0 {
		return nil
	}
	var todo []int
	for i := range keys {
		if len(candidates[i]) > 0 {
			todo = append(todo, i)
		}
	}
	jobs := make(chan int)
	var mu sync.Mutex
	var firstErr error
	done := 0
	var wg sync.WaitGroup
	for _, vet := range o.Vetters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				bp := mk.positions[keys[i]]
				moves := make([]games.Move, len(candidates[i]))
				for j, code := range candidates[i] {
					moves[j] = bp.moves[code].move
				}
				keep, err := vet(bp.position.Clone(), moves)
				if err == nil && len(keep) != len(moves) {
					err = fmt.Errorf("vetting %s: %d answers for %d moves", bp.position.FEN(), len(keep), len(moves))
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					vetted := candidates[i][:0]
					for j, code := range candidates[i] {
						if keep[j] {
							vetted = append(vetted, code)
						}
					}
					candidates[i] = vetted
				}
				done++
				if o.Progress != nil && (done%100 == 0 || done == len(todo)) {
					o.Progress(done, len(todo))
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return firstErr
}

// Entries returns the book's entries: every move kept, with its weight scaled, when the largest would not
// fit in an entry, so that the largest is the greatest a weight can be. A move kept with a weight that scales
// to 0 gets 1, since a weight of 0 says "do not play".
func (mk *Maker) Entries(o MakeOptions) ([]Entry, error) {
	minGames := max(o.MinGames, 1)
	keys := make([]uint64, 0, len(mk.positions))
	for key := range mk.positions {
		keys = append(keys, key)
	}
	slices.Sort(keys) // the same book from the same games, whatever the map's order
	candidates := make([][]uint16, len(keys))
	for i, key := range keys {
		for code, c := range mk.positions[key].moves {
			if c.tally.Games >= minGames {
				candidates[i] = append(candidates[i], code)
			}
		}
		slices.Sort(candidates[i])
	}
	if err := mk.vet(keys, candidates, o); err != nil {
		return nil, err
	}
	type kept struct {
		key    uint64
		code   uint16
		weight float64
	}
	var all []kept
	for i, key := range keys {
		for _, code := range candidates[i] {
			t := mk.positions[key].moves[code].tally
			w := float64(t.Games)
			if o.Weighing == ByResults {
				w = float64(2*t.Wins + t.Draws)
			}
			if w > 0 {
				all = append(all, kept{key, code, w})
			}
		}
	}
	if len(all) == 0 {
		return nil, errors.New("no move of the games is kept: fewer games than the minimum, or none vetted")
	}
	heaviest := 0.0
	for _, k := range all {
		heaviest = math.Max(heaviest, k.weight)
	}
	scale := math.Min(1, math.MaxUint16/heaviest)
	entries := make([]Entry, len(all))
	for i, k := range all {
		entries[i] = Entry{Key: k.key, Move: k.code, Weight: uint16(max(1, math.Round(k.weight*scale)))}
	}
	return entries, nil
}

// AddRecords adds the games of a record text of g (PGN for chess, PDN for checkers: games.RecordsReader),
// each with its result, and returns how many it added. A game that cannot be read is left out and named in
// the error, which comes with the games added.
func (mk *Maker) AddRecords(g games.Game, text string) (int, error) {
	reader, ok := g.(games.RecordsReader)
	if !ok {
		return 0, fmt.Errorf("%s has no record format to make a book from", g.Name())
	}
	records, readErr := reader.ReadRecords(text, mk.maxPlies)
	for _, r := range records {
		if err := mk.Add(r.Start, r.Moves, r.Result); err != nil {
			return 0, err
		}
	}
	return len(records), readErr
}
