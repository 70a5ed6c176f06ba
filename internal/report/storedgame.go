// An opponent's stored game as a game record (PGN, PDN for checkers) with our predictions as comments.

package report

import (
	"fmt"
	"strings"

	"dossier/bots/match"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/internal/pgntext"
	"dossier/memory"
)

// StoredGame writes one stored game as PGN or PDN, with a comment after each opponent move that had a
// prediction ("predicted X", and our evaluation) and the opponent's thinking time.
func StoredGame(g memory.Game, prof *memory.Profile, number int) (string, error) {
	game, err := catalog.Lookup(g.Game)
	if err != nil {
		return "", err
	}
	start, err := game.ParsePosition(g.StartFEN)
	if err != nil {
		return "", fmt.Errorf("start position: %w", err)
	}
	rec := match.GameRecord{Number: number, Start: start, Player1: games.First}
	opponentName := prof.Key
	if len(prof.Names) > 0 {
		opponentName = prof.Names[len(prof.Names)-1]
	}
	ours := games.Side(g.OurSide)
	rec.Names[ours], rec.Names[ours.Other()] = "dossier", opponentName
	if ours != games.First {
		rec.Player1 = games.Second
	}
	comments := map[int]string{}
	for _, r := range g.Records {
		if !r.ByOpponent {
			continue
		}
		var parts []string
		if r.Predicted != "" {
			verdict := "missed"
			if r.Predicted == r.Move {
				verdict = "as predicted"
			}
			parts = append(parts, fmt.Sprintf("predicted %s (%s)", r.Predicted, verdict))
		}
		if r.Probability >= 0 {
			parts = append(parts, fmt.Sprintf("p=%.3f", r.Probability))
		}
		if r.TimeMS >= 0 {
			parts = append(parts, fmt.Sprintf("%.1fs", float64(r.TimeMS)/1000))
		}
		comments[r.Ply] = strings.Join(parts, ", ")
	}
	p := start.Clone()
	for i, text := range g.Moves {
		m, err := p.ParseMove(text)
		if err != nil {
			return "", fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		rec.Moves = append(rec.Moves, m)
		rec.Comments = append(rec.Comments, comments[i])
		p.Play(m)
	}
	rec.Result = parseResult(g.Result)
	rec.Termination = match.Termination(g.Reason)
	rec.Detail = g.Reason
	if pgntext.WrittenAsPDN(game) {
		return match.FormatPDN(rec, "dossier memory "+g.ID)
	}
	return match.FormatPGN(game, rec, "dossier memory "+g.ID)
}

// parseResult reads a PGN result (Ongoing for "*" or anything else).
func parseResult(s string) games.Result {
	r, _ := games.ParseResult(s)
	return r
}
