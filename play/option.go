// Options: the settings a front end shows its user and sets (UCI's setoption, CECP's option), checked here once
// for every protocol.

package play

import (
	"fmt"
	"strconv"
	"strings"
)

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

// Option is one setting a front end can change (UCI setoption, CECP option). The session checks a value against the option's
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

	// AcceptsOthers passes a combo's values outside Vars to Apply, which then decides (UCI_Variant's aliases).
	AcceptsOthers bool
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

// Set checks a value against the option's type and calls its Apply with the canonical value; hasValue says
// whether the front end gave a value at all (a button and a string need none).
func (o Option) Set(value string, hasValue bool) error {
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
			return fmt.Errorf("value %s is not true or false", quote(value))
		}
	case SpinType:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return fmt.Errorf("value %s is not a whole number", quote(value))
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
		if !found && !o.AcceptsOthers {
			return fmt.Errorf("value %s is not one of %s", quote(value), strings.Join(o.Vars, ", "))
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
	return o.applySafely(value)
}

// applySafely calls the option's Apply, turning a panic in the engine's setter into an error.
func (o Option) applySafely(value string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return o.Apply(value)
}

// maxQuoted bounds how much of a bad value an error message repeats.
const maxQuoted = 40

// quote quotes a value for an error message, escaping binary junk and shortening long values.
func quote(v string) string {
	if len(v) > maxQuoted {
		return fmt.Sprintf("%q...", v[:maxQuoted])
	}
	return fmt.Sprintf("%q", v)
}

// FindOption returns the option of options named name (case-insensitively, as setoption matches it).
func FindOption(options []Option, name string) (Option, bool) {
	for _, o := range options {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return Option{}, false
}
