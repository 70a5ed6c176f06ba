// Package catalog maps game names (dossier's own and the UCI_Variant names GUIs use) to the games.
package catalog

import (
	"fmt"
	"strings"

	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
)

// Names lists the games by dossier's names, in the order help texts show them.
func Names() []string { return []string{"chess", "chess960", "checkers", "connect4", "tictactoe"} }

// VariantName returns the UCI_Variant name cutechess uses for a game ("cfour" for connect4, "fischerandom"
// for chess960).
func VariantName(game string) string {
	switch game {
	case "connect4":
		return "cfour"
	case "chess960":
		return "fischerandom"
	}
	return game
}

// Lookup returns the game of a name, accepting dossier's names and the UCI_Variant aliases
// (standard, fischerandom for Chess960, cfour, connect-four, tic-tac-toe, ...), case-insensitively.
func Lookup(name string) (games.Game, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "chess", "standard":
		return chess.Game{}, nil
	case "chess960", "fischerandom", "fischer random", "frc", "960":
		return chess.Game{Chess960: true}, nil
	case "checkers", "draughts", "english", "american":
		return checkers.Game{}, nil
	case "connect4", "cfour", "connect-four", "connectfour", "connect four":
		return connect4.Game{}, nil
	case "tictactoe", "tic-tac-toe", "ttt":
		return tictactoe.Game{}, nil
	}
	return nil, fmt.Errorf("unknown game %q (want one of %s)", name, strings.Join(Names(), ", "))
}
