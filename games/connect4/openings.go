// Connect-Four openings files: Pons's column digits or a cfour FEN.

package connect4

import (
	"strings"

	"dossier/games"
)

// ParseOpening reads a line of an openings file: Pons's column digits ("4453", the first field; the solver
// sets' scores after it ignored), of which only the first maxPlies are kept when maxPlies > 0, or a FEN.
func (g Game) ParseOpening(line string, maxPlies int) (games.Position, error) {
	fields := strings.Fields(line)
	if strings.Contains(line, "/") || len(fields) == 0 {
		return g.ParsePosition(line)
	}
	digits := fields[0]
	if maxPlies > 0 && len(digits) > maxPlies {
		digits = digits[:maxPlies]
	}
	return g.ParsePosition(digits)
}
