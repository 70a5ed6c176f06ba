// The interface a Session drives, and the engine options it shows the GUI.
package protocol

import (
	"fmt"
	"strconv"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// Engine is what a Session drives. The session calls its methods from one goroutine at a time: Search runs
// on a goroutine of its own, and the session calls nothing else on the engine until Search has returned.
type Engine interface {
	// Options returns the engine's own options (Hash, Threads, ...); the session lists them after its own.
	Options() []Option
	// NewGame tells the engine that a new game of g begins (ucinewgame, or a change of UCI_Variant).
	NewGame(g games.Game)
	// SetOpponent tells the engine who it is playing (the UCI_Opponent option).
	SetOpponent(o play.Opponent)
	// ObserveMove reports one move of the opponent with the position before it; the position is a copy the
	// engine may keep. See Session for the rule that decides which moves are the opponent's.
	ObserveMove(before games.Position, m games.Move)
	// Search looks for a move in p (a copy the engine owns for the call) until ctl says stop, calling report
	// with progress; it follows engine.Searcher's contract.
	Search(p games.Position, ctl *engine.Control, report func(engine.Info)) engine.Result
}

// OptionType is the kind of a UCI option, which decides its values and how the GUI shows it.
type OptionType uint8

// The five UCI option types.
const (
	CheckType OptionType = iota
	SpinType
	ComboType
	ButtonType
	StringType
)

var optionTypeNames = [...]string{"check", "spin", "combo", "button", "string"}

// String returns the type's name as UCI's "option" line writes it.
func (t OptionType) String() string {
	if int(t) < len(optionTypeNames) {
		return optionTypeNames[t]
	}
	return fmt.Sprintf("optiontype(%d)", uint8(t))
}

// Option is one setting the GUI can change with setoption. The session checks a value against the option's
// type, range and choices before calling Apply, so Apply sees only valid values in canonical form:
// "true"/"false" for a check, a decimal integer within [Min, Max] for a spin, one of Vars as spelt there for a
// combo, "" for a button, and the text for a string ("<empty>" arrives as "").
type Option struct {
	// Name is the option's name; setoption matches it case-insensitively. It may contain spaces.
	Name string
	// Type is the option's kind.
	Type OptionType
	// Default is the value the "uci" reply announces (empty for a button).
	Default string
	// Min and Max bound a spin option.
	Min, Max int64
	// Vars lists a combo option's choices.
	Vars []string
	// Apply sets the value; its error, if any, is reported to the GUI. A nil Apply ignores the value.
	Apply func(value string) error

	// comboAcceptsOthers passes values outside Vars to Apply, which then decides (UCI_Variant aliases).
	comboAcceptsOthers bool
}

// CheckOption returns a check option (a boolean) that calls set with each new value.
func CheckOption(name string, def bool, set func(bool)) Option {
	return Option{Name: name, Type: CheckType, Default: strconv.FormatBool(def), Apply: func(v string) error {
		set(v == "true")
		return nil
	}}
}

// SpinOption returns a spin option (an integer in [min, max]) that calls set with each new value.
func SpinOption(name string, def, min, max int, set func(int)) Option {
	return Option{Name: name, Type: SpinType, Default: strconv.Itoa(def), Min: int64(min), Max: int64(max),
		Apply: func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return err
			}
			set(n)
			return nil
		}}
}

// ComboOption returns a combo option (one of vars) that calls set with each new value.
func ComboOption(name, def string, vars []string, set func(string)) Option {
	return Option{Name: name, Type: ComboType, Default: def, Vars: vars, Apply: func(v string) error {
		set(v)
		return nil
	}}
}

// StringOption returns a string option that calls set with each new value.
func StringOption(name, def string, set func(string)) Option {
	return Option{Name: name, Type: StringType, Default: def, Apply: func(v string) error {
		set(v)
		return nil
	}}
}

// ButtonOption returns a button option that calls press each time the GUI presses it.
func ButtonOption(name string, press func()) Option {
	return Option{Name: name, Type: ButtonType, Apply: func(string) error {
		press()
		return nil
	}}
}

// uciLine writes the option as the "uci" reply announces it.
func (o Option) uciLine() string {
	line := "option name " + o.Name + " type " + o.Type.String()
	switch o.Type {
	case ButtonType:
		return line
	case StringType:
		def := o.Default
		if def == "" {
			def = "<empty>"
		}
		return line + " default " + def
	case SpinType:
		return line + " default " + o.Default + " min " + strconv.FormatInt(o.Min, 10) + " max " + strconv.FormatInt(o.Max, 10)
	case ComboType:
		line += " default " + o.Default
		for _, v := range o.Vars {
			line += " var " + v
		}
		return line
	}
	return line + " default " + o.Default
}
