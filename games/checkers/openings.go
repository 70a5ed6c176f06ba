// Checkers openings files: PDN FENs (bare or in a FEN tag), PDN movetext from the start, or whole PDN games.

package checkers

import (
	"errors"
	"fmt"
	"strings"

	"dossier/games"
)

// ParseOpening reads a line of an openings file: a PDN FEN (B:W21,22:B1,2, also inside [FEN "..."]) or PDN
// movetext from the start ("1. 11-15 23-19 2. 8-11"), of which only the first maxPlies moves are kept when
// maxPlies > 0.
func (g Game) ParseOpening(line string, maxPlies int) (games.Position, error) {
	if strings.HasPrefix(line, "[") {
		inner := strings.TrimSuffix(strings.TrimPrefix(line, "["), "]")
		name, value, _ := strings.Cut(inner, " ")
		if name != "FEN" {
			return nil, fmt.Errorf("%q: want a FEN tag, a PDN FEN or moves", line)
		}
		line = strings.TrimSpace(value)
	}
	line = strings.Trim(line, `"`)
	if strings.Contains(line, ":") {
		return g.ParsePosition(line)
	}
	parsed, err := ParsePDN(line)
	if err != nil {
		return nil, err
	}
	if len(parsed) != 1 {
		return nil, fmt.Errorf("%q holds %d games; want the moves of one", line, len(parsed))
	}
	return replayOpening(parsed[0], maxPlies)
}

// ReadRecordOpenings reads a text with PDN tag pairs (other than FEN tags) as PDN games and returns the
// position after each game's moves (its first maxPlies when maxPlies > 0) and the line the game starts on;
// with the error of a game that cannot be replayed come the openings of the games before it.
func (Game) ReadRecordOpenings(text string, maxPlies int) (openings []games.Position, lines []int, isRecords bool, err error) {
	if !hasPDNTags(text) {
		return nil, nil, false, nil
	}
	parsed, err := ParsePDN(text)
	if err != nil {
		return nil, nil, true, err
	}
	if len(parsed) == 0 {
		return nil, nil, true, errors.New("no game in the PDN text")
	}
	for i := range parsed {
		p, err := replayOpening(parsed[i], maxPlies)
		if err != nil {
			return openings, lines, true, err
		}
		openings = append(openings, p)
		lines = append(lines, parsed[i].Line)
	}
	return openings, lines, true, nil
}

// hasPDNTags reports whether a line of the text starts a PDN tag pair other than FEN.
func hasPDNTags(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") && !strings.HasPrefix(line, "[FEN") {
			return true
		}
	}
	return false
}

// replayOpening replays a PDN game, or its first maxPlies moves when maxPlies > 0.
func replayOpening(game PDNGame, maxPlies int) (games.Position, error) {
	if maxPlies > 0 && len(game.Moves) > maxPlies {
		game.Moves = game.Moves[:maxPlies]
	}
	p, _, err := game.Replay()
	if err != nil {
		return nil, err
	}
	return p, nil
}
