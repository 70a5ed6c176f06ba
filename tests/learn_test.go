// End-to-end tests of `dossier learn` (Sen & Arora's training phase) and of MEU playing the learned counts
// over UCI and in `dossier match`.

package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/memory/learn"
)

// learnCounts runs `dossier learn` with args into a counts file in a directory whose name has a space,
// checks the output and the file, and returns the file's path.
func learnCounts(t *testing.T, games int, args ...string) (string, *learn.DiscrepancyCounts, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "learned counts")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sp.json")
	args = append([]string{"learn", "--game", "connect4", "--learner", "discrepancy", "--opponent", "preset=sp",
		"--start-plies", "2,6", "--seed", "3", "--out", path}, args...)
	out, stderr, code := runDossier(t, 2*time.Minute, "", args...)
	if code != 0 {
		t.Fatalf("dossier %q: exit %d\nstderr:\n%s", args, code, stderr)
	}
	counts, err := learn.LoadDiscrepancyCounts(path)
	if err != nil {
		t.Fatalf("the counts file: %v\nstdout:\n%s", err, out)
	}
	total := 0.0
	for _, row := range counts.Counts {
		for _, x := range row {
			total += x
		}
	}
	if counts.Game != "connect4" || counts.Games != games || counts.Observations == 0 || total != float64(counts.Observations) {
		t.Errorf("counts of %s, %d games, %d observations, %v counted", counts.Game, counts.Games, counts.Observations, total)
	}
	for _, want := range []string{"share of the opponent's moves by discrepancy range", "moves of a range taken when one was offered", "wrote " + path} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if lines := strings.Count(stderr, "\n"); lines < games {
		t.Errorf("stderr has %d lines, want a progress line per game:\n%s", lines, stderr)
	}
	return path, counts, out
}

func TestLearnDiscrepancies(t *testing.T) {
	t.Run("minimax player", func(t *testing.T) {
		_, counts, out := learnCounts(t, 6, "--player", "preset=sophisticated depth=2", "--games", "6")
		if counts.Depth != 2 || counts.ReplyDepth != 0 || counts.Evaluation != "sophisticated" || counts.Opponent != "sp d1" ||
			counts.BandPlies != 6 || len(counts.Edges) != 5 {
			t.Errorf("counts %+v", counts)
		}
		if !strings.HasPrefix(out, "sophisticated d2 vs sp d1: ") {
			t.Errorf("stdout:\n%s", out)
		}
	})
	t.Run("MEU learning while it plays", func(t *testing.T) {
		_, counts, out := learnCounts(t, 4, "--player", "preset=sophisticated search=meu depth=4", "--games", "4",
			"--band-plies", "0", "--edges", "5,25")
		if counts.Depth != 4 || counts.ReplyDepth != 2 || counts.BandPlies != 0 || len(counts.Counts) != 1 || len(counts.Edges) != 2 {
			t.Errorf("counts %+v", counts)
		}
		if !strings.HasPrefix(out, "sophisticated d4 meu(learning) vs sp d1: ") {
			t.Errorf("stdout:\n%s", out)
		}
	})
	t.Run("external opponent", func(t *testing.T) {
		_, counts, _ := learnCounts(t, 2, "--player", "preset=sophisticated depth=2", "--games", "2",
			"--opponent", "uci="+dossierBin+" Preset=sp depth=1")
		if counts.Opponent == "sp d1" {
			t.Errorf("the external opponent is named %q", counts.Opponent)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"other learner", []string{"--learner", "rank", "--player", "depth=2", "--opponent", "preset=sp", "--out", "x"}, `--learner "rank"`},
		{"no out", []string{"--player", "depth=2", "--opponent", "preset=sp"}, "--out are required"},
		{"external player", []string{"--player", "uci=/bin/true", "--opponent", "preset=sp", "--out", "x"}, "must be in-process"},
		{"no depth", []string{"--player", "preset=strongest", "--opponent", "preset=sp", "--out", "x"}, "give depth= or --depth"},
		{"bad edges", []string{"--player", "depth=2", "--opponent", "preset=sp", "--out", "x", "--edges", "5,2"}, "edge 1 is 2"},
		{"bad plies", []string{"--player", "depth=2", "--opponent", "preset=sp", "--out", "x", "--start-plies", "2,x"}, `"x" is not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runDossier(t, time.Minute, "", append([]string{"learn", "--game", "connect4"}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}

// wins reports whether m ends the game in p.
func wins(p games.Position, m games.Move) bool {
	p.Play(m)
	defer p.Undo()
	return p.Status().Result.Over()
}

func TestMEUWithLearnedCounts(t *testing.T) {
	path, _, _ := learnCounts(t, 4, "--player", "preset=sophisticated depth=4", "--games", "4")

	// Over UCI: a game against the first legal move, every bestmove legal with a predicted reply.
	p := startDossier(t)
	handshake(p)
	game := newReplay(t, "connect4")
	p.send("setoption name UCI_Variant value connect4", "setoption name Preset value sophisticated",
		"setoption name Search value meu", "setoption name OpponentModel value discrepancy:"+path, "ucinewgame")
	for range 6 {
		p.send(game.positionCommand(), "go depth 4")
		best, before := bestMove(p, game.pos, searchTimeout)
		if errs := errorLines(before); len(errs) > 0 {
			p.fatalf("errors: %q", errs)
		}
		if m, _ := legalMove(game.pos, best); !wins(game.pos, m) {
			checkPrediction(p, game.pos, best, before) // a winning move has no reply to predict
		}
		game.play(p, best)
		if game.pos.Status().Result.Over() {
			break
		}
		game.play(p, game.pos.FormatMove(game.pos.AppendMoves(nil)[0]))
		if game.pos.Status().Result.Over() {
			break
		}
	}

	// A corrupt counts file: setoption says which field is wrong and keeps the model it had (issue #34).
	corrupt := filepath.Join(t.TempDir(), "corrupt.json")
	if err := os.WriteFile(corrupt, []byte(`{"format": "dossier discrepancy counts", "version": 7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := newReplay(t, "connect4")
	p.send("setoption name OpponentModel value discrepancy:"+corrupt, fresh.positionCommand(), "go depth 2")
	_, before := bestMove(p, fresh.pos, searchTimeout)
	// The file is read at setoption, which says what is wrong; the search plays the model kept, silently.
	if errs := errorLines(before); len(errs) != 1 || !strings.Contains(errs[0], "setoption OpponentModel") ||
		!strings.Contains(errs[0], "field version is 7") || !strings.Contains(errs[0], "the opponent model stays") {
		p.fatalf("a corrupt counts file: error lines %q", errs)
	}
	p.send("quit")
	if code := p.wait(promptTimeout); code != 0 {
		p.fatalf("exit code %d", code)
	}

	// In a match, the path (with a space) quoted in the spec.
	sum := runMatch(t, 2*time.Minute, "--game", "connect4", "--games", "2", "--random-plies", "2",
		"--player1", "preset=sophisticated search=meu model='discrepancy:"+path+"' depth=4", "--player2", "preset=sp")
	if sum.Games != 2 || sum.Players[0] != "sophisticated d4 meu(discrepancy:"+path+")" {
		t.Errorf("summary %+v", sum)
	}
}
