// Opening positions: read from a file (EPD/FEN, PDN, Pons digit strings) or made by random legal plies.

package match

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"dossier/bots/openingbook"
	"dossier/games"
)

// ReadOpenings reads an openings file for game g, one opening per line as the game reads it
// (games.ParseOpening); blank lines and lines starting with # are skipped. These are, by game:
//   - chess: a FEN or an EPD line (its four position fields; the operations after them are ignored); a file
//     of PGN games with tags (games.RecordOpeningsReader) gives the position after each game's moves;
//   - checkers: a PDN FEN (B:W21,22:B1,2, also inside [FEN "..."]), or PDN movetext from the start
//     ("1. 11-15 23-19 2. 8-11"); a file of whole PDN games with tags (games.RecordOpeningsReader) gives
//     the position after each game's moves;
//   - connect4: Pons's column digits ("4453", the first field; the solver sets' scores after it are
//     ignored) or a cfour FEN;
//   - other games: the game's position string.
//
// With maxPlies > 0 an opening given as moves (PGN games, PDN movetext or games, Pons digits) keeps only its first
// maxPlies moves, so that a file of whole games gives their openings. A position that occurs again is kept
// once. A position where the game is already over is an error. Errors name the line and what is wrong.
func ReadOpenings(g games.Game, r io.Reader, maxPlies int) ([]games.Position, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var out []games.Position
	seen := map[string]bool{}
	add := func(p games.Position) {
		if key := p.FEN(); !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	if r, ok := g.(games.RecordOpeningsReader); ok {
		openings, lines, isRecords, err := r.ReadRecordOpenings(string(text), maxPlies)
		for i, p := range openings {
			if err := playable(p); err != nil {
				return nil, fmt.Errorf("openings: game at line %d: %w", lines[i], err)
			}
			add(p)
		}
		if err != nil {
			return nil, fmt.Errorf("openings: %w", err)
		}
		if isRecords {
			return out, nil
		}
	}
	sc := bufio.NewScanner(strings.NewReader(string(text)))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := games.ParseOpening(g, line, maxPlies)
		if err != nil {
			return nil, fmt.Errorf("openings line %d: %w", n, err)
		}
		if err := playable(p); err != nil {
			return nil, fmt.Errorf("openings line %d: %w", n, err)
		}
		add(p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("openings: no opening found")
	}
	return out, nil
}

// playable returns an error when the game is over in p.
func playable(p games.Position) error {
	if o := games.OutcomeOf(p); o.Result.Over() {
		return fmt.Errorf("the game is already over there (%s, %s)", o.Result, o.Reason)
	}
	return nil
}

// randomOpeningTries bounds the attempts at a random opening that does not end the game.
const randomOpeningTries = 1000

// RandomOpening plays plies random legal moves from start (which it leaves alone) and returns the position,
// trying again when the game ends on the way.
func RandomOpening(start games.Position, plies int, rng *rand.Rand) (games.Position, error) {
	var buf [games.MaxMoves]games.Move
	for try := 0; try < randomOpeningTries; try++ {
		p := start.Clone()
		ok := true
		for i := 0; i < plies; i++ {
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 || p.Status().Result.Over() {
				ok = false
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
		if ok && playable(p) == nil {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no random opening of %d plies from %s that leaves the game going in %d tries",
		plies, start.FEN(), randomOpeningTries)
}

// randomMovesSeed sets a player's random moves (PlayerSpec.RandomMoves) apart from the openings' draws; each
// game and player has a source of its own, so that a game's random moves do not depend on the games beside it.
const randomMovesSeed = 0x6f70656e696e6773

// randomMove returns one of p's legal moves drawn by rng; p is a position where the game goes on.
func randomMove(p games.Position, rng *rand.Rand) games.Move {
	moves := p.AppendMoves(nil)
	return moves[rng.IntN(len(moves))]
}

// bookMovesSeed sets a player's book moves (PlayerSpec.Book) apart from the other draws, as randomMovesSeed.
const bookMovesSeed = 0x626f6f6b6d6f7665

// bookMove draws the book's move in p by the book's weights; false when the book has none (or cannot be read).
func bookMove(b *openingbook.Book, p games.Position, rng *rand.Rand) (games.Move, bool) {
	moves, err := b.Moves(p)
	if err != nil {
		return games.NoMove, false
	}
	chosen, ok := openingbook.Choose(moves, rng.Float64())
	return chosen.Move, ok
}

// openingRNG returns the random source of one opening pair, so that openings do not depend on which
// games run in parallel.
func openingRNG(seed uint64, pair int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(pair)))
}

// DistinctRandomStarts returns count distinct random starting configurations of g (for training a learner): the i-th
// has plies[i % len(plies)] random legal moves played from the start (Sen & Arora's n in {2, 4, ..., 16}),
// drawn from a source seeded by seed and i, and leaves the game going.
func DistinctRandomStarts(g games.Game, plies []int, count int, seed uint64) ([]games.Position, error) {
	if len(plies) == 0 {
		return nil, errors.New("starting configurations: no numbers of plies given")
	}
	for _, n := range plies {
		if n < 0 {
			return nil, fmt.Errorf("starting configurations: %d plies is negative", n)
		}
	}
	const triesPerStart = 200
	seen := map[string]bool{}
	out := make([]games.Position, 0, count)
	for i := 0; i < count; i++ {
		n := plies[i%len(plies)]
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		found := false
		for try := 0; try < triesPerStart && !found; try++ {
			p, err := RandomOpening(g.Start(), n, rng)
			if err != nil {
				return nil, fmt.Errorf("starting configuration %d: %w", i+1, err)
			}
			if key := p.FEN(); !seen[key] {
				seen[key], found = true, true
				out = append(out, p)
			}
		}
		if !found {
			return nil, fmt.Errorf("starting configuration %d: no new position after %d random plies in %d tries (too few such positions)",
				i+1, n, triesPerStart)
		}
	}
	return out, nil
}
