// The job queue on every backend: filing, claiming in order, leases, workers that never share a job, giving up,
// dump, import, merge and forget; and a process killed while it holds a job.

package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"dossier/internal/pgtest"
)

// fileJob files a job and waits for its acknowledgement; it returns the job with its ID.
func fileJob(t testing.TB, m *Memory, j Job) Job {
	t.Helper()
	if j.ID == "" {
		j.ID = NewJobID()
	}
	mustRecord(t, m, Event{Job: &j})
	return j
}

// jobIDs returns the jobs' ids in order.
func jobIDs(jobs []Job) []string {
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	return ids
}

// mustJobs lists m's jobs.
func mustJobs(t testing.TB, m *Memory) []Job {
	t.Helper()
	jobs, err := m.Jobs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// mustClaim claims a job, failing the test on an error (nil when none is free).
func mustClaim(t testing.TB, m *Memory, worker string, lease time.Duration, kinds ...string) *Job {
	t.Helper()
	j, err := m.ClaimJob(context.Background(), worker, lease, kinds...)
	if err != nil {
		t.Fatalf("%s claiming: %v", worker, err)
	}
	return j
}

// openPair opens a memory and a second handle on the same store: a client of the first (badger) or another
// Memory on the same database (PostgreSQL), as a second process would have.
func openPair(t *testing.T, open opener, with ...func(*Options)) (first, second *Memory) {
	t.Helper()
	var opts Options
	first = open(t, append(with, func(o *Options) { opts = *o })...)
	if IsURL(opts.Dir) {
		opts.SpoolDir = t.TempDir()
	}
	second, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	if !IsURL(opts.Dir) && second.Owner() {
		t.Fatal("the second handle on a badger directory owns it")
	}
	return first, second
}

func conformJobsFileClaimFinish(t *testing.T, open opener) {
	m := open(t)
	ctx := context.Background()
	a := fileJob(t, m, Job{Kind: "analysis", OpponentKey: "leela", Game: "chess", GameID: "g1", Priority: 1,
		Payload: json.RawMessage(`{ "ply": 12 }`), Created: t0})
	b := fileJob(t, m, Job{Kind: "fold", OpponentKey: "leela", Game: "chess", GameID: "g1", Created: t0.Add(time.Minute)})
	c := fileJob(t, m, Job{Kind: "analysis", OpponentKey: "leela", Game: "chess", GameID: "g2", Priority: 1,
		Created: t0.Add(-time.Minute)})
	// Filed again (another id, another payload): the job filed first stays, alone.
	fileJob(t, m, Job{Kind: "analysis", OpponentKey: "leela", Game: "chess", GameID: "g1", Payload: json.RawMessage(`2`)})
	jobs := mustJobs(t, m)
	if want := []string{b.ID, c.ID, a.ID}; !slices.Equal(jobIDs(jobs), want) {
		t.Fatalf("jobs %v, want %v (priority 0, then the older of priority 1)", jobIDs(jobs), want)
	}
	if got := jobs[2]; got.Payload != nil || got.Kind != "analysis" || got.OpponentKey != "leela" ||
		got.Game != "chess" || got.GameID != "g1" || got.Priority != 1 || !got.Created.Equal(t0) ||
		got.Attempts != 0 || got.Worker != "" || !got.LeaseUntil.IsZero() {
		t.Errorf("the job filed first and again is listed as %+v", got)
	}

	before := time.Now()
	got := mustClaim(t, m, "w1", time.Minute, "analysis", "prepare")
	if got == nil || got.ID != c.ID || got.Attempts != 1 || got.Worker != "w1" {
		t.Fatalf("w1 claimed %+v, want %s (the older analysis) held by w1, attempt 1", got, c.ID)
	}
	if got.LeaseUntil.Before(before.Add(time.Minute-time.Second)) || got.LeaseUntil.After(time.Now().Add(time.Minute+time.Second)) {
		t.Errorf("lease until %v, want a minute after %v", got.LeaseUntil, before)
	}
	// A claim sent again (its reply lost) takes no second job: the worker gets the one it holds, no attempt counted.
	for _, kinds := range [][]string{{"analysis"}, nil} {
		if again := mustClaim(t, m, "w1", time.Minute, kinds...); again == nil || again.ID != c.ID || again.Attempts != 1 ||
			again.LeaseUntil.Before(got.LeaseUntil) {
			t.Fatalf("w1 claiming %q again got %+v, want %s still at attempt 1", kinds, again, c.ID)
		}
	}
	if got := mustClaim(t, m, "w2", time.Minute); got == nil || got.ID != b.ID {
		t.Fatalf("w2 claimed %+v, want the priority 0 job %s", got, b.ID)
	}
	if got := mustClaim(t, m, "w3", time.Minute, "analysis"); got == nil || got.ID != a.ID || string(got.Payload) != `{"ply":12}` {
		t.Fatalf("w3 claimed %+v, want %s with the payload filed first", got, a.ID)
	}
	if got := mustClaim(t, m, "w4", time.Minute); got != nil {
		t.Fatalf("w4 claimed %+v from a queue whose jobs are all held", got)
	}
	if got := mustClaim(t, m, "w4", time.Minute, "prepare"); got != nil {
		t.Fatalf("w4 claimed %+v of a kind never filed", got)
	}
	jobs = mustJobs(t, m)
	if !slices.Equal(jobIDs(jobs), []string{b.ID, c.ID, a.ID}) || jobs[0].Worker != "w2" || jobs[1].Worker != "w1" {
		t.Errorf("held jobs %+v", jobs)
	}

	if err := m.FinishJob(ctx, c.ID, "w1"); err != nil {
		t.Fatal(err)
	}
	if err := m.FinishJob(ctx, c.ID, "w1"); !errors.Is(err, ErrJobLost) {
		t.Errorf("finishing twice: %v, want ErrJobLost", err)
	}
	if err := m.FinishJob(ctx, b.ID, "w1"); !errors.Is(err, ErrJobLost) || !strings.Contains(err.Error(), `"w2"`) {
		t.Errorf("finishing w2's job as w1: %v, want ErrJobLost naming w2", err)
	}
	for _, j := range []struct{ id, worker string }{{b.ID, "w2"}, {a.ID, "w3"}} {
		if err := m.FinishJob(ctx, j.id, j.worker); err != nil {
			t.Fatal(err)
		}
	}
	if jobs := mustJobs(t, m); len(jobs) != 0 {
		t.Errorf("finished jobs are still there: %+v", jobs)
	}
	if got := mustClaim(t, m, "w1", time.Minute); got != nil {
		t.Errorf("claimed %+v from an empty queue", got)
	}
	// A finished job is gone with its name: filing it again files new work.
	again := fileJob(t, m, Job{Kind: "analysis", OpponentKey: "leela", Game: "chess", GameID: "g1"})
	if jobs := mustJobs(t, m); len(jobs) != 1 || jobs[0].ID != again.ID {
		t.Errorf("after filing a finished job anew: %+v", jobs)
	}
}

func conformJobLeaseExpires(t *testing.T, open opener) {
	m := open(t)
	ctx := context.Background()
	job := fileJob(t, m, Job{Kind: "analysis", OpponentKey: "leela", GameID: "g1"})
	const lease = 1500 * time.Millisecond
	first := mustClaim(t, m, "first", lease)
	if first == nil || first.ID != job.ID {
		t.Fatalf("claimed %+v", first)
	}
	if got := mustClaim(t, m, "second", time.Minute); got != nil && time.Now().Before(first.LeaseUntil) {
		t.Fatalf("second claimed %+v while first's lease held", got)
	}
	if err := m.RenewJob(ctx, job.ID, "second", time.Minute); !errors.Is(err, ErrJobLost) {
		t.Errorf("second renewing first's job: %v, want ErrJobLost", err)
	}
	time.Sleep(time.Until(first.LeaseUntil) + 50*time.Millisecond)
	second := mustClaim(t, m, "second", time.Minute)
	if second == nil || second.ID != job.ID || second.Attempts != 2 || second.Worker != "second" {
		t.Fatalf("after first's lease ran out second claimed %+v, want %s at attempt 2", second, job.ID)
	}
	for what, err := range map[string]error{
		"finishing": m.FinishJob(ctx, job.ID, "first"),
		"renewing":  m.RenewJob(ctx, job.ID, "first", time.Minute),
		"releasing": m.ReleaseJob(ctx, job.ID, "first"),
	} {
		if !errors.Is(err, ErrJobLost) {
			t.Errorf("first %s the job second took: %v, want ErrJobLost", what, err)
		}
	}
	if err := m.RenewJob(ctx, job.ID, "second", 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if jobs := mustJobs(t, m); len(jobs) != 1 || !jobs[0].LeaseUntil.After(second.LeaseUntil) || jobs[0].Attempts != 2 {
		t.Errorf("after renewing: %+v, want the lease past %v", jobs, second.LeaseUntil)
	}
	if err := m.FinishJob(ctx, job.ID, "second"); err != nil {
		t.Fatal(err)
	}
	if jobs := mustJobs(t, m); len(jobs) != 0 {
		t.Errorf("jobs %+v after second finished", jobs)
	}
}

func conformJobsAreDoneOnce(t *testing.T, open opener) {
	first, second := openPair(t, open)
	ctx := context.Background()
	const jobs, workersEach = 60, 3
	var pendings []*Pending
	for i := range jobs {
		m := []*Memory{first, second}[i%2]
		pendings = append(pendings, m.Record(Event{Job: &Job{Kind: []string{"analysis", "fold"}[i%2],
			OpponentKey: "leela", GameID: fmt.Sprintf("game %d", i), Priority: i % 3}}))
	}
	waitAll(t, pendings, " filing")
	if err := second.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	mustJobs(t, second) // both handles reach the store before the race starts
	var mu sync.Mutex
	done := map[string][]string{}
	// Every worker holds its first job until both handles hold one (or 5 s pass): on a loaded machine one
	// handle's workers could otherwise do every job before the other's first claim arrived (a race-detector
	// run on PostgreSQL, session 24), and the test would show nothing of two handles racing.
	claimedBy := map[int]bool{}
	bothClaimed := make(chan struct{})
	var wg sync.WaitGroup
	start := make(chan struct{})
	for h, m := range []*Memory{first, second} {
		for w := range workersEach {
			worker := fmt.Sprintf("handle %d worker %d", h, w)
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for {
					j, err := m.ClaimJob(ctx, worker, time.Minute)
					if err != nil {
						t.Errorf("%s: %v", worker, err)
						return
					}
					if j == nil {
						return
					}
					mu.Lock()
					done[j.ID] = append(done[j.ID], worker)
					if !claimedBy[h] {
						claimedBy[h] = true
						if len(claimedBy) == 2 {
							close(bothClaimed)
						}
					}
					mu.Unlock()
					select {
					case <-bothClaimed:
					case <-time.After(5 * time.Second):
					}
					time.Sleep(2 * time.Millisecond) // the work, while the other workers claim
					if err := m.FinishJob(ctx, j.ID, worker); err != nil {
						t.Errorf("%s finishing %s: %v", worker, j.ID, err)
					}
				}
			}()
		}
	}
	close(start)
	wg.Wait()
	if len(done) != jobs {
		t.Errorf("%d jobs were done, want %d", len(done), jobs)
	}
	perHandle := map[string]int{}
	for id, by := range done {
		if len(by) != 1 {
			t.Errorf("job %s was claimed by %q", id, by)
		}
		perHandle[by[0][:len("handle 0")]]++
	}
	if left := mustJobs(t, first); len(left) != 0 {
		t.Errorf("%d jobs left", len(left))
	}
	if len(perHandle) != 2 {
		t.Errorf("one handle did every job (%v): the workers did not race", perHandle)
	}
	t.Logf("%d jobs, %d workers on each of two handles: each done once (%v)", jobs, workersEach, perHandle)
}

func conformJobGivenUpAfterThreeClaims(t *testing.T, open opener) {
	core, logs := observer.New(zap.WarnLevel)
	m := open(t, func(o *Options) { o.Logger = zap.New(core) })
	ctx := context.Background()
	doomed := fileJob(t, m, Job{Kind: "analysis", OpponentKey: "leela", GameID: "killer", Priority: -1})
	next := fileJob(t, m, Job{Kind: "analysis", OpponentKey: "leela", GameID: "harmless"})
	// Handing a job back (a worker that quits) never counts toward giving it up.
	for range 5 {
		j := mustClaim(t, m, "quitter", time.Minute)
		if j == nil || j.ID != doomed.ID || j.Attempts != 1 {
			t.Fatalf("claimed %+v, want %s at attempt 1 after hand-backs", j, doomed.ID)
		}
		if err := m.ReleaseJob(ctx, j.ID, "quitter"); err != nil {
			t.Fatal(err)
		}
	}
	if jobs := mustJobs(t, m); jobs[0].Worker != "" || jobs[0].Attempts != 0 || !jobs[0].LeaseUntil.IsZero() {
		t.Errorf("a released job is %+v, want free at 0 attempts", jobs[0])
	}
	// Three workers die holding it (their leases run out).
	for attempt := 1; attempt <= maxJobAttempts; attempt++ {
		j := mustClaim(t, m, fmt.Sprintf("dies %d", attempt), 100*time.Millisecond)
		if j == nil || j.ID != doomed.ID || j.Attempts != attempt {
			t.Fatalf("claim %d got %+v", attempt, j)
		}
		time.Sleep(time.Until(j.LeaseUntil) + 20*time.Millisecond)
	}
	if logs.FilterMessageSnippet("gave up").Len() != 0 {
		t.Fatal("gave up before the fourth claim")
	}
	j := mustClaim(t, m, "survivor", time.Minute)
	if j == nil || j.ID != next.ID {
		t.Fatalf("the fourth claim got %+v, want the next job %s", j, next.ID)
	}
	if jobs := mustJobs(t, m); len(jobs) != 1 || jobs[0].ID != next.ID {
		t.Errorf("jobs %v after giving up %s", jobIDs(jobs), doomed.ID)
	}
	warned := logs.FilterMessageSnippet("gave up a job").All()
	if len(warned) != 1 || warned[0].ContextMap()["job"] != doomed.ID || warned[0].ContextMap()["game id"] != "killer" {
		t.Errorf("warnings %+v, want one naming %s", warned, doomed.ID)
	}
	if err := m.FinishJob(ctx, doomed.ID, "dies 3"); !errors.Is(err, ErrJobLost) {
		t.Errorf("finishing a job given up: %v, want ErrJobLost", err)
	}
}

// conformJobProgressIsKept: what a worker did so far (SaveJobProgress) is what the next worker gets, whether the
// first handed the job back at quit or died holding it, through a second handle (a client of the owner on a
// directory) as through the first.
func conformJobProgressIsKept(t *testing.T, open opener) {
	first, second := openPair(t, open)
	ctx := context.Background()
	job := fileJob(t, first, Job{Kind: "analysis", OpponentKey: "leela", GameID: "g1", Payload: json.RawMessage(`{"done":[]}`)})
	j := mustClaim(t, second, "quitter", time.Minute)
	if j == nil || j.ID != job.ID {
		t.Fatalf("claimed %+v", j)
	}
	if err := second.SaveJobProgress(ctx, j.ID, "quitter", json.RawMessage(`{"done":[12]}`)); err != nil {
		t.Fatal(err)
	}
	if err := first.SaveJobProgress(ctx, j.ID, "another", json.RawMessage(`{"done":[]}`)); !errors.Is(err, ErrJobLost) {
		t.Errorf("saving progress on a job another worker holds: %v, want ErrJobLost", err)
	}
	if err := second.SaveJobProgress(ctx, j.ID, "quitter", json.RawMessage(`{"done":`)); !errors.Is(err, ErrBadEvent) {
		t.Errorf("saving a payload that is not JSON: %v, want ErrBadEvent", err)
	}
	if err := second.ReleaseJob(ctx, j.ID, "quitter"); err != nil {
		t.Fatal(err)
	}
	j = mustClaim(t, first, "dies", 100*time.Millisecond)
	if j == nil || j.ID != job.ID || string(j.Payload) != `{"done":[12]}` {
		t.Fatalf("after the hand-back claimed %+v, want %s with the progress saved", j, job.ID)
	}
	if err := first.SaveJobProgress(ctx, j.ID, "dies", json.RawMessage(`{"done":[12,14]}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(j.LeaseUntil) + 20*time.Millisecond)
	j = mustClaim(t, second, "survivor", time.Minute)
	if j == nil || j.ID != job.ID || string(j.Payload) != `{"done":[12,14]}` {
		t.Fatalf("after a lease ran out claimed %+v, want the progress of the worker that died", j)
	}
	if err := second.FinishJob(ctx, j.ID, "survivor"); err != nil {
		t.Fatal(err)
	}
	if err := second.SaveJobProgress(ctx, j.ID, "survivor", json.RawMessage(`{}`)); !errors.Is(err, ErrJobLost) {
		t.Errorf("saving progress on a finished job: %v, want ErrJobLost", err)
	}
}

func conformJobsDumpImportMergeForget(t *testing.T, open opener) {
	src := open(t)
	playGame(t, src, "Leela", t0, 2, 0)
	playGame(t, src, "lc0", t0.Add(time.Hour), 2, 1)
	held := fileJob(t, src, Job{Kind: "analysis", OpponentKey: "leela", Game: "chess", GameID: "g1",
		Payload: json.RawMessage(`{"moves":["e2e4"]}`), Created: t0})
	fileJob(t, src, Job{Kind: "fold", OpponentKey: "leela", Created: t0.Add(time.Minute)})
	fileJob(t, src, Job{Kind: "fold", OpponentKey: "lc0", Created: t0.Add(2 * time.Minute)})
	lc0Prepare := fileJob(t, src, Job{Kind: "prepare", OpponentKey: "lc0", Priority: 2, Created: t0.Add(3 * time.Minute)})
	nobodys := fileJob(t, src, Job{Kind: "compact", Priority: 5, Created: t0.Add(4 * time.Minute)})
	if j := mustClaim(t, src, "w1", time.Hour, "analysis"); j == nil || j.ID != held.ID {
		t.Fatalf("claimed %+v", j)
	}

	dump := dumpString(t, src)
	if n := strings.Count(dump, `"type":"job"`); n != 5 {
		t.Errorf("the dump holds %d jobs, want 5:\n%s", n, dump)
	}
	dst := open(t)
	if _, err := dst.Import(strings.NewReader(dump)); err != nil {
		t.Fatal(err)
	}
	if got, want := mustJobs(t, dst), mustJobs(t, src); !equalJSON(t, got, want) {
		t.Errorf("imported jobs\n%+v\nwant\n%+v", got, want)
	}
	stats, err := dst.Import(strings.NewReader(dump))
	if err != nil {
		t.Fatal(err)
	}
	if stats.Added != 0 {
		t.Errorf("importing twice added %d records", stats.Added)
	}
	if again := dumpString(t, dst); again != dump {
		t.Errorf("the store the dump was imported into dumps as\n%s\nwant\n%s", again, dump)
	}

	if err := src.Merge("lc0", "leela"); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, j := range mustJobs(t, src) {
		if j.OpponentKey == "lc0" {
			t.Errorf("job %+v stays under the merged key", j)
		}
		kinds = append(kinds, j.Kind+"/"+j.OpponentKey)
	}
	// lc0's fold is dropped: leela has one already.
	if want := []string{"analysis/leela", "fold/leela", "prepare/leela", "compact/"}; !slices.Equal(kinds, want) {
		t.Errorf("after the merge jobs are %q, want %q", kinds, want)
	}
	fileJob(t, src, Job{Kind: "prepare", OpponentKey: "lc0", Priority: 2}) // filed under the alias: leela's
	if jobs := mustJobs(t, src); len(jobs) != 4 || jobs[2].ID != lc0Prepare.ID {
		t.Errorf("a job filed under the alias is not leela's one: %+v", jobs)
	}

	if err := src.Forget("leela"); err != nil {
		t.Fatal(err)
	}
	if jobs := mustJobs(t, src); len(jobs) != 1 || jobs[0].ID != nobodys.ID {
		t.Errorf("after forgetting leela the jobs are %+v, want only %s", jobs, nobodys.ID)
	}
	if err := src.FinishJob(context.Background(), held.ID, "w1"); !errors.Is(err, ErrJobLost) {
		t.Errorf("finishing a forgotten opponent's job: %v, want ErrJobLost", err)
	}
}

func conformBadJobsAreRefused(t *testing.T, open opener) {
	m := open(t)
	ctx := context.Background()
	for name, j := range map[string]Job{
		"no kind":            {OpponentKey: "leela"},
		"a key not normal":   {Kind: "fold", OpponentKey: "Leela"},
		"a payload not JSON": {Kind: "fold", Payload: json.RawMessage(`{"a":`)},
		"a payload too big": {Kind: "fold",
			Payload: json.RawMessage(`"` + strings.Repeat("x", maxJobPayload) + `"`)},
		"a control character": {Kind: "fold\n"},
	} {
		err := m.Record(Event{Job: &j}).Wait(ctx)
		if !errors.Is(err, ErrBadEvent) {
			t.Errorf("%s: %v, want ErrBadEvent", name, err)
		}
	}
	job := fileJob(t, m, Job{Kind: "fold"})
	for name, call := range map[string]func() error{
		"a claim without a worker":  func() error { _, err := m.ClaimJob(ctx, "", time.Minute); return err },
		"a claim without a lease":   func() error { _, err := m.ClaimJob(ctx, "w", 0); return err },
		"a lease of a year":         func() error { _, err := m.ClaimJob(ctx, "w", 365*24*time.Hour); return err },
		"a finish without an id":    func() error { return m.FinishJob(ctx, "", "w") },
		"a renewal without a lease": func() error { return m.RenewJob(ctx, job.ID, "w", -time.Second) },
	} {
		if err := call(); !errors.Is(err, ErrBadEvent) {
			t.Errorf("%s: %v, want ErrBadEvent", name, err)
		}
	}
	if jobs := mustJobs(t, m); len(jobs) != 1 || jobs[0].Attempts != 0 {
		t.Errorf("bad calls changed the queue: %+v", jobs)
	}
}

// TestDamagedJobRecordIsSkipped: a job record that cannot be read is skipped with a warning by claims and
// listings (the queue goes on), and reported by Dump as damaged.
func TestDamagedJobRecordIsSkipped(t *testing.T) {
	core, logs := observer.New(zap.WarnLevel)
	m := openTemp(t, func(o *Options) { o.Logger = zap.New(core) })
	good := fileJob(t, m, Job{Kind: "fold", Priority: 1})
	if err := m.own.st.update(func(txn kvTxn) error {
		return txn.set(jobKey("0-damaged"), []byte(`{"id":"0-damaged","kind":`))
	}); err != nil {
		t.Fatal(err)
	}
	if jobs := mustJobs(t, m); len(jobs) != 1 || jobs[0].ID != good.ID {
		t.Errorf("jobs %+v, want only %s", jobs, good.ID)
	}
	if j := mustClaim(t, m, "w", time.Minute); j == nil || j.ID != good.ID {
		t.Errorf("claimed %+v, want %s", j, good.ID)
	}
	if logs.FilterMessageSnippet("cannot be read").Len() == 0 {
		t.Error("no warning of the damaged job record")
	}
	var sb strings.Builder
	if err := m.Dump(&sb); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "0-damaged") {
		t.Errorf("dumping: %v, want ErrCorrupt naming the record", err)
	}
}

// Settings of the job helper process, in its environment.
const (
	envJobHelper = "DOSSIER_MEMORY_JOB_HELPER" // the worker name; set only in the helper
	envJobLease  = "DOSSIER_MEMORY_JOB_LEASE"
)

// TestJobHelper is not a test: re-executed with DOSSIER_MEMORY_JOB_HELPER set, it files an urgent job
// ("filed ID" once acknowledged), claims it ("claimed ID LEASE-UNTIL"), and files jobs until it is killed,
// printing "filed ID" for each acknowledged.
func TestJobHelper(t *testing.T) {
	worker := os.Getenv(envJobHelper)
	if worker == "" {
		t.Skip("a helper process for the job queue's kill -9 test")
	}
	lease, _ := time.ParseDuration(os.Getenv(envJobLease))
	m, err := Open(Options{Dir: os.Getenv(envDir), Schema: os.Getenv(envSchema), SpoolDir: os.Getenv(envSpool),
		ConnectTimeout: 10 * time.Second})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	ctx := context.Background()
	file := func(j Job) {
		j.ID = NewJobID()
		if err := m.Record(Event{Job: &j}).Wait(ctx); err != nil {
			fmt.Println("error", err)
			os.Exit(4)
		}
		fmt.Println("filed", j.ID)
	}
	file(Job{Kind: "urgent", OpponentKey: "leela", GameID: NewGameID(), Priority: -1})
	j, err := m.ClaimJob(ctx, worker, lease, "urgent")
	if err != nil || j == nil {
		fmt.Println("error claiming", j, err)
		os.Exit(5)
	}
	fmt.Println("claimed", j.ID, j.LeaseUntil.Format(time.RFC3339Nano))
	for {
		file(Job{Kind: "analysis", OpponentKey: "leela", GameID: NewGameID(),
			Payload: json.RawMessage(`{"work":"left after the game"}`)})
	}
}

// TestKillNineLosesNoJob kills (SIGKILL) a process that files jobs and holds one: afterwards every job it had
// acknowledged is in the store, and the one it held comes back to another worker once its lease ran out, not
// before.
func TestKillNineLosesNoJob(t *testing.T) {
	for _, backend := range []string{"badger", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			opts := Options{Dir: t.TempDir(), GCInterval: -1}
			var env []string
			if backend == "postgres" {
				srv := pgtest.Start(t)
				opts = Options{Dir: srv.URL, Schema: pgtest.Schema(), SpoolDir: t.TempDir()}
				env = []string{envSchema + "=" + opts.Schema, envSpool + "=" + opts.SpoolDir}
			}
			const lease = 3 * time.Second
			env = append(env, envJobHelper+"=doomed", envDir+"="+opts.Dir, envJobLease+"="+lease.String())
			w := startHelper(t, "TestJobHelper", env...)
			claimed := strings.Fields(w.waitLine(t, "claimed "))
			w.waitLine(t, "filed ")
			time.Sleep(time.Duration(50+rand.N(200)) * time.Millisecond)
			w.kill()
			var filed []string
			for _, line := range w.output() {
				if id, ok := strings.CutPrefix(line, "filed "); ok {
					filed = append(filed, id)
				}
				if strings.HasPrefix(line, "error") {
					t.Fatalf("the helper: %s", line)
				}
			}
			leaseUntil, err := time.Parse(time.RFC3339Nano, claimed[2])
			if err != nil {
				t.Fatal(err)
			}

			opts.SpoolDir = t.TempDir()
			m, err := Open(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			jobs := map[string]Job{}
			for _, j := range mustJobs(t, m) {
				jobs[j.ID] = j
			}
			for _, id := range filed {
				if _, ok := jobs[id]; !ok {
					t.Errorf("acknowledged job %s is not in the store", id)
				}
			}
			urgent := jobs[claimed[1]]
			if urgent.Worker != "doomed" || !urgent.LeaseUntil.Equal(leaseUntil) || urgent.Attempts != 1 {
				t.Errorf("the job held when the helper was killed is %+v", urgent)
			}
			if j := mustClaim(t, m, "heir", time.Minute, "urgent"); j != nil && time.Now().Before(leaseUntil) {
				t.Errorf("claimed %+v while the killed worker's lease held", j)
			}
			time.Sleep(time.Until(leaseUntil) + 50*time.Millisecond)
			j := mustClaim(t, m, "heir", time.Minute, "urgent")
			if j == nil || j.ID != urgent.ID || j.Attempts != 2 || j.Worker != "heir" {
				t.Fatalf("after the lease the heir claimed %+v, want %s at attempt 2", j, urgent.ID)
			}
			if err := m.FinishJob(context.Background(), j.ID, "heir"); err != nil {
				t.Fatal(err)
			}
			t.Logf("killed holding a job after %d acknowledged filings: all in the store, the job taken over after its lease", len(filed))
		})
	}
}
