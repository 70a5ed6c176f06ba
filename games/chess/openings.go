// Chess openings files: a FEN or an EPD line (its four position fields; the operations after them ignored).

package chess

import (
	"fmt"
	"strconv"
	"strings"

	"dossier/games"
)

// ParseOpening reads a FEN or an EPD line of an openings file; maxPlies does not apply to positions.
func (g Game) ParseOpening(line string, maxPlies int) (games.Position, error) {
	fields := strings.Fields(line)
	if len(fields) < 4 {
		return nil, fmt.Errorf("%q has %d fields; a FEN or EPD has at least 4", line, len(fields))
	}
	n := 4
	if len(fields) >= 6 && isNumber(fields[4]) && isNumber(fields[5]) {
		n = 6
	}
	return g.ParsePosition(strings.Join(fields[:n], " "))
}

// isNumber reports whether s is a FEN move counter rather than an EPD operation.
func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}
