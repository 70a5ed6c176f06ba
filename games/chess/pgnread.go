// PGN reading for openings files: each game's tag pairs and SAN movetext, replayed from its start.

package chess

import (
	"errors"
	"fmt"
	"strings"

	"dossier/games"
)

// PGNGame is one game of a PGN text: its tag pairs, the line its first tag (or move) is on, its moves as
// SAN tokens (move numbers, comments, variations and NAGs taken out) and its result token, if any.
type PGNGame struct {
	Tags   map[string]string
	Line   int
	Moves  []string
	Result string
}

// isResult reports whether a movetext token is a game termination marker.
func isResult(tok string) bool {
	return tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*"
}

// pgnReader splits a PGN text into games.
type pgnReader struct {
	games   []PGNGame
	current *PGNGame
	line    int
	// depth is the nesting of variations (...) being skipped; inComment is an open {...} comment.
	depth     int
	inComment bool
}

// game returns the game being read, starting one on this line when there is none.
func (r *pgnReader) game() *PGNGame {
	if r.current == nil {
		r.games = append(r.games, PGNGame{Tags: map[string]string{}, Line: r.line})
		r.current = &r.games[len(r.games)-1]
	}
	return r.current
}

// ParsePGN reads the games of a PGN text (import format, leniently): tag pairs [Name "Value"], then movetext
// in which move numbers ("12.", "12..."), {comments}, ;comments to the end of the line, (variations), NAGs
// ($n) and lines starting with % are skipped. A game ends with its result token (1-0, 0-1, 1/2-1/2, *) or
// with the next tag pair after its moves. The moves are not checked here: Replay plays them.
func ParsePGN(text string) ([]PGNGame, error) {
	r := &pgnReader{}
	for i, line := range strings.Split(text, "\n") {
		r.line = i + 1
		trimmed := strings.TrimSpace(line)
		switch {
		case r.inComment || r.depth > 0:
			// Inside a comment or a variation, a line is movetext whatever it starts with.
		case strings.HasPrefix(line, "%"):
			continue
		case strings.HasPrefix(trimmed, "["):
			if err := r.tag(trimmed); err != nil {
				return nil, fmt.Errorf("PGN line %d: %w", r.line, err)
			}
			continue
		}
		if err := r.movetext(line); err != nil {
			return nil, fmt.Errorf("PGN line %d: %w", r.line, err)
		}
	}
	switch {
	case r.inComment:
		return nil, errors.New("PGN: a {comment} is not closed at the end")
	case r.depth > 0:
		return nil, errors.New("PGN: a (variation) is not closed at the end")
	}
	return r.games, nil
}

// tag reads a tag pair line; one after the moves of a game starts the next game.
func (r *pgnReader) tag(line string) error {
	if r.current != nil && len(r.current.Moves) > 0 {
		r.current = nil
	}
	inner, ok := strings.CutPrefix(line, "[")
	inner, ok2 := strings.CutSuffix(strings.TrimSpace(inner), "]")
	name, value, ok3 := strings.Cut(inner, " ")
	value = strings.TrimSpace(value)
	if !ok || !ok2 || !ok3 || name == "" || len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return fmt.Errorf("%q is not a tag pair [Name \"Value\"]", line)
	}
	value = strings.ReplaceAll(value[1:len(value)-1], `\"`, `"`)
	r.game().Tags[name] = strings.ReplaceAll(value, `\\`, `\`)
	return nil
}

// movetext reads a line of moves.
func (r *pgnReader) movetext(line string) error {
	var tok strings.Builder
	flush := func() {
		if tok.Len() > 0 {
			r.token(tok.String())
			tok.Reset()
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case r.inComment:
			r.inComment = c != '}'
		case c == '{':
			flush()
			r.inComment = true
		case c == '(':
			flush()
			r.depth++
		case c == ')':
			flush()
			if r.depth == 0 {
				return errors.New("')' closes no variation")
			}
			r.depth--
		case r.depth > 0:
		case c == ';':
			flush()
			return nil
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		default:
			tok.WriteByte(c)
		}
	}
	flush()
	return nil
}

// token takes one movetext token: a NAG or a bare move number is skipped, a number glued to a move
// ("1.e4") is cut off, a result ends the game.
func (r *pgnReader) token(tok string) {
	if strings.HasPrefix(tok, "$") {
		return
	}
	if isResult(tok) {
		r.game().Result = tok
		r.current = nil
		return
	}
	if n := strings.TrimLeft(tok, "0123456789"); len(n) < len(tok) && strings.HasPrefix(n, ".") {
		tok = strings.TrimLeft(n, ".")
	}
	if tok != "" {
		g := r.game()
		g.Moves = append(g.Moves, tok)
	}
}

// Replay returns the position after the game's moves (its first maxPlies when maxPlies > 0), from its FEN
// tag or the standard start; g decides Chess960 notation. The error names the first move that is not legal.
func (pg PGNGame) Replay(g Game, maxPlies int) (*Position, error) {
	var p *Position
	if fen, ok := pg.Tags["FEN"]; ok {
		start, err := g.ParsePosition(fen)
		if err != nil {
			return nil, fmt.Errorf("game at line %d: %w", pg.Line, err)
		}
		p = start.(*Position)
	} else {
		p = g.Start().(*Position)
	}
	moves := pg.Moves
	if maxPlies > 0 && len(moves) > maxPlies {
		moves = moves[:maxPlies]
	}
	for i, tok := range moves {
		m, err := p.ParseSAN(tok)
		if err != nil {
			return nil, fmt.Errorf("game at line %d, move %d: %w", pg.Line, i+1, err)
		}
		p.Play(m)
	}
	return p, nil
}

// hasPGNTags reports whether a line of the text starts with a tag pair (no FEN or EPD line does).
func hasPGNTags(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "[") {
			return true
		}
	}
	return false
}

// ReadRecordOpenings reads a text with PGN tag pairs as PGN games and returns the position after each
// game's moves (its first maxPlies when maxPlies > 0) with the line the game starts on, so that a PGN book
// (8moves_v3.pgn, say) is an openings file; a text without tag pairs is not records (a FEN/EPD file). With
// the error of a game that cannot be replayed come the openings of the games before it.
func (g Game) ReadRecordOpenings(text string, maxPlies int) (openings []games.Position, lines []int, isRecords bool, err error) {
	if !hasPGNTags(text) {
		return nil, nil, false, nil
	}
	parsed, err := ParsePGN(text)
	if err != nil {
		return nil, nil, true, err
	}
	if len(parsed) == 0 {
		return nil, nil, true, errors.New("no game in the PGN text")
	}
	for _, pg := range parsed {
		p, err := pg.Replay(g, maxPlies)
		if err != nil {
			return openings, lines, true, err
		}
		openings = append(openings, p)
		lines = append(lines, pg.Line)
	}
	return openings, lines, true, nil
}

// ReadRecords reads the games of a PGN text with their results (games.RecordsReader); see Replay for the
// start position and the moves.
func (g Game) ReadRecords(text string, maxPlies int) ([]games.GameRecord, error) {
	parsed, err := ParsePGN(text)
	if err != nil {
		return nil, err
	}
	var records []games.GameRecord
	var first error
	failed := 0
	for _, pg := range parsed {
		record, err := g.replayRecord(pg, maxPlies)
		if err != nil {
			if first == nil {
				first = err
			}
			failed++
			continue
		}
		records = append(records, record)
	}
	if failed > 0 {
		return records, fmt.Errorf("%d of %d games could not be replayed, the first: %w", failed, len(parsed), first)
	}
	return records, nil
}

// replayRecord plays a PGN game's first maxPlies moves (all when maxPlies <= 0) from its start.
func (g Game) replayRecord(pg PGNGame, maxPlies int) (games.GameRecord, error) {
	start := g.Start().(*Position)
	if fen, ok := pg.Tags["FEN"]; ok {
		p, err := g.ParsePosition(fen)
		if err != nil {
			return games.GameRecord{}, fmt.Errorf("game at line %d: %w", pg.Line, err)
		}
		start = p.(*Position)
	}
	result, _ := games.ParseResult(pg.Result) // Ongoing for "*" or none
	record := games.GameRecord{Start: start.Copy(), Result: result, Line: pg.Line}
	p := start
	for i, tok := range pg.Moves {
		if maxPlies > 0 && i >= maxPlies {
			break
		}
		m, err := p.ParseSAN(tok)
		if err != nil {
			return games.GameRecord{}, fmt.Errorf("game at line %d, move %d: %w", pg.Line, i+1, err)
		}
		record.Moves = append(record.Moves, m)
		p.Play(m)
	}
	return record, nil
}
