// The memory in PostgreSQL end to end: an engine and a match keep their games in a database named by
// --memory and memory=, a dump moves a whole memory between the two backends both ways, and an engine whose
// database refuses it plays on without memory and never prints the password.

package tests

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/internal/pgtest"
	"dossier/internal/testdeep"
)

// pgMemory returns the URL of a memory in a schema of its own on the test server (skipping where there is
// none), and keeps the spool files of the processes the test starts in its temporary directory.
func pgMemory(t *testing.T) (*pgtest.Server, string) {
	t.Helper()
	srv := pgtest.Start(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("schema", pgtest.Schema())
	u.RawQuery = q.Encode()
	return srv, u.String()
}

// dumpOf runs `dossier memory dump` on a memory.
func dumpOf(t *testing.T, memory string) string {
	t.Helper()
	out, errText, code := runDossier(t, time.Minute, "", "memory", "dump", "--memory", memory)
	if code != 0 {
		t.Fatalf("dossier memory dump: exit %d\n%s", code, errText)
	}
	return out
}

// importInto pipes a dump into `dossier memory import` on a memory.
func importInto(t *testing.T, memory, dump string) {
	t.Helper()
	if _, errText, code := runDossier(t, time.Minute, dump, "memory", "import", "--memory", memory); code != 0 {
		t.Fatalf("dossier memory import: exit %d\n%s", code, errText)
	}
}

func TestMemoryInPostgresRemembersUCIGames(t *testing.T) {
	_, memory := pgMemory(t)
	playThreeGames(t, memory, "BOT 2450 computer SomeBot", false)
	shown := showMemory(t, memory, "SOMEBOT")
	if len(shown.Profile.Games) != 3 || shown.Profile.Title != "BOT" || shown.Prediction.Moves != 2 {
		t.Errorf("profile in PostgreSQL %+v", shown)
	}
}

// TestMemoryMovesBetweenBackends plays a match into a PostgreSQL memory (memory=URL), moves it into a
// directory and back into another database with dump | import, and compares the three dumps.
func TestMemoryMovesBetweenBackends(t *testing.T) {
	_, memory := pgMemory(t)
	out, errText, code := runDossier(t, 5*time.Minute, "", "match", "--game", "tictactoe", "--games", "4",
		"--concurrency", "2", "--random-plies", "2", "--seed", "5", "--json",
		"--player1", "preset=open-lines depth=2 name=learner memory="+memory,
		"--player2", "preset=open-lines depth=1 name='Sparring Partner'")
	if code != 0 {
		t.Fatalf("dossier match: exit %d\n%s\n%s", code, out, errText)
	}
	if shown := showMemory(t, memory, "sparring partner"); len(shown.Profile.Games) != 4 {
		t.Fatalf("%d games in PostgreSQL, want 4", len(shown.Profile.Games))
	}
	fromPostgres := dumpOf(t, memory)
	dir := filepath.Join(t.TempDir(), "memory")
	importInto(t, dir, fromPostgres)
	fromBadger := dumpOf(t, dir)
	_, again := pgMemory(t)
	importInto(t, again, fromBadger)
	if back := dumpOf(t, again); fromBadger != fromPostgres || back != fromPostgres {
		t.Errorf("the dumps differ:\nPostgreSQL\n%s\nbadger\n%s\nPostgreSQL again\n%s", fromPostgres, fromBadger, back)
	}
	if n := strings.Count(fromPostgres, `"type":"move"`); n == 0 {
		t.Error("no move record in the dump")
	}
}

// TestEngineOutlivesADatabaseOutage plays a game with the memory in PostgreSQL and stops the server for 3 s
// (30 s in the deep run, DOSSIER_DEEP_TESTS=1) in the middle: every move comes within its movetime and a margin, the engine says once
// that the memory is unreachable and once that it is back, and every opponent move is in the database after.
func TestEngineOutlivesADatabaseOutage(t *testing.T) {
	srv, memory := pgMemory(t)
	if !srv.Throwaway() {
		t.Skip("the server of " + pgtest.EnvURL + " is not the tests' to stop")
	}
	outage := 30 * time.Second
	if testdeep.Quick() {
		outage = 3 * time.Second
	}
	logFile := filepath.Join(t.TempDir(), "log")
	p := startDossier(t, "--memory", memory, "--log-level", "info", "--log-file", logFile)
	defer func() {
		if t.Failed() {
			data, _ := os.ReadFile(logFile)
			t.Logf("the engine's log:\n%s", data)
		}
	}()
	p.forbidden = append(p.forbidden, srv.Password)
	handshake(p)
	p.send("setoption name UCI_Opponent value none none computer Outage Rival", "ucinewgame")
	r := newReplay(t, "chess")
	const movetime = 100 * time.Millisecond
	var notices []string
	slowest := time.Duration(0)
	opponentMoves := 0
	stopped, restarted := time.Time{}, false
	defer func() {
		if !stopped.IsZero() && !restarted {
			srv.StartServer()
		}
	}()
	games, backSaid := 1, false
	var restartedAt time.Time
	for move := 0; !backSaid && (!restarted || time.Since(restartedAt) < 20*time.Second); move++ {
		if move == 4 {
			if err := srv.StopServer(); err != nil {
				t.Fatal(err)
			}
			stopped = time.Now()
		}
		if !stopped.IsZero() && !restarted && time.Since(stopped) > outage {
			if err := srv.StartServer(); err != nil {
				t.Fatal(err)
			}
			restarted, restartedAt = true, time.Now()
		}
		if len(r.pos.AppendMoves(nil)) == 0 { // the game is over: another
			p.send("ucinewgame")
			r = newReplay(t, "chess")
			games++
		}
		sent := p.send(r.positionCommand(), "go movetime 100")
		line, before := p.expect(10*time.Second, "bestmove", func(s string) bool { return strings.HasPrefix(s, "bestmove") })
		slowest = max(slowest, line.at.Sub(sent))
		for _, l := range before {
			if strings.HasPrefix(l, "info string memory") {
				notices = append(notices, l)
				backSaid = backSaid || strings.Contains(l, "is back after")
			}
		}
		r.play(p, checkBestMove(p, r.pos, line.text))
		if moves := r.pos.AppendMoves(nil); len(moves) > 0 {
			r.play(p, r.pos.FormatMove(moves[0]))
			opponentMoves++
		}
	}
	p.send("quit")
	if code := p.wait(30 * time.Second); code != 0 {
		t.Fatalf("dossier exited %d", code)
	}
	if slowest > movetime+500*time.Millisecond {
		t.Errorf("the slowest move took %v with movetime %v", slowest, movetime)
	}
	said := strings.Join(notices, "\n")
	if len(notices) != 2 || !strings.Contains(notices[0], "unreachable") || !strings.Contains(notices[1], "is back after") {
		t.Errorf("the engine's notices about the memory:\n%s", said)
	}
	shown := showMemory(t, memory, "outage rival")
	if len(shown.Profile.Games) != games || shown.Prediction.Moves < opponentMoves-games {
		t.Errorf("after the outage: %d games, %d opponent moves stored of %d played", len(shown.Profile.Games),
			shown.Prediction.Moves, opponentMoves)
	}
	t.Logf("%v outage: %d opponent moves, slowest go-to-bestmove %v; notices:\n%s", outage, opponentMoves, slowest, said)
}

// TestEngineWithARefusedDatabasePlaysOn gives the engine a URL with a wrong password: it says once why it
// plays without memory, plays, and prints the password nowhere.
func TestEngineWithARefusedDatabasePlaysOn(t *testing.T) {
	srv, memory := pgMemory(t)
	const secret = "Wr0ng-SECRET-pw"
	u, _ := url.Parse(memory)
	u.User = url.UserPassword("dossier", secret)
	p := startDossier(t, "--memory", u.String())
	p.forbidden = append(p.forbidden, secret, srv.Password)
	p.send("uci")
	p.expectLine(10*time.Second, "uciok")
	p.send("setoption name UCI_Opponent value none none computer Someone", "ucinewgame", "position startpos", "go depth 1")
	_, lines := p.expectPrefix(30*time.Second, "bestmove ")
	said := strings.Join(lines, "\n")
	if !strings.Contains(said, "info string error: memory postgres://dossier@"+srv.Host) ||
		!strings.Contains(said, "password authentication failed") || !strings.Contains(said, "playing without memory") {
		t.Errorf("the engine did not say why it plays without memory:\n%s", said)
	}
	p.send("quit")
	if code := p.wait(30 * time.Second); code != 0 {
		t.Fatalf("dossier exited %d", code)
	}
	if strings.Contains(p.stderrText(), secret) {
		t.Errorf("the password is in stderr:\n%s", p.stderrText())
	}
}

// TestEnginesStartedDuringAnOutageFileTheirGames starts engines while the database is stopped (issue #34,
// item 8: they played "without memory" and their games were lost). The first plays a game and quits while
// the server is still down, leaving its spool; the second plays a game, the server starts, and it plays
// another until it says the memory is back. Every game of both is then in the database: the second engine
// wrote its own spool and the first's, which no live process held.
func TestEnginesStartedDuringAnOutageFileTheirGames(t *testing.T) {
	srv, memory := pgMemory(t) // one XDG_STATE_HOME, so one spool directory, for both engines
	if !srv.Throwaway() {
		t.Skip("the server of " + pgtest.EnvURL + " is not the tests' to stop")
	}
	if err := srv.StopServer(); err != nil {
		t.Fatal(err)
	}
	running := false
	defer func() {
		if !running {
			srv.StartServer()
		}
	}()
	var notices []string
	// game plays plies moves from the start (the engine's, each answered by the first legal move) and returns
	// whether the engine said the memory is back.
	game := func(p *proc, plies int) bool {
		p.send("ucinewgame")
		r, back := newReplay(t, "chess"), false
		for len(r.moves) < plies {
			p.send(r.positionCommand(), "go depth 1")
			best, before := bestMove(p, r.pos, 30*time.Second)
			for _, l := range before {
				if strings.HasPrefix(l, "info string") && strings.Contains(l, "memory") {
					notices = append(notices, l)
					back = back || strings.Contains(l, "is back after")
				}
			}
			r.play(p, best)
			r.play(p, r.pos.FormatMove(r.pos.AppendMoves(nil)[0]))
		}
		p.send(r.positionCommand()) // the GUI tells the last reply before the next game
		return back
	}
	start := func() *proc {
		p := startDossier(t, "--memory", memory)
		p.forbidden = append(p.forbidden, srv.Password)
		handshake(p)
		p.send("setoption name UCI_Opponent value none none computer Late Server")
		return p
	}
	first := start()
	game(first, 4)
	first.send("quit")
	if code := first.wait(30 * time.Second); code != 0 {
		t.Fatalf("the first engine exited %d", code)
	}
	second := start()
	game(second, 4)
	if err := srv.StartServer(); err != nil {
		t.Fatal(err)
	}
	running = true
	games, back := 2, false
	for deadline := time.Now().Add(30 * time.Second); !back && time.Now().Before(deadline); games++ {
		back = game(second, 2)
	}
	second.send("quit")
	if code := second.wait(30 * time.Second); code != 0 {
		t.Fatalf("the second engine exited %d", code)
	}
	said := strings.Join(notices, "\n")
	if !back || strings.Contains(said, "without memory") || strings.Count(said, "unreachable") != 2 {
		t.Errorf("the engines' notices about the memory:\n%s", said)
	}
	shown := showMemory(t, memory, "late server")
	if len(shown.Profile.Games) != games {
		t.Fatalf("%d games in the database, want all %d played", len(shown.Profile.Games), games)
	}
	for i, g := range shown.Profile.Games {
		if want := map[bool]int{true: 4, false: 2}[i < 2]; g.Plies != want {
			t.Errorf("game %d: %d plies stored, want %d", i+1, g.Plies, want)
		}
	}
	t.Logf("%d games; notices:\n%s", games, said)
}
