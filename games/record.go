// Game records: a game's record format (PGN, or its own such as checkers' PDN) and the shared movetext wrapper.

package games

import "io"

// RecordLineWidth is the longest movetext line a record holds (PGN's and PDN's 79 characters).
const RecordLineWidth = 79

// Tag is one tag pair of a record's header, such as {"White", "dossier"}.
type Tag struct {
	Name, Value string
}

// Recorder is implemented by games whose records are not PGN (checkers: PDN).
type Recorder interface {
	// RecordFormat names the format of the game's records ("PDN").
	RecordFormat() string
	// FormatRecord writes one game: the tags in the order given (the format adds its own, such as Result
	// and the start position's), the numbered moves from start with comments[i], when given and not
	// empty, after move i, and the result. Every move must be legal in turn; the error names the first
	// that is not.
	FormatRecord(tags []Tag, start Position, moves []Move, result Result, comments []string) (string, error)
}

// RecordFormat names the format of g's records: its Recorder's, or "PGN" (with a Variant tag for the games
// other than chess).
func RecordFormat(g Game) string {
	if r, ok := g.(Recorder); ok {
		return r.RecordFormat()
	}
	return "PGN"
}

// MovetextWriter writes movetext words (move numbers, moves, comments, the result) separated by spaces,
// starting a new line before a word that would make the line longer than RecordLineWidth.
type MovetextWriter struct {
	out     io.StringWriter
	lineLen int
}

// NewMovetextWriter returns a movetext writer to out, at the start of a line.
func NewMovetextWriter(out io.StringWriter) *MovetextWriter {
	return &MovetextWriter{out: out}
}

// Word writes one word, after a space or a line break. Errors are out's to keep (strings.Builder and
// bufio.Writer, the writers used, report them when flushed or never).
func (w *MovetextWriter) Word(word string) {
	if w.lineLen > 0 && w.lineLen+1+len(word) > RecordLineWidth {
		w.out.WriteString("\n")
		w.lineLen = 0
	}
	if w.lineLen > 0 {
		w.out.WriteString(" ")
		w.lineLen++
	}
	w.out.WriteString(word)
	w.lineLen += len(word)
}

// GameRecord is one game read from a record file: its start position, its moves and its result (Ongoing
// when the record gives none), with the line of the file it starts on.
type GameRecord struct {
	Start  Position
	Moves  []Move
	Result Result
	Line   int
}

// RecordsReader is implemented by games whose record files (PGN, PDN) can be read whole: what an opening
// book is made from.
type RecordsReader interface {
	// ReadRecords reads the games of a record text, each replayed from its start (its first maxPlies moves
	// when maxPlies > 0). A game that cannot be replayed is left out; the error names the first such game
	// and how many there were, and comes with the games that could be read.
	ReadRecords(text string, maxPlies int) ([]GameRecord, error)
}
