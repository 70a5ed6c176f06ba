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

// colourNames returns the names of the first and second player's colours in a game's records: White for
// the side the protocols call White (Black moves first in checkers), Black for the other.
func colourNames(g games.Game) (first, second string) {
	if games.WhiteSide(g) == games.Second {
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
	if games.WhiteSide(g) == games.Second {
		// The roster lists White before Black whoever moves first.
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
	if variant := games.VariantsOf(g).Record; variant != "" {
		writeTag("Variant", variant)
	}
	if fen := rec.Start.FEN(); isChess960(g) || fen != g.Start().FEN() {
		// A Chess960 game always names its start: the standard-looking one is position 518.
		writeTag("SetUp", "1")
		writeTag("FEN", fen)
	}
	sb.WriteByte('\n')
	movetext := games.NewMovetextWriter(&sb)
	emit := movetext.Word
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
	if _, ok := rec.Start.(*checkers.Position); !ok {
		return "", fmt.Errorf("writing PDN of game %d: not a checkers game", rec.Number)
	}
	return FormatRecord(checkers.Game{}, rec, event)
}

// FormatRecord returns a game of g in its record format (games.RecordFormat): written by the game's
// games.Recorder with the match's tags, or as PGN.
func FormatRecord(g games.Game, rec GameRecord, event string) (string, error) {
	r, ok := g.(games.Recorder)
	if !ok {
		return FormatPGN(g, rec, event)
	}
	var tags []games.Tag
	for _, t := range recordTags(g, rec, event) {
		tags = append(tags, games.Tag{Name: t[0], Value: t[1]})
	}
	return r.FormatRecord(tags, rec.Start, rec.Moves, rec.Result, rec.Comments)
}

// RecordWriter appends finished games to a file in their game's record format: PGN, or PDN for checkers.
type RecordWriter struct {
	w      io.Writer
	game   games.Game
	event  string
	failed error
}

// NewRecordWriter returns a writer of game records to w. pdn says that the file is to be PDN; it must be
// set exactly for the games whose record format is PDN (checkers).
func NewRecordWriter(w io.Writer, g games.Game, pdn bool, event string) (*RecordWriter, error) {
	isPDN := games.RecordFormat(g) == "PDN"
	if pdn && !isPDN {
		return nil, fmt.Errorf("PDN records are for checkers; %s games are written as %s", g.Name(), games.RecordFormat(g))
	}
	if !pdn && isPDN {
		return nil, fmt.Errorf("%s games are written as PDN (--pdn), not PGN", g.Name())
	}
	return &RecordWriter{w: w, game: g, event: event}, nil
}

// Write appends one game; after a failed write it keeps returning that error.
func (rw *RecordWriter) Write(rec GameRecord) error {
	if rw.failed != nil {
		return rw.failed
	}
	text, err := FormatRecord(rw.game, rec, rw.event)
	if err == nil {
		_, err = io.WriteString(rw.w, text)
	}
	rw.failed = err
	return err
}
