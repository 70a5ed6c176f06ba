// Game records: PGN for chess (and, with a Variant tag, Connect-Four and tic-tac-toe), PDN for checkers.
package match

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"dossier/games"
	"dossier/games/checkers"
)

// colourNames returns the names of the first and second player's colours in a game's records.
func colourNames(g games.Game) (first, second string) {
	if g.Name() == "checkers" {
		return "Black", "White"
	}
	return "White", "Black"
}

// recordTags returns the tags every record carries, in order: the seven-tag roster (without Result, which
// the writers add), the limits, and the termination with its detail.
func recordTags(g games.Game, rec GameRecord, event string) [][2]string {
	if event == "" {
		event = "dossier match"
	}
	firstColour, secondColour := colourNames(g)
	tags := [][2]string{
		{"Event", event},
		{"Site", "?"},
		{"Date", time.Now().Format("2006.01.02")},
		{"Round", strconv.Itoa(rec.Number)},
		{firstColour, rec.Names[games.First]},
		{secondColour, rec.Names[games.Second]},
	}
	if g.Name() == "checkers" {
		// PDN lists White before Black in the roster, as PGN does.
		tags[4], tags[5] = tags[5], tags[4]
	}
	if rec.Limits[games.First] == rec.Limits[games.Second] {
		tags = append(tags, [2]string{"Limits", rec.Limits[games.First].String()})
	} else {
		tags = append(tags, [2]string{firstColour + "Limits", rec.Limits[games.First].String()},
			[2]string{secondColour + "Limits", rec.Limits[games.Second].String()})
	}
	if tc := rec.Limits[games.First].Clock; !tc.IsZero() && tc == rec.Limits[games.Second].Clock {
		tags = append(tags, [2]string{"TimeControl", tc.String()})
	}
	tags = append(tags,
		[2]string{"PlyCount", strconv.Itoa(len(rec.Moves))},
		[2]string{"Termination", string(rec.Termination)})
	if rec.Detail != "" && rec.Detail != string(rec.Termination) {
		tags = append(tags, [2]string{"TerminationDetails", rec.Detail})
	}
	return tags
}

// recordLineWidth is where the movetext wraps.
const recordLineWidth = 79

// sanWriter is implemented by positions that write moves in Standard Algebraic Notation (chess).
type sanWriter interface {
	SAN(m games.Move) string
}

// FormatPGN returns a game as PGN: the tags of the match, SetUp and FEN for a start other than the initial
// position (always for Chess960, in X-FEN), Variant for a game other than chess ("Chess960" for it), then
// the numbered moves (SAN for chess, castling O-O and O-O-O in Chess960 too; the game's protocol notation
// otherwise) and the result.
func FormatPGN(g games.Game, rec GameRecord, event string) (string, error) {
	var sb strings.Builder
	writeTag := func(name, value string) {
		value = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", name, value)
	}
	tags := recordTags(g, rec, event)
	for i, t := range tags {
		writeTag(t[0], t[1])
		if i == 5 {
			writeTag("Result", rec.Result.String())
		}
	}
	chess960 := isChess960(g)
	switch {
	case chess960:
		writeTag("Variant", "Chess960")
	case g.Name() != "chess":
		writeTag("Variant", variantName(g))
	}
	if fen := rec.Start.FEN(); chess960 || fen != g.Start().FEN() {
		// A Chess960 game always names its start: the standard-looking one is position 518.
		writeTag("SetUp", "1")
		writeTag("FEN", fen)
	}
	sb.WriteByte('\n')
	lineLen := 0
	emit := func(word string) {
		if lineLen > 0 && lineLen+1+len(word) > recordLineWidth {
			sb.WriteByte('\n')
			lineLen = 0
		}
		if lineLen > 0 {
			sb.WriteByte(' ')
			lineLen++
		}
		sb.WriteString(word)
		lineLen += len(word)
	}
	p := rec.Start.Clone()
	for i, m := range rec.Moves {
		if !games.IsLegal(p, m) {
			return "", fmt.Errorf("writing PGN of game %d: move %d is not legal in %s", rec.Number, i+1, p.FEN())
		}
		number := p.Ply()/2 + 1
		if p.ToMove() == games.First {
			emit(strconv.Itoa(number) + ".")
		} else if i == 0 {
			emit(strconv.Itoa(number) + "...")
		}
		if san, ok := p.(sanWriter); ok {
			emit(san.SAN(m))
		} else {
			emit(p.FormatMove(m))
		}
		if i < len(rec.Comments) && rec.Comments[i] != "" {
			emit(games.FormatComment(rec.Comments[i]))
		}
		p.Play(m)
	}
	emit(rec.Result.String())
	sb.WriteString("\n\n")
	return sb.String(), nil
}

// FormatPDN returns a checkers game as PDN, written by games/checkers with the match's tags.
func FormatPDN(rec GameRecord, event string) (string, error) {
	start, ok := rec.Start.(*checkers.Position)
	if !ok {
		return "", fmt.Errorf("writing PDN of game %d: not a checkers game", rec.Number)
	}
	var tags []checkers.PDNTag
	for _, t := range recordTags(checkers.Game{}, rec, event) {
		tags = append(tags, checkers.PDNTag{Name: t[0], Value: t[1]})
	}
	return checkers.FormatPDN(tags, start, rec.Moves, rec.Result, rec.Comments)
}

// RecordWriter appends finished games to a PGN or PDN file.
type RecordWriter struct {
	w      io.Writer
	game   games.Game
	pdn    bool
	event  string
	failed error
}

// NewRecordWriter returns a writer of game records to w: PDN when pdn is set (checkers only), else PGN.
func NewRecordWriter(w io.Writer, g games.Game, pdn bool, event string) (*RecordWriter, error) {
	if pdn && g.Name() != "checkers" {
		return nil, fmt.Errorf("PDN records are for checkers; %s games are written as PGN", g.Name())
	}
	if !pdn && g.Name() == "checkers" {
		return nil, fmt.Errorf("checkers games are written as PDN (--pdn), not PGN")
	}
	return &RecordWriter{w: w, game: g, pdn: pdn, event: event}, nil
}

// Write appends one game; after a failed write it keeps returning that error.
func (rw *RecordWriter) Write(rec GameRecord) error {
	if rw.failed != nil {
		return rw.failed
	}
	var text string
	var err error
	if rw.pdn {
		text, err = FormatPDN(rec, rw.event)
	} else {
		text, err = FormatPGN(rw.game, rec, rw.event)
	}
	if err == nil {
		_, err = io.WriteString(rw.w, text)
	}
	rw.failed = err
	return err
}
