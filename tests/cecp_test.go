// CECP end to end: whole games against the binary in xboard mode with the result and the opponent in the
// memory, dossier match between dossier over UCI and over CECP, against Debian's fairymax and phalanx, and
// xboard itself running a match with dossier.

package tests

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/internal/testdeep"
)

// cecpHandshake sends xboard and protover 2 and returns the features up to done=1.
func cecpHandshake(p *proc) []string {
	p.t.Helper()
	p.send("xboard", "protover 2")
	return p.expectLine(promptTimeout, "feature done=1")
}

// cecpPing makes a ping round trip and returns the lines before the pong.
func cecpPing(p *proc, n string) []string {
	p.t.Helper()
	p.send("ping " + n)
	return p.expectLine(searchTimeout, "pong "+n)
}

// engineMove reads the engine's next move line, checks it against the rules in r and plays it, and
// returns the lines after it up to a ping round trip (a result claim, if any).
func engineMove(p *proc, r *replay) []string {
	p.t.Helper()
	line, before := p.expectPrefix(searchTimeout, "move ")
	for _, l := range before {
		if strings.HasPrefix(l, "Error") || strings.HasPrefix(l, "Illegal") {
			p.fatalf("unexpected %q", l)
		}
	}
	r.play(p, strings.TrimPrefix(line, "move "))
	return cecpPing(p, "0")
}

func TestCECPWholeGames(t *testing.T) {
	tests := []struct {
		name, variant string
		// opponentResigns ends the game after that many plies with the opponent's resignation (0: play on
		// to the end, the referee's first legal move each time).
		opponentResigns int
		result, reason  string
		ourScore        float64
	}{
		{"tic-tac-toe to the end", "tictactoe", 0, "", "", -1},
		{"chess until the opponent resigns", "normal", 6, "0-1", "White resigns", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory")
			p := startDossier(t, "--memory", dir) // the protocol is chosen by the first line, xboard
			features := cecpHandshake(p)
			if !strings.Contains(strings.Join(features, "\n"), `variants="normal,fischerandom,checkers,cfour,tictactoe"`) {
				p.fatalf("features %q", features)
			}
			name := "Opponent " + tc.variant
			p.send("new", "variant "+tc.variant, "level 0 1 0", "post", "name "+name, "rating 2000 1850", "computer")
			gameName := map[string]string{"normal": "chess"}[tc.variant]
			if gameName == "" {
				gameName = tc.variant
			}
			r := newReplay(t, gameName)
			// The opponent moves first (the engine plays second after new) with the first legal move.
			for {
				if o := games.OutcomeOf(r.pos); o.Result.Over() {
					break
				}
				if tc.opponentResigns > 0 && len(r.moves) >= tc.opponentResigns {
					break
				}
				ours := r.pos.AppendMoves(nil)[0]
				text := r.pos.FormatMove(ours)
				r.play(p, text)
				p.send("time 6000", "otim 6000", "usermove "+text)
				if o := games.OutcomeOf(r.pos); o.Result.Over() {
					break
				}
				after := engineMove(p, r)
				if o := games.OutcomeOf(r.pos); o.Result.Over() && !claimable(o) {
					if len(after) == 0 || !regexp.MustCompile(`^(1-0|0-1|1/2-1/2) \{.+\}$`).MatchString(after[0]) {
						p.fatalf("the game ended (%v) on the engine's move without a claim: %q", o, after)
					}
				}
			}
			result, reason := tc.result, tc.reason
			if result == "" {
				o := games.OutcomeOf(r.pos)
				result, reason = o.Result.String(), "Xboard adjudication: "+o.Reason.String()
				if o.Result == games.Ongoing {
					p.fatalf("the game did not end")
				}
			}
			p.send("result " + result + " {" + reason + "}")
			cecpPing(p, "1")
			p.send("quit")
			if code := p.wait(30 * time.Second); code != 0 {
				t.Fatalf("dossier exited %d", code)
			}
			shown := showMemory(t, dir, name)
			prof := shown.Profile
			if prof.Kind != "computer" || len(prof.Ratings) == 0 || prof.Ratings[len(prof.Ratings)-1].Elo != 1850 {
				t.Errorf("profile %+v: want a computer rated 1850", prof)
			}
			if len(prof.Games) != 1 {
				t.Fatalf("%d games stored, want 1: %+v", len(prof.Games), prof.Games)
			}
			g := prof.Games[0]
			if g.Game != gameName || g.OurSide != 1 || g.Result != result || g.Reason != reason || g.Plies != len(r.moves) {
				t.Errorf("stored %+v, want %s %s {%s} after %d plies as the second player", g, gameName, result, reason, len(r.moves))
			}
			if tc.ourScore >= 0 && g.OurScore != tc.ourScore {
				t.Errorf("our score %v, want %v", g.OurScore, tc.ourScore)
			}
			if shown.Prediction.Moves != (len(r.moves)+1)/2 {
				t.Errorf("%d opponent moves stored, want %d", shown.Prediction.Moves, (len(r.moves)+1)/2)
			}
		})
	}
}

// TestCECPNameAfterNewFilesOnlyTheNamedOpponent: a GUI that describes the opponent (computer, rating) before
// it names it leaves no empty "(unknown)" profile, and a game against an opponent never named is still filed
// under "(unknown)".
func TestCECPNameAfterNewFilesOnlyTheNamedOpponent(t *testing.T) {
	tests := []struct {
		name     string
		commands []string
		want     string // the only opponent memory ls lists, with the one game
	}{
		{"name after new, computer and rating", []string{"new", "computer", "rating 2000 1850", "level 0 1 0",
			"post", "name Late Namer"}, "Late Namer"},
		{"name after the first move's clock", []string{"new", "rating 2000 1850", "computer", "level 0 1 0",
			"time 6000", "otim 6000", "name Later Still"}, "Later Still"},
		{"never named", []string{"new", "computer", "rating 2000 1850", "level 0 1 0"}, "(unknown)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory")
			p := startDossier(t, "--memory", dir)
			cecpHandshake(p)
			p.send(tc.commands...)
			cecpPing(p, "1")
			r := newReplay(t, "chess")
			first := r.pos.AppendMoves(nil)[0]
			text := r.pos.FormatMove(first)
			r.play(p, text)
			p.send("time 6000", "otim 6000", "usermove "+text)
			engineMove(p, r)
			p.send("result 0-1 {White resigns}")
			cecpPing(p, "2")
			p.send("quit")
			if code := p.wait(30 * time.Second); code != 0 {
				t.Fatalf("dossier exited %d", code)
			}
			out, errText, code := runDossier(t, 30*time.Second, "", "memory", "ls", "--json", "--memory", dir)
			if code != 0 {
				t.Fatalf("dossier memory ls: exit %d, %s", code, errText)
			}
			var list []struct {
				Key, Name string
				Games     int
			}
			if err := json.Unmarshal([]byte(out), &list); err != nil {
				t.Fatalf("dossier memory ls --json: %v\n%s", err, out)
			}
			if len(list) != 1 || list[0].Games != 1 || (list[0].Name != tc.want && list[0].Key != tc.want) {
				t.Fatalf("memory ls lists %+v, want only %q with 1 game", list, tc.want)
			}
			// The rating and the kind told before the name are the named opponent's.
			prof := showMemory(t, dir, list[0].Key).Profile
			if prof.Kind != "computer" || len(prof.Ratings) == 0 || prof.Ratings[len(prof.Ratings)-1].Elo != 1850 {
				t.Errorf("profile %+v: want a computer rated 1850", prof)
			}
		})
	}
}

func TestMatchDossierOverUCIAgainstCECP(t *testing.T) {
	tests := []struct {
		game  string
		limit []string
	}{
		{"chess", []string{"--tc", "3+0.05", "--max-moves", "40"}},
		{"checkers", []string{"--depth", "3", "--max-moves", "40"}},
		{"connect4", []string{"--depth", "2"}},
		{"tictactoe", []string{"--depth", "9"}},
	}
	for _, tc := range tests {
		t.Run(tc.game, func(t *testing.T) {
			if testdeep.Quick() && tc.game == "chess" {
				t.Skip("a clocked chess match takes half a minute: the deep run (DOSSIER_DEEP_TESTS=1) plays it; " +
					"TestMatchAgainstCECPEngines plays chess over CECP in every run")
			}
			args := append([]string{"--game", tc.game, "--games", "2"}, tc.limit...)
			args = append(args, "--player1", "uci="+dossierBin+" args=--no-memory name=over-uci",
				"--player2", "cecp="+dossierBin+" 'args=--no-memory --protocol xboard' name=over-cecp")
			sum := runMatch(t, 3*time.Minute, args...)
			if sum.Games != 2 || sum.Players != [2]string{"over-uci", "over-cecp"} {
				t.Errorf("summary %+v", sum)
			}
			if tc.game == "tictactoe" && sum.Draws != 2 {
				t.Errorf("tic-tac-toe at full depth: %+v, want two draws", sum)
			}
		})
	}
}

func TestMatchAgainstCECPEngines(t *testing.T) {
	for _, engine := range []struct{ path, name string }{
		{"/usr/games/fairymax", "Fairy-Max"},
		{"/usr/games/phalanx", "Phalanx"},
	} {
		t.Run(filepath.Base(engine.path), func(t *testing.T) {
			if testing.Short() {
				t.Skip("two clocked games take a minute")
			}
			// The deep run (DOSSIER_DEEP_TESTS=1) plays two whole games at 5+0.1; the plain run two short ones
			// on a fast clock: the same protocol, the same result and PGN, in a quarter of the time.
			limit := []string{"--tc", "5+0.1", "--max-moves", "100"}
			if testdeep.Quick() {
				limit = []string{"--tc", "1+0.05", "--max-moves", "30"}
			}
			path := requirePeer(t, engine.path)
			pgn := filepath.Join(t.TempDir(), "games.pgn")
			args := append([]string{"--game", "chess", "--games", "2"}, limit...)
			sum := runMatch(t, 4*time.Minute, append(args, "--pgn", pgn, "--player1", "preset=strongest", "--player2", "cecp="+path)...)
			if sum.Games != 2 || !strings.HasPrefix(sum.Players[1], engine.name) {
				t.Errorf("summary %+v", sum)
			}
			text, err := os.ReadFile(pgn)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(text), "[Event "); n != 2 {
				t.Errorf("%d games in the PGN, want 2", n)
			}
		})
	}
}

func TestXboardRunsAMatchWithDossier(t *testing.T) {
	if testing.Short() {
		t.Skip("xboard plays two clocked games")
	}
	xboard := requirePeer(t, "/usr/games/xboard")
	xvfb := requirePeer(t, "xvfb-run")
	fairymax := requirePeer(t, "/usr/games/fairymax")
	dir := t.TempDir()
	memory, pgn, debug := filepath.Join(dir, "memory"), filepath.Join(dir, "games.pgn"), filepath.Join(dir, "xboard.debug")
	// xboard reads its settings from HOME and plays a sound at each game's end unless told not to: a sound
	// program that cannot open a device keeps it from exiting.
	cmd := exec.Command(xvfb, "-a", xboard, "-fcp", dossierBin+" --protocol xboard --memory "+memory, "-fd", dir,
		"-scp", fairymax, "-matchGames", "2", "-noGUI", "-tc", "0:05", "-inc", "0", "-saveGameFile", pgn,
		"-debug", "-nameOfDebugFile", debug, "-popupExitMessage", "false", "-soundProgram", "", "-matchPause", "100")
	cmd.Env = append(os.Environ(), "HOME="+dir)
	done := make(chan error, 1)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("xboard: %v\n%s", err, out.String())
		}
	case <-time.After(4 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("xboard did not finish its match\n%s", out.String())
	}
	text, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatalf("xboard saved no games: %v\n%s", err, out.String())
	}
	results := regexp.MustCompile(`\[Result "([^"]+)"\]`).FindAllStringSubmatch(string(text), -1)
	if len(results) != 2 || !strings.Contains(string(text), `[White "dossier"]`) || !strings.Contains(string(text), `[Black "dossier"]`) {
		t.Fatalf("xboard's games:\n%s", text)
	}
	if log, err := os.ReadFile(debug); err == nil && regexp.MustCompile(`<first : (Error|Illegal move)`).Match(log) {
		t.Errorf("dossier refused something xboard sent; see %s", debug)
	}
	// xboard names each engine to the other (name Fairy-Max 5.0b): the games are filed under that name, with
	// xboard's results and reasons.
	shown := showMemory(t, memory, "fairy-max 5.0b")
	if len(shown.Profile.Games) != 2 {
		t.Fatalf("%d games in the memory, want 2", len(shown.Profile.Games))
	}
	for i, g := range shown.Profile.Games {
		if g.Result != results[i][1] || g.Reason == "unknown" {
			t.Errorf("game %d stored as %s (%s), xboard says %s", i+1, g.Result, g.Reason, results[i][1])
		}
	}
}
