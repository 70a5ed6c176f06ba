package memory

import (
	"errors"
	"strings"
	"testing"
	"time"

	"dossier/internal/pgtest"
)

// TestPostgresUnreachableAtOpenSpoolsUntilItAnswers opens a memory while its server is stopped (issue #34,
// item 8: a process that started during an outage played without memory and its games were lost). Without
// SpoolWhenUnreachable the open fails as before; with it the memory opens, says once that the database is
// unreachable, fails reads at once, spools a whole game, and once the server is started creates its table,
// writes the game and says it is back; the spool file is gone.
func TestPostgresUnreachableAtOpenSpoolsUntilItAnswers(t *testing.T) {
	srv := pgtest.Start(t)
	if !srv.Throwaway() {
		t.Skip("the server of " + pgtest.EnvURL + " is not the tests' to stop")
	}
	schema, spoolDir := pgtest.Schema(), t.TempDir() // a new schema: the table is created once the server answers
	if err := srv.StopServer(); err != nil {
		t.Fatal(err)
	}
	running := false
	defer func() {
		if !running {
			srv.StartServer()
		}
	}()
	if m, err := Open(Options{Dir: srv.URL, Schema: schema, SpoolDir: spoolDir}); !errors.Is(err, ErrUnavailable) {
		if m != nil {
			m.Close()
		}
		t.Fatalf("opening without SpoolWhenUnreachable: %v, want ErrUnavailable", err)
	}
	n := newNotices()
	start := time.Now()
	m, err := Open(Options{Dir: srv.URL, Schema: schema, SpoolDir: spoolDir, Notify: n.notify, SpoolWhenUnreachable: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("opening took %v", took)
	}
	n.wait(t, "unreachable", time.Second)
	read := time.Now()
	if _, err := m.Profile("late server"); !errors.Is(err, ErrUnavailable) || time.Since(read) > time.Second {
		t.Errorf("a profile read before the server answered: %v after %v", err, time.Since(read))
	}
	id := playGame(t, m, "late server", t0, 6, 1) // every event acknowledged once spooled
	if files := spoolFiles(spoolDir); len(files) != 1 {
		t.Errorf("spool files %v, want this process's", files)
	}
	if err := srv.StartServer(); err != nil {
		t.Fatal(err)
	}
	running = true
	n.wait(t, "is back after", 20*time.Second)
	games, err := m.Games("late server")
	if err != nil || len(games) != 1 || games[0].ID != id || len(games[0].Records) != 6 || games[0].Result != "1-0" {
		t.Fatalf("after the server started: games %+v, %v; want game %s with its 6 moves and its end", games, err, id)
	}
	if files := spoolFiles(spoolDir); len(files) != 0 {
		t.Errorf("spool files left: %v", files)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.msgs) != 2 || strings.Contains(strings.Join(n.msgs, "\n"), srv.Password) {
		t.Errorf("notices %q, want two without the password", n.msgs)
	}
	t.Logf("notices %q", n.msgs)
}
