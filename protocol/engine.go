// The interface a Session drives, and the engine options it shows the GUI.
package protocol

import (
	"strconv"

	"dossier/engine"
	"dossier/games"
	"dossier/play"
)

// Engine is what a Session drives. The session calls its methods from one goroutine at a time: Search runs
// on a goroutine of its own, and the session calls nothing else on the engine until Search has returned.
type Engine interface {
	// Options returns the engine's own options (Hash, Threads, ...); the session lists them after its own.
	Options() []play.Option
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
