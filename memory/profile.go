// What the memory answers about an opponent: its profile, its games and a one-line summary.

package memory

import (
	"encoding/json"
	"time"
)

// Profile is everything the memory knows about one opponent, but its games' moves.
type Profile struct {
	Key string
	// Names are every name the opponent was seen under, first seen first.
	Names []string
	// Aliases are the keys merged into this one.
	Aliases []string
	Title   string
	// Kind is "computer", "human" or "".
	Kind      string
	Ratings   []Rating
	FirstSeen time.Time
	LastSeen  time.Time
	// Games are the opponent's games, oldest first.
	Games []GameSummary
	// Models maps a model's name to its history, oldest first.
	Models map[string][]ModelPoint
	// Mistakes are the moves the analyses of its games blamed, by game (oldest first).
	Mistakes []Mistake
}

// Rating is one rating an opponent was given, by whom and when.
type Rating struct {
	Elo    int
	Source string
	At     time.Time
}

// ModelPoint is one state of a learned model.
type ModelPoint struct {
	At     time.Time
	GameID string
	State  json.RawMessage
}

// GameSummary is one game without its moves.
type GameSummary struct {
	ID          string
	OpponentKey string
	Game        string
	Variant     string
	OurSide     int
	TimeControl string
	// Result is "1-0", "0-1", "1/2-1/2", or "*" while unknown or unfinished.
	Result string
	Reason string
	// OurScore is 1, 0.5, 0, or -1 while unknown.
	OurScore float64
	// Plies counts the game's moves (half-moves).
	Plies int
	Start time.Time
	End   time.Time
}

// Game is a whole game with its move records.
type Game struct {
	GameSummary
	StartFEN string
	FinalFEN string
	// Moves are the game's moves in order.
	Moves []string
	// Records are the observed moves, by ply (ours before the opponent's at one ply).
	Records []MoveRecord
}

// Summary is one opponent in a line, for listings.
type Summary struct {
	Key    string
	Name   string
	Games  int
	Wins   int
	Draws  int
	Losses int
	// LastSeen is when the opponent was last named or played.
	LastSeen time.Time
	// Elo is the latest rating, 0 when none.
	Elo  int
	Kind string
	// Models names the models learned for the opponent.
	Models []string
}

// ImportStats counts what an Import changed.
type ImportStats struct {
	// Records counts the lines read (the schema line included).
	Records int
	// Added counts the records that were new or changed something; Unchanged those already in the store.
	Added     int
	Unchanged int
}
