// Tests of dossier learn --learner strategy: a fixed (f, d) chess player's strategy learned from its games.

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dossier/bots/presets"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/internal/training"
)

// fixedPlayerGames writes a PGN of n games in which White, named "truth", plays the first best move of a
// plain 1-ply search with the preset's evaluation and Black, "random", plays random moves.
func fixedPlayerGames(t *testing.T, preset string, n, plies int) string {
	t.Helper()
	g := chess.Game{}
	p, err := presets.Lookup(g, preset)
	if err != nil {
		t.Fatal(err)
	}
	ab := engine.NewAlphaBeta(g, p.Eval, engine.AlphaBetaOptions{})
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	var buf [games.MaxMoves]games.Move
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "[Event \"test\"]\n[White \"truth\"]\n[Black \"random\"]\n[Result \"*\"]\n\n")
		pos := g.Start().(*chess.Position)
		for ply := 0; ply < plies; ply++ {
			moves := pos.AppendMoves(buf[:0])
			if len(moves) == 0 || pos.Status().Result != games.Ongoing {
				break
			}
			m := moves[rng.IntN(len(moves))]
			if pos.ToMove() == games.First {
				_, m = ab.ProbeMove(pos, 1, math.Inf(-1), math.Inf(1))
			}
			if ply%2 == 0 {
				fmt.Fprintf(&b, "%d. ", ply/2+1)
			}
			fmt.Fprintf(&b, "%s ", pos.SAN(m))
			pos.Play(m)
		}
		b.WriteString("*\n\n")
	}
	path := filepath.Join(t.TempDir(), "games.pgn")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLearnStrategyFromRecords learns the positional preset's 1-ply strategy from its games: the learned
// evaluation must predict its held-out moves better than minimax with dossier's own evaluation (which is not
// the player's) and at least 85% of them. Carmel and Markovitch's 95% is not reached here (91%; 87.5% with the evaluation
// before the tuned tables: docs/papers.md, "Learning the opponent").
func TestLearnStrategyFromRecords(t *testing.T) {
	pgn := fixedPlayerGames(t, "positional", 40, 60)
	code, out, errText := runCase([]string{"learn", "--learner", "strategy", "--records", pgn, "--name", "truth",
		"--max-depth", "1", "--examples", "800", "--json"}, "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var rep training.StrategyReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Observed < 750 || rep.Train+rep.Monitor+rep.Test != rep.Observed || len(rep.Models) != 2 {
		t.Fatalf("split %d = %d + %d + %d, %d models", rep.Observed, rep.Train, rep.Monitor, rep.Test, len(rep.Models))
	}
	learned, ours := rep.Models[0], rep.Models[1]
	t.Logf("held-out top-1: learned %.1f%%, %s %.1f%% (%d moves)", 100*learned.Score.Top1, ours.Model,
		100*ours.Score.Top1, learned.Score.Moves)
	if learned.Model != "learned" || learned.Score.Moves != rep.Test {
		t.Fatalf("first model %q scored %d moves", learned.Model, learned.Score.Moves)
	}
	if learned.Score.Top1 < 0.85 || learned.Score.Top1 <= ours.Score.Top1 {
		t.Errorf("learned strategy predicts %.1f%% of held-out moves, minimax %.1f%%: want at least 85%% and more",
			100*learned.Score.Top1, 100*ours.Score.Top1)
	}
	// The text report names the player and every model.
	code, out, errText = runCase([]string{"learn", "--learner", "strategy", "--records", pgn, "--name", "truth",
		"--max-depth", "1", "--examples", "100"}, "")
	if code != 0 || !strings.Contains(out, "truth: 100 moves") || !strings.Contains(out, "minimax strongest") {
		t.Errorf("text report: exit %d, %q, %s", code, out, errText)
	}
	// A name that is not in the records is an error that lists who is.
	code, _, errText = runCase([]string{"learn", "--learner", "strategy", "--records", pgn, "--name", "nobody"}, "")
	if code != 1 || !strings.Contains(errText, `no player "nobody" in the records (players: truth, random)`) {
		t.Errorf("unknown player: exit %d, %s", code, errText)
	}
}
