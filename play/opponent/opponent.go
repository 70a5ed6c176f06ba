// Package opponent says who the opponent is, as a front end (UCI_Opponent, CECP's name and rating, a match
// spec) describes it, and gives the stable key under which the memory files it; it imports nothing of dossier,
// so that the memory depends on it and not on the engine.
package opponent

import (
	"strconv"
	"strings"
)

// PlayerKind says whether a player is a program or a person, as far as the GUI knows.
type PlayerKind uint8

// The kinds of player UCI_Opponent names.
const (
	UnknownKind PlayerKind = iota
	Computer
	Human
)

// String returns the kind as UCI_Opponent writes it ("computer", "human", or "none" when unknown).
func (k PlayerKind) String() string {
	switch k {
	case Computer:
		return "computer"
	case Human:
		return "human"
	}
	return "none"
}

// Opponent is who the engine plays, as the front end described it. Front ends fill what they know: UCI
// sends UCI_Opponent (and sometimes UCI_RatingAdv), CECP sends name, rating and computer, and dossier match
// names its players.
type Opponent struct {
	// Title is the player's title in upper case (GM, IM, FM, CM, NM, WGM, WIM, WFM, WCM, WNM, LM, BOT), or "".
	Title string
	// Elo is the player's rating, or 0 when the GUI does not know it.
	Elo int
	// Kind says whether the opponent is a computer or a human.
	Kind PlayerKind
	// Name is the player's name; it may contain spaces. It is the whole option value when that does not
	// follow the UCI_Opponent pattern.
	Name string
	// RatingAdv is our rating minus the opponent's, as UCI_RatingAdv sends it; valid when HasRatingAdv.
	RatingAdv int
	// HasRatingAdv says whether RatingAdv was sent (0 is a valid advantage).
	HasRatingAdv bool
	// OurElo is our own rating as the front end sees it (CECP's rating command), or 0.
	OurElo int
	// Source names the front end that described the opponent: "uci", "cecp", "match".
	Source string
}

// UnknownKey is the store key of an opponent that gave no name. It is recorded like any other opponent but
// never merged with a named one: no name normalises to it.
const UnknownKey = "(unknown)"

// Key returns the opponent's stable store key (see NameKey).
func (o Opponent) Key() string { return NameKey(o.Name) }

// Named reports whether the opponent gave a name.
func (o Opponent) Named() bool { return strings.TrimSpace(o.Name) != "" }

// RatingAdvantage returns our rating minus the opponent's: UCI_RatingAdv's when sent, else the difference of
// the two ratings when the front end sent both (CECP's rating command); ok is false when it knows neither.
func (o Opponent) RatingAdvantage() (adv int, ok bool) {
	switch {
	case o.HasRatingAdv:
		return o.RatingAdv, true
	case o.Elo > 0 && o.OurElo > 0:
		return o.OurElo - o.Elo, true
	}
	return 0, false
}

// NameKey normalises a player's name into the key the memory files it under: case folded, white space
// trimmed and runs of it made one space, so that "Stockfish  16" and "stockfish 16" are one opponent. A blank
// name gives UnknownKey; a name that would read as UnknownKey is quoted so that the two never meet.
func NameKey(name string) string {
	key := strings.Join(strings.Fields(strings.ToLower(name)), " ")
	switch key {
	case "":
		return UnknownKey
	case UnknownKey:
		return `"` + key + `"`
	}
	return key
}

// knownTitles are the titles lichess and FIDE give; UCI_Opponent writes "none" for an untitled player.
var knownTitles = map[string]bool{
	"GM": true, "IM": true, "FM": true, "CM": true, "NM": true, "WGM": true, "WIM": true, "WFM": true,
	"WCM": true, "WNM": true, "LM": true, "BOT": true,
}

// maxElo bounds the ratings ParseUCIOpponent accepts; a larger number is not a rating but part of a name.
const maxElo = 9999

// ParseUCIOpponent reads a UCI_Opponent value, "<title|none> <elo|none> <computer|human> <name>", as cutechess
// ("none none computer Stockfish 16") and lichess-bot ("BOT 2100 computer SomeBot", "none 1500 human alice")
// send it. It is lenient: a value that does not follow the pattern, or has no name after the three fields,
// becomes the name as a whole (with its outer spaces trimmed and inner runs of spaces kept).
func ParseUCIOpponent(value string) Opponent {
	whole := Opponent{Name: strings.TrimSpace(value), Source: "uci"}
	rest := whole.Name
	fields := [3]string{}
	for i := range fields {
		var ok bool
		fields[i], rest, ok = cutField(rest)
		if !ok {
			return whole
		}
	}
	if rest == "" {
		return whole
	}
	o := Opponent{Source: "uci"}
	switch title := strings.ToUpper(fields[0]); {
	case title == "NONE":
	case knownTitles[title]:
		o.Title = title
	default:
		return whole
	}
	if !strings.EqualFold(fields[1], "none") {
		elo, err := strconv.Atoi(fields[1])
		if err != nil || elo < 0 || elo > maxElo || fields[1][0] == '+' || fields[1][0] == '-' {
			return whole
		}
		o.Elo = elo
	}
	switch strings.ToLower(fields[2]) {
	case "computer":
		o.Kind = Computer
	case "human":
		o.Kind = Human
	case "none":
	default:
		return whole
	}
	o.Name = rest
	return o
}

// SplitTitle splits a leading title off a player's name as CECP's name command gives it: python-chess, and
// so lichess-bot, send "name BOT SomeBot" and "name GM Some Name" where UCI_Opponent gives the title in a
// field of its own and the name bare, and one player must file under one key whichever protocol it came by.
// The title counts only as they write it, one of knownTitles in upper case followed by a name ("Im Ho" and
// "BOT" alone keep their whole name); rest is the name without it, with its outer spaces trimmed.
func SplitTitle(name string) (title, rest string) {
	name = strings.TrimSpace(name)
	first, rest, ok := cutField(name)
	if !ok || rest == "" || first != strings.ToUpper(first) || !knownTitles[first] {
		return "", name
	}
	return first, rest
}

// cutField splits the first space-separated field off s (which has no leading space), returning the field
// and the remainder without its leading spaces.
func cutField(s string) (field, rest string, ok bool) {
	i := strings.IndexAny(s, " \t")
	if i <= 0 {
		return s, "", s != ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t"), true
}

// String writes the opponent in UCI_Opponent form, which ParseUCIOpponent reads back when the name is not empty.
func (o Opponent) String() string {
	title, elo := "none", "none"
	if o.Title != "" {
		title = o.Title
	}
	if o.Elo > 0 {
		elo = strconv.Itoa(o.Elo)
	}
	return title + " " + elo + " " + o.Kind.String() + " " + o.Name
}
