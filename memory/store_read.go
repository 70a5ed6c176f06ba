// The store's reads behind Memory's methods: profiles, the list of opponents, games and their moves.

package memory

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"dossier/play/opponent"
)

// lookup resolves a key or a name given by a user to the profile key it is filed under.
func (s *store) lookup(txn kvTxn, keyOrName string) (string, *opponentRec, error) {
	key := keyOrName
	if key != opponent.UnknownKey {
		key = opponent.NameKey(key)
	}
	key, err := s.resolve(txn, key)
	if err != nil {
		return "", nil, err
	}
	p, err := s.getProfile(txn, key)
	if err != nil {
		return "", nil, err
	}
	if p == nil {
		return "", nil, fail(s.dir, ErrUnknownOpponent, fmt.Errorf("no opponent is filed as %q", key))
	}
	return key, p, nil
}

// gamesOf returns the headers of an opponent's games, oldest first.
func (s *store) gamesOf(txn kvTxn, key string) ([]*gameRec, error) {
	prefix := indexPrefix(key)
	var out []*gameRec
	err := s.scan(txn, prefix, false, func(k []byte, _ any) error {
		g, err := s.getGame(txn, unescape(string(k[len(prefix):])))
		if err != nil || g == nil {
			return err
		}
		out = append(out, g)
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return gameTime(out[i]).Before(gameTime(out[j])) })
	return out, err
}

// gameTime is when a game began, or ended when its start is unknown.
func gameTime(g *gameRec) time.Time {
	if g.Start.IsZero() {
		return g.End
	}
	return g.Start
}

// movesOf returns a game's move records in key order: by ply, ours before the opponent's.
func (s *store) movesOf(txn kvTxn, id string) ([]*moveRec, error) {
	var out []*moveRec
	err := s.scan(txn, movePrefix(id), true, func(_ []byte, rec any) error {
		out = append(out, rec.(*moveRec))
		return nil
	})
	return out, err
}

// plies counts a game's moves: its final move list when the end gave one, else its recorded plies.
func (s *store) plies(txn kvTxn, g *gameRec) (int, error) {
	if len(g.Moves) > 0 {
		return len(g.Moves), nil
	}
	prefix := movePrefix(g.ID)
	n, last := 0, ""
	err := s.scan(txn, prefix, false, func(k []byte, _ any) error {
		if ply := string(k[len(prefix) : len(prefix)+5]); ply != last {
			n, last = n+1, ply
		}
		return nil
	})
	return n, err
}

func (s *store) summary(txn kvTxn, g *gameRec) (GameSummary, error) {
	n, err := s.plies(txn, g)
	sum := GameSummary{ID: g.ID, OpponentKey: g.Key, Game: g.Game, Variant: g.Variant, OurSide: g.Side,
		TimeControl: g.TC, Result: g.Result, Reason: g.Reason, OurScore: -1, Plies: n, Start: g.Start, End: g.End}
	if sum.Result == "" {
		sum.Result = "*"
	}
	if g.Score != nil {
		sum.OurScore = *g.Score
	}
	return sum, err
}

// models returns an opponent's model histories.
func (s *store) models(txn kvTxn, key string) (map[string][]ModelPoint, error) {
	out := map[string][]ModelPoint{}
	err := s.scan(txn, modelPrefix(key), true, func(_ []byte, rec any) error {
		m := rec.(*modelRec)
		out[m.Model] = append(out[m.Model], ModelPoint{At: m.At, GameID: m.Game, State: m.State})
		return nil
	})
	return out, err
}

// profile reads an opponent's profile; a brief one leaves out its games and models (see Memory.ProfileBrief).
func (s *store) profile(keyOrName string, brief bool) (*Profile, error) {
	var p *Profile
	err := s.kv.view(func(txn kvTxn) error {
		key, rec, err := s.lookup(txn, keyOrName)
		if err != nil {
			return err
		}
		p = &Profile{Key: key, Names: rec.Names, Aliases: rec.Aliases, Title: rec.Title, Kind: rec.Kind,
			FirstSeen: rec.First, LastSeen: rec.Last}
		for _, r := range rec.Ratings {
			p.Ratings = append(p.Ratings, Rating{Elo: r.Elo, Source: r.Source, At: r.At})
		}
		if brief {
			p.Mistakes, err = s.mistakes(txn, key)
			return err
		}
		games, err := s.gamesOf(txn, key)
		if err != nil {
			return err
		}
		for _, g := range games {
			sum, err := s.summary(txn, g)
			if err != nil {
				return err
			}
			p.Games = append(p.Games, sum)
			p.LastSeen = latest(p.LastSeen, g.Start, g.End)
		}
		if p.Models, err = s.models(txn, key); err != nil {
			return err
		}
		p.Mistakes, err = s.mistakes(txn, key)
		return err
	})
	return p, err
}

// latest returns the latest of the times.
func latest(ts ...time.Time) time.Time {
	var out time.Time
	for _, t := range ts {
		if t.After(out) {
			out = t
		}
	}
	return out
}

// opponents lists every opponent in four passes over the store (profiles, games, model keys), not one lookup
// per opponent, so that listing ten thousand stays quick.
func (s *store) opponents() ([]Summary, error) {
	var out []Summary
	err := s.kv.view(func(txn kvTxn) error {
		index := map[string]int{}
		err := s.scan(txn, []byte(prefProfile), true, func(_ []byte, rec any) error {
			p := rec.(*opponentRec)
			sum := Summary{Key: p.Key, Name: p.Key, Kind: p.Kind, LastSeen: p.Last}
			if len(p.Names) > 0 {
				sum.Name = p.Names[0]
			}
			if len(p.Ratings) > 0 {
				sum.Elo = p.Ratings[len(p.Ratings)-1].Elo
			}
			index[p.Key] = len(out)
			out = append(out, sum)
			return nil
		})
		if err != nil {
			return err
		}
		err = s.scanRaw(txn, []byte(prefGame), func(k, v []byte) error {
			// Only the result and the times: decoding each game's move list would take most of the time.
			var g struct {
				Key        string
				Score      *float64
				Start, End time.Time
			}
			if err := json.Unmarshal(v, &g); err != nil {
				return fail(s.dir, ErrCorrupt, fmt.Errorf("record %q: %v", k, err))
			}
			i, ok := index[g.Key]
			if !ok {
				return nil // a game whose start was never recorded
			}
			sum := &out[i]
			sum.Games++
			if g.Score != nil {
				switch *g.Score {
				case 1:
					sum.Wins++
				case 0:
					sum.Losses++
				case 0.5:
					sum.Draws++
				}
			}
			sum.LastSeen = latest(sum.LastSeen, g.Start, g.End)
			return nil
		})
		if err != nil {
			return err
		}
		return s.scan(txn, []byte(prefModel), false, func(k []byte, _ any) error {
			parts := strings.SplitN(string(k[len(prefModel):]), "/", 3)
			i, ok := index[unescape(parts[0])]
			if !ok || len(parts) < 3 {
				return nil
			}
			sum := &out[i]
			if name := unescape(parts[1]); len(sum.Models) == 0 || sum.Models[len(sum.Models)-1] != name {
				sum.Models = append(sum.Models, name)
			}
			return nil
		})
	})
	return out, err
}

// gameData is a Game as it crosses the socket: its move records in their stored form, which JSON can carry
// (an absent evaluation is no NaN there).
type gameData struct {
	Summary  GameSummary `json:"summary"`
	StartFEN string      `json:"fen,omitempty"`
	FinalFEN string      `json:"final,omitempty"`
	Moves    []string    `json:"moves,omitempty"`
	Records  []*moveRec  `json:"records,omitempty"`
}

// public turns the socket form back into a Game.
func (g *gameData) public() Game {
	out := Game{GameSummary: g.Summary, StartFEN: g.StartFEN, FinalFEN: g.FinalFEN, Moves: g.Moves}
	for _, r := range g.Records {
		out.Records = append(out.Records, r.public())
	}
	return out
}

func (s *store) games(keyOrName string) ([]gameData, error) { return s.gamesRead(keyOrName, false) }

// gamesRead is games, without the move records of the games whose end filed their moves when brief (the
// moves, the positions and the results alone: what the Player's readings need, at a fraction of the cost).
func (s *store) gamesRead(keyOrName string, brief bool) ([]gameData, error) {
	var out []gameData
	err := s.kv.view(func(txn kvTxn) error {
		key, _, err := s.lookup(txn, keyOrName)
		if err != nil {
			return err
		}
		headers, err := s.gamesOf(txn, key)
		if err != nil {
			return err
		}
		for _, h := range headers {
			sum, err := s.summary(txn, h)
			if err != nil {
				return err
			}
			g := gameData{Summary: sum, StartFEN: h.StartFEN, FinalFEN: h.FinalFEN, Moves: h.Moves}
			if brief && len(g.Moves) > 0 {
				out = append(out, g)
				continue
			}
			recs, err := s.movesOf(txn, h.ID)
			if err != nil {
				return err
			}
			g.Records = recs
			// A game without its end's move list (cut off: the engine killed, the GUI gone) has its moves
			// from the records, as far as they follow each other from the start: a ply missing (before
			// #34 the Player filed the opponent's moves alone) leaves the moves after it out, since played
			// from the wrong position they cannot be read.
			if len(g.Moves) == 0 {
				for _, r := range recs {
					if r.Ply == len(g.Moves) {
						g.Moves = append(g.Moves, r.Move)
					}
				}
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// public turns a stored move record back into the MoveRecord it was recorded as.
func (r *moveRec) public() MoveRecord {
	m := MoveRecord{GameID: r.Game, Ply: r.Ply, ByOpponent: r.Opp, FEN: r.FEN, Move: r.Move, TimeMS: -1,
		Predicted: r.Pred, Probability: -1, Eval: nan, At: r.At}
	m.PositionKey, _ = parseHash(r.Hash)
	if r.MS != nil {
		m.TimeMS = *r.MS
	}
	if r.Prob != nil {
		m.Probability = *r.Prob
	}
	if r.Eval != nil {
		m.Eval = *r.Eval
	}
	return m
}
