// A seeded soak of the built binary with random command lines built from UCI words, numbers, moves and junk.

package tests

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"dossier/internal/testdeep"
)

// soakWords are the pieces random lines are made of: every command and keyword the session knows, moves
// and positions of all four games, numbers in and out of range, and junk. Hash and Threads values stay small
// so that no line can make the engine allocate gigabytes. quit is left out, as it ends the session, and
// isready, so that every readyok answers the test's own isready.
var soakWords = []string{
	"uci", "ucinewgame", "position", "startpos", "fen", "moves", "go", "stop", "ponderhit",
	"setoption", "name", "value", "debug", "on", "off", "register", "d",
	"depth", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "nodes", "mate", "infinite", "ponder",
	"searchmoves", "perft",
	"UCI_Variant", "UCI_Opponent", "UCI_ShowWDL", "Ponder", "Hash", "Threads", "Search", "Preset", "Depth", "Contempt",
	"chess", "checkers", "cfour", "tictactoe", "shogi", "true", "false", "strongest", "none", "computer", "BOT",
	"e2e4", "e7e5", "g1f3", "e1g1", "e7e8q", "a7a8n", "0000", "11-15", "22x15", "P@d1", "P@b2", "P@a9",
	"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "b", "w", "KQkq", "-", "e3",
	"B:W21,22,23:B1,2,3", "3/3/3[PPPPPpppp]", "7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp]",
	"-1", "0", "1", "2", "3", "7", "50", "1000", "99999999999999999999", "1e3", "0x10", "+5", "-0",
	"xyzzy", "\x00", "\xff\xfe", "\t", "é", "\x1b[2J",
}

// TestRandomInput sends seeded random lines to one engine, with isready every few lines (each must be
// answered in time, whatever searches the lines started), and then checks that the engine still plays a
// legal move in a clean position. A failure names the seed and shows the transcript. Each seed sends 300
// lines, 2000 in the deep run (DOSSIER_DEEP_TESTS=1).
func TestRandomInput(t *testing.T) {
	lines := 2000
	if testdeep.Quick() {
		lines = 300
	}
	for _, seed := range []uint64{1, 2, 3, 4, 5} {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0x5eed))
			p := startDossier(t)
			handshake(p)
			searches, errs := 0, 0
			for i := range lines {
				words := make([]string, rng.IntN(9))
				for j := range words {
					words[j] = soakWords[rng.IntN(len(soakWords))]
				}
				p.send(strings.Join(words, " "))
				if i%8 == 7 {
					for _, l := range ready(p) {
						switch {
						case strings.HasPrefix(l, "bestmove"):
							searches++
						case strings.HasPrefix(l, "info string error:"):
							errs++
						}
					}
				}
			}
			t.Logf("%d lines: %d error reports, %d bestmoves before the last isready", lines, errs, searches)
			// position waits for any search still running to write its bestmove, so that after readyok
			// the next bestmove is the answer to the last go.
			r := newReplay(t, "chess")
			r.play(p, "d2d4")
			p.send("stop", "setoption name UCI_Variant value chess", "ucinewgame", r.positionCommand())
			ready(p)
			p.send("go depth 2")
			if move, _ := bestMove(p, r.pos, searchTimeout); move == "0000" {
				p.fatalf("bestmove 0000 at the end of the soak")
			}
			p.closeInput()
			if code := p.wait(promptTimeout); code != 0 {
				p.fatalf("exit code %d", code)
			}
		})
	}
}
