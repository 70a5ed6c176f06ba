// End-to-end tests of `dossier match`: preset matches in every game, PDN and PGN records that read back,
// dossier against itself over UCI, and a short match against Stockfish.

package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/bots/presets"
	"dossier/games/checkers"

	notnil "github.com/notnil/chess"
)

// matchSummary is the JSON summary of `dossier match --json`.
type matchSummary struct {
	Players      [2]string      `json:"players"`
	Games        int            `json:"games"`
	Wins         int            `json:"wins"`
	Draws        int            `json:"draws"`
	Losses       int            `json:"losses"`
	Score        float64        `json:"score"`
	Points       int            `json:"points"`
	Opponent     int            `json:"opponent_points"`
	Elo          *float64       `json:"elo"`
	Elo95        *float64       `json:"elo95"`
	Terminations map[string]int `json:"terminations"`
}

// engineFailures are the terminations that mean a player broke rather than lost at the board.
var engineFailures = []string{"engine died", "engine stalled", "engine error", "illegal move", "no opening"}

// runMatch runs `dossier match --json` with args and returns its summary, checking that it adds up.
func runMatch(t *testing.T, timeout time.Duration, args ...string) matchSummary {
	t.Helper()
	out, stderr, code := runDossier(t, timeout, "", append([]string{"match", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr)
	}
	var sum matchSummary
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &sum); err != nil {
		t.Fatalf("stdout %q is not one JSON object: %v", out, err)
	}
	terminations := 0
	for kind, n := range sum.Terminations {
		terminations += n
		for _, bad := range engineFailures {
			if kind == bad {
				t.Errorf("%d games ended by %q; stderr:\n%s", n, kind, stderr)
			}
		}
	}
	if sum.Wins+sum.Draws+sum.Losses != sum.Games || terminations != sum.Games ||
		sum.Points != 2*sum.Wins+sum.Draws || sum.Opponent != 2*sum.Losses+sum.Draws {
		t.Errorf("summary does not add up: %+v", sum)
	}
	if lines := strings.Count(stderr, "\n"); lines < sum.Games {
		t.Errorf("stderr has %d lines, want a progress line per game:\n%s", lines, stderr)
	}
	return sum
}

// presetNames returns the first two presets of a game (the default twice when it has one).
func presetNames(t *testing.T, game string) (string, string) {
	t.Helper()
	names := presets.Names(game)
	switch len(names) {
	case 0:
		t.Fatalf("bots has no presets for %s", game)
	case 1:
		return names[0], names[0]
	}
	return names[0], names[1]
}

func TestMatchTicTacToeDrawsAtFullDepth(t *testing.T) {
	a, b := presetNames(t, "tictactoe")
	sum := runMatch(t, time.Minute, "--game", "tictactoe", "--games", "4",
		"--player1", "preset="+a+" depth=9", "--player2", "preset="+b+" depth=9")
	if sum.Games != 4 || sum.Draws != 4 || sum.Points != 4 || sum.Opponent != 4 {
		t.Errorf("perfect play should draw every game: %+v", sum)
	}
	if sum.Elo == nil || *sum.Elo != 0 {
		t.Errorf("elo %v, want 0", sum.Elo)
	}
}

func TestMatchCheckersPDN(t *testing.T) {
	a, b := presetNames(t, "checkers")
	pdn := filepath.Join(t.TempDir(), "games.pdn")
	sum := runMatch(t, 2*time.Minute, "--game", "checkers", "--games", "4", "--concurrency", "2",
		"--random-plies", "2", "--seed", "7", "--max-moves", "60", "--depth", "4", "--pdn", pdn,
		"--player1", "preset="+a, "--player2", "preset="+b+" depth=2")
	if sum.Games != 4 {
		t.Fatalf("%d games, want 4", sum.Games)
	}
	text, err := os.ReadFile(pdn)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := checkers.ParsePDN(string(text))
	if err != nil {
		t.Fatalf("the PDN does not parse: %v\n%s", err, text)
	}
	if len(parsed) != 4 {
		t.Fatalf("%d games in the PDN, want 4", len(parsed))
	}
	points := 0
	for i := range parsed {
		if _, _, err := parsed[i].Replay(); err != nil {
			t.Errorf("game %d does not replay: %v", i+1, err)
		}
		round, _ := parsed[i].Tag("Round")
		if fen, ok := parsed[i].Tag("FEN"); !ok || fen == checkers.StartFEN || round == "" {
			t.Errorf("game %d: FEN tag %q (want the random opening), round %q", i+1, fen, round)
		}
		// Player 1 plays Black (the first player) in the odd rounds.
		black, _ := parsed[i].Tag("Black")
		player1Black := black == sum.Players[0]
		switch parsed[i].Result.String() {
		case "1-0":
			points += map[bool]int{true: 2, false: 0}[player1Black]
		case "0-1":
			points += map[bool]int{true: 0, false: 2}[player1Black]
		case "1/2-1/2":
			points++
		}
	}
	if points != sum.Points {
		t.Errorf("the PDN results give player 1 %d points, the summary %d", points, sum.Points)
	}
}

func TestMatchConnectFour(t *testing.T) {
	a, b := presetNames(t, "connect4")
	sum := runMatch(t, 2*time.Minute, "--game", "connect4", "--games", "4", "--random-plies", "2",
		"--player1", "preset="+a+" depth=6", "--player2", "preset="+b+" depth=2")
	for kind := range sum.Terminations {
		if kind != "line completed" && kind != "board full" {
			t.Errorf("a Connect-Four game ended by %q", kind)
		}
	}
	if sum.Games != 4 {
		t.Errorf("%d games, want 4", sum.Games)
	}
}

func TestMatchAgainstDossierOverUCI(t *testing.T) {
	a, _ := presetNames(t, "checkers")
	sum := runMatch(t, 2*time.Minute, "--game", "checkers", "--games", "2", "--movetime", "30", "--max-moves", "40",
		"--player1", "preset="+a+" depth=3", "--player2", "uci="+dossierBin+" name=external")
	if sum.Games != 2 || sum.Players[1] != "external" {
		t.Errorf("summary %+v", sum)
	}
}

func TestMatchAgainstStockfish(t *testing.T) {
	stockfish := requirePeer(t, "/usr/games/stockfish")
	pgn := filepath.Join(t.TempDir(), "games.pgn")
	sum := runMatch(t, 3*time.Minute, "--game", "chess", "--games", "2", "--movetime", "50", "--max-moves", "150",
		"--pgn", pgn, "--player1", "preset=strongest",
		"--player2", "uci="+stockfish+" UCI_LimitStrength=true UCI_Elo=1350")
	if sum.Games != 2 || !strings.Contains(strings.ToLower(sum.Players[1]), "stockfish") {
		t.Errorf("summary %+v", sum)
	}
	text, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	// Each game is handed to notnil on its own: its Scanner reports a phantom empty game at the end of a file.
	records := strings.Split(strings.TrimSpace(string(text)), "\n\n[Event ")
	if len(records) != 2 {
		t.Fatalf("%d games in the PGN, want 2:\n%s", len(records), text)
	}
	for i, record := range records {
		if i > 0 {
			record = "[Event " + record
		}
		read, err := notnil.PGN(strings.NewReader(record))
		if err != nil {
			t.Fatalf("notnil cannot read game %d: %v\n%s", i+1, err, record)
		}
		game := notnil.NewGame(read)
		plies := game.GetTagPair("PlyCount")
		if plies == nil || plies.Value != strconv.Itoa(len(game.Moves())) {
			t.Errorf("game %d: notnil read %d moves, the PlyCount tag says %v", i+1, len(game.Moves()), plies)
		}
		if white := game.GetTagPair("White"); white == nil || white.Value == "" {
			t.Errorf("game %d has no White tag", i+1)
		}
	}
}

func TestMatchMixedPlayer(t *testing.T) {
	// Tic-tac-toe at full depth: whichever preset the mixture draws for a move, it never loses, so every game
	// is drawn.
	sum := runMatch(t, time.Minute, "--game", "tictactoe", "--games", "4", "--depth", "9",
		"--player1", `mix="open-lines:0.5, strongest:0.5"`, "--player2", "preset=strongest")
	if sum.Players[0] != "mix(open-lines:0.5, strongest:0.5)" || sum.Games != 4 || sum.Draws != 4 {
		t.Errorf("summary %+v, want 4 draws by mix(open-lines:0.5, strongest:0.5)", sum)
	}
}

func TestMatchErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no players", []string{"--game", "checkers"}, 2, "--player1 and --player2 are required"},
		{"bad spec", []string{"--player1", "preset=a depth=x", "--player2", "preset=a"}, 2, `--player1: player spec: "depth=x"`},
		{"bad tc", []string{"--player1", "depth=1", "--player2", "depth=1", "--tc", "40/"}, 2, "--tc"},
		{"pdn for chess", []string{"--player1", "depth=1", "--player2", "depth=1", "--pdn", "/nonexistent/x.pdn"}, 2, "PDN records are for checkers"},
		{"unknown preset", []string{"--game", "checkers", "--player1", "preset=nonesuch", "--player2", "depth=1"}, 1, "nonesuch"},
		{"missing engine", []string{"--player1", "depth=1", "--player2", "uci=/nonexistent/engine", "--depth", "1"}, 1, "/nonexistent/engine"},
		{"missing openings", []string{"--player1", "depth=1", "--player2", "depth=1", "--openings", "/nonexistent/file"}, 2, "--openings"},
		{"mix not summing to 1", []string{"--player1", `mix="materialist:0.7,attacker:0.2"`, "--player2", "depth=1"}, 1, "sum to 0.9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runDossier(t, time.Minute, "", append([]string{"match"}, c.args...)...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, stderr, c.code, c.want)
			}
		})
	}
}
