// memory show's mistakes and experience: the move each analysed game blamed, numbered and written as the game's
// records write moves, with its value and the better move's in the game's units (pawns in chess); and how many
// of the experience entries the search reads came from each game's analysis and from preparation.

package report

import (
	"fmt"

	"dossier/bots/prepare"
	"dossier/bots/presets"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/memory"
)

// MistakeLine is one mistake found by an analysis, as memory show lists it.
type MistakeLine struct {
	// Number is the game's number among the opponent's games (1 the oldest; 0 when its game is not stored).
	Number int    `json:"number"`
	GameID string `json:"game_id"`
	Game   string `json:"game"`
	Ply    int    `json:"ply"`
	// Text says it as memory show does: "23...Qb6? -1.8 at depth 18, 23...Rc8 +0.1".
	Text string `json:"text"`
	// Mistake is the record as the memory holds it (moves in the protocol's notation, values in its units).
	Mistake memory.Mistake `json:"mistake"`
}

// mistakeLines lists the profile's mistakes in the order of their games.
func mistakeLines(prof *memory.Profile) []MistakeLine {
	number := gameNumbers(prof.Games)
	var out []MistakeLine
	for _, m := range prof.Mistakes {
		out = append(out, MistakeLine{Number: number[m.GameID], GameID: m.GameID, Game: m.Game, Ply: m.Ply,
			Text: mistakeText(m), Mistake: m})
	}
	return out
}

// mistakeText writes a mistake in its game's notation and units; one whose game, position or moves do not read
// is written in the protocol's notation, saying so.
func mistakeText(m memory.Mistake) string {
	g, err := catalog.Lookup(m.Game)
	if err != nil {
		return fmt.Sprintf("%s (%v)", m, err)
	}
	p, err := g.ParsePosition(m.FEN)
	if err != nil {
		return fmt.Sprintf("%s (its position does not read: %v)", m, err)
	}
	played, err1 := p.ParseMove(m.Move)
	best, err2 := p.ParseMove(m.Best)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("%s (its moves are not legal in its position)", m)
	}
	unit := presets.Strength(g).Unit
	return fmt.Sprintf("%s? %s at depth %d, %s %s", games.NumberedMove(p, played), units(m.Value, unit), m.Depth,
		games.NumberedMove(p, best), units(m.BestValue, unit))
}

// units writes a value in the game's units (a pawn in chess) to a tenth.
func units(v, unit float64) string {
	if unit <= 0 {
		unit = 1
	}
	return fmt.Sprintf("%+.1f", v/unit)
}

// ExperienceSummary counts the entries of an opponent's experience tables by what filed them.
type ExperienceSummary struct {
	// Entries is every entry of the opponent's tables; Prepared those a preparation filed; Unplaced those of
	// an analysed game that is no longer stored.
	Entries, Prepared, Unplaced int
	// ByGame are the entries each analysed game's analysis filed that the tables still hold (a deeper entry
	// of a later analysis replaces one of the same position), by game number, oldest first.
	ByGame []GameExperience `json:"by_game"`
}

// GameExperience is what one game's analysis left in the experience tables.
type GameExperience struct {
	Number  int    `json:"number"`
	GameID  string `json:"game_id"`
	Entries int    `json:"entries"`
}

// experienceSummary counts the opponent's own entries (OpponentKey set) by the game whose analysis filed them.
func experienceSummary(prof *memory.Profile, entries []memory.Experience) ExperienceSummary {
	number := gameNumbers(prof.Games)
	var s ExperienceSummary
	byNumber := map[int]int{}
	for _, e := range entries {
		if e.OpponentKey == "" {
			continue
		}
		s.Entries++
		switch n := number[e.GameID]; {
		case prepare.IsPreparation(e.GameID):
			s.Prepared++
		case n == 0:
			s.Unplaced++
		default:
			byNumber[n]++
		}
	}
	for i, g := range prof.Games {
		if n := byNumber[i+1]; n > 0 {
			s.ByGame = append(s.ByGame, GameExperience{Number: i + 1, GameID: g.ID, Entries: n})
		}
	}
	return s
}
