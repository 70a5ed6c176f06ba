// Package memory is dossier's per-opponent memory: who each opponent is, every game played against it with
// every move observed (what we predicted, the model's probability of the move played, our evaluation), and the
// learned models' states after each game. It lives in a badger store in a directory of its own, by default
// $XDG_DATA_HOME/dossier or ~/.local/share/dossier, created owner-only (0700), and every dossier process on the
// machine shares it; or, when its location is a postgres:// URL, in a PostgreSQL database that engines on many
// machines share (see PostgreSQL below).
//
// # Backends
//
// The store's records are ordered keys and values (the schema below) kept by a backend (kv.go): badger
// (kv_badger.go) or PostgreSQL (kv_postgres.go). Every operation (applying events, profiles, games, dumps,
// imports, forget, merge, migrations) is written once over that interface, so both backends keep the same
// records with the same semantics; TestConformance runs one table of tests against both.
//
// # One owner, many clients
//
// Badger lets one process open a directory. The first dossier process that needs the memory takes an
// exclusive flock on DIR/lock and opens the store (DIR/store); it is the owner. Every other process (a second
// engine, `dossier memory` commands, the players of `dossier match`) connects to the owner's unix socket,
// DIR/socket (mode 0600, no network listener), and sends the same requests the owner's own Memory hands to its
// store in-process. A directory whose path is too long for a socket address (107 bytes) gets its socket under
// os.TempDir(), named by a hash of the directory, and that path is written to DIR/socket.path for people to
// read; clients compute the same name. Only the lock holder ever listens, so it removes whatever socket file it
// finds (one a killed owner left) before it does.
//
// The protocol is newline-delimited JSON: a request carries a sequence number and an operation (hello, event,
// profile, opponents, games, experience, dump, import, forget, merge, compact, and the job queue's jobs,
// claim_job, renew_job, finish_job, release_job, progress_job; protocol version 3 (an owner from before
// progress_job answers it as an unknown operation), which an owner or client of an older
// version refuses at hello); its reply carries the number, the result
// and an error with a code that maps back to this package's sentinel errors, so errors.Is (and errors.As, for
// an *Error) works the same in a client. A client keeps every request until it has its reply. When the connection breaks (the owner exited or
// was killed) the client loops: connect to the socket, else take the lock and become the owner, else back off
// (2 ms doubling to 200 ms, with jitter) and try again; once through, it resends every unanswered request in
// order. It never gives up: after ConnectTimeout it logs an error and keeps the events queued, so the engine
// plays on. Open itself waits at most ConnectTimeout (5 s) and returns an error. Every event is idempotent (a
// move is put under its own key, a sighting merges into the profile, a take-back deletes a range, an end
// overwrites the game's end), so a resent event never duplicates anything.
//
// # Writes never wait for the disk
//
// Record checks the event, queues it and returns a Pending at once; one goroutine per Memory sends the queue in
// order. In the owner one writer goroutine takes every event waiting (up to 512) and commits them in one badger
// transaction (group commit), then answers each; an event that fails is applied again alone so that it fails
// alone. An event is acknowledged (its Pending done with a nil error) only after badger's commit returned, that
// is after it is in badger's memtable log, a memory map of a file: the kernel keeps it when the process is
// killed, so an acknowledged event survives kill -9 without an fsync (TestKillNineWhileWriting kills the
// owner 100 times at random moments and checks every acknowledged move after each). Surviving a power loss
// needs Options.SyncWrites, which fsyncs every commit. Measured on the 2-core development machine, shared with
// other jobs (load average 16 to 20 for the second column; `go test ./memory -run '^$' -bench BenchmarkUpdate
// -benchtime 5000x`; one update = Record to commit, p50 / p99):
//
//	                                   quieter machine       load 16-20
//	owner, 1 writer                    16 µs / 0.3 ms        15 µs / 3.4 ms
//	owner, 4 writers                   38 µs / 0.8 ms        33 µs / 2.9 ms
//	client over the socket, 1 writer   45 µs / 0.2 ms        48 µs / 4.3 ms
//	client over the socket, 4 writers 135 µs / 1.0 ms        99 µs / 0.6 ms
//	SyncWrites, owner, 1 writer       1.2 ms / 12 ms        1.1 ms / 18 ms
//	SyncWrites, client, 4 writers     2.8 ms / 13 ms        1.3 ms / 19 ms
//
// so SyncWrites is off by default: the 5 ms goal holds without it and not with it on this disk.
//
// Reads (Profile, Opponents, Games, Dump) first wait for the events recorded before them, so a process reads
// its own writes, then run in a read-only badger transaction in the owner, concurrently with the writer (the
// owner's own reads directly, a client's through the socket). A profile, which the engine reads while it
// plays, waits at most ConnectTimeout (and ProfileContext's context); the other operations 30 s. Forget,
// Merge and Import batches go through the writer, between groups of events.
//
// # Bad storage
//
// Open refuses, with an error naming the directory and the cause and without changing anything in it: a
// directory holding files the memory did not write (ErrNotAStore; the memory's files are store/, lock, socket
// and socket.path), a badger store without dossier's schema version (ErrNotAStore), a damaged store
// (ErrCorrupt), a store of a newer schema (ErrNewerSchema, naming both versions), a directory that cannot be
// read or written. An existing store is first opened in badger's read-only mode to read its schema version, so
// a refused store is never opened for writing. Badger writes its logs and tables through memory maps of sparse
// files, where a full disk kills the process with SIGBUS instead of returning an error; the store therefore
// refuses every write while less than 16 MB are free (ErrDiskFull from the write's Pending) and writes again
// once space is freed. Two things a process killed at the wrong moment leaves, which badger 4.9.6 cannot open,
// are repaired: an empty value-log or memtable file (killed between creating and sizing it; it holds nothing and
// is removed) and a store directory with only LOCK before the MANIFEST was written (badger starts it again).
// A store with data files and no MANIFEST is refused, as badger would drop the tables it does not list.
//
// # PostgreSQL
//
// Open with a postgres:// or postgresql:// URL (Options.Dir) connects with pgx; the password comes from the URL,
// PGPASSWORD or the password file as libpq finds it, and every error, log line and notice names the URL without
// it (RedactURL). The records go into one table, SCHEMA.records (key bytea PRIMARY KEY, value bytea), in the
// schema Options.Schema or the URL's schema parameter names (default dossier), created on first use (under an
// advisory lock; the schema only when absent, so a role granted a schema need not create one). The schema
// version is the same v/schema record, checked and migrated as badger's is: a newer one is refused naming both
// versions. Open refuses with ErrBadLocation a malformed URL, a refused login, a missing database and a server
// older than PostgreSQL 13, and with ErrUnavailable a server it cannot reach, each naming the host and cause.
//
// There is no owner: each process talks to the server, through a pool of four connections. Reads run in a
// read-only repeatable-read transaction (one snapshot). Writes run in read-committed transactions in which every
// key read is first locked (pg_advisory_xact_lock on a hash of the table and key, pipelined with the read) until
// the commit, so read-merge-write of a profile or a game by writers on many hosts happens one at a time and the
// result is that of some serial order; a deadlock between two such transactions runs one again. (Serializable
// isolation was tried first: its page-level predicate locks on the key index made writers of unrelated games
// conflict and retry until some starved.) The writer commits events in groups as the owner's does.
//
// When an event's commit fails because the server cannot be reached (no connection, a connection lost, a
// shutdown, a timeout of 10 s), the writer keeps that event and every later one, in order, in a spool file of
// its own (JSON lines of events under Options.SpoolDir, default $XDG_STATE_HOME/dossier/spool, flock'd while the
// process lives), up to Options.SpoolLimit (100,000; later events fail with ErrUnavailable and are counted). An
// event is acknowledged when the server committed it or when it is in the spool file: written there it is in
// the kernel's page cache and outlives the process, the guarantee a badger commit gives, and the engine's answer
// never waits for a server that is away. The writer drops the pool's connections (the server left them
// broken), tries the server again backing off from 0.1 s to 2 s and, once the spool is in, removes the file,
// writes any spool file no live process holds (a process killed meanwhile) and goes back to committing
// directly. Options.Notify is told once that the memory is unreachable and once that it is back; reads fail at
// once with ErrUnavailable meanwhile. With Options.SpoolWhenUnreachable (the engine's), a server that cannot be
// reached at Open is taken as one that went away just after: the memory opens, spools, and creates the table
// and writes the spool once the server answers (TestPostgresUnreachableAtOpenSpoolsUntilItAnswers).
// TestPostgresOutageSpoolsAndReplays stops the server for 30 s mid-game (3 s with -short),
// tests/memory_postgres_test.go does so under an engine playing a game.
//
// Measured on localhost on the shared 2-core machine at load average 1 to 2, PostgreSQL 15 with fsync on, 20,000
// updates (`go test ./memory -run '^$' -bench BenchmarkUpdatePostgres -benchtime 20000x`; 8 writers are 8
// Memories): one update, Record to commit, p50 / p99, 1 writer 0.18-0.21 ms / 0.36-0.67 ms, 8 writers 0.15-0.25
// ms / 4.2-4.6 ms (a move's commit is one round trip: BEGIN, the upsert and COMMIT pipelined; before that, four
// round trips gave 5.6-5.8 ms at p99 with 8 writers, fsync on or off: the tail is the 2 cores shared by 8
// writers and 8 server processes, not the disk). BenchmarkScalePostgres builds BenchmarkScale's store (10,000
// opponents, a million move records) in about 25 s: 460 MB, 24,125 bytes a game (badger: 3,722; the JSON
// values are stored uncompressed, PostgreSQL compressing only values over 2 KB); a profile takes 1.0-1.5 ms at
// the median and 3.6-5.6 ms at p99 (four runs of 2,000), one opponent's two games with their moves 2.8 ms,
// listing every opponent 0.67 s.
// DOSSIER_TEST_POSTGRES=URL runs the benchmarks on another server (the store is built once, in schema scale).
//
// # Schema (version 3)
//
// Keys are '/'-separated; each component is escaped ('%' to %25, '/' to %2F). Values are compact JSON.
//
//	v/schema                              the schema version, "3"
//	o/<key>                               an opponent's profile (opponent record)
//	a/<alias>                             an alias merged into another key (alias record)
//	g/<key>/<game id>                     empty: the index of an opponent's games
//	h/<game id>                           a game's start and end (game record)
//	m/<game id>/<ply %05d>/<0|1>          a move, ours (0) or the opponent's (1) (move record)
//	s/<key>/<model>/<ns %020d>/<game id>  one state of a learned model (model record)
//	x/<key>/<game id>                     the mistake an analysis of the game blamed (mistake record)
//	e/<key>/<game>/<hash %016x>           the opponent's experience of a position (experience record)
//	c/<game>/<hash %016x>                 every opponent's experience of a position (experience record, no key)
//	j/<job id>                            work left after a game, for any process to take (job record)
//	q/<kind>/<key>/<game id>              the id of the one job of a kind about an opponent's game
//
// Keys of opponents are opponent.NameKey of their names; opponent.UnknownKey files the unnamed opponent, which is
// recorded like any other and never merged. Game ids come from NewGameID: the UTC time to the nanosecond and 48
// random bits, so they sort by time and never collide across processes. Version 1 stored a profile with one
// name and one undated rating ({"key","name","elo",...}); opening such a store rewrites each profile with
// "names" and dated "ratings" (source "schema v1") and then the version (testdata/v1 is a store version 1
// wrote; TestMigrateFromVersion1 opens a copy). Version 2 kept each analysed game's report as a state of the
// model "mistakes"; opening such a store turns each report that blamed a move into the game's mistake record and
// removes every such state, dropping with a warning the reports that blamed nothing, name no game or whose game
// is not stored (the record needs the game's name), and the values of the other moves analysed (experience
// entries are keyed by their position's hash, which only the game's rules compute; the next analyses learn them
// again); TestMigrateFromVersion2.
//
// An analysis (Event.Analysis: the mistake, if any, and the experience entries) is one event applied in one
// transaction, so it is filed whole or not at all. Each entry goes into the opponent's table and into the game's
// table of every opponent; where one holds the position already, the entry of the current form
// (ExperienceVersion), then the deeper, then the later is kept. A table holds at most Options.ExperienceLimit
// entries (20,000): the analysis that takes it past the limit also removes its shallowest entries, the oldest
// first among equally deep, until a tenth of the room is free. Merge moves the mistakes and the opponent's
// table; Forget removes them (the table of every opponent keeps what it learned).
//
// A job (Event.Job; jobs.go) is work left after a game for whichever process takes it: filed as an event, named
// by its kind, opponent and game so that filing it twice keeps one, claimed by one worker at a time under a
// lease (ClaimJob: one transaction of the owner's writer; on PostgreSQL the job is read again under its key's
// lock before it is taken), finished (removed), handed back, or given up after three claims that never
// finished it. The job prefixes came without a schema step: a dossier of schema 3 that knows no jobs reads
// only its own prefixes (its listings, dumps, forget and merge skip j/ and q/), and refuses a dump's job lines
// by name. Dumps hold the jobs with their claims; Forget removes an opponent's, Merge moves them.
//
// # Dump format
//
// Dump writes JSON lines: first {"type":"schema","version":3}, then one record a line in key order, each with a
// "type" and the fields it is stored with:
//
//	{"type":"opponent","key":"stockfish 16","names":["Stockfish 16"],"aliases":["sf"],"title":"BOT",
//	 "kind":"computer","ratings":[{"elo":3000,"source":"uci","at":"2026-03-01T12:00:00Z"}],
//	 "first":"2026-03-01T12:00:00Z","last":"2026-03-02T09:00:00Z"}
//	{"type":"alias","alias":"sf","key":"stockfish 16"}
//	{"type":"game","id":"20260301T120000.000000000Z-0a1b2c3d4e5f","key":"stockfish 16","game":"chess",
//	 "variant":"standard","side":0,"tc":"40/60","fen":"<start FEN>","start":"...","result":"1-0",
//	 "reason":"checkmate","score":1,"moves":["e2e4","e7e5"],"final":"<final FEN>","end":"..."}
//	{"type":"move","game":"<id>","ply":1,"opp":true,"hash":"823c9b50fd114196","fen":"<FEN before>",
//	 "move":"e7e5","ms":830,"pred":"e7e5","prob":0.62,"eval":24,"at":"..."}
//	{"type":"model","key":"stockfish 16","model":"typeprobs","at":"...","game":"<id>","state":{...}}
//	{"type":"mistake","key":"stockfish 16","id":"<id>","game":"chess","ply":44,"fen":"<FEN before>",
//	 "move":"d8b6","value":-180,"best":"a8c8","best_value":10,"depth":18,"at":"..."}
//	{"type":"experience","key":"stockfish 16","game":"chess","hash":"<16 hex>","fen":"<FEN>","move":"a8c8",
//	 "value":10,"depth":18,"bound":"lower","v":1,"id":"<id>","at":"..."}
//	{"type":"job","id":"<job id>","kind":"analysis","key":"stockfish 16","game":"chess","game_id":"<id>",
//	 "priority":1,"payload":{...},"created":"...","attempts":1,"worker":"host 4711 1","lease":"..."}
//
// Absent fields are omitted: "opp" when the move is ours, "ms" when the time is unknown, "prob" when no model
// gave one, "eval" when there was none (an evaluation of NaN), "score" while unknown, a job's "worker" and "lease"
// while it is free and "attempts" at 0. "hash" is the Zobrist key
// of the position before the move, in 16 hex digits; "side" is 0 when we moved first. Import reads the whole
// input and checks every line (unknown types and fields are refused) before it writes anything, naming the
// first bad line; it then merges opponents (names, aliases and ratings as unions), aliases (as Merge does),
// games, moves, models, mistakes, experience (by the table's rule) and jobs (kept where the store has one of the
// same id or name), each only where it changes something, so importing a dump twice changes nothing.
//
// # Sizes
//
// Badger's defaults suit a server (64 MB memtables, 1 GB value-log files, a 256 MB cache); here memtables are
// 4 MB (two), value-log files 16 MB, the block cache 8 MB, values under 64 KB stay in the LSM tree, one version
// of each key is kept, and conflict detection is off (one goroutine writes). The owner runs badger's value-log
// collection every 10 minutes (Options.GCInterval) and on Compact.
//
// BenchmarkScale builds 10,000 opponents with 20,000 games of 50 plies, a million move records, in about two
// minutes: 70 MB on disk, 3,722 bytes a game (about 74 bytes a move record, FEN included, after badger's
// Snappy compression). Opening a profile, what the engine does at UCI_Opponent time, takes 114 µs at the
// median and 1.2 ms at p99, 1.6 ms the first time after opening the store (0.4 ms and 11 ms, 21 ms the first,
// under load 18); opening the store takes 0.3 s, listing all 10,000 opponents 0.6 s, one opponent's two games
// with their records 4.5 ms.
package memory
