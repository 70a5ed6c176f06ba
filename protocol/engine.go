// How the engine options are announced in the uci reply.

package protocol

import (
	"strconv"

	"dossier/play"
)

// uciLine writes the option as the "uci" reply announces it.
func uciLine(o play.Option) string {
	line := "option name " + o.Name + " type " + o.Type.String()
	switch o.Type {
	case play.ButtonType:
		return line
	case play.StringType:
		def := o.Default
		if def == "" {
			def = "<empty>"
		}
		return line + " default " + def
	case play.SpinType:
		return line + " default " + o.Default + " min " + strconv.FormatInt(o.Min, 10) + " max " + strconv.FormatInt(o.Max, 10)
	case play.ComboType:
		line += " default " + o.Default
		for _, v := range o.Vars {
			line += " var " + v
		}
		return line
	}
	return line + " default " + o.Default
}
