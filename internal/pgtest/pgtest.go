// Package pgtest starts a throw-away PostgreSQL cluster for tests from the server's binaries (Debian's
// postgresql package), or uses the server DOSSIER_TEST_POSTGRES names, and gives each test a schema of its own.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names a server to test against instead of a throw-away cluster: a URL whose role may create
// schemas (and, for the error tests, databases are not needed).
const EnvURL = "DOSSIER_TEST_POSTGRES"

// SkipLine is the one line a test skips with where no server can be had.
const SkipLine = "PostgreSQL tests skipped: no server binaries under /usr/lib/postgresql/*/bin; " +
	"install them (Debian: apt-get install postgresql) or set " + EnvURL + "=postgres://user:password@host:port/db"

// Server is a PostgreSQL server the tests use.
type Server struct {
	// URL reaches the server as a role that may create schemas and databases, password included.
	URL string
	// Password is the role's password ("" for a server of DOSSIER_TEST_POSTGRES without one).
	Password string
	// Host and Port are where it listens.
	Host string
	Port int

	dir  string // the cluster's directory, "" for DOSSIER_TEST_POSTGRES
	bin  string
	cred *syscall.Credential
	mu   sync.Mutex
}

var (
	once   sync.Once
	shared *Server
	err    error
)

// Start returns the shared server, starting the throw-away cluster on first use, and skips the test (with
// SkipLine) where none can be had. Call Stop from TestMain when the tests are done.
func Start(t testing.TB) *Server {
	t.Helper()
	once.Do(func() { shared, err = start() })
	if err != nil {
		t.Fatalf("starting the test cluster: %v", err)
	}
	if shared == nil {
		t.Skip(SkipLine)
	}
	return shared
}

// Stop tears the throw-away cluster down, if one was started.
func Stop() {
	if shared != nil && shared.dir != "" {
		shared.pgctl("-m", "immediate", "stop")
		os.RemoveAll(shared.dir)
	}
}

// Schema returns a new schema name, unique to one test.
func Schema() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "t_" + hex.EncodeToString(b[:])
}

// binDir returns the newest server's binaries, "" when none is installed.
func binDir() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi > vj
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	return ""
}

func start() (*Server, error) {
	if u := os.Getenv(EnvURL); u != "" {
		parsed, err := url.Parse(u)
		if err != nil {
			return nil, fmt.Errorf("%s is not a URL", EnvURL)
		}
		port, _ := strconv.Atoi(parsed.Port())
		pw, _ := parsed.User.Password()
		return &Server{URL: u, Password: pw, Host: parsed.Hostname(), Port: port}, nil
	}
	bin := binDir()
	if bin == "" {
		return nil, nil
	}
	s := &Server{bin: bin, Host: "127.0.0.1", Password: "pw-" + Schema()}
	if os.Geteuid() == 0 {
		// initdb and the server refuse to run as root: they run as the package's postgres user, else nobody.
		uid, gid := 65534, 65534
		if u, err := user.Lookup("postgres"); err == nil {
			uid, _ = strconv.Atoi(u.Uid)
			gid, _ = strconv.Atoi(u.Gid)
		}
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "dossier-pg-")
	if err != nil {
		return nil, err
	}
	s.dir = dir
	if s.cred != nil {
		if err := os.Chown(dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			return nil, err
		}
	}
	pwfile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwfile, []byte(s.Password+"\n"), 0o644); err != nil {
		return nil, err
	}
	if out, err := s.run("initdb", "-D", filepath.Join(dir, "data"), "-U", "dossier", "--pwfile", pwfile,
		"--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.Port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s.URL = fmt.Sprintf("postgres://dossier:%s@127.0.0.1:%d/dossier?sslmode=disable", s.Password, s.Port)
	if err := s.StartServer(); err != nil {
		return nil, err
	}
	if err := s.Exec(context.Background(), "postgres", "CREATE DATABASE dossier"); err != nil {
		return nil, err
	}
	return s, nil
}

// run runs one of the server's binaries as the cluster's user.
func (s *Server) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd.CombinedOutput()
}

func (s *Server) pgctl(args ...string) error {
	out, err := s.run("pg_ctl", append([]string{"-D", filepath.Join(s.dir, "data")}, args...)...)
	if err != nil {
		return fmt.Errorf("pg_ctl %v: %v\n%s", args, err, out)
	}
	return nil
}

// StartServer starts the cluster's server (again, after StopServer); fsync is off, as the tests kill
// clients, never the server's machine.
func (s *Server) StartServer() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == "" {
		return fmt.Errorf("the server of %s is not the tests' to start", EnvURL)
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", s.Port, s.dir)
	return s.pgctl("-o", opts, "-l", filepath.Join(s.dir, "log"), "-w", "-t", "60", "start")
}

// StopServer stops the cluster's server at once (clients are cut off), leaving its data.
func (s *Server) StopServer() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == "" {
		return fmt.Errorf("the server of %s is not the tests' to stop", EnvURL)
	}
	return s.pgctl("-m", "fast", "-w", "stop")
}

// Throwaway reports whether the server is the tests' own cluster (which they may stop and start).
func (s *Server) Throwaway() bool { return s.dir != "" }

// DBURL returns the URL of database db on the server, password included.
func (s *Server) DBURL(db string) string {
	u, _ := url.Parse(s.URL)
	u.Path = "/" + db
	return u.String()
}

// Exec runs SQL statements in database db.
func (s *Server) Exec(ctx context.Context, db string, stmts ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.DBURL(db))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, stmt := range stmts {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return nil
}
