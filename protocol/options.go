// The setoption command and the session's own options: UCI_Variant, UCI_Chess960, UCI_Opponent,
// UCI_ShowWDL, Ponder.
package protocol

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dossier/games"
)

// sessionOptions returns the options the session handles itself; they come before the engine's, and an
// engine option of the same name is hidden by them.
func (s *Session) sessionOptions() []Option {
	variant := Option{Name: "UCI_Variant", Type: ComboType, Default: s.variantOf(s.game), Vars: s.cfg.Variants,
		Apply: s.setVariant, comboAcceptsOthers: true}
	opponent := StringOption("UCI_Opponent", "", func(v string) {
		s.opponent = ParseOpponent(v)
		s.safely("SetOpponent", func() { s.engine.SetOpponent(s.opponent) })
	})
	wdl := CheckOption("UCI_ShowWDL", false, func(on bool) { s.showWDL = on })
	// Ponder tells a GUI that the engine can ponder; the engine learns of pondering from go ponder itself.
	ponder := CheckOption("Ponder", false, func(bool) {})
	options := []Option{variant, opponent, wdl, ponder}
	if g, err := s.lookup("chess960"); err == nil { // only a session that can play Chess960 offers it
		s.chess960 = sameGame(g, s.game) // dossier --game chess960 starts with it on
		chess960 := Option{Name: "UCI_Chess960", Type: CheckType, Default: strconv.FormatBool(s.chess960), Apply: s.setChess960}
		options = slices.Insert(options, 1, chess960)
	}
	return options
}

// setChess960 is UCI_Chess960: chess, now and when UCI_Variant chooses it later, becomes the lookup's
// chess960 (which writes castling as the king taking its own rook), or back to chess.
func (s *Session) setChess960(value string) error {
	on := value == "true"
	s.chess960 = on
	if s.game.Name() != "chess" {
		return nil
	}
	name := "chess"
	if on {
		name = "chess960"
	}
	g, err := s.lookup(name)
	if err != nil {
		return err
	}
	if !sameGame(g, s.game) {
		s.resetGame(g)
	}
	return nil
}

// sameGame reports whether a and b are one game, telling variants that share a name (chess and chess960)
// apart by their Variant method.
func sameGame(a, b games.Game) bool {
	type variant interface{ Variant() string }
	va, aok := a.(variant)
	vb, bok := b.(variant)
	return a.Name() == b.Name() && aok == bok && (!aok || va.Variant() == vb.Variant())
}

// lookup resolves a game name with the configured lookup, or accepts only the default game without one.
func (s *Session) lookup(name string) (games.Game, error) {
	if s.cfg.Lookup != nil {
		return s.cfg.Lookup(name)
	}
	if strings.EqualFold(name, s.game.Name()) {
		return s.game, nil
	}
	return nil, errNoLookup
}

// variantOf returns the UCI_Variant choice that names g, or g's own name when no choice does.
func (s *Session) variantOf(g games.Game) string {
	for _, v := range s.cfg.Variants {
		if found, err := s.lookup(v); err == nil && found.Name() == g.Name() {
			return v
		}
	}
	return g.Name()
}

// setVariant switches to another game; choosing the game being played changes nothing, as cutechess sends
// UCI_Variant before every game. Under UCI_Chess960 chess is chess960.
func (s *Session) setVariant(name string) error {
	g, err := s.lookup(name)
	if err != nil {
		return err
	}
	if s.chess960 && g.Name() == "chess" {
		if g, err = s.lookup("chess960"); err != nil {
			return err
		}
	}
	if !sameGame(g, s.game) {
		s.resetGame(g)
	}
	return nil
}

// cmdSetOption reads "setoption name <name> [value <value>]"; the name may contain spaces and is matched
// case-insensitively, the value is everything after the value keyword.
func (s *Session) cmdSetOption(c command) {
	s.finishSearch()
	words := c.words()
	if len(words) == 0 || !strings.EqualFold(words[0], "name") {
		s.errorf("setoption: want setoption name <name> [value <value>]")
		return
	}
	valueAt := len(words)
	for i := 1; i < len(words); i++ {
		if strings.EqualFold(words[i], "value") {
			valueAt = i
			break
		}
	}
	name := strings.Join(words[1:valueAt], " ")
	if name == "" {
		s.errorf("setoption: the option name is missing")
		return
	}
	hasValue := valueAt < len(words)
	value := c.rawFrom(valueAt + 1)
	for _, o := range s.options {
		if strings.EqualFold(o.Name, name) {
			if err := applyOption(o, value, hasValue); err != nil {
				s.errorf("setoption %s: %v", o.Name, err)
			}
			return
		}
	}
	s.errorf("setoption: no option named %s", quoteToken(name))
}

// applyOption checks a value against the option's type and calls its Apply with the canonical value.
func applyOption(o Option, value string, hasValue bool) error {
	if !hasValue && o.Type != ButtonType && o.Type != StringType {
		return fmt.Errorf("a %s option needs a value", o.Type)
	}
	switch o.Type {
	case CheckType:
		switch strings.ToLower(value) {
		case "true":
			value = "true"
		case "false":
			value = "false"
		default:
			return fmt.Errorf("value %s is not true or false", quoteToken(value))
		}
	case SpinType:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return fmt.Errorf("value %s is not a whole number", quoteToken(value))
		}
		if n < o.Min || n > o.Max {
			return fmt.Errorf("value %d is outside %d..%d", n, o.Min, o.Max)
		}
		value = strconv.FormatInt(n, 10)
	case ComboType:
		found := false
		for _, v := range o.Vars {
			if strings.EqualFold(v, value) {
				value, found = v, true
				break
			}
		}
		if !found && !o.comboAcceptsOthers {
			return fmt.Errorf("value %s is not one of %s", quoteToken(value), strings.Join(o.Vars, ", "))
		}
	case ButtonType:
		value = ""
	case StringType:
		if value == "<empty>" {
			value = ""
		}
	}
	if o.Apply == nil {
		return nil
	}
	return applySafely(o, value)
}

// applySafely calls an option's Apply, turning a panic in the engine's setter into an error.
func applySafely(o Option, value string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return o.Apply(value)
}
