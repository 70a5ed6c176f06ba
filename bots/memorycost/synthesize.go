package memorycost

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"dossier/games"
	"dossier/memory"
	"dossier/play/opponent"
)

// Synthesize files into mem a history against the opponent named name: games finished games of g, each a
// walk of random legal moves from the start position (at most maxPlies plies), alternating our side, and
// analyses filing entries experience entries in all, spread over the games (positions of the game with
// the move played there, and positions one random move aside when a game has too few). The games are
// what the learners fold and the entries what the search reads: their number, not their quality, is
// what a memory costs the clock.
func Synthesize(mem *memory.Memory, g games.Game, name string, gameCount, entries int, seed uint64) error {
	if gameCount <= 0 {
		return fmt.Errorf("synthesize: %d games", gameCount)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	opp := opponent.Opponent{Name: name, Kind: opponent.Computer}
	key := opp.Key()
	perGame := (entries + gameCount - 1) / gameCount
	left := entries
	at := time.Now().Add(-time.Duration(gameCount) * time.Minute)
	var last *memory.Pending
	for i := range gameCount {
		gameID := memory.NewGameID()
		ourSide := i % 2
		start := g.Start()
		last = mem.Record(memory.Event{Start: &memory.GameStart{GameID: gameID, OpponentKey: key, Opponent: opp,
			Game: g.Name(), OurSide: ourSide, TimeControl: "2+0.05", StartFEN: start.FEN(), At: at}})
		p := start.Clone()
		var moves []string
		var xp []memory.Experience
		want := min(perGame, left)
		for ply := 0; ply < maxPlies && games.OutcomeOf(p).Result == games.Ongoing; ply++ {
			legal := p.AppendMoves(nil)
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			text := p.FormatMove(m)
			byOpponent := ply%2 != ourSide
			rec := &memory.MoveRecord{GameID: gameID, Ply: ply, ByOpponent: byOpponent, PositionKey: p.Hash(),
				FEN: p.FEN(), Move: text, TimeMS: 40, Probability: -1, Eval: 0, At: at}
			mem.Record(memory.Event{Move: rec})
			if len(xp) < want {
				xp = append(xp, entry(key, g, p, text, gameID, at))
			}
			moves = append(moves, text)
			p.Play(m)
		}
		// Too short a game for its share: positions one random move aside of the last one reached.
		for tries := 0; len(xp) < want && tries < 4*want; tries++ {
			q := p.Clone()
			for range 1 + rng.IntN(4) {
				legal := q.AppendMoves(nil)
				if len(legal) == 0 || games.OutcomeOf(q).Result != games.Ongoing {
					break
				}
				q.Play(legal[rng.IntN(len(legal))])
			}
			legal := q.AppendMoves(nil)
			if len(legal) == 0 || games.OutcomeOf(q).Result != games.Ongoing {
				q = g.Start()
				for range 2 + rng.IntN(10) {
					legal = q.AppendMoves(nil)
					q.Play(legal[rng.IntN(len(legal))])
				}
				legal = q.AppendMoves(nil)
			}
			if len(legal) > 0 {
				xp = append(xp, entry(key, g, q, q.FormatMove(legal[rng.IntN(len(legal))]), gameID, at))
			}
		}
		score := []float64{0, 0.5, 1}[rng.IntN(3)]
		result := map[float64][2]string{0: {"0-1", "1-0"}, 0.5: {"1/2-1/2", "1/2-1/2"}, 1: {"1-0", "0-1"}}[score][ourSide]
		last = mem.Record(memory.Event{End: &memory.GameEnd{GameID: gameID, Result: result, Reason: "adjudication",
			OurScore: score, Moves: moves, FinalFEN: p.FEN(), At: at.Add(30 * time.Second)}})
		if len(xp) > 0 {
			for from := 0; from < len(xp); from += maxAnalysisEntries {
				to := min(from+maxAnalysisEntries, len(xp))
				last = mem.Record(memory.Event{Analysis: &memory.Analysis{OpponentKey: key, GameID: gameID,
					Game: g.Name(), Experience: xp[from:to], At: at.Add(40 * time.Second)}})
			}
			left -= len(xp)
		}
		at = at.Add(time.Minute)
		if i%50 == 49 { // keep the queue of events short
			if err := last.Wait(context.Background()); err != nil {
				return err
			}
		}
	}
	return last.Wait(context.Background())
}

// maxPlies bounds a synthesized game, about a long real one.
const maxPlies = 120

// maxAnalysisEntries is the memory's bound on the entries of one analysis event.
const maxAnalysisEntries = 4096

// entry is an experience entry of position p with its move, as an analysis at depth 12 would file it.
func entry(key string, g games.Game, p games.Position, move, gameID string, at time.Time) memory.Experience {
	return memory.Experience{OpponentKey: key, Game: g.Name(), FEN: p.FEN(), Hash: p.Hash(), Move: move, Value: 0,
		Depth: 12, Bound: memory.BoundExact, Version: memory.ExperienceVersion, GameID: gameID, At: at}
}
