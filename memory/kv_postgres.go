// The PostgreSQL backend: the store's keys and values in one table of a schema of its own, write transactions
// that lock each key they read, and the checks and errors of opening a database by URL.

package memory

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"
)

// Limits of the PostgreSQL backend.
const (
	pgConnectTimeout = 5 * time.Second
	// pgTxnTimeout bounds one transaction, so that a hung server fails a write instead of holding the writer.
	pgTxnTimeout = 10 * time.Second
	pgScanChunk  = 256 // rows one query of a scan reads
	pgMaxRetries = 100 // serialization failures one batch retries
	pgPoolSize   = 4
	// DefaultSchema is the PostgreSQL schema the memory's table is created in when Options.Schema is empty.
	DefaultSchema = "dossier"
)

// minServerVersion is the oldest server accepted (server_version_num): PostgreSQL 13, the oldest release its
// project still supported when this was written. A variable so that a test can make the server it has too old.
var minServerVersion = 130000

// IsURL reports whether a memory location names a PostgreSQL database (postgres:// or postgresql://) rather
// than a directory.
func IsURL(location string) bool {
	return strings.HasPrefix(location, "postgres://") || strings.HasPrefix(location, "postgresql://")
}

// RedactURL returns a PostgreSQL URL without its password (in the user part or a password parameter), for
// messages, logs and option values shown; a URL that cannot be parsed is replaced whole, since where its
// password is is unknown. A location that is no URL (a directory) is returned as it is.
func RedactURL(location string) string {
	if !IsURL(location) {
		return location
	}
	u, err := url.Parse(location)
	if err != nil {
		return "postgres://(an unparsable URL)"
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	if q.Has("password") {
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// pgKV is a PostgreSQL database holding the store's table.
type pgKV struct {
	pool   *pgxpool.Pool
	table  string   // the quoted, schema-qualified table name
	schema string   // the schema's name
	loc    string   // the URL without its password, named in every error
	secret []string // the password, which no message may carry
}

// newPostgres reads the URL location and makes the pool that reaches its database, without connecting yet
// (pgxpool connects when a connection is first wanted): only a malformed URL fails here; prepare then checks
// the server and creates the table. The password comes from the URL, PGPASSWORD or the password file
// (~/.pgpass or PGPASSFILE), as libpq finds it; no error carries it.
func newPostgres(location, schema string) (*pgKV, error) {
	loc := RedactURL(location)
	location, schema = schemaOf(location, schema)
	cfg, err := pgxpool.ParseConfig(location)
	if err != nil {
		return nil, fail(loc, ErrBadLocation, errors.New(scrub(err.Error(), passwordOf(location))))
	}
	if schema == "" {
		schema = DefaultSchema
	}
	cfg.MaxConns = pgPoolSize
	cfg.ConnConfig.ConnectTimeout = pgConnectTimeout
	cfg.ConnConfig.RuntimeParams["application_name"] = "dossier"
	kv := &pgKV{table: pgx.Identifier{schema, "records"}.Sanitize(), schema: schema, loc: loc,
		secret: []string{passwordOf(location), cfg.ConnConfig.Password}}
	kv.pool, err = pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, kv.wrap("connecting", err)
	}
	return kv, nil
}

// schemaOf takes the schema parameter out of a URL (pgx would send it to the server as a setting): the schema
// it names, else (absent or empty) the one given.
func schemaOf(location, schema string) (string, string) {
	u, err := url.Parse(location)
	if err != nil {
		return location, schema
	}
	q := u.Query()
	if !q.Has("schema") {
		return location, schema
	}
	if named := q.Get("schema"); named != "" {
		schema = named
	}
	q.Del("schema")
	u.RawQuery = q.Encode()
	return u.String(), schema
}

// passwordOf returns the password a URL carries, "" when none.
func passwordOf(location string) string {
	u, err := url.Parse(location)
	if err != nil {
		return ""
	}
	if p, ok := u.User.Password(); ok {
		return p
	}
	return u.Query().Get("password")
}

// scrub removes every secret from a message.
func scrub(msg string, secrets ...string) string {
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "********")
		}
	}
	return msg
}

// prepare checks the server's version and creates the schema and the table when they are absent, under an
// advisory lock so that processes starting together do not race. A role that may not create them can use
// them once created (see the package comment).
func (kv *pgKV) prepare(log *zap.Logger) error {
	schema := kv.schema
	ctx, cancel := context.WithTimeout(context.Background(), pgConnectTimeout)
	defer cancel()
	var version string
	if err := kv.pool.QueryRow(ctx, "SHOW server_version_num").Scan(&version); err != nil {
		return kv.wrap("connecting", err)
	}
	if n, _ := strconv.Atoi(version); n < minServerVersion {
		var text string
		_ = kv.pool.QueryRow(ctx, "SHOW server_version").Scan(&text)
		return fail(kv.loc, ErrBadLocation, fmt.Errorf("the server runs PostgreSQL %s (%s); dossier needs %d or newer",
			text, version, minServerVersion/10000))
	}
	var exists bool
	if err := kv.pool.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", kv.table).Scan(&exists); err != nil {
		return kv.wrap("looking for the table", err)
	}
	if exists {
		return nil
	}
	log.Info("memory: creating the table", zap.String("store", kv.loc), zap.String("table", kv.table))
	return pgx.BeginFunc(ctx, kv.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext($1))", kv.table); err != nil {
			return kv.wrap("creating the table", err)
		}
		// CREATE SCHEMA checks its privilege before whether the schema exists: a role that may create tables in
		// a schema made for it, and not schemas, only creates the table.
		var schemaExists bool
		if err := tx.QueryRow(ctx, "SELECT to_regnamespace($1) IS NOT NULL", pgx.Identifier{schema}.Sanitize()).Scan(&schemaExists); err != nil {
			return kv.wrap("creating the table", err)
		}
		stmts := []string{"CREATE TABLE IF NOT EXISTS " + kv.table + " (key bytea PRIMARY KEY, value bytea NOT NULL)"}
		if !schemaExists {
			stmts = append([]string{"CREATE SCHEMA IF NOT EXISTS " + pgx.Identifier{schema}.Sanitize()}, stmts...)
		}
		for _, stmt := range stmts {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return kv.wrap("creating the table", err)
			}
		}
		return nil
	})
}

// wrap turns an error of the server or the connection into the memory's error, naming the URL without its
// password: ErrUnavailable when the server could not be reached or went away, ErrBadLocation when it refused
// the connection (authentication, a missing database), and a plain storage error otherwise.
func (kv *pgKV) wrap(doing string, err error) error {
	if err == nil {
		return nil
	}
	var memErr *Error
	if errors.As(err, &memErr) {
		if memErr.Kind != nil || memErr.Err == nil {
			return err // the store's own error (an unknown opponent, a malformed record): it says all
		}
		doing, err = memErr.Doing, memErr.Err
	}
	cause := errors.New(scrub(err.Error(), kv.secret...))
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && (strings.HasPrefix(pgErr.Code, "28") || pgErr.Code == "3D000" || pgErr.Code == "3F000"):
		return &Error{Dir: kv.loc, Kind: ErrBadLocation, Doing: doing, Err: cause}
	case unreachable(err):
		return &Error{Dir: kv.loc, Kind: ErrUnavailable, Doing: doing, Err: cause}
	}
	return &Error{Dir: kv.loc, Doing: doing, Err: &pgCause{msg: cause.Error(), err: err}}
}

// pgCause is a server's error with its message scrubbed; errors.As still finds the *pgconn.PgError under it.
type pgCause struct {
	msg string
	err error
}

func (c *pgCause) Error() string { return c.msg }
func (c *pgCause) Unwrap() error { return c.err }

// unreachable reports whether err says the server could not be reached or went away (rather than that it
// refused a statement): no server error at all, or one of the connection, shutdown and resource classes.
func unreachable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		c := pgErr.Code
		return strings.HasPrefix(c, "08") || strings.HasPrefix(c, "57P") || strings.HasPrefix(c, "53")
	}
	// Anything else from pgx without a server's error is the connection's: refused, reset, timed out, closed.
	return !errors.Is(err, pgx.ErrNoRows)
}

// retryable reports whether a transaction failed only because a concurrent one conflicted with it.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}

// pgQuerier is what a read runs its queries on: a transaction (pgx.Tx) or a connection in one.
type pgQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// pgTxn is a read-only PostgreSQL transaction seen as a kvTxn (writes are pgWriteTxn's).
type pgTxn struct {
	ctx context.Context
	tx  pgQuerier
	kv  *pgKV
}

func (t pgTxn) get(key []byte) ([]byte, bool, error) {
	var v []byte
	err := t.tx.QueryRow(t.ctx, "SELECT value FROM "+t.kv.table+" WHERE key = $1", key).Scan(&v)
	return found(v, err)
}

// errReadOnly is a write in a read transaction, which the store never makes.
var errReadOnly = errors.New("a write in a read-only transaction")

func (t pgTxn) set(key, value []byte) error { return errReadOnly }
func (t pgTxn) del(key []byte) error        { return errReadOnly }

// found turns the outcome of reading one value into get's.
func found(v []byte, err error) ([]byte, bool, error) {
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if v == nil {
		v = []byte{}
	}
	return v, true, nil
}

// scan reads the keys in chunks, each read whole before f sees it, so that f may query the same transaction.
func (t pgTxn) scan(prefix, from []byte, values bool, f func(key, value []byte) error) error {
	start := prefix
	if string(from) > string(prefix) {
		start = from
	}
	end := prefixEnd(prefix)
	cols := "key, ''::bytea"
	if values {
		cols = "key, value"
	}
	for {
		q := "SELECT " + cols + " FROM " + t.kv.table + " WHERE key >= $1"
		args := []any{start}
		if end != nil {
			q += " AND key < $2"
			args = append(args, end)
		}
		rows, err := t.tx.Query(t.ctx, q+" ORDER BY key LIMIT "+strconv.Itoa(pgScanChunk), args...)
		if err != nil {
			return err
		}
		type row struct{ k, v []byte }
		var chunk []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.k, &r.v); err != nil {
				rows.Close()
				return err
			}
			chunk = append(chunk, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, r := range chunk {
			if err := f(r.k, r.v); err != nil {
				if errors.Is(err, errStopScan) {
					return nil
				}
				return err
			}
		}
		if len(chunk) < pgScanChunk {
			return nil
		}
		start = append(chunk[len(chunk)-1].k, 0) // the first key after the chunk's last
	}
}

// view runs f in a read-only repeatable-read transaction: one snapshot, as badger's reads see.
func (kv *pgKV) view(f func(txn kvTxn) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), pgTxnTimeout)
	defer cancel()
	tx, err := kv.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return kv.wrap("reading the store", err)
	}
	defer tx.Rollback(context.Background())
	if err := f(pgTxn{ctx: ctx, tx: tx, kv: kv}); err != nil {
		return kv.wrap("reading the store", err)
	}
	return kv.wrap("reading the store", tx.Commit(ctx))
}

// batch runs f in one read-committed transaction in which every key read is locked first (get), so that
// writers on many hosts leave what some order of their transactions one at a time would: each record is read,
// merged and written by one at a time, and every event's records are its own or merged (see the package
// comment). A transaction that deadlocks with another is run again from the start.
func (kv *pgKV) batch(f func(b batcher) error) error {
	backoff := time.Millisecond
	for attempt := 0; ; attempt++ {
		err := kv.try(f)
		if err == nil || !retryable(err) || attempt >= pgMaxRetries {
			return kv.wrap("writing the store", err)
		}
		time.Sleep(backoff + rand.N(backoff))
		backoff = min(2*backoff, 50*time.Millisecond)
	}
}

// compact leaves reclaiming space to the server's autovacuum (VACUUM needs the table's owner); it frees
// nothing itself.
func (kv *pgKV) compact() (int64, error) { return 0, nil }

// reset drops the pool's connections, which a server that went away left broken: the next transaction
// connects anew instead of finding them dead one at a time.
func (kv *pgKV) reset() { kv.pool.Reset() }

func (kv *pgKV) close() error {
	kv.pool.Close()
	return nil
}
