// The job queue: work left after a game (the analysis of a lost game, folding the learners over new games,
// preparing for the next game) filed in the memory for whichever process on it takes it. Online platforms start
// one engine process per game, so such work must outlive the process that played the game: a job is filed as
// an event (acknowledged, spooled, resent like the others), held by one worker at a time under a lease, deleted
// when it is finished, and given up after maxJobAttempts claims that never finished it.

package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"
)

// Key prefixes of the job queue (see the package comment).
const (
	prefJob     = "j/" // j/<job id>: a job (job record)
	prefJobName = "q/" // q/<kind>/<key>/<game id>: the id of the one job of a kind about an opponent's game
)

// Bounds of the job queue.
const (
	// maxJobAttempts is how many claims a job gets: a job whose worker dies (killed, or crashing on the job)
	// comes back after its lease, and without a bound a job that kills its worker would kill every later one.
	maxJobAttempts = 3
	maxJobPayload  = 1 << 20
	// maxJobLease bounds a lease, so that a typo (hours for seconds) cannot hold a job for years.
	maxJobLease = 7 * 24 * time.Hour
)

// typeJob is the job's record type and event kind.
const typeJob = "job"

// The operations of the job queue on the socket (protocol version 3).
const (
	opJobs       = "jobs"
	opClaimJob   = "claim_job"
	opRenewJob   = "renew_job"
	opFinishJob  = "finish_job"
	opReleaseJob = "release_job"
	// opProgressJob replaces the payload of a held job with what its worker did so far (protocol version 3
	// owners before it answer "unknown operation": the worker goes on without saving, as before).
	opProgressJob = "progress_job"
)

// Job is work left after a game, for whichever process takes it.
type Job struct {
	// ID is unique and time-ordered, made by NewJobID; Event.Job files one with a new ID when it has none.
	ID string
	// Kind says what the work is, e.g. "analysis", "fold", "prepare"; opaque to the store.
	Kind string
	// OpponentKey is the opponent the job is about ("" for none); a job filed under an alias goes to the key
	// it was merged into.
	OpponentKey string
	// Game names the game ("chess", ...); GameID is the game the job is about, "" for none.
	Game   string
	GameID string
	// Priority orders the queue: lower is taken first, then the older (by Created).
	Priority int
	// Payload is kind-specific, valid JSON (at most 1 MiB), opaque to the store; empty for none.
	Payload json.RawMessage
	// Created is when the job was filed (now when zero).
	Created time.Time
	// Set by the store (ignored when a job is filed): how many times the job was claimed, the worker holding
	// it ("" when free) and when its hold ends (zero when free).
	Attempts   int
	Worker     string
	LeaseUntil time.Time
}

// NewJobID returns a new job identifier: unique across processes and sortable by time, as NewGameID's are.
func NewJobID() string { return NewGameID() }

// jobRec is a job, stored under j/<id> and named by q/<kind>/<key>/<game id>.
type jobRec struct {
	Type     string          `json:"type,omitempty"`
	ID       string          `json:"id"`
	Kind     string          `json:"kind"`
	Key      string          `json:"key,omitempty"`
	Game     string          `json:"game,omitempty"`
	GameID   string          `json:"game_id,omitempty"`
	Priority int             `json:"priority,omitempty"`
	Payload  json.RawMessage `json:"payload,omitempty"`
	Created  time.Time       `json:"created"`
	Attempts int             `json:"attempts,omitempty"`
	Worker   string          `json:"worker,omitempty"`
	Lease    time.Time       `json:"lease,omitzero"`
}

func jobKey(id string) []byte { return []byte(prefJob + escape(id)) }

// jobNameKey is where the id of the one job of a kind about an opponent's game is kept, so that filing the
// same job twice (a process that files it again after a crash) keeps one.
func jobNameKey(kind, key, gameID string) []byte {
	return []byte(prefJobName + escape(kind) + "/" + escape(key) + "/" + escape(gameID))
}

func (r *jobRec) nameKey() []byte { return jobNameKey(r.Kind, r.Key, r.GameID) }

// free reports whether the job may be claimed at now: nobody holds it, or its holder's lease ran out.
func (r *jobRec) free(now time.Time) bool { return r.Worker == "" || !now.Before(r.Lease) }

func (r *jobRec) check() error {
	if err := checkID("job id", r.ID); err != nil {
		return err
	}
	if err := checkID("job kind", r.Kind); err != nil {
		return err
	}
	if r.Key != "" {
		if err := checkKey("opponent key", r.Key); err != nil {
			return err
		}
	}
	if err := checkText("game", r.Game, maxIDLen); err != nil {
		return err
	}
	if r.GameID != "" {
		if err := checkID("game id", r.GameID); err != nil {
			return err
		}
	}
	if err := checkPayload(r.Payload); err != nil {
		return err
	}
	if r.Created.IsZero() {
		return errField("job %s has no time", r.ID)
	}
	if r.Attempts < 0 || r.Attempts > maxJobAttempts {
		return errField("job attempts %d are not in [0, %d]", r.Attempts, maxJobAttempts)
	}
	if r.Worker != "" {
		if err := checkID("worker", r.Worker); err != nil {
			return err
		}
	}
	if (r.Worker == "") != r.Lease.IsZero() {
		return errField("job %s has a worker without a lease or a lease without a worker", r.ID)
	}
	if err := checkTime("job time", r.Created); err != nil {
		return err
	}
	return checkTime("job lease", r.Lease)
}

// record is the stored form of a job being filed: what the store sets is cleared, an ID and a time are
// given when absent.
func (j *Job) record(stamp func(time.Time) time.Time) *jobRec {
	id := j.ID
	if id == "" {
		id = NewJobID()
	}
	return &jobRec{ID: id, Kind: j.Kind, Key: j.OpponentKey, Game: j.Game, GameID: j.GameID, Priority: j.Priority,
		Payload: j.Payload, Created: stamp(j.Created)}
}

// public is the Job a stored job is.
func (r *jobRec) public() Job {
	return Job{ID: r.ID, Kind: r.Kind, OpponentKey: r.Key, Game: r.Game, GameID: r.GameID, Priority: r.Priority,
		Payload: r.Payload, Created: r.Created, Attempts: r.Attempts, Worker: r.Worker, LeaseUntil: r.Lease}
}

// compareJobs orders jobs as they are taken: by priority, then the older first.
func compareJobs(a, b *jobRec) int {
	if c := cmp.Compare(a.Priority, b.Priority); c != 0 {
		return c
	}
	if c := a.Created.Compare(b.Created); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// jobCall is a job operation's request.
type jobCall struct {
	ID     string        `json:"id,omitempty"`
	Worker string        `json:"worker"`
	Lease  time.Duration `json:"lease,omitempty"`
	Kinds  []string      `json:"kinds,omitempty"`
	// Payload is the job's new payload (opProgressJob).
	Payload json.RawMessage `json:"payload,omitempty"`
}

// claimReply is what a claim took, and the jobs it gave up on the way (for the claimer to log).
type claimReply struct {
	Job     *jobRec  `json:"job,omitempty"`
	GivenUp []jobRec `json:"given_up,omitempty"`
}

// check checks a job operation's request.
func (c *jobCall) check(op string) error {
	if err := checkID("worker", c.Worker); err != nil {
		return err
	}
	if op != opClaimJob {
		if err := checkID("job id", c.ID); err != nil {
			return err
		}
	}
	if op == opClaimJob || op == opRenewJob {
		if c.Lease <= 0 || c.Lease > maxJobLease {
			return errField("lease %v is not in (0, %v]", c.Lease, maxJobLease)
		}
	}
	for _, k := range c.Kinds {
		if err := checkID("job kind", k); err != nil {
			return err
		}
	}
	if op == opProgressJob {
		return checkPayload(c.Payload)
	}
	return nil
}

// checkPayload checks a job's payload: empty, or JSON of at most maxJobPayload bytes.
func checkPayload(payload json.RawMessage) error {
	if len(payload) > maxJobPayload {
		return errField("job payload is %d bytes, more than %d", len(payload), maxJobPayload)
	}
	if len(payload) > 0 && !json.Valid(payload) {
		return errField("job payload is not JSON")
	}
	return nil
}

// jobOp runs a job operation on the owner (a write: the writer runs it alone, so on badger no other write
// interleaves with its read-modify-write; on PostgreSQL the job's key is locked while it is read and changed).
func (s *store) jobOp(op string, c *jobCall) (any, error) {
	if c == nil {
		return nil, fail(s.dir, ErrBadEvent, fmt.Errorf("%s without its job", op))
	}
	if err := c.check(op); err != nil {
		return nil, fail(s.dir, ErrBadEvent, err)
	}
	now := time.Now().UTC()
	switch op {
	case opClaimJob:
		return s.claimJob(c, now)
	case opRenewJob:
		return nil, s.updateHeldJob(c, func(txn kvTxn, j *jobRec) error {
			j.Lease = now.Add(c.Lease)
			return txn.set(jobKey(j.ID), encodeValue(j))
		})
	case opFinishJob:
		return nil, s.updateHeldJob(c, s.deleteJob)
	case opProgressJob:
		return nil, s.updateHeldJob(c, func(txn kvTxn, j *jobRec) error {
			j.Payload = c.Payload
			return txn.set(jobKey(j.ID), encodeValue(j))
		})
	case opReleaseJob:
		return nil, s.updateHeldJob(c, func(txn kvTxn, j *jobRec) error {
			// A hand-back (at quit) is no failure: the claim it undoes does not count toward giving up.
			j.Worker, j.Lease, j.Attempts = "", time.Time{}, max(j.Attempts-1, 0)
			return txn.set(jobKey(j.ID), encodeValue(j))
		})
	}
	return nil, fail(s.dir, ErrBadEvent, fmt.Errorf("unknown job operation %q", op))
}

// deleteJob removes a job and its name.
func (s *store) deleteJob(txn kvTxn, j *jobRec) error {
	if err := txn.del(jobKey(j.ID)); err != nil {
		return err
	}
	return txn.del(j.nameKey())
}

// fileJob applies a job's filing: it is stored unless a job of its kind about the same opponent and game is
// (whatever its id, and however held), so filing twice keeps one.
func (s *store) fileJob(txn kvTxn, r *jobRec) error {
	rec := *r
	rec.Type, rec.Attempts, rec.Worker, rec.Lease = "", 0, "", time.Time{}
	if rec.Key != "" {
		var err error
		if rec.Key, err = s.resolve(txn, rec.Key); err != nil {
			return err
		}
	}
	_, err := s.addJob(txn, &rec)
	return err
}

// addJob stores a job unless it, or another job of the same name, is stored; it reports whether it wrote.
// The name is read first, which on PostgreSQL locks it, so two processes filing one job keep one.
func (s *store) addJob(txn kvTxn, rec *jobRec) (bool, error) {
	id, found, err := txn.get(rec.nameKey())
	if err != nil {
		return false, errStorage(s.dir, "reading the store", err)
	}
	if found {
		if _, held, err := txn.get(jobKey(string(id))); err != nil || held {
			return false, err
		}
		// A name whose job is gone (it cannot be, as both are written together) is taken over.
	}
	if _, found, err := txn.get(jobKey(rec.ID)); err != nil || found {
		return false, err
	}
	if err := txn.set(jobKey(rec.ID), encodeValue(rec)); err != nil {
		return false, err
	}
	return true, txn.set(rec.nameKey(), []byte(rec.ID))
}

// scanJobs calls f with every job, in id order. A job record that cannot be read (damaged, or written by a
// newer dossier with fields this one does not know) is skipped with a warning, so that one bad record does
// not stop the queue; Dump still reports it as damaged.
func (s *store) scanJobs(txn kvTxn, f func(j *jobRec) error) error {
	return txn.scan([]byte(prefJob), nil, true, func(k, v []byte) error {
		rec, err := decodeValue(k, v)
		if err != nil {
			s.log.Warn("memory: skipping a job record that cannot be read", zap.String("store", s.dir), zap.Error(err))
			return nil
		}
		return f(rec.(*jobRec))
	})
}

// claimJob takes the best free job of the kinds (all when none), in one transaction: the jobs are scanned, then
// each candidate is read again under its key's lock (PostgreSQL: another process may have claimed or finished
// it since the scan; the lock holds until the commit, so of two claimers the second reads the first's claim).
// A candidate already claimed maxJobAttempts times is given up instead. A worker holds one job of the kinds at a
// time: one that holds such a job already gets it again, its lease renewed.
func (s *store) claimJob(c *jobCall, now time.Time) (*claimReply, error) {
	out := &claimReply{}
	err := s.batch(func(b batcher) error {
		return b.do(func(txn kvTxn) error {
			*out = claimReply{} // a backend may run the step again
			var candidates, held []*jobRec
			err := s.scanJobs(txn, func(j *jobRec) error {
				switch {
				case len(c.Kinds) > 0 && !slices.Contains(c.Kinds, j.Kind):
				case j.free(now):
					candidates = append(candidates, j)
				case j.Worker == c.Worker:
					held = append(held, j)
				}
				return nil
			})
			if err != nil {
				return err
			}
			slices.SortFunc(held, compareJobs)
			for _, cand := range held {
				rec, err := s.get(txn, jobKey(cand.ID))
				if err != nil {
					return err
				}
				if j, _ := rec.(*jobRec); j != nil && j.Worker == c.Worker && !j.free(now) {
					// The worker holds it already: a claim resent after its reply was lost (the owner killed
					// between its commit and its answer) takes no second job and counts no second attempt.
					j.Lease = now.Add(c.Lease)
					out.Job = j
					return txn.set(jobKey(j.ID), encodeValue(j))
				}
			}
			slices.SortFunc(candidates, compareJobs)
			for _, cand := range candidates {
				rec, err := s.get(txn, jobKey(cand.ID))
				if err != nil {
					return err
				}
				if rec == nil || !rec.(*jobRec).free(now) {
					continue // finished or claimed since the scan
				}
				j := rec.(*jobRec)
				if j.Attempts >= maxJobAttempts {
					if err := s.deleteJob(txn, j); err != nil {
						return err
					}
					gone := *j
					gone.Payload = nil
					out.GivenUp = append(out.GivenUp, gone)
					continue
				}
				j.Attempts++
				j.Worker, j.Lease = c.Worker, now.Add(c.Lease)
				out.Job = j
				return txn.set(jobKey(j.ID), encodeValue(j))
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// updateHeldJob runs f on the job c names when c's worker holds it; ErrJobLost when the job is gone or
// another worker holds it. A worker whose lease ran out still holds the job until another claims it.
func (s *store) updateHeldJob(c *jobCall, f func(txn kvTxn, j *jobRec) error) error {
	return s.update(func(txn kvTxn) error {
		rec, err := s.get(txn, jobKey(c.ID))
		if err != nil {
			return err
		}
		if rec == nil {
			return fail(s.dir, ErrJobLost, fmt.Errorf("job %s is gone (finished, given up or forgotten)", c.ID))
		}
		j := rec.(*jobRec)
		if j.Worker != c.Worker {
			holder := "nobody"
			if j.Worker != "" {
				holder = fmt.Sprintf("worker %q", j.Worker)
			}
			return fail(s.dir, ErrJobLost, fmt.Errorf("job %s is held by %s, not %q", c.ID, holder, c.Worker))
		}
		return f(txn, j)
	})
}

// jobs lists every job in the order they are taken, without their payloads: a reply holds at most maxRequest
// bytes, which a score of jobs of 1 MiB would pass.
func (s *store) jobs() ([]jobRec, error) {
	var out []*jobRec
	err := s.kv.view(func(txn kvTxn) error {
		return s.scanJobs(txn, func(j *jobRec) error {
			j.Payload = nil
			out = append(out, j)
			return nil
		})
	})
	slices.SortFunc(out, compareJobs)
	list := make([]jobRec, len(out))
	for i, j := range out {
		list[i] = *j
	}
	return list, err
}

// jobsOf returns the jobs about an opponent key.
func (s *store) jobsOf(txn kvTxn, key string) ([]*jobRec, error) {
	var out []*jobRec
	err := s.scanJobs(txn, func(j *jobRec) error {
		if j.Key == key {
			out = append(out, j)
		}
		return nil
	})
	return out, err
}

// jobKeysOf returns the keys of the jobs about an opponent and their names, for forget: a forgotten opponent's
// work is not to be done.
func (s *store) jobKeysOf(txn kvTxn, key string) ([][]byte, error) {
	jobs, err := s.jobsOf(txn, key)
	var keys [][]byte
	for _, j := range jobs {
		keys = append(keys, jobKey(j.ID), j.nameKey())
	}
	return keys, err
}

// moveJobs files the jobs about alias under into, for merge; where into has a job of the same name already,
// alias's is dropped, as filing it again would.
func (s *store) moveJobs(b batcher, alias, into string) error {
	var jobs []*jobRec
	if err := b.do(func(txn kvTxn) error {
		var err error
		jobs, err = s.jobsOf(txn, alias)
		return err
	}); err != nil {
		return err
	}
	for _, j := range jobs {
		if err := b.do(func(txn kvTxn) error {
			rec, err := s.get(txn, jobKey(j.ID))
			if err != nil || rec == nil {
				return err
			}
			cur := rec.(*jobRec)
			if cur.Key != alias {
				return nil // moved already (a step run again)
			}
			if err := s.deleteJob(txn, cur); err != nil {
				return err
			}
			moved := *cur
			moved.Key = into
			_, err = s.addJob(txn, &moved)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// importJob merges a dumped job: a job stored already under its id or its name is kept as it is (its claims
// are the store's), else it is added with the claims it had.
func (s *store) importJob(txn kvTxn, r *jobRec) (bool, error) {
	rec := *r
	if rec.Key != "" {
		var err error
		if rec.Key, err = s.resolve(txn, rec.Key); err != nil {
			return false, err
		}
	}
	return s.addJob(txn, &rec)
}

// ClaimJob takes the best free job of the kinds (every kind when none is given) for worker, for lease: lower
// Priority first, then the older. Free means no worker holds it or its lease ran out; the claim sets Worker,
// LeaseUntil (now + lease on the store's clock: the owner's, or this host's for PostgreSQL) and counts an
// attempt. It returns nil, nil when no job is free. A job claimed maxJobAttempts (3) times without being
// finished is given up instead of claimed again: removed, with a warning in this Memory's log.
//
// A worker holds one job of the kinds at a time: a worker that holds one already (its lease not run out) gets
// that job again, its lease renewed and no attempt counted, so that a claim sent again after its reply was lost
// (a client whose owner was killed between the claim's commit and its answer) takes no second job. Name each
// worker uniquely (host, process id and a counter, say).
func (m *Memory) ClaimJob(ctx context.Context, worker string, lease time.Duration, kinds ...string) (*Job, error) {
	var got claimReply
	err := m.call(ctx, wireRequest{Op: opClaimJob, Job: &jobCall{Worker: worker, Lease: lease, Kinds: kinds}}, &got)
	if err != nil {
		return nil, err
	}
	for _, j := range got.GivenUp {
		m.log.Warn("memory: gave up a job claimed too often without being finished", zap.String("store", m.dir),
			zap.String("job", j.ID), zap.String("kind", j.Kind), zap.String("opponent", j.Key),
			zap.String("game id", j.GameID), zap.Int("attempts", j.Attempts), zap.String("last worker", j.Worker))
	}
	if got.Job == nil {
		return nil, nil
	}
	j := got.Job.public()
	return &j, nil
}

// RenewJob extends worker's hold on job id to now + lease; ErrJobLost when the job is gone or another worker
// holds it now.
func (m *Memory) RenewJob(ctx context.Context, id, worker string, lease time.Duration) error {
	return m.call(ctx, wireRequest{Op: opRenewJob, Job: &jobCall{ID: id, Worker: worker, Lease: lease}}, nil)
}

// FinishJob removes job id, done by worker; ErrJobLost when the job is gone or another worker holds it now
// (its lease ran out and it was claimed again: the work may be done twice, never finished twice).
func (m *Memory) FinishJob(ctx context.Context, id, worker string) error {
	return m.call(ctx, wireRequest{Op: opFinishJob, Job: &jobCall{ID: id, Worker: worker}}, nil)
}

// ReleaseJob hands job id back unfinished (a worker that quits): it is free at once and the claim does not
// count toward giving it up; ErrJobLost as FinishJob.
func (m *Memory) ReleaseJob(ctx context.Context, id, worker string) error {
	return m.call(ctx, wireRequest{Op: opReleaseJob, Job: &jobCall{ID: id, Worker: worker}}, nil)
}

// SaveJobProgress replaces the payload of job id, held by worker, with payload: what the work did so far, so
// that whoever takes the job next (after a hand-back at quit, a kill, or a lease that ran out) goes on from
// there instead of beginning again. Under one process per game a job rarely fits in one game's idle time, and
// begun again in every process it would never end. ErrJobLost as FinishJob.
func (m *Memory) SaveJobProgress(ctx context.Context, id, worker string, payload json.RawMessage) error {
	c := &jobCall{ID: id, Worker: worker, Payload: payload}
	// Checked here too: a payload that is not JSON cannot be encoded for the owner's socket at all.
	if err := c.check(opProgressJob); err != nil {
		return fail(m.dir, ErrBadEvent, err)
	}
	return m.call(ctx, wireRequest{Op: opProgressJob, Job: c}, nil)
}

// Jobs lists every job, held or free, in the order they would be taken, without their payloads (ClaimJob
// returns a job's payload; Dump holds them all).
func (m *Memory) Jobs(ctx context.Context) ([]Job, error) {
	var recs []jobRec
	if err := m.call(ctx, wireRequest{Op: opJobs}, &recs); err != nil {
		return nil, err
	}
	out := make([]Job, len(recs))
	for i := range recs {
		out[i] = recs[i].public()
	}
	return out, nil
}
