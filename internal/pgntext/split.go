// Package pgntext reads game records as review, identify and the strategy learner need them: a size-bounded
// read of a PGN (PDN) file, its split into games of tags and move tokens, and chess games replayed from them.
package pgntext

import (
	"fmt"
	"io"
	"strings"
)

// maxPGN bounds a PGN file the subcommands read.
const maxPGN = 256 << 20

// Read reads a whole PGN file of at most maxPGN bytes.
func Read(r io.Reader) (string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPGN+1))
	if err != nil {
		return "", err
	}
	if len(data) > maxPGN {
		return "", fmt.Errorf("larger than %d MiB", maxPGN>>20)
	}
	return string(data), nil
}

// Game is one game of a PGN text: its tags and its move tokens (move numbers, comments, variations, NAGs,
// annotation marks and the result left out).
type Game struct {
	Tags   map[string]string
	Tokens []string
}

// Split splits a PGN text into games: tag pairs, then the movetext, where comments ({...} and ; to the end
// of the line), %-escaped lines, variations (nested, with comments inside), move numbers (glued to the move
// or not), NAGs, annotation marks and stray closing brackets are skipped and a result marker ends the game.
// A tag that is never closed is an error naming the game.
func Split(text string) ([]Game, error) {
	var out []Game
	var cur *Game
	inMoves := false
	finish := func() {
		if cur != nil && (len(cur.Tags) > 0 || len(cur.Tokens) > 0) {
			out = append(out, *cur)
		}
		cur, inMoves = nil, false
	}
	begin := func() {
		if cur == nil {
			cur = &Game{Tags: map[string]string{}}
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == ';' || c == '%' && (i == 0 || text[i-1] == '\n'):
			i = skipPast(text, i, "\n")
		case c == '{':
			i = skipPast(text, i, "}")
		case c == '(':
			for depth := 0; i < len(text); i++ {
				switch text[i] {
				case '(':
					depth++
				case ')':
					depth--
				case '{':
					i = skipPast(text, i, "}") - 1
				}
				if depth == 0 {
					i++
					break
				}
			}
		case c == '[':
			end := strings.IndexByte(text[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("game %d: a tag is never closed", len(out)+1)
			}
			if inMoves {
				finish()
			}
			begin()
			k, v, _ := strings.Cut(strings.TrimSpace(text[i+1:i+end]), " ")
			cur.Tags[k] = strings.ReplaceAll(strings.Trim(strings.TrimSpace(v), `"`), `\"`, `"`)
			i += end + 1
		case c == ')' || c == ']' || c == '}':
			i++ // a stray closing bracket
		default:
			j := i + 1
			for j < len(text) && !strings.ContainsRune(" \t\n\r[]{}();", rune(text[j])) {
				j++
			}
			tok := text[i:j]
			i = j
			begin()
			switch tok {
			case "1-0", "0-1", "1/2-1/2", "*":
				finish()
				continue
			}
			inMoves = true
			// A move number ("12.", "12...", glued to the move or not) and a NAG ("$1") are not moves.
			if body := strings.TrimLeft(tok, "0123456789"); body != tok && strings.HasPrefix(body, ".") {
				tok = strings.TrimLeft(body, ".")
			}
			if tok = strings.TrimRight(tok, "!?+#"); tok != "" && !strings.HasPrefix(tok, "$") {
				cur.Tokens = append(cur.Tokens, tok)
			}
		}
	}
	finish()
	return out, nil
}

// skipPast returns the index just past the first end at or after i, or the text's length.
func skipPast(text string, i int, end string) int {
	k := strings.Index(text[i:], end)
	if k < 0 {
		return len(text)
	}
	return i + k + len(end)
}
