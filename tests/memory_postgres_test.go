// The memory in PostgreSQL end to end: an engine and a match keep their games in a database named by
// --memory and memory=, a dump moves a whole memory between the two backends both ways, and an engine whose
// database refuses it plays on without memory and never prints the password.
package tests

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/internal/pgtest"
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
