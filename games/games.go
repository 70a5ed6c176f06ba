// Package games defines the one interface every game implements and every search in engine/ uses.
//
// Conventions shared by all games:
//   - Moves are packed into a Move (an integer); each game defines its encoding and guarantees that the
//     zero Move (NoMove) is never a legal move.
//   - Move generation appends legal moves to a caller's buffer, so that a search allocates nothing per node.
//   - Play and Undo mutate the position in place; the position keeps its own undo stack and history
//     (the history is what repetition rules need anyway).
//   - Features are measured from the point of view of the side to move ("mine minus theirs"), so one
//     weight vector evaluates a position for whichever side is to move (the negamax convention).
//     An evaluation function is a weight vector over a game's features; one feature extraction at a leaf
//     serves every evaluation function that looks at it, which is what makes multi-model search affordable.
package games

import (
	"fmt"
	"strings"
	"sync"
)

// Move is a game move packed into an integer; its encoding belongs to the game that produced it.
type Move uint64

// NoMove is the zero Move; no game uses it for a legal move, so it marks "no move" in tables and results.
const NoMove Move = 0

// MaxMoves bounds the number of legal moves in any position of any game here (chess: 218).
const MaxMoves = 256

// Side is a player: First moves first (White in chess, Black in checkers, the first dropper in Connect-Four,
// X in tic-tac-toe).
type Side uint8

// The two sides.
const (
	First  Side = 0
	Second Side = 1
)

// Other returns the opponent of s.
func (s Side) Other() Side { return s ^ 1 }

// String names the side neutrally ("first"/"second"); games name their colours in their own notation.
func (s Side) String() string {
	if s == First {
		return "first"
	}
	return "second"
}

// Result is the state of a game: still going, drawn, or won by one side.
type Result uint8

// The possible results.
const (
	Ongoing Result = iota
	Draw
	FirstWins
	SecondWins
)

// WinFor returns the result in which side s has won.
func WinFor(s Side) Result {
	if s == First {
		return FirstWins
	}
	return SecondWins
}

// LossFor returns the result in which side s has lost.
func LossFor(s Side) Result { return WinFor(s.Other()) }

// Over reports whether the game has ended.
func (r Result) Over() bool { return r != Ongoing }

// Winner returns the winning side and true, or false for an ongoing or drawn game.
func (r Result) Winner() (Side, bool) {
	switch r {
	case FirstWins:
		return First, true
	case SecondWins:
		return Second, true
	}
	return First, false
}

// PointsFor returns what side s scores from a finished game: 1 for a win, 0.5 for a draw, 0 for a loss.
func (r Result) PointsFor(s Side) float64 {
	switch r {
	case Draw:
		return 0.5
	case WinFor(s):
		return 1
	}
	return 0
}

// String writes the result as PGN/PDN do: "1-0", "0-1", "1/2-1/2", or "*" while ongoing.
func (r Result) String() string {
	switch r {
	case Draw:
		return "1/2-1/2"
	case FirstWins:
		return "1-0"
	case SecondWins:
		return "0-1"
	}
	return "*"
}

// ParseResult reads a result as String writes it ("1-0", "0-1", "1/2-1/2", "*"); false for any other token.
func ParseResult(tok string) (Result, bool) {
	for _, r := range []Result{Ongoing, Draw, FirstWins, SecondWins} {
		if r.String() == tok {
			return r, true
		}
	}
	return Ongoing, false
}

// Reason says why a game ended.
type Reason uint8

// The reasons a game can end.
const (
	NotOver              Reason = iota
	Checkmate                   // chess: the side to move is in check and has no legal move
	Stalemate                   // chess: the side to move is not in check and has no legal move
	NoLegalMove                 // checkers: the side to move has no piece that can move and loses
	Repetition                  // the same position (same side to move) occurred for the third time
	MoveRule                    // fifty-move rule (chess) or the game's no-progress rule (checkers)
	InsufficientMaterial        // chess: neither side can possibly mate
	Connection                  // Connect-Four or tic-tac-toe: the last mover completed a line
	BoardFull                   // Connect-Four or tic-tac-toe: no empty cell is left and nobody won
)

var reasonNames = [...]string{"not over", "checkmate", "stalemate", "no legal move", "threefold repetition",
	"move rule", "insufficient material", "line completed", "board full"}

// String names the reason in words.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// Outcome is a result with the reason for it.
type Outcome struct {
	Result Result
	Reason Reason
}

// Position is a game position that a search can walk: generate moves, play them and take them back.
// It is not safe for concurrent use; a concurrent search gives each goroutine its own Clone.
type Position interface {
	// ToMove returns the side to move.
	ToMove() Side
	// AppendMoves appends the legal moves of the side to move to dst and returns the extended slice.
	// In a position that Status reports as over, a game may still append moves (chess does, so that perft
	// counts are the standard ones) or none (Connect-Four after four in a row): searches ask Status first.
	AppendMoves(dst []Move) []Move
	// Play makes a legal move (one returned by AppendMoves); playing anything else is undefined.
	Play(m Move)
	// Undo takes back the last move played.
	Undo()
	// Hash returns the Zobrist hash of the position, including the side to move.
	Hash() uint64
	// Status reports an end of the game that needs no move generation: connections, a full board,
	// repetition, move rules, insufficient material. A side to move without legal moves is reported by
	// NoMovesOutcome instead, so that a search learns it from the move generation it does anyway.
	Status() Outcome
	// NoMovesOutcome returns the outcome when the side to move has no legal move (checkmate or stalemate,
	// a loss in checkers). Callers ask only after AppendMoves appended nothing and Status was Ongoing.
	// A leaf of a hand-built tree answers Ongoing: it is a search frontier, and searches evaluate it.
	NoMovesOutcome() Outcome
	// Repetitions returns how many times the current position occurred earlier in the game's history
	// (0 the first time). Searches treat a repetition inside the tree as a draw; Status applies the rule.
	Repetitions() int
	// Ply returns the number of half-moves played since the game's start (counting those before a
	// position string was read, where the notation records it).
	Ply() int
	// Features writes the position's feature vector, from the side to move's point of view, into dst,
	// which has the length of the game's FeatureNames.
	Features(dst []float64)
	// FormatMove writes a move in the game's protocol notation.
	FormatMove(m Move) string
	// ParseMove reads a move in the game's protocol notation (and any other notation the game accepts)
	// and returns it if it is legal here; the error names the token and what is wrong with it.
	ParseMove(s string) (Move, error)
	// FEN writes the position string (FEN for chess and Connect-Four, PDN FEN for checkers).
	FEN() string
	// Clone returns an independent deep copy, history included.
	Clone() Position
}

// Game describes one game: its name, start position, position notation and features.
type Game interface {
	// Name returns the game's name as dossier's flags spell it ("chess", "checkers", "connect4", "tictactoe").
	Name() string
	// Start returns the initial position.
	Start() Position
	// ParsePosition reads a position string; the error says which part is malformed.
	ParsePosition(s string) (Position, error)
	// FeatureNames names the entries of every position's feature vector, in order.
	FeatureNames() []string
}

// Tactical is implemented by positions of games with captures, for quiescence search and move ordering.
type Tactical interface {
	// AppendTactical appends the legal moves that change material (captures, promotions) to dst.
	AppendTactical(dst []Move) []Move
	// IsTactical reports whether a legal move changes material.
	IsTactical(m Move) bool
	// TacticalGain scores a legal move for ordering, most valuable victim first (0 for quiet moves).
	TacticalGain(m Move) int
}

// Exchanger is implemented by positions with a static exchange evaluation (chess), for searches that
// order or prune captures by what they win once the exchange on their square is over.
type Exchanger interface {
	// SEE returns what the legal move m wins for the side to move, in the game's material units
	// (centipawns for chess), once both sides have captured on m's destination in turn as long as it pays.
	SEE(m Move) int
	// SEEGE reports whether SEE(m) >= threshold.
	SEEGE(m Move, threshold int) bool
}

// Checker is implemented by positions of games where the side to move can be in check.
type Checker interface {
	// InCheck reports whether the side to move is in check.
	InCheck() bool
}

// NullMover is implemented by positions where passing the move is meaningful for null-move pruning.
type NullMover interface {
	// PlayNull passes the move to the opponent; the caller must not do so while in check.
	PlayNull()
	// UndoNull takes back PlayNull.
	UndoNull()
}

// Structured is implemented by positions with a structure that changes slowly along a line of play (chess: the
// pawns), for searches that learn how their static evaluation errs in each (correction history).
type Structured interface {
	// StructureKey returns a hash of that structure (the side to move left out).
	StructureKey() uint64
}

// Perfter is implemented by positions with a fast perft on their concrete type (no interface calls).
type Perfter interface {
	// Perft counts the leaf nodes of the legal move tree to the given depth.
	Perft(depth int) uint64
}

// OutcomeOf returns the full outcome of a position: Status, or NoMovesOutcome when there is no legal move.
// It generates moves, so searches call Status and AppendMoves themselves instead.
func OutcomeOf(p Position) Outcome {
	if o := p.Status(); o.Result != Ongoing {
		return o
	}
	var buf [MaxMoves]Move
	if len(p.AppendMoves(buf[:0])) == 0 {
		return p.NoMovesOutcome()
	}
	return Outcome{}
}

// IsLegal reports whether m is one of p's legal moves (NoMove never is): the check every consumer of a move
// from elsewhere (an engine, a file, a memory) makes before playing it.
func IsLegal(p Position, m Move) bool {
	if m == NoMove {
		return false
	}
	buf, _ := legalBuffers.Get().(*[MaxMoves]Move)
	if buf == nil {
		buf = new([MaxMoves]Move)
	}
	defer legalBuffers.Put(buf)
	for _, legal := range p.AppendMoves(buf[:0]) {
		if legal == m {
			return true
		}
	}
	return false
}

// legalBuffers are IsLegal's move lists, reused: a list handed to a Position's AppendMoves escapes to the heap,
// and the memory's reading checks every experience entry's move (20,000 a table), which allocated a tenth of
// what a game's start with a memory of 1,000 games allocates (session 29's profile).
var legalBuffers sync.Pool

// ForcedTactics is implemented by games whose rules make tactical moves compulsory (checkers: a capture
// must be taken). A quiescence search may not stand pat while such a move is pending.
type ForcedTactics interface {
	// TacticsForced reports whether the side to move must play a tactical move.
	TacticsForced() bool
}

// FormatComment writes text as a PGN/PDN movetext comment: {text}, with any brace inside replaced (a
// comment cannot hold one) and line breaks made spaces.
func FormatComment(text string) string {
	return "{" + strings.NewReplacer("{", "(", "}", ")", "\n", " ", "\r", " ").Replace(text) + "}"
}
