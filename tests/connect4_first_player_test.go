// End-to-end tests of Connect-Four's strongest player as first player: the opening book over UCI, and
// `dossier match` games it must win against every preset.

package tests

import (
	"strings"
	"testing"
	"time"
)

func TestConnectFourBookOverUCI(t *testing.T) {
	// The empty board is in the book: the answer comes from it even at depth 1, with the exact score.
	p := startDossier(t, "--game", "connect4")
	handshake(p)
	r := newReplay(t, "connect4")
	p.send(r.positionCommand(), "go depth 1")
	move, before := bestMove(p, r.pos, promptTimeout)
	if move != "P@d1" {
		t.Errorf("bestmove %s, want P@d1 (the only winning first move)", move)
	}
	var book, mate bool
	for _, line := range before {
		book = book || strings.HasPrefix(line, "info string book")
		mate = mate || strings.Contains(line, "score mate ")
	}
	if !book || !mate {
		t.Errorf("no \"info string book\" line or no mate score before bestmove:\n%s", strings.Join(before, "\n"))
	}
}

func TestMatchConnectFourFirstPlayerWins(t *testing.T) {
	// One game a match: the first game of a pairing gives player 1 the first move.
	tests := []struct {
		opponent string
		limits   []string
		short    bool
	}{
		{"strongest", []string{"--depth", "1"}, true},
		{"sophisticated", []string{"--depth", "1"}, true},
		{"sp", []string{"--depth", "1"}, true},
		{"strongest", []string{"--depth", "4"}, false},
		{"sophisticated", []string{"--depth", "6"}, false},
		{"strongest", []string{"--movetime", "100"}, false},
		{"sophisticated", []string{"--movetime", "100"}, false},
		{"sp", []string{"--movetime", "100"}, false},
		{"strongest", []string{"--movetime", "500"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.opponent+" "+strings.Join(tc.limits, " "), func(t *testing.T) {
			if testing.Short() && !tc.short {
				t.Skip("deeper and timed games are played in the full run")
			}
			args := append([]string{"--game", "connect4", "--games", "1", "--player1", "preset=strongest",
				"--player2", "preset=" + tc.opponent}, tc.limits...)
			sum := runMatch(t, 2*time.Minute, args...)
			if sum.Games != 1 || sum.Wins != 1 {
				t.Errorf("the strongest player as first player: %+v, want one win", sum)
			}
		})
	}
}
