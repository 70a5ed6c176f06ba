// Package checkers implements English (American) 8x8 checkers for the games interface.
//
// Board and notation follow PDN: the dark squares are numbered 1-32, Black (games.First) moves first from
// squares 1-12 towards 32, White (games.Second) starts on 21-32. Men move and capture diagonally forward, kings
// one square in any diagonal direction (no flying kings). Captures are mandatory; a capture continues until the
// capturing piece can jump no more, but when several captures exist the player may choose any of them, not
// necessarily the longest. A man that reaches the far row by a capture is crowned and its move ends there.
// Captures of the same pieces by different routes are distinct moves (the convention of OEIS A133046, whose
// perft counts the tests check).
//
// Moves are written `11-15` and, for captures, as the full path `26x17x10x1`; ParseMove also accepts the
// start-end form `26x1` when exactly one legal capture matches, and `-` in place of `x` in captures
// (`26-17-10-1`, `26-1`), as some archives write them.
// Positions are PDN FEN strings, `B:W21,...,32:B1,...,12`: FEN() writes the side to move, then White's squares,
// then Black's, each in ascending order with a `K` before each king; ParseFEN accepts either colour order,
// ranges such as `1-12`, surrounding quotes, a trailing dot and white space.
//
// End of the game:
//   - the side to move without a legal move (no piece left, or all blocked) loses (NoMovesOutcome);
//   - threefold repetition: the game is drawn when the same position with the same side to move occurs for
//     the third time (Status; Repetitions counts the earlier occurrences);
//   - no progress: the game is drawn after 80 plies (40 moves by each player) in which no man has moved and
//     nothing was captured. This is the 40-move condition of the English Draughts Association/WCDF rules of
//     the game (during each player's previous 40 moves no uncrowned man advanced and no piece was removed),
//     applied here automatically instead of on a player's claim.
//
// Neither draw rule stops move generation: AppendMoves keeps listing the legal moves (archived games played
// on past them, since over the board a draw must be claimed); Status reports them and a game runner stops there.
package checkers

import (
	"math/bits"

	"dossier/games"
)

// NoProgressPlies is the number of plies without a capture or a man move after which the game is drawn.
const NoProgressPlies = 80

// StartFEN is the PDN FEN of the initial position, in the canonical form FEN writes.
const StartFEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

// Game is English checkers as a games.Game.
type Game struct{}

var _ games.Game = Game{}

// Name returns "checkers".
func (Game) Name() string { return "checkers" }

// SideNames names checkers' sides: Black moves first.
func (Game) SideNames() [2]string { return [2]string{"black", "white"} }

// Variants gives checkers' protocol names (dossier's own: no GUI has one); its PDN records say GameType
// instead of a Variant tag.
func (Game) Variants() games.Variants { return games.Variants{UCI: "checkers", CECP: "checkers"} }

// Start returns the initial position.
func (Game) Start() games.Position { return StartPosition() }

// ParsePosition reads a PDN FEN string; see ParseFEN.
func (Game) ParsePosition(s string) (games.Position, error) {
	p, err := ParseFEN(s)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// FeatureNames names the entries of the feature vector; see FeatureDocs for what each measures.
func (Game) FeatureNames() []string {
	names := make([]string, len(featureInfo))
	for i, f := range featureInfo {
		names[i] = f.name
	}
	return names
}

// undoEntry is what Undo restores; the stack of them doubles as the game history for repetitions.
type undoEntry struct {
	board      board
	hash       uint64
	noProgress int32
}

// Position is a checkers position with its history since the start or since the position string was read.
type Position struct {
	board      board
	hash       uint64
	ply        int
	noProgress int // plies since the last capture or man move
	history    []undoEntry
}

var (
	_ games.Position = (*Position)(nil)
	_ games.Tactical = (*Position)(nil)
	_ games.Perfter  = (*Position)(nil)
)

// Pieces counts the men and kings on the board.
func (p *Position) Pieces() int { return bits.OnesCount32(p.board.pieces[0] | p.board.pieces[1]) }

// StartPosition returns the initial position.
func StartPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("checkers: the start position does not parse: " + err.Error())
	}
	return p
}

// newPosition wraps a board with a fresh history.
func newPosition(b board) *Position {
	return &Position{board: b, hash: b.hash(), history: make([]undoEntry, 0, 64)}
}

// ToMove returns the side to move: games.First is Black, games.Second is White.
func (p *Position) ToMove() games.Side { return p.board.side }

// Men returns the bitboard of side s's men (bit i is square i+1).
func (p *Position) Men(s games.Side) uint32 { return p.board.pieces[s] &^ p.board.kings }

// Kings returns the bitboard of side s's kings (bit i is square i+1).
func (p *Position) Kings(s games.Side) uint32 { return p.board.pieces[s] & p.board.kings }

// AppendMoves appends the legal moves to dst: only captures when any capture is possible.
func (p *Position) AppendMoves(dst []games.Move) []games.Move { return p.board.appendMoves(dst) }

// CountMoves returns the number of legal moves without listing them.
func (p *Position) CountMoves() int { return int(p.board.countMoves()) }

// Play makes a legal move, updating the hash, the no-progress count and the history.
func (p *Position) Play(m games.Move) {
	p.history = append(p.history, undoEntry{board: p.board, hash: p.hash, noProgress: int32(p.noProgress)})
	b := &p.board
	s := b.side
	from, to := moveFrom(m), moveTo(m)
	king := b.kings>>from&1 != 0
	h := p.hash ^ zobristKeys[pieceKind(s, king)][from] ^ zobristSide
	h ^= zobristKeys[pieceKind(s, king || (uint32(1)<<to)&crownRow[s] != 0)][to]
	captured := moveCaptured(m)
	for c := captured; c != 0; c &= c - 1 {
		sq := bits.TrailingZeros32(c)
		h ^= zobristKeys[pieceKind(s^1, b.kings>>sq&1 != 0)][sq]
	}
	if captured != 0 || !king {
		p.noProgress = 0
	} else {
		p.noProgress++
	}
	b.apply(m)
	p.hash = h
	p.ply++
}

// Undo takes back the last move played.
func (p *Position) Undo() {
	last := p.history[len(p.history)-1]
	p.history = p.history[:len(p.history)-1]
	p.board, p.hash, p.noProgress = last.board, last.hash, int(last.noProgress)
	p.ply--
}

// Hash returns the Zobrist hash of the pieces and the side to move.
func (p *Position) Hash() uint64 { return p.hash }

// Status reports a draw by threefold repetition or by the no-progress rule (see the package doc).
func (p *Position) Status() games.Outcome {
	if p.Repetitions() >= 2 {
		return games.Outcome{Result: games.Draw, Reason: games.Repetition}
	}
	if p.noProgress >= NoProgressPlies {
		return games.Outcome{Result: games.Draw, Reason: games.MoveRule}
	}
	return games.Outcome{}
}

// NoMovesOutcome returns a loss for the side to move, which has no legal move.
func (p *Position) NoMovesOutcome() games.Outcome {
	return games.Outcome{Result: games.LossFor(p.board.side), Reason: games.NoLegalMove}
}

// Repetitions counts the earlier occurrences of this position with the same side to move. Only positions
// since the last capture or man move can recur, so the scan stops there.
func (p *Position) Repetitions() int {
	n := len(p.history)
	count := 0
	for j := n - 2; j >= n-p.noProgress && j >= 0; j -= 2 {
		if p.history[j].board == p.board {
			count++
		}
	}
	return count
}

// Ply returns the number of plies played since the start or since the position string was read
// (PDN FEN records no move number).
func (p *Position) Ply() int { return p.ply }

// NoProgress returns the number of plies since the last capture or man move (the no-progress count).
func (p *Position) NoProgress() int { return p.noProgress }

// Clone returns an independent deep copy, history included.
func (p *Position) Clone() games.Position {
	c := *p
	c.history = append(make([]undoEntry, 0, cap(p.history)), p.history...)
	return &c
}

// Perft counts the leaf nodes of the legal move tree to depth, with bulk counting at depth 1.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(p.board, depth, make([][games.MaxMoves]games.Move, depth+1))
}

// TacticsForced reports whether the side to move must capture: a quiescence search may not stand pat then,
// because the rules take the choice away.
func (p *Position) TacticsForced() bool { return p.board.jumpers() != 0 }

// AppendTactical appends the moves that change material: captures (all the legal moves when one exists),
// otherwise the moves that crown a man.
func (p *Position) AppendTactical(dst []games.Move) []games.Move {
	b := &p.board
	if j := b.jumpers(); j != 0 {
		return b.appendCaptures(dst, j)
	}
	s := b.side
	men := b.pieces[s] &^ b.kings
	empty := ^(b.pieces[0] | b.pieces[1])
	first, last := forwardDirs(s)
	for d := first; d <= last; d++ {
		for to := step(men, d) & empty & crownRow[s]; to != 0; to &= to - 1 {
			sq := bits.TrailingZeros32(to)
			dst = append(dst, games.Move(neighbour[3-d][sq])|games.Move(sq)<<moveToShift)
		}
	}
	return dst
}

// IsTactical reports whether a legal move captures or crowns a man.
func (p *Position) IsTactical(m games.Move) bool {
	return moveCaptured(m) != 0 || p.crowns(m)
}

// crowns reports whether a legal move turns a man into a king.
func (p *Position) crowns(m games.Move) bool {
	b := &p.board
	return b.kings>>moveFrom(m)&1 == 0 && (uint32(1)<<moveTo(m))&crownRow[b.side] != 0
}

// TacticalGain scores a legal move for ordering: 3 per captured king, 2 per captured man, 1 more if it crowns.
func (p *Position) TacticalGain(m games.Move) int {
	captured := moveCaptured(m)
	kings := bits.OnesCount32(captured & p.board.kings)
	gain := 3*kings + 2*(bits.OnesCount32(captured)-kings)
	if p.crowns(m) {
		gain++
	}
	return gain
}
