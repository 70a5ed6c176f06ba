// Tests of identification's parts: the options read, the games read with their side tags, and the player's
// moves picked out game by game.

package identify

import (
	"slices"
	"strings"
	"testing"

	"dossier/games/checkers"
	"dossier/games/connect4"
	"dossier/internal/cli"
)

func TestParseOptions(t *testing.T) {
	if after, err := ParseAfter(" 1, 3,,10"); err != nil || !slices.Equal(after, []int{1, 3, 10}) {
		t.Errorf("ParseAfter = %v, %v", after, err)
	}
	if _, err := ParseAfter("1,0"); !cli.IsUsage(err) || !strings.Contains(err.Error(), `"0" is not a number of games`) {
		t.Errorf("ParseAfter(1,0): %v", err)
	}
	if opts, err := ParseBackoff("classes"); err != nil || !opts.Classes || opts.Uniform {
		t.Errorf("ParseBackoff(classes) = %+v, %v", opts, err)
	}
	if opts, err := ParseBackoff("uniform"); err != nil || !opts.Uniform {
		t.Errorf("ParseBackoff(uniform) = %+v, %v", opts, err)
	}
	if _, err := ParseBackoff("magic"); !cli.IsUsage(err) {
		t.Errorf("ParseBackoff(magic): %v", err)
	}
}

func TestPlayerSessions(t *testing.T) {
	g := connect4.Game{}
	pgn := "[White \"dossier\"]\n[Black \"Right\"]\n\n1. P@d1 P@e1 2. P@d2 P@e2 *\n\n" +
		"[White \"Right\"]\n[Black \"dossier\"]\n\n1. P@a1 P@d1 2. P@a2 *\n\n" +
		"[White \"dossier\"]\n[Black \"Other\"]\n\n1. P@d1 *\n"
	recs, err := readGames(g, strings.NewReader(pgn))
	if err != nil {
		t.Fatal(err)
	}
	name, sessions, err := playerSessions(recs, "")
	if err != nil {
		t.Fatal(err)
	}
	// Right played second, then first; the third game is not Right's.
	if name != "Right" || len(sessions) != 2 || len(sessions[0]) != 2 || len(sessions[1]) != 2 {
		t.Fatalf("player %q, sessions %+v", name, sessions)
	}
	if sessions[0][0].ply != 1 || sessions[1][0].ply != 0 {
		t.Errorf("plies %d and %d, want 1 and 0", sessions[0][0].ply, sessions[1][0].ply)
	}
	if _, _, err := playerSessions(recs, "nobody"); err == nil {
		t.Error("a player in no game was accepted")
	}
	if _, err := readGames(g, strings.NewReader("1. P@d1 P@d1 *")); err == nil || !strings.Contains(err.Error(), "ply 2") {
		t.Errorf("an illegal move: %v", err)
	}
}

func TestReadGamesReadsPDNForCheckers(t *testing.T) {
	pdn := "[Black \"First\"]\n[White \"Second\"]\n\n1. 11-15 23-19 *\n"
	recs, err := readGames(checkers.Game{}, strings.NewReader(pdn))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].names != [2]string{"First", "Second"} || len(recs[0].moves) != 2 {
		t.Fatalf("games %+v: want First (Black) moving first and two moves", recs)
	}
}
