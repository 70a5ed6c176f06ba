// Tests of the Player driven by a protocol session through UCI transcripts, one per game.

package player

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/games/connect4"
	"dossier/games/tictactoe"
	"dossier/protocol"
)

// sessionTimeout bounds every wait for a line of the session, generously for a loaded machine.
const sessionTimeout = 60 * time.Second

// testLookup resolves the UCI_Variant names of the games with books.
func testLookup(name string) (games.Game, error) {
	for _, g := range bookedGames() {
		if strings.EqualFold(name, g.Name()) || (g.Name() == "connect4" && strings.EqualFold(name, "cfour")) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("unknown game %q", name)
}

// transcript drives a protocol session over pipes: commands in, lines out.
type transcript struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	ended chan error
}

// newTranscript starts a session of player playing g.
func newTranscript(t *testing.T, player *Engine, g games.Game) *transcript {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &transcript{t: t, in: inW, lines: make(chan string, 1024), ended: make(chan error, 1)}
	session := protocol.NewSession(player, g, inR, outW, protocol.Config{Lookup: testLookup})
	go func() {
		err := session.Run()
		outW.Close()
		tr.ended <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			tr.lines <- sc.Text()
		}
		close(tr.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		for range tr.lines {
		}
		if err := <-tr.ended; err != nil {
			t.Errorf("session ended with %v", err)
		}
	})
	return tr
}

// send writes one command.
func (tr *transcript) send(cmd string) {
	tr.t.Helper()
	if _, err := io.WriteString(tr.in, cmd+"\n"); err != nil {
		tr.t.Fatalf("send %q: %v", cmd, err)
	}
}

// until reads lines up to and including the first that starts with prefix, and returns them all.
func (tr *transcript) until(prefix string) []string {
	tr.t.Helper()
	var seen []string
	timeout := time.After(sessionTimeout)
	for {
		select {
		case line, ok := <-tr.lines:
			if !ok {
				tr.t.Fatalf("session ended before %q; saw %q", prefix, seen)
			}
			seen = append(seen, line)
			if strings.HasPrefix(line, prefix) {
				return seen
			}
		case <-timeout:
			tr.t.Fatalf("no %q line within %v; saw %q", prefix, sessionTimeout, seen)
		}
	}
}

// search sends go with the given arguments and returns the info lines' maximum depth, their info strings
// and the bestmove's move.
func (tr *transcript) search(goArgs string) (maxDepth int, texts []string, move string) {
	tr.t.Helper()
	tr.send("go " + goArgs)
	lines := tr.until("bestmove")
	for _, line := range lines {
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "info string "):
			texts = append(texts, strings.TrimPrefix(line, "info string "))
		case len(f) > 2 && f[0] == "info" && f[1] == "depth":
			d, _ := strconv.Atoi(f[2])
			maxDepth = max(maxDepth, d)
		}
	}
	f := strings.Fields(lines[len(lines)-1])
	if len(f) < 2 {
		tr.t.Fatalf("malformed %q", lines[len(lines)-1])
	}
	return maxDepth, texts, f[1]
}

func TestPlayerAnnouncesItsOptions(t *testing.T) {
	tr := newTranscript(t, New(checkers.Game{}, searchers.Config{}), checkers.Game{})
	tr.send("uci")
	text := strings.Join(tr.until("uciok"), "\n")
	for _, want := range []string{
		"option name Hash type spin default 16 min 1 max 16384",
		"option name Threads type spin default 1 min 1 max 256",
		"option name Search type combo default alphabeta var alphabeta var mstar var mstar-1pass var alphabeta-star " +
			"var mstar-strategy var mstar-risk var om var prom var meu var symmetric var auto\n",
		"option name OpponentModel type string default <empty>\n",
		// The game's own presets only (this is a checkers player).
		"option name Preset type combo default strongest var strongest var mat-tot25 var mat+tot25 var mat12-tot25 var mat12+tot25\n",
		"option name Depth type spin default 0 min 0 max 100",
		"option name Contempt type spin default 0 min -10000 max 10000",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("uci reply lacks %q:\n%s", want, text)
		}
	}
}

func TestPlayerTranscripts(t *testing.T) {
	tests := []struct {
		game      games.Game
		variant   string
		preset    string // a preset, with its depth cap
		cap       int    // 0: none, so go depth 4 searches 4 plies
		foreign   string // a preset of another game
		goDepth   int
		gameDepth int
		// opening is played before the searches: Connect-Four's strongest
		// player answers the empty board from its book, without a search.
		opening string
	}{
		{chess.Game{}, "chess", "materialist", 0, "open-lines", 4, 2, ""},
		{checkers.Game{}, "checkers", "mat-tot25", 4, "sp", 5, 2, ""},
		{connect4.Game{}, "cfour", "sp", 1, "mat+tot25", 5, 2, "P@d1"},
		{tictactoe.Game{}, "tictactoe", "open-lines", 2, "sophisticated", 5, 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.game.Name(), func(t *testing.T) {
			player := New(tc.game, searchers.Config{})
			tr := newTranscript(t, player, tc.game)
			tr.send("uci")
			tr.until("uciok")
			tr.send("setoption name UCI_Variant value " + tc.variant)
			tr.send("setoption name Hash value 1")
			tr.send("ucinewgame")
			start := tc.game.Start()
			if tc.opening == "" {
				tr.send("position startpos")
			} else {
				tr.send("position startpos moves " + tc.opening)
				m, err := start.ParseMove(tc.opening)
				if err != nil {
					t.Fatalf("opening %s: %v", tc.opening, err)
				}
				start.Play(m)
			}

			depth, _, move := tr.search(fmt.Sprintf("depth %d", tc.goDepth))
			if _, err := start.ParseMove(move); err != nil || depth != tc.goDepth {
				t.Errorf("go depth %d: searched %d plies, played %s (%v)", tc.goDepth, depth, move, err)
			}
			if _, _, move = tr.search("movetime 100"); !legalText(start, move) {
				t.Errorf("go movetime: illegal move %s", move)
			}

			tr.send("setoption name Preset value " + tc.preset)
			want, goDepth := tc.cap, 9
			if tc.cap == 0 {
				want, goDepth = 4, 4
			}
			if depth, _, _ = tr.search(fmt.Sprintf("depth %d", goDepth)); depth != want {
				t.Errorf("preset %s, go depth %d: searched %d plies, want %d", tc.preset, goDepth, depth, want)
			}
			tr.send("setoption name Depth value 2")
			if depth, _, _ = tr.search("depth 9"); depth != 2 {
				t.Errorf("Depth 2: searched %d plies", depth)
			}
			tr.send("setoption name Depth value 0")

			// A preset of another game is reported at setoption, kept, and replaced by the default in play.
			tr.send("setoption name Preset value " + tc.foreign)
			_, texts, move := tr.search("depth 1")
			if !legalText(start, move) || len(texts) < 2 || !strings.Contains(texts[0], "setoption Preset: "+tc.foreign+" is a preset of") ||
				!strings.Contains(texts[1], "playing "+tc.game.Name()+" strongest") {
				t.Errorf("foreign preset %s: move %s, info strings %q", tc.foreign, move, texts)
			}
			if got := player.Config().Preset; got != tc.foreign {
				t.Errorf("the configuration says preset %q, set was %q", got, tc.foreign)
			}

			// A whole game, the Player on both sides.
			tr.send("setoption name Preset value strongest")
			tr.send("ucinewgame")
			p := tc.game.Start()
			var played []string
			for games.OutcomeOf(p).Result == games.Ongoing {
				if len(played) > 400 {
					t.Fatalf("no result after %d plies", len(played))
				}
				tr.send("position startpos moves " + strings.Join(played, " "))
				_, _, move := tr.search(fmt.Sprintf("depth %d nodes 100000", tc.gameDepth))
				m, err := p.ParseMove(move)
				if err != nil {
					t.Fatalf("after %v: bestmove %s: %v", played, move, err)
				}
				p.Play(m)
				played = append(played, move)
			}
			t.Logf("%s: %s after %d plies (%v)", tc.game.Name(), games.OutcomeOf(p).Result, len(played), games.OutcomeOf(p).Reason)
			tr.send("quit")
		})
	}
}

// legalText reports whether s is a legal move in p.
func legalText(p games.Position, s string) bool {
	_, err := p.ParseMove(s)
	return err == nil
}

func TestPlayerRecordsTheOpponent(t *testing.T) {
	// The test plays the second side with random moves; the Player, first, must record exactly those.
	for _, g := range bookedGames() {
		t.Run(g.Name(), func(t *testing.T) {
			player := New(g, searchers.Config{HashMB: 1})
			tr := newTranscript(t, player, g)
			tr.send("setoption name UCI_Opponent value none 1500 human alice")
			tr.send("ucinewgame")
			rng := rand.New(rand.NewPCG(5, 6))
			p := g.Start()
			var played []string
			var want []Observation
			answered := true // whether the Player has searched since the last random move
			for ply := 0; ply < 12 && games.OutcomeOf(p).Result == games.Ongoing; ply++ {
				var move string
				if p.ToMove() == games.First {
					tr.send("position startpos moves " + strings.Join(played, " "))
					_, _, move = tr.search("depth 1")
					answered = true
				} else {
					answered = false
					var buf [games.MaxMoves]games.Move
					moves := p.AppendMoves(buf[:0])
					move = p.FormatMove(moves[rng.IntN(len(moves))])
					want = append(want, Observation{FEN: p.FEN(), Move: move, Ply: p.Ply()})
				}
				m, err := p.ParseMove(move)
				if err != nil {
					t.Fatal(err)
				}
				p.Play(m)
				played = append(played, move)
			}
			if !answered {
				if games.OutcomeOf(p).Result == games.Ongoing {
					tr.send("position startpos moves " + strings.Join(played, " "))
					tr.search("depth 1")
				} else {
					want = want[:len(want)-1] // a move that ended the game is never answered, so never observed
				}
			}
			tr.send("isready")
			tr.until("readyok")
			current := player.Current()
			if current.Game != g.Name() || current.Opponent.Name != "alice" || current.Opponent.Elo != 1500 {
				t.Errorf("current game %s against %+v", current.Game, current.Opponent)
			}
			if fmt.Sprint(current.Moves) != fmt.Sprint(want) {
				t.Errorf("observed\n%v\nwant\n%v", current.Moves, want)
			}
			if player.Opponent().Name != "alice" {
				t.Errorf("opponent %+v", player.Opponent())
			}
			if !current.Started || current.OurSide != games.First {
				t.Errorf("the game started %v, our side %s", current.Started, current.OurSide)
			}
			// The copy is the caller's: changing it changes nothing in the Player.
			current.Moves[0].Move = "changed"
			if player.Current().Moves[0].Move == "changed" {
				t.Error("Current shares its slices with the Player")
			}
			// A new game opens a new record.
			tr.send("ucinewgame")
			tr.send("isready")
			tr.until("readyok")
			if after := player.Current(); after.Started || len(after.Moves) != 0 {
				t.Errorf("after ucinewgame: started %v with %d moves", after.Started, len(after.Moves))
			}
		})
	}
}

func TestPlayerModelSearchOverUCI(t *testing.T) {
	g := checkers.Game{}
	player := New(g, searchers.Config{HashMB: 1})
	tr := newTranscript(t, player, g)
	tr.send("uci")
	tr.until("uciok")
	tr.send("setoption name Preset value mat-tot25")
	tr.send("setoption name Search value mstar")
	tr.send("setoption name OpponentModel value mat-tot25@3")
	tr.send("ucinewgame")
	tr.send("position startpos")
	depth, texts, move := tr.search("depth 4")
	// The model search predicts replies; the guard (ModelRisk) says last what it made of the model's move.
	if !legalText(g.Start(), move) || depth != 4 || len(texts) < 2 || !strings.HasPrefix(texts[len(texts)-2], "predicted reply ") ||
		!strings.HasPrefix(texts[len(texts)-1], "model risk: ") {
		t.Errorf("mstar mat-tot25@3: depth %d, move %s, info strings %q", depth, move, texts)
	}

	// A malformed model is reported at once and refused: the engine keeps the model it had (issue #34: a
	// refused model stayed set, and every later go repeated the error).
	tr.send("setoption name OpponentModel value mat-tot25@x")
	tr.send("isready")
	lines := tr.until("readyok")
	if !slices.Contains(lines, `info string error: setoption OpponentModel: opponent model "mat-tot25@x": term "mat-tot25@x": depth "x" is not a whole number in 1..100; the opponent model stays "mat-tot25@3"`) {
		t.Errorf("malformed model: %q", lines)
	}
	_, texts, move = tr.search("depth 2")
	if !legalText(g.Start(), move) || slices.ContainsFunc(texts, func(s string) bool { return strings.HasPrefix(s, "error: ") }) ||
		!slices.ContainsFunc(texts, func(s string) bool { return strings.HasPrefix(s, "predicted reply ") }) {
		t.Errorf("after a refused model: move %s, info strings %q, want the model search and no error", move, texts)
	}

	// A model naming a preset the game lacks is refused at setoption, and the search does not repeat it.
	tr.send("setoption name OpponentModel value sp")
	_, texts, move = tr.search("depth 2")
	if !legalText(g.Start(), move) || len(texts) < 1 ||
		!strings.Contains(texts[0], `error: setoption OpponentModel: opponent model term "sp": checkers has no preset "sp" (presets: strongest, mat-tot25, mat+tot25, mat12-tot25, mat12+tot25); the opponent model stays "mat-tot25@3"`) ||
		slices.ContainsFunc(texts[1:], func(s string) bool { return strings.HasPrefix(s, "error: ") }) {
		t.Errorf("foreign model: move %s, info strings %q", move, texts)
	}
	if got := player.Config(); got.Model != "mat-tot25@3" || got.Search != "mstar" {
		t.Errorf("configuration %+v", got)
	}
	tr.send("quit")
}
