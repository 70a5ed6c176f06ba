// Reading and writing games in PDN (Portable Draughts Notation) text.

package checkers

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"dossier/games"
)

// PDNGameType is the PDN GameType tag value of English checkers.
const PDNGameType = "21"

// PDNTag is one tag pair of a PDN game header, such as [Event "ACF championship"].
type PDNTag struct {
	Name, Value string
}

// PDNGame is one game read from PDN text: the moves as written, without move numbers, comments and variations.
type PDNGame struct {
	Tags   []PDNTag     // in the order they appear
	Moves  []string     // the move tokens of the main line, annotation marks (! ?) removed
	Result games.Result // from the game termination marker; Ongoing for `*` or a missing marker
	Line   int          // the line of the text where the game starts (1 is the first)
}

// Tag returns the value of the first tag with the given name, and whether there is one.
func (g *PDNGame) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// StartPosition returns the position the game starts from: its FEN tag, or the initial position. A GameType
// tag other than 21 (English checkers) is an error.
func (g *PDNGame) StartPosition() (*Position, error) {
	if gameType, ok := g.Tag("GameType"); ok {
		if kind, _, _ := strings.Cut(gameType, ","); strings.TrimSpace(kind) != PDNGameType {
			return nil, fmt.Errorf("game at line %d: GameType %q is not English checkers (%s)", g.Line, gameType, PDNGameType)
		}
	}
	if fen, ok := g.Tag("FEN"); ok {
		p, err := ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("game at line %d: FEN tag: %w", g.Line, err)
		}
		return p, nil
	}
	return StartPosition(), nil
}

// Replay plays the game's moves from its start position and returns the final position (with the whole game
// as its history) and the moves. The error names the move number and token that does not parse or is illegal.
func (g *PDNGame) Replay() (*Position, []games.Move, error) {
	p, err := g.StartPosition()
	if err != nil {
		return nil, nil, err
	}
	moves := make([]games.Move, 0, len(g.Moves))
	for i, token := range g.Moves {
		m, err := p.ParseMove(token)
		if err != nil {
			return p, moves, fmt.Errorf("game at line %d, ply %d (move %d): %w", g.Line, i+1, pdnMoveNumber(p, i), err)
		}
		p.Play(m)
		moves = append(moves, m)
	}
	return p, moves, nil
}

// pdnMoveNumber returns the PDN move number of ply index i of a game whose current position p was reached
// after i plies.
func pdnMoveNumber(p *Position, i int) int {
	blackFirst := (i%2 == 0) == (p.ToMove() == games.First)
	if blackFirst {
		return i/2 + 1
	}
	return (i+1)/2 + 1
}

// pdnResults maps game termination markers to results; PDN also allows 2-0, 0-2 and 1-1 (two points a game).
var pdnResults = map[string]games.Result{
	"1-0": games.FirstWins, "0-1": games.SecondWins, "1/2-1/2": games.Draw, "*": games.Ongoing,
	"2-0": games.FirstWins, "0-2": games.SecondWins, "1-1": games.Draw,
}

// ReadPDN reads every game of a PDN text; see ParsePDN.
func ReadPDN(r io.Reader) ([]PDNGame, error) {
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading PDN: %w", err)
	}
	return ParsePDN(string(text))
}

// ParsePDN reads every game of a PDN text: tag pairs, move numbers (`1.`, `1...`), moves, comments `{...}`
// and `;` to the end of the line, variations `(...)` (skipped), NAGs `$n` and game termination markers.
// A game ends at its termination marker, or where the next game's tags begin, or at the end of the text.
// It checks the syntax only; PDNGame.Replay checks the moves. Errors give the line and the offending token.
func ParsePDN(text string) ([]PDNGame, error) {
	r := pdnReader{text: text, line: 1}
	return r.games()
}

// pdnReader walks PDN text byte by byte, counting lines.
type pdnReader struct {
	text string
	pos  int
	line int
}

// advance moves past n bytes, counting newlines.
func (r *pdnReader) advance(n int) {
	for i := 0; i < n && r.pos < len(r.text); i++ {
		if r.text[r.pos] == '\n' {
			r.line++
		}
		r.pos++
	}
}

func (r *pdnReader) games() ([]PDNGame, error) {
	var out []PDNGame
	var cur *PDNGame
	inMoves := false // the current game has movetext, so a tag starts a new game
	finish := func() {
		if cur != nil {
			out = append(out, *cur)
		}
		cur, inMoves = nil, false
	}
	begin := func() {
		if cur == nil {
			cur = &PDNGame{Line: r.line}
		}
	}
	for r.pos < len(r.text) {
		c := r.text[r.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			r.advance(1)
		case c == '%' && (r.pos == 0 || r.text[r.pos-1] == '\n'):
			r.skipLine()
		case c == ';':
			r.skipLine()
		case c == '{':
			if err := r.skipComment(); err != nil {
				return out, err
			}
		case c == '(':
			if err := r.skipVariation(); err != nil {
				return out, err
			}
		case c == ')' || c == ']' || c == '}':
			return out, fmt.Errorf("PDN line %d: unexpected %q", r.line, string(c))
		case c == '[':
			if inMoves {
				finish()
			}
			begin()
			tag, err := r.readTag()
			if err != nil {
				return out, err
			}
			cur.Tags = append(cur.Tags, tag)
		case c == '$':
			r.advance(1)
			for r.pos < len(r.text) && r.text[r.pos] >= '0' && r.text[r.pos] <= '9' {
				r.advance(1)
			}
		default:
			line := r.line
			token := r.readToken()
			begin()
			if result, ok := pdnResults[token]; ok {
				cur.Result = result
				finish()
				continue
			}
			move, err := moveToken(token)
			if err != nil {
				return out, fmt.Errorf("PDN line %d: %w", line, err)
			}
			inMoves = true
			if move != "" {
				cur.Moves = append(cur.Moves, move)
			}
		}
	}
	finish()
	return out, nil
}

// moveToken strips a move number and annotation marks from a movetext token and checks that what remains
// looks like a move (squares joined by '-' or 'x'); it returns "" for a bare move number or ellipsis.
func moveToken(token string) (string, error) {
	rest := token
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits < len(rest) && rest[digits] == '.' {
		rest = rest[digits:]
	}
	rest = strings.TrimLeft(rest, ".")
	rest = strings.TrimRight(rest, "!?")
	if rest == "" {
		return "", nil
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c >= '0' && c <= '9', c == '-', c == 'x', c == 'X', c == ':':
		default:
			return "", fmt.Errorf("unexpected token %q: not a move, move number or result", token)
		}
	}
	return rest, nil
}

// readToken reads up to white space or a PDN delimiter.
func (r *pdnReader) readToken() string {
	start := r.pos
	for r.pos < len(r.text) && !strings.ContainsRune(" \t\n\r\f\v[]{}();$", rune(r.text[r.pos])) {
		r.pos++
	}
	if r.pos == start { // a lone character readToken cannot start on; take it so the caller reports it
		r.pos++
	}
	return r.text[start:r.pos]
}

func (r *pdnReader) skipLine() {
	for r.pos < len(r.text) && r.text[r.pos] != '\n' {
		r.pos++
	}
}

func (r *pdnReader) skipComment() error {
	line := r.line
	end := strings.IndexByte(r.text[r.pos:], '}')
	if end < 0 {
		return fmt.Errorf("PDN line %d: comment '{' is never closed", line)
	}
	r.advance(end + 1)
	return nil
}

func (r *pdnReader) skipVariation() error {
	line := r.line
	depth := 0
	for r.pos < len(r.text) {
		switch r.text[r.pos] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				r.advance(1)
				return nil
			}
		case '{':
			if err := r.skipComment(); err != nil {
				return err
			}
			continue
		}
		r.advance(1)
	}
	return fmt.Errorf("PDN line %d: variation '(' is never closed", line)
}

// readTag reads `[Name "Value"]`, with \" and \\ escapes in the value.
func (r *pdnReader) readTag() (PDNTag, error) {
	line := r.line
	r.advance(1) // '['
	r.skipSpaces()
	start := r.pos
	for r.pos < len(r.text) && isTagNameByte(r.text[r.pos]) {
		r.pos++
	}
	name := r.text[start:r.pos]
	if name == "" {
		return PDNTag{}, fmt.Errorf("PDN line %d: tag without a name", line)
	}
	r.skipSpaces()
	if r.pos >= len(r.text) || r.text[r.pos] != '"' {
		return PDNTag{}, fmt.Errorf("PDN line %d: tag %s: value does not start with '\"'", line, name)
	}
	r.advance(1)
	var value strings.Builder
	for {
		if r.pos >= len(r.text) {
			return PDNTag{}, fmt.Errorf("PDN line %d: tag %s: value is never closed", line, name)
		}
		c := r.text[r.pos]
		if c == '"' {
			r.advance(1)
			break
		}
		if c == '\\' && r.pos+1 < len(r.text) {
			r.advance(1)
			c = r.text[r.pos]
		}
		value.WriteByte(c)
		r.advance(1)
	}
	r.skipSpaces()
	if r.pos >= len(r.text) || r.text[r.pos] != ']' {
		return PDNTag{}, fmt.Errorf("PDN line %d: tag %s: missing ']'", line, name)
	}
	r.advance(1)
	return PDNTag{Name: name, Value: value.String()}, nil
}

func isTagNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (r *pdnReader) skipSpaces() {
	for r.pos < len(r.text) && strings.IndexByte(" \t\n\r\f\v", r.text[r.pos]) >= 0 {
		r.advance(1)
	}
}

// pdnLineWidth is where PDN movetext wraps, as every record's does.
const pdnLineWidth = games.RecordLineWidth

// WritePDN writes one game as PDN: the given tags in order, then GameType "21" if they have none, SetUp and
// FEN when start is not the initial position, and Result; then the numbered moves and the result. The Result,
// SetUp and FEN tags of tags are replaced by these. It returns an error if a move is not legal in turn.
func WritePDN(w io.Writer, tags []PDNTag, start *Position, moves []games.Move, result games.Result) error {
	text, err := FormatPDN(tags, start, moves, result, nil)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, text)
	return err
}

// FormatPDN returns the text WritePDN writes, with comments[i], when given and not empty, written as
// {a comment} after move i.
func FormatPDN(tags []PDNTag, start *Position, moves []games.Move, result games.Result, comments []string) (string, error) {
	var sb strings.Builder
	hasGameType := false
	for _, t := range tags {
		switch t.Name {
		case "Result", "SetUp", "FEN":
			continue
		case "GameType":
			hasGameType = true
		}
		writeTag(&sb, t.Name, t.Value)
	}
	if !hasGameType {
		writeTag(&sb, "GameType", PDNGameType)
	}
	fen := start.FEN()
	if fen != StartFEN {
		writeTag(&sb, "SetUp", "1")
		writeTag(&sb, "FEN", fen)
	}
	writeTag(&sb, "Result", result.String())
	sb.WriteByte('\n')

	p := start.Clone().(*Position)
	movetext := games.NewMovetextWriter(&sb)
	emit := movetext.Word
	number := 1
	var buf [games.MaxMoves]games.Move
	for i, m := range moves {
		if !slices.Contains(p.AppendMoves(buf[:0]), m) {
			return "", fmt.Errorf("writing PDN: move %d (%s) is not legal in %s", i+1, formatMove(m), p.FEN())
		}
		if p.ToMove() == games.First {
			emit(strconv.Itoa(number) + ".")
		} else if i == 0 {
			emit(strconv.Itoa(number) + "...")
		}
		emit(formatMove(m))
		if i < len(comments) && comments[i] != "" {
			emit(games.FormatComment(comments[i]))
		}
		if p.ToMove() == games.Second {
			number++
		}
		p.Play(m)
	}
	emit(result.String())
	sb.WriteString("\n\n")
	return sb.String(), nil
}

func writeTag(sb *strings.Builder, name, value string) {
	value = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
	fmt.Fprintf(sb, "[%s \"%s\"]\n", name, value)
}

// RecordFormat names the format of checkers records: PDN.
func (Game) RecordFormat() string { return "PDN" }

// FormatRecord writes a game of checkers as FormatPDN does, for games.Recorder.
func (Game) FormatRecord(tags []games.Tag, start games.Position, moves []games.Move, result games.Result, comments []string) (string, error) {
	p, ok := start.(*Position)
	if !ok {
		return "", fmt.Errorf("writing PDN: the start is not a checkers position")
	}
	pdnTags := make([]PDNTag, len(tags))
	for i, t := range tags {
		pdnTags[i] = PDNTag(t)
	}
	return FormatPDN(pdnTags, p, moves, result, comments)
}

// ReadRecords reads the games of a PDN text with their results (games.RecordsReader): each game's first
// maxPlies moves (all when maxPlies <= 0) from its start position.
func (Game) ReadRecords(text string, maxPlies int) ([]games.GameRecord, error) {
	parsed, err := ParsePDN(text)
	if err != nil {
		return nil, err
	}
	var records []games.GameRecord
	var first error
	failed := 0
	for i := range parsed {
		pg := &parsed[i]
		if maxPlies > 0 && len(pg.Moves) > maxPlies {
			pg.Moves = pg.Moves[:maxPlies]
		}
		start, err := pg.StartPosition()
		var moves []games.Move
		if err == nil {
			_, moves, err = pg.Replay()
		}
		if err != nil {
			if first == nil {
				first = err
			}
			failed++
			continue
		}
		records = append(records, games.GameRecord{Start: start, Moves: moves, Result: pg.Result, Line: pg.Line})
	}
	if failed > 0 {
		return records, fmt.Errorf("%d of %d games could not be replayed, the first: %w", failed, len(parsed), first)
	}
	return records, nil
}
