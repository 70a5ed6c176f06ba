// The memory end to end: UCI sessions as cutechess and lichess-bot drive them leave their games, with results
// inferred from the final positions, in the store that `dossier memory` shows; a dossier match fills it too.

package tests

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Positions of the three games every session plays: a mate in one for us (Black), and a position where White
// (us) has only king moves and Black mates next with Rb1.
const (
	mateInOneForBlack = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
	matedNextFEN      = "6k1/8/8/8/8/1r6/r7/4K3 w - - 0 1"
)

// shownProfile is the part of `dossier memory show --json` these tests read.
type shownProfile struct {
	Profile struct {
		Key     string   `json:"Key"`
		Names   []string `json:"Names"`
		Title   string   `json:"Title"`
		Kind    string   `json:"Kind"`
		Ratings []struct {
			Elo    int    `json:"Elo"`
			Source string `json:"Source"`
		} `json:"Ratings"`
		Games []struct {
			ID       string  `json:"ID"`
			Game     string  `json:"Game"`
			OurSide  int     `json:"OurSide"`
			Result   string  `json:"Result"`
			Reason   string  `json:"Reason"`
			OurScore float64 `json:"OurScore"`
			Plies    int     `json:"Plies"`
		} `json:"Games"`
	} `json:"profile"`
	Prediction struct {
		Moves int `json:"moves"`
	} `json:"prediction"`
}

// showMemory runs `dossier memory show NAME --json` on dir and decodes it.
func showMemory(t *testing.T, dir, name string) shownProfile {
	t.Helper()
	out, errText, code := runDossier(t, 30*time.Second, "", "memory", "show", name, "--json", "--memory", dir)
	if code != 0 {
		t.Fatalf("dossier memory show %q: exit %d\n%s", name, code, errText)
	}
	var shown shownProfile
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatalf("dossier memory show --json: %v\n%s", err, out)
	}
	return shown
}

// playThreeGames plays the three scripted games in one session (ucinewgame between them) or, with perGame,
// one process each as cutechess runs engines; every session names the opponent with uciOpponent.
func playThreeGames(t *testing.T, dir, uciOpponent string, perGame bool) {
	t.Helper()
	games := [][]string{
		{"position fen " + mateInOneForBlack, "go depth 2"},
		{"position startpos moves e2e4", "go depth 1"},
		{"position fen " + matedNextFEN, "go depth 2"},
	}
	var p *proc
	start := func() {
		p = startDossier(t, "--memory", dir)
		p.send("uci")
		p.expectLine(10*time.Second, "uciok")
		p.send("setoption name UCI_Opponent value " + uciOpponent)
	}
	if !perGame {
		start()
	}
	for i, g := range games {
		if perGame {
			start()
		}
		p.send("ucinewgame", "isready")
		p.expectLine(10*time.Second, "readyok")
		p.send(g...)
		best, _ := p.expectPrefix(30*time.Second, "bestmove ")
		if i == 0 && best != "bestmove d8h4" {
			t.Fatalf("no mate in one: %s", best)
		}
		if i == 2 {
			// The opponent answers our forced king move with mate; the GUI tells the final position.
			move := strings.Fields(best)[1]
			p.send("position fen "+matedNextFEN+" moves "+move+" b3b1", "isready")
			p.expectLine(10*time.Second, "readyok")
		}
		if perGame {
			p.send("quit")
			if code := p.wait(30 * time.Second); code != 0 {
				t.Fatalf("dossier exited %d", code)
			}
		}
	}
	if !perGame {
		p.send("quit")
		if code := p.wait(30 * time.Second); code != 0 {
			t.Fatalf("dossier exited %d", code)
		}
	}
}

func TestMemoryRemembersUCIGames(t *testing.T) {
	tests := []struct {
		driver, uciOpponent, name, title, kind string
		elo                                    int
		perGame                                bool
	}{
		{"cutechess", "none none computer Stockfish 16", "Stockfish 16", "", "computer", 0, true},
		{"lichess-bot", "BOT 2450 computer SomeBot", "SomeBot", "BOT", "computer", 2450, false},
	}
	for _, tc := range tests {
		t.Run(tc.driver, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory")
			playThreeGames(t, dir, tc.uciOpponent, tc.perGame)
			shown := showMemory(t, dir, strings.ToUpper(tc.name)) // any spelling of the name finds it
			prof := shown.Profile
			if prof.Key != strings.ToLower(tc.name) || len(prof.Names) != 1 || prof.Names[0] != tc.name ||
				prof.Title != tc.title || prof.Kind != tc.kind {
				t.Errorf("profile %+v", prof)
			}
			if tc.elo > 0 && (len(prof.Ratings) == 0 || prof.Ratings[len(prof.Ratings)-1].Elo != tc.elo) {
				t.Errorf("ratings %+v, want %d", prof.Ratings, tc.elo)
			}
			want := []struct {
				side   int
				result string
				reason string
				score  float64
				plies  int
			}{
				{1, "0-1", "checkmate", 1, 1}, // our bestmove mated: no position followed it
				{1, "*", "unknown", -1, 1},    // quit in the middle of the game
				{0, "0-1", "checkmate", 0, 2}, // the opponent's mate in the last position command
			}
			if len(prof.Games) != len(want) {
				t.Fatalf("%d games stored, want %d: %+v", len(prof.Games), len(want), prof.Games)
			}
			for i, w := range want {
				g := prof.Games[i]
				if g.Game != "chess" || g.OurSide != w.side || g.Result != w.result || g.Reason != w.reason ||
					g.OurScore != w.score || g.Plies != w.plies {
					t.Errorf("game %d: %+v, want %+v", i+1, g, w)
				}
			}
			// Opponent moves: e2e4 in the second game, b3b1 in the third.
			if shown.Prediction.Moves != 2 {
				t.Errorf("%d opponent moves stored, want 2", shown.Prediction.Moves)
			}
		})
	}
}

func TestMemoryFromMatch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	out, errText, code := runDossier(t, 5*time.Minute, "", "match", "--game", "tictactoe", "--games", "10",
		"--concurrency", "2", "--random-plies", "2", "--seed", "3", "--json",
		"--player1", "preset=open-lines depth=2 name=learner memory="+dir,
		"--player2", "preset=open-lines depth=1 name='Sparring Partner'")
	if code != 0 {
		t.Fatalf("dossier match: exit %d\n%s", code, errText)
	}
	var sum struct {
		Games, Wins, Draws, Losses int
	}
	if err := json.Unmarshal([]byte(lastJSONLine(out)), &sum); err != nil {
		t.Fatalf("match summary: %v\n%s", err, out)
	}
	shown := showMemory(t, dir, "sparring partner")
	if len(shown.Profile.Games) != 10 {
		t.Fatalf("%d games stored, want 10", len(shown.Profile.Games))
	}
	var w, d, l int
	for _, g := range shown.Profile.Games {
		switch g.OurScore {
		case 1:
			w++
		case 0.5:
			d++
		case 0:
			l++
		default:
			t.Errorf("game %s has no result: %+v", g.ID, g)
		}
	}
	if w != sum.Wins || d != sum.Draws || l != sum.Losses {
		t.Errorf("stored +%d =%d -%d, the match says %+v", w, d, l, sum)
	}
	if shown.Prediction.Moves == 0 {
		t.Error("no opponent move stored")
	}
}

// lastJSONLine returns the last line of out that looks like a JSON object.
func lastJSONLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "{") {
			return lines[i]
		}
	}
	return fmt.Sprintf("no JSON in %q", out)
}

// TestMemoryCommandsWhileAnEngineOwnsTheStore: dossier memory reads and writes through the engine that owns
// the store, and the engine goes on filing its game afterwards.
func TestMemoryCommandsWhileAnEngineOwnsTheStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	p := startDossier(t, "--memory", dir, "--log-level", "info")
	p.send("uci", "setoption name UCI_Opponent value none 1800 human Alice", "ucinewgame", "isready")
	p.expectLine(30*time.Second, "readyok")
	p.send("position startpos moves e2e4", "go depth 2")
	p.expectPrefix(30*time.Second, "bestmove ")
	if !strings.Contains(p.stderrText(), "serving other processes") {
		t.Fatalf("the engine does not own the store:\n%s", p.stderrText())
	}
	out, errText, code := runDossier(t, 30*time.Second, "", "memory", "ls", "--json", "--memory", dir)
	if code != 0 || !strings.Contains(out, `"Alice"`) {
		t.Fatalf("dossier memory ls while the engine runs: exit %d, %s%s", code, out, errText)
	}
	dump := filepath.Join(t.TempDir(), "dump.jsonl")
	if _, errText, code := runDossier(t, 30*time.Second, "", "memory", "dump", "--out", dump, "--memory", dir); code != 0 {
		t.Fatalf("dossier memory dump: exit %d, %s", code, errText)
	}
	p.send("position startpos moves e2e4 e7e5 d2d4", "go depth 2")
	p.expectPrefix(30*time.Second, "bestmove ")
	p.send("quit")
	if code := p.wait(30 * time.Second); code != 0 {
		t.Fatalf("dossier exited %d", code)
	}
	shown := showMemory(t, dir, "alice")
	if len(shown.Profile.Games) != 1 || shown.Profile.Games[0].Plies != 3 || shown.Prediction.Moves != 2 {
		t.Errorf("after the engine quit: %+v, %d opponent moves", shown.Profile.Games, shown.Prediction.Moves)
	}
	// Importing the dump taken mid-game into the finished store changes nothing it does not know.
	out, errText, code = runDossier(t, 30*time.Second, "", "memory", "import", dump, "--json", "--memory", dir)
	if code != 0 {
		t.Fatalf("dossier memory import: exit %d, %s", code, errText)
	}
	t.Logf("import of the mid-game dump: %s", strings.TrimSpace(out))
	if again := showMemory(t, dir, "alice"); len(again.Profile.Games) != 1 || again.Profile.Games[0].Plies != 3 ||
		again.Prediction.Moves != 2 {
		t.Errorf("the older dump took something away: %+v, %d opponent moves", again.Profile.Games, again.Prediction.Moves)
	}
}

// TestContemptFromRatings: with MemoryContempt on, the rating advantage a UCI GUI sends (UCI_RatingAdv) sets
// the contempt against an opponent never met, and the engine says so in an info string before its first move
// (CECP's rating command, which sends both ratings, is the player's test's).
func TestContemptFromRatings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		options []string
		want    string
	}{
		{"UCI_RatingAdv", []string{"setoption name UCI_RatingAdv value 150"},
			"info string contempt +38 from the dossier: no games yet, rating +150"},
		{"UCI_RatingAdv below", []string{"setoption name UCI_RatingAdv value -100"},
			"info string contempt -25 from the dossier: no games yet, rating -100"},
		{"no rating", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startDossier(t, "--memory", filepath.Join(t.TempDir(), "memory"))
			handshake(p)
			p.send("setoption name MemoryContempt value true",
				"setoption name UCI_Opponent value none none computer Stranger")
			p.send(tc.options...)
			p.send("ucinewgame", "position startpos", "go depth 2")
			_, lines := bestMove(p, newReplay(t, "chess").pos, searchTimeout)
			var told []string
			for _, l := range lines {
				if strings.Contains(l, "contempt") {
					told = append(told, l)
				}
			}
			if tc.want == "" && len(told) != 0 || tc.want != "" && (len(told) != 1 || told[0] != tc.want) {
				t.Errorf("contempt lines %q, want %q", told, tc.want)
			}
		})
	}
}
