// Package identify tells which stored opponent played one side of the games of a PGN (PDN) file, by the
// identifier the engine uses on an opponent who gives no name, and measures its accuracy after k games.
package identify

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/internal/pgntext"
	"dossier/memory/learn"
	"dossier/play"
)

// recordedGame is one game of the file: its players (first, second) and its moves from its start.
type recordedGame struct {
	names [2]string
	start games.Position
	moves []games.Move
}

// playerMove is one move of the player to identify.
type playerMove struct {
	before games.Position
	move   games.Move
	ply    int
}

// Report is what dossier memory identify prints.
type Report struct {
	Player string `json:"player"`
	Key    string `json:"key"`
	// Expected is the right first of the ranking: the player's key, or someone new with --leave-out.
	Expected  string `json:"expected"`
	Games     int    `json:"games"`
	Moves     int    `json:"moves"`
	Evidence  int    `json:"evidence"` // moves in positions some stored opponent was seen in
	Opponents int    `json:"opponents"`
	Positions int    `json:"positions"`
	// Ranking is the ranking after all the games.
	Ranking []learn.IdentifyCandidate `json:"ranking"`
	After   []Accuracy                `json:"after,omitempty"`
}

// Accuracy is the accuracy after a number of games.
type Accuracy struct {
	Games  int `json:"games"`
	Trials int `json:"trials"`
	Right  int `json:"right"`
	// Taken counts the wrong answers by the key taken.
	Taken map[string]int `json:"taken,omitempty"`
	// Named and NamedRight count the windows after which a stored opponent passed the threshold (the engine
	// would say "identified"), and those where it was the player.
	Named      int `json:"named"`
	NamedRight int `json:"named_right"`
}

// rank builds the identifier and ranks the hypotheses after the whole session and after each window.
func rank(g games.Game, stored []learn.OpponentGames, opts learn.IdentifierOptions, name string, sessions [][]playerMove, after []int,
	leaveOut bool) (*Report, error) {
	id, err := learn.NewIdentifier(g, stored, opts)
	if err != nil {
		return nil, err
	}
	if id.Opponents() == 0 {
		return nil, fmt.Errorf("the memory holds no named opponent's games of %s", g.Name())
	}
	run := func(games [][]playerMove) {
		id.Reset()
		for _, game := range games {
			id.StartGame()
			for _, o := range game {
				id.Observe(o.before, o.move, o.ply)
			}
		}
	}
	rep := &Report{Player: name, Key: play.NameKey(name), Games: len(sessions), Opponents: id.Opponents(),
		Positions: id.Positions()}
	rep.Expected = rep.Key
	if leaveOut {
		rep.Expected = learn.NewOpponentKey
	}
	run(sessions)
	_, rep.Moves, rep.Evidence = id.Observed()
	rep.Ranking = id.Ranking()
	for _, k := range after {
		acc := Accuracy{Games: k, Taken: map[string]int{}}
		for from := 0; from+k <= len(sessions); from++ {
			run(sessions[from : from+k])
			acc.Trials++
			if top := id.Ranking()[0].Key; top == rep.Expected {
				acc.Right++
			} else {
				acc.Taken[top]++
			}
			if c, ok := id.Identified(); ok {
				acc.Named++
				if c.Key == rep.Expected {
					acc.NamedRight++
				}
			}
		}
		rep.After = append(rep.After, acc)
	}
	return rep, nil
}

// Write prints the report as text.
func (rep *Report) Write(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "player %s (key %s): %d games, %d moves, %d in positions of the stored games; %d stored opponents, %d positions\n",
		rep.Player, rep.Key, rep.Games, rep.Moves, rep.Evidence, rep.Opponents, rep.Positions)
	sb.WriteString("after all the games:")
	for i, c := range rep.Ranking[:min(5, len(rep.Ranking))] {
		fmt.Fprintf(&sb, "  %d. %s %.3f", i+1, c.Key, c.Probability)
	}
	sb.WriteByte('\n')
	for _, a := range rep.After {
		if a.Trials == 0 {
			fmt.Fprintf(&sb, "after %d games: fewer games than that\n", a.Games)
			continue
		}
		fmt.Fprintf(&sb, "after %d games: %s first in %d of %d windows (%.0f%%); identified in %d, rightly in %d",
			a.Games, rep.Expected, a.Right, a.Trials, 100*float64(a.Right)/float64(a.Trials), a.Named, a.NamedRight)
		if len(a.Taken) > 0 {
			keys := make([]string, 0, len(a.Taken))
			for k := range a.Taken {
				keys = append(keys, k)
			}
			slices.SortFunc(keys, func(x, y string) int {
				if a.Taken[x] != a.Taken[y] {
					return a.Taken[y] - a.Taken[x]
				}
				return strings.Compare(x, y)
			})
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = fmt.Sprintf("%s x%d", k, a.Taken[k])
			}
			fmt.Fprintf(&sb, "; taken for %s", strings.Join(parts, ", "))
		}
		sb.WriteByte('\n')
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// playerSessions picks the player (side, else whoever is not dossier in the first game) and returns its moves
// game by game, in the games it played.
func playerSessions(recs []recordedGame, side string) (string, [][]playerMove, error) {
	if len(recs) == 0 {
		return "", nil, errors.New("no games")
	}
	name := side
	if name == "" {
		for _, n := range recs[0].names {
			if !strings.EqualFold(n, "dossier") {
				name = n
				break
			}
		}
		if name == "" {
			return "", nil, errors.New("both players of the first game are dossier: say which with --side")
		}
	}
	var sessions [][]playerMove
	for _, rec := range recs {
		s := slices.IndexFunc(rec.names[:], func(n string) bool { return play.NameKey(n) == play.NameKey(name) })
		if s < 0 {
			continue
		}
		p := rec.start.Clone()
		var game []playerMove
		for ply, m := range rec.moves {
			if p.ToMove() == games.Side(s) {
				game = append(game, playerMove{before: p.Clone(), move: m, ply: ply})
			}
			p.Play(m)
		}
		sessions = append(sessions, game)
	}
	if len(sessions) == 0 {
		return "", nil, fmt.Errorf("no game has a player named %q", name)
	}
	return name, sessions, nil
}

// readGames reads the games of a PGN file of g (PDN for checkers): players, start and moves, each move
// checked legal. Chess moves are SAN or the protocol's notation; the other games' the protocol's.
func readGames(g games.Game, r io.Reader) ([]recordedGame, error) {
	data, err := pgntext.Read(r)
	if err != nil {
		return nil, err
	}
	tags := pgntext.SideTags(g)
	first, second := tags[0], tags[1]
	var out []recordedGame
	if pgntext.WrittenAsPDN(g) {
		list, err := checkers.ParsePDN(data)
		if err != nil {
			return nil, err
		}
		for i, pg := range list {
			start, err := pg.StartPosition()
			if err != nil {
				return nil, fmt.Errorf("game %d: %w", i+1, err)
			}
			_, moves, err := pg.Replay()
			if err != nil {
				return nil, fmt.Errorf("game %d: %w", i+1, err)
			}
			a, _ := pg.Tag(first)
			b, _ := pg.Tag(second)
			out = append(out, recordedGame{names: [2]string{a, b}, start: start, moves: moves})
		}
		return out, nil
	}
	texts, err := pgntext.Split(data)
	if err != nil {
		return nil, err
	}
	for i, pg := range texts {
		rec := recordedGame{names: [2]string{pg.Tags[first], pg.Tags[second]}, start: g.Start()}
		if fen := pg.Tags["FEN"]; fen != "" {
			if rec.start, err = g.ParsePosition(fen); err != nil {
				return nil, fmt.Errorf("game %d: FEN: %w", i+1, err)
			}
		}
		p := rec.start.Clone()
		for _, tok := range pg.Tokens {
			m, err := p.ParseMove(tok)
			if err != nil {
				cp, ok := p.(*chess.Position)
				if !ok {
					return nil, fmt.Errorf("game %d, ply %d: %w", i+1, len(rec.moves)+1, err)
				}
				if m, err = cp.ParseSAN(tok); err != nil {
					return nil, fmt.Errorf("game %d, ply %d: %w", i+1, len(rec.moves)+1, err)
				}
			}
			if !games.IsLegal(p, m) {
				return nil, fmt.Errorf("game %d, ply %d: %s is not legal", i+1, len(rec.moves)+1, tok)
			}
			p.Play(m)
			rec.moves = append(rec.moves, m)
		}
		out = append(out, rec)
	}
	return out, nil
}
