// Openings files: one position a line by default, the games' own forms (EPD, PDN, column digits) by interface.

package games

// OpeningParser is implemented by games whose openings files hold more than the game's position strings
// (chess: EPD lines; checkers: PDN FEN tags and movetext; Connect-Four: Pons's column digits).
type OpeningParser interface {
	// ParseOpening reads one line of an openings file. An opening given as moves keeps only its first
	// maxPlies moves when maxPlies > 0, so that a file of whole games gives their openings.
	ParseOpening(line string, maxPlies int) (Position, error)
}

// RecordOpeningsReader is implemented by games whose openings files may be whole game records (checkers:
// PDN games with tags), read as one text rather than line by line.
type RecordOpeningsReader interface {
	// ReadRecordOpenings reports whether text is a file of game records and, when it is, returns the
	// position after each game's moves (its first maxPlies moves when maxPlies > 0) with the line the game
	// starts on. An error may come with the openings read before it.
	ReadRecordOpenings(text string, maxPlies int) (openings []Position, lines []int, isRecords bool, err error)
}

// ParseOpening reads one line of an openings file of g: by its OpeningParser, or as a position string.
func ParseOpening(g Game, line string, maxPlies int) (Position, error) {
	if p, ok := g.(OpeningParser); ok {
		return p.ParseOpening(line, maxPlies)
	}
	return g.ParsePosition(line)
}
