// Package gametest holds the conformance checks that every game's tests run against the games interface.
package gametest

import (
	"math"
	"math/rand/v2"
	"testing"

	"dossier/games"
)

// RandomPlayouts plays n games of random legal moves (at most maxPlies each) from the game's start position
// and checks the interface's contract at every ply; see CheckPosition.
func RandomPlayouts(t *testing.T, g games.Game, n, maxPlies int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var buf [games.MaxMoves]games.Move
	for i := 0; i < n; i++ {
		p := g.Start()
		for ply := 0; ply < maxPlies; ply++ {
			if !CheckPosition(t, g, p) {
				return
			}
			if p.Status().Result != games.Ongoing {
				break
			}
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// CheckPosition checks one position against the interface's contract and reports false after a failure:
//   - the position string reads back to the same string, hash, side to move and legal moves;
//   - every legal move formats to a string that parses back to the same move;
//   - Play then Undo restores the hash and the position string, and Play passes the move to the other side;
//   - the hash after Play equals the hash of the resulting position read from its string;
//   - a Clone is independent of the original;
//   - the feature vector has the game's length and only finite entries.
func CheckPosition(t *testing.T, g games.Game, p games.Position) bool {
	t.Helper()
	fen := p.FEN()
	h := p.Hash()
	q, err := g.ParsePosition(fen)
	if err != nil {
		t.Errorf("%s: ParsePosition(FEN()) failed: %v", fen, err)
		return false
	}
	if q.FEN() != fen || q.Hash() != h || q.ToMove() != p.ToMove() {
		t.Errorf("%s: reading the position string back gives %q, hash %x vs %x", fen, q.FEN(), q.Hash(), h)
		return false
	}
	var buf, qbuf [games.MaxMoves]games.Move
	moves := p.AppendMoves(buf[:0])
	if a, b := MoveSet(p, moves), MoveSet(q, q.AppendMoves(qbuf[:0])); !sameSet(a, b) {
		t.Errorf("%s: legal moves differ after reading the position string back: %v vs %v", fen, a, b)
		return false
	}
	side := p.ToMove()
	for _, m := range moves {
		s := p.FormatMove(m)
		back, err := p.ParseMove(s)
		if err != nil || back != m {
			t.Errorf("%s: move %q does not parse back (got %v, %v)", fen, s, back, err)
			return false
		}
		p.Play(m)
		if p.ToMove() != side.Other() {
			t.Errorf("%s: after %s the side to move is still %v", fen, s, side)
			return false
		}
		after, err := g.ParsePosition(p.FEN())
		if err != nil || after.Hash() != p.Hash() {
			t.Errorf("%s: after %s the incremental hash %x differs from the hash of %q (%v)", fen, s, p.Hash(), p.FEN(), err)
			p.Undo()
			return false
		}
		p.Undo()
		if p.Hash() != h || p.FEN() != fen {
			t.Errorf("%s: Play/Undo of %s leaves %q hash %x", fen, s, p.FEN(), p.Hash())
			return false
		}
	}
	if len(moves) > 0 {
		c := p.Clone()
		c.Play(moves[0])
		if p.FEN() != fen || p.Hash() != h {
			t.Errorf("%s: playing a move on a Clone changed the original", fen)
			return false
		}
	}
	feats := make([]float64, len(g.FeatureNames()))
	p.Features(feats)
	for i, f := range feats {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			t.Errorf("%s: feature %s is %v", fen, g.FeatureNames()[i], f)
			return false
		}
	}
	return true
}

// MoveSet formats moves in the position's notation, as a set.
func MoveSet(p games.Position, moves []games.Move) map[string]bool {
	set := make(map[string]bool, len(moves))
	for _, m := range moves {
		set[p.FormatMove(m)] = true
	}
	return set
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// CheckPerft compares the game's own Perft with the interface perft and with the expected counts
// (want[i] is the count at depth i+1), skipping depths above maxDepth.
func CheckPerft(t *testing.T, p games.Position, want []uint64, maxDepth int) {
	t.Helper()
	for d := 1; d <= len(want) && d <= maxDepth; d++ {
		got := games.Perft(p, d)
		if got != want[d-1] {
			t.Errorf("%s: perft(%d) = %d, want %d", p.FEN(), d, got, want[d-1])
			return
		}
		if d <= 4 {
			if slow := games.InterfacePerft(p, d); slow != got {
				t.Errorf("%s: interface perft(%d) = %d but Perft = %d", p.FEN(), d, slow, got)
				return
			}
		}
	}
}

// After returns the position after moves (in the game's notation) from g's start, failing t when one does not
// read.
func After(t testing.TB, g games.Game, moves ...string) games.Position {
	t.Helper()
	return Play(t, g.Start(), moves...)
}

// Play plays moves (in the game's notation) in p and returns it, failing t when one does not read.
func Play(t testing.TB, p games.Position, moves ...string) games.Position {
	t.Helper()
	for _, text := range moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	return p
}
