// PGN writing of a game: tags, the start FEN when not standard, SAN moves with move numbers, the result.

package chess

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"dossier/games"
)

// PGNTag is one tag pair of a PGN header, such as {"White", "dossier"}.
type PGNTag struct {
	Name, Value string
}

// sevenTagRoster is the order PGN requires for its first tags.
var sevenTagRoster = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// WritePGN writes one game in PGN export format: the Seven Tag Roster first (a missing tag as "?", Result
// always from result), then the other tags in the order given, Variant "Chess960" for a Chess960 game, SetUp
// and FEN when start is not the standard position or the game is Chess960 (nil means the standard start;
// SetUp and FEN tags given are ignored), the moves in SAN with move numbers, and the result. Every move
// must be legal in turn; the error names the first that is not. start is not modified.
func WritePGN(w io.Writer, tags []PGNTag, start *Position, moves []games.Move, result games.Result) error {
	if start == nil {
		start = StartPosition()
	}
	p := start.Copy()
	var text []string
	for i, m := range moves {
		if !p.isLegal(m) {
			return fmt.Errorf("chess: PGN: move %d (%s) is not legal in %s", i+1, FormatUCI(m), p.FEN())
		}
		number := p.Ply()/2 + 1
		switch {
		case p.ToMove() == games.First:
			text = append(text, fmt.Sprintf("%d.", number))
		case i == 0:
			text = append(text, fmt.Sprintf("%d...", number))
		}
		text = append(text, p.SAN(m))
		p.Play(m)
	}
	text = append(text, result.String())

	given := make(map[string]string, len(tags))
	for _, t := range tags {
		given[t.Name] = t.Value
	}
	given["Result"] = result.String()
	bw := bufio.NewWriter(w)
	for _, name := range sevenTagRoster {
		value, ok := given[name]
		if !ok {
			value = "?"
		}
		writeTag(bw, name, value)
	}
	fen := start.FEN()
	for _, t := range tags {
		if isRosterTag(t.Name) || t.Name == "SetUp" || t.Name == "FEN" {
			continue
		}
		writeTag(bw, t.Name, t.Value)
	}
	if start.chess960 {
		writeTag(bw, "Variant", "Chess960")
	}
	if fen != StartFEN || start.chess960 {
		writeTag(bw, "SetUp", "1")
		writeTag(bw, "FEN", fen)
	}
	bw.WriteByte('\n')
	movetext := games.NewMovetextWriter(bw)
	for _, tok := range text {
		movetext.Word(tok)
	}
	bw.WriteString("\n\n")
	return bw.Flush()
}

func isRosterTag(name string) bool {
	for _, r := range sevenTagRoster {
		if r == name {
			return true
		}
	}
	return false
}

func writeTag(w *bufio.Writer, name, value string) {
	value = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ").Replace(value)
	fmt.Fprintf(w, "[%s \"%s\"]\n", name, value)
}

// isLegal reports whether m is one of the legal moves here.
func (p *Position) isLegal(m games.Move) bool {
	var buf [games.MaxMoves]games.Move
	for _, legal := range p.st.generate(p.rules, buf[:0], false) {
		if legal == m {
			return true
		}
	}
	return false
}
