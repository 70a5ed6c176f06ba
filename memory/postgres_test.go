// Tests of the PostgreSQL backend on a real server: bad locations and where passwords come from, a newer
// schema, an outage with the spool and the replay, many writers on one opponent, and processes killed mid-game.

package memory

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"dossier/internal/pgtest"
	"dossier/internal/testdeep"
	"dossier/play/opponent"
)

// withPassword returns u with its user's password replaced (or removed, for "").
func withPassword(t *testing.T, u, password string) string {
	t.Helper()
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if password == "" {
		parsed.User = url.User(parsed.User.Username())
	} else {
		parsed.User = url.UserPassword(parsed.User.Username(), password)
	}
	return parsed.String()
}

// freePort returns a local port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://u:s3cret@db.example:5432/d?sslmode=require", "postgres://u@db.example:5432/d?sslmode=require"},
		{"postgresql://u@h/d", "postgresql://u@h/d"},
		{"postgres://h/d?password=s3cret&sslmode=disable", "postgres://h/d?sslmode=disable"},
		{"postgres://u:s3cret@h:port/d", "postgres://(an unparsable URL)"},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got := RedactURL(c.in); got != c.want {
				t.Errorf("RedactURL = %q, want %q", got, c.want)
			}
		})
	}
}

// TestPostgresBadLocationsFailClearly opens memories that cannot be: each fails within the connect timeout with
// an error of its kind naming the host and the cause, never the password, and logs nothing that holds it.
func TestPostgresBadLocationsFailClearly(t *testing.T) {
	srv := pgtest.Start(t)
	const wrong = "Wr0ng-SECRET-pw"
	for _, c := range []struct {
		name, url string
		kind      error
		says      []string
	}{
		{"unparsable URL", "postgres://dossier:" + wrong + "@127.0.0.1:notaport/dossier", ErrBadLocation,
			[]string{"an unparsable URL"}},
		{"wrong password", withPassword(t, srv.URL, wrong), ErrBadLocation,
			[]string{srv.Host, "password authentication failed"}},
		{"missing database", srv.DBURL("nosuchdb"), ErrBadLocation, []string{srv.Host, `"nosuchdb" does not exist`}},
		{"no server", fmt.Sprintf("postgres://dossier:%s@127.0.0.1:%d/dossier?sslmode=disable", wrong, freePort(t)),
			ErrUnavailable, []string{"127.0.0.1", "connection refused"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			core, logs := observer.New(zap.DebugLevel)
			start := time.Now()
			m, err := Open(Options{Dir: c.url, Schema: pgtest.Schema(), SpoolDir: t.TempDir(), Logger: zap.New(core)})
			if err == nil {
				m.Close()
				t.Fatal("opened")
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("failing took %v", took)
			}
			var memErr *Error
			if !errors.Is(err, c.kind) || !errors.As(err, &memErr) || memErr.Dir != RedactURL(c.url) {
				t.Errorf("error %v (%T), want %v naming %s", err, err, c.kind, RedactURL(c.url))
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			for _, secret := range []string{wrong, srv.Password} {
				if strings.Contains(err.Error(), secret) || strings.Contains(fmt.Sprint(logs.All()), secret) {
					t.Errorf("the password shows in %q or the logs", err)
				}
			}
		})
	}
}

// TestPostgresOlderServerIsRefused raises the oldest version accepted above the test server's: Open refuses
// it, naming the host, the server's version and the one needed (before it creates anything).
func TestPostgresOlderServerIsRefused(t *testing.T) {
	srv := pgtest.Start(t)
	defer func(v int) { minServerVersion = v }(minServerVersion)
	minServerVersion = 990000
	_, err := Open(Options{Dir: srv.URL, Schema: pgtest.Schema(), SpoolDir: t.TempDir()})
	if !errors.Is(err, ErrBadLocation) || !strings.Contains(err.Error(), srv.Host) ||
		!strings.Contains(err.Error(), "the server runs PostgreSQL 1") || !strings.Contains(err.Error(), "needs 99 or newer") ||
		strings.Contains(err.Error(), srv.Password) {
		t.Errorf("an older server: %v", err)
	}
}

// TestPostgresPasswordSources connects with the password in the URL, in PGPASSWORD and in a password file, and
// checks the memory's location never shows it.
func TestPostgresPasswordSources(t *testing.T) {
	srv := pgtest.Start(t)
	if srv.Password == "" {
		t.Skip("the server of " + pgtest.EnvURL + " has no password")
	}
	bare := withPassword(t, srv.URL, "")
	passfile := filepath.Join(t.TempDir(), "pgpass")
	line := fmt.Sprintf("%s:%d:*:dossier:%s\n", srv.Host, srv.Port, srv.Password)
	if err := os.WriteFile(passfile, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, url string
		env       map[string]string
	}{
		{"in the URL", srv.URL, nil},
		{"PGPASSWORD", bare, map[string]string{"PGPASSWORD": srv.Password}},
		{"password file", bare, map[string]string{"PGPASSFILE": passfile}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PGPASSWORD", "")
			os.Unsetenv("PGPASSWORD")
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			m, err := Open(Options{Dir: c.url, Schema: pgtest.Schema(), SpoolDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			playGame(t, m, "pw test", t0, 2, 1)
			if strings.Contains(m.Dir(), srv.Password) || !strings.Contains(m.Dir(), srv.Host) {
				t.Errorf("the memory's location is %q", m.Dir())
			}
		})
	}
}

// TestPostgresNewerSchemaIsRefused refuses a database a newer dossier wrote, naming both versions, and
// changes nothing in it.
func TestPostgresNewerSchemaIsRefused(t *testing.T) {
	srv := pgtest.Start(t)
	schema := pgtest.Schema()
	opts := Options{Dir: srv.URL, Schema: schema, SpoolDir: t.TempDir()}
	m, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	playGame(t, m, "future", t0, 2, 1)
	before := dumpString(t, m)
	m.Close()
	table := schema + ".records"
	if err := srv.Exec(context.Background(), "dossier", "UPDATE "+table+" SET value = '4' WHERE key = 'v/schema'"); err != nil {
		t.Fatal(err)
	}
	_, err = Open(opts)
	if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "version is 4") ||
		!strings.Contains(err.Error(), "up to 3") || strings.Contains(err.Error(), srv.Password) {
		t.Fatalf("opening a newer schema: %v", err)
	}
	if err := srv.Exec(context.Background(), "dossier", "UPDATE "+table+" SET value = '2' WHERE key = 'v/schema'"); err != nil {
		t.Fatal(err)
	}
	m, err = Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if after := dumpString(t, m); after != before {
		t.Errorf("the refused open changed the store:\n%s\nwas\n%s", after, before)
	}
}

// notices collects a memory's notices.
type notices struct {
	mu   sync.Mutex
	msgs []string
	c    chan string
}

func newNotices() *notices { return &notices{c: make(chan string, 100)} }

func (n *notices) notify(msg string) {
	n.mu.Lock()
	n.msgs = append(n.msgs, msg)
	n.mu.Unlock()
	n.c <- msg
}

func (n *notices) wait(t *testing.T, says string, d time.Duration) {
	t.Helper()
	select {
	case msg := <-n.c:
		if !strings.Contains(msg, says) {
			t.Fatalf("notice %q, want one saying %q", msg, says)
		}
	case <-time.After(d):
		t.Fatalf("no notice saying %q within %v", says, d)
	}
}

// TestPostgresOutageSpoolsAndReplays stops the server mid-game for 3 s (30 s in the deep run,
// DOSSIER_DEEP_TESTS=1): recording never
// waits, the notices say once that the memory is unreachable and once that it is back, reads fail at once
// meanwhile, and afterwards every move is in the database and the spool file is gone.
func TestPostgresOutageSpoolsAndReplays(t *testing.T) {
	srv := pgtest.Start(t)
	if !srv.Throwaway() {
		t.Skip("the server of " + pgtest.EnvURL + " is not the tests' to stop")
	}
	outage := 30 * time.Second
	if testdeep.Quick() {
		outage = 3 * time.Second
	}
	spoolDir := t.TempDir()
	n := newNotices()
	m, err := Open(Options{Dir: srv.URL, Schema: pgtest.Schema(), SpoolDir: spoolDir, Notify: n.notify})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	id := NewGameID()
	opp := opponent.Opponent{Name: "outage rival", Kind: opponent.Computer}
	mustRecord(t, m, Event{Start: &GameStart{GameID: id, Opponent: opp, Game: "chess", StartFEN: "startpos", At: t0}})
	move := func(ply int) Event {
		return Event{Move: &MoveRecord{GameID: id, Ply: ply, ByOpponent: ply%2 == 1, FEN: "fen", Move: "e2e4",
			TimeMS: -1, Probability: -1, Eval: nan, At: t0.Add(time.Duration(ply) * time.Second)}}
	}
	var pendings []*Pending
	for ply := range 10 {
		pendings = append(pendings, m.Record(move(ply)))
	}
	waitAll(t, pendings, " before the outage")
	if err := srv.StopServer(); err != nil {
		t.Fatal(err)
	}
	restarted := false
	defer func() {
		if !restarted {
			srv.StartServer()
		}
	}()
	slowest := time.Duration(0)
	stop := time.Now().Add(outage)
	for ply := 10; time.Now().Before(stop); ply++ {
		start := time.Now()
		pendings = append(pendings, m.Record(move(ply)))
		slowest = max(slowest, time.Since(start))
		if ply == 10 {
			n.wait(t, "unreachable", 10*time.Second)
			start := time.Now()
			if _, err := m.Profile("outage rival"); !errors.Is(err, ErrUnavailable) || time.Since(start) > time.Second {
				t.Errorf("a profile read during the outage: %v after %v", err, time.Since(start))
			}
			if files := spoolFiles(spoolDir); len(files) != 1 {
				t.Errorf("spool files %v", files)
			}
		}
		time.Sleep(100 * time.Millisecond) // a move every 100 ms
	}
	if err := srv.StartServer(); err != nil {
		t.Fatal(err)
	}
	restarted = true
	n.wait(t, "is back after", 20*time.Second)
	waitAll(t, pendings, " after the outage")
	// Record only checks and queues; 50 ms leaves room for the scheduler of a loaded machine and is still far
	// below anything the server could cost (a connect times out after 5 s).
	if slowest > 50*time.Millisecond {
		t.Errorf("the slowest Record during the outage took %v", slowest)
	}
	games, err := m.Games("outage rival")
	if err != nil || len(games) != 1 || len(games[0].Records) != len(pendings) {
		t.Fatalf("after the outage: %d games, err %v; want %d records", len(games), err, len(pendings))
	}
	if files := spoolFiles(spoolDir); len(files) != 0 {
		t.Errorf("spool files left: %v", files)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.msgs) != 2 || strings.Contains(strings.Join(n.msgs, "\n"), srv.Password) {
		t.Errorf("notices %q, want two without the password", n.msgs)
	}
	t.Logf("%v outage: %d moves recorded, slowest Record %v; notices %q", outage, len(pendings), slowest, n.msgs)
}

// TestPostgresSpoolOfAKilledProcessIsReplayed kills a worker while the server is away; the next memory
// opened on the database writes what the worker spooled, so every move it had acknowledged is there.
func TestPostgresSpoolOfAKilledProcessIsReplayed(t *testing.T) {
	srv := pgtest.Start(t)
	if !srv.Throwaway() {
		t.Skip("the server of " + pgtest.EnvURL + " is not the tests' to stop")
	}
	schema, spoolDir := pgtest.Schema(), t.TempDir()
	w := startWorker(t, "spooler", srv.URL, time.Hour, envSchema+"="+schema, envSpool+"="+spoolDir)
	w.waitLine(t, "ack ")
	if err := srv.StopServer(); err != nil {
		t.Fatal(err)
	}
	defer srv.StartServer()
	deadline := time.Now().Add(10 * time.Second)
	for len(spoolFiles(spoolDir)) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // some moves into the spool
	w.kill()
	acked := w.acked() // committed before the outage, or spooled during it
	files := spoolFiles(spoolDir)
	if len(files) != 1 {
		t.Fatalf("spool files %v", files)
	}
	data, _ := os.ReadFile(filepath.Join(spoolDir, files[0]))
	spooled := strings.Count(string(data), "\n")
	if err := srv.StartServer(); err != nil {
		t.Fatal(err)
	}
	m, err := Open(Options{Dir: srv.URL, Schema: schema, SpoolDir: spoolDir})
	if err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for len(spoolFiles(spoolDir)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := spoolFiles(spoolDir); len(left) > 0 {
		t.Fatalf("the killed worker's spool was not replayed: %v", left)
	}
	m.Close()
	if spooled == 0 {
		t.Error("nothing was spooled")
	}
	n := checkAckedIn(t, Options{Dir: srv.URL, Schema: schema, SpoolDir: t.TempDir()}, acked)
	t.Logf("%d events spooled when killed; all %d acknowledged moves (committed or spooled) in the database", spooled, n)
}

// writerEvents are the events one of many writers files about one shared opponent: its games with their
// moves and model updates, each with fixed times, so that filing them again gives the same records.
func writerEvents(w, games int) []Event {
	opp := opponent.Opponent{Name: "Shared Rival", Elo: 2500, Kind: opponent.Computer, Source: "uci"}
	var evs []Event
	for g := range games {
		at := t0.Add(time.Duration(w*1000+g) * time.Minute)
		id := fmt.Sprintf("w%d-g%d", w, g)
		evs = append(evs, Event{Start: &GameStart{GameID: id, Opponent: opp, Game: "chess", StartFEN: "startpos", At: at}})
		for ply := range 10 {
			evs = append(evs, Event{Move: &MoveRecord{GameID: id, Ply: ply, ByOpponent: ply%2 == 1, FEN: "fen",
				Move: "m" + strconv.Itoa(ply), TimeMS: 5, Probability: 0.5, Eval: 1, At: at.Add(time.Second)}})
		}
		evs = append(evs, Event{End: &GameEnd{GameID: id, Result: "1-0", OurScore: 1, At: at.Add(time.Minute)}},
			Event{Model: &ModelUpdate{OpponentKey: opponent.NameKey(opp.Name), Model: "typeprobs",
				State: []byte(fmt.Sprintf(`{"w":%d,"g":%d}`, w, g)), GameID: id, At: at.Add(time.Minute)}})
	}
	return evs
}

// TestPostgresManyWritersMergeAsOne has 8 memories file games against one opponent at once into one database;
// what they leave is what one memory filing the same events one writer after another leaves.
func TestPostgresManyWritersMergeAsOne(t *testing.T) {
	const writers, games = 8, 5
	srv := pgtest.Start(t)
	schema := pgtest.Schema()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := Open(Options{Dir: srv.URL, Schema: schema, SpoolDir: t.TempDir()})
			if err != nil {
				errs <- err
				return
			}
			defer m.Close()
			var ps []*Pending
			for _, ev := range writerEvents(w, games) {
				ps = append(ps, m.Record(ev))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			for _, p := range ps {
				if err := p.Wait(ctx); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	together, err := Open(Options{Dir: srv.URL, Schema: schema, SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer together.Close()
	alone := openTemp(t)
	for w := writers - 1; w >= 0; w-- { // another order than any
		for _, ev := range writerEvents(w, games) {
			mustRecord(t, alone, ev)
		}
	}
	if a, b := dumpString(t, together), dumpString(t, alone); a != b {
		t.Errorf("8 writers at once left\n%s\none writer alone\n%s", a, b)
	}
	p, err := together.Profile("shared rival")
	if err != nil || len(p.Games) != writers*games || len(p.Models["typeprobs"]) != writers*games {
		t.Fatalf("the shared profile: %v", err)
	}
}

// TestPostgresEightProcessesOneKilled runs 8 engine-like processes writing games into one database, kills one
// mid-game, and checks every move any of them had acknowledged is in the database.
func TestPostgresEightProcessesOneKilled(t *testing.T) {
	srv := pgtest.Start(t)
	run := 4 * time.Second
	if testing.Short() {
		run = 2 * time.Second
	}
	schema, spoolDir := pgtest.Schema(), t.TempDir()
	env := []string{envSchema + "=" + schema, envSpool + "=" + spoolDir}
	victim := startWorker(t, "victim", srv.URL, time.Hour, env...)
	workers := []*worker{victim}
	for i := 1; i < 8; i++ {
		workers = append(workers, startWorker(t, strconv.Itoa(i), srv.URL, run, env...))
	}
	for _, w := range workers {
		w.waitLine(t, "ack ")
	}
	time.Sleep(run / 3)
	victim.kill()
	acked := victim.acked()
	if len(acked) == 0 {
		t.Fatal("the killed process had no move acknowledged")
	}
	for i, w := range workers[1:] {
		w.waitLine(t, "end ")
		if err := w.wait(); err != nil {
			t.Errorf("worker %d: %v; it printed %q", i+1, err, w.output())
		}
		acked = append(acked, w.acked()...)
	}
	n := checkAckedIn(t, Options{Dir: srv.URL, Schema: schema, SpoolDir: spoolDir}, acked)
	t.Logf("8 processes, one killed after %d acknowledged moves: %d acknowledged moves checked, all in the database",
		len(victim.acked()), n)
}

// TestPostgresLeastPrivilege runs the memory as a role that may only use the schema and its table (as
// docs/memory.md sets it up), and checks a role that may create nothing gets a clear error for a new schema.
func TestPostgresLeastPrivilege(t *testing.T) {
	srv := pgtest.Start(t)
	schema := pgtest.Schema()
	admin, err := Open(Options{Dir: srv.URL, Schema: schema, SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	admin.Close()
	role := "engine_" + schema
	const pw = "engine-pw"
	if err := srv.Exec(context.Background(), "dossier",
		"CREATE ROLE "+role+" LOGIN PASSWORD '"+pw+"'",
		"GRANT USAGE ON SCHEMA "+schema+" TO "+role,
		"GRANT SELECT, INSERT, UPDATE, DELETE ON "+schema+".records TO "+role,
		"REVOKE CREATE ON SCHEMA public FROM PUBLIC"); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.URL)
	u.User = url.UserPassword(role, pw)
	m, err := Open(Options{Dir: u.String(), Schema: schema, SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatalf("the engine's role: %v", err)
	}
	playGame(t, m, "least privilege", t0, 4, 1)
	if err := m.Forget("least privilege"); err != nil {
		t.Error(err)
	}
	m.Close()
	_, err = Open(Options{Dir: u.String(), Schema: pgtest.Schema(), SpoolDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "permission denied") || strings.Contains(err.Error(), pw) {
		t.Errorf("a new schema as the engine's role: %v", err)
	}
}
