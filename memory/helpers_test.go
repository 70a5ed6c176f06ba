// Helpers the memory's tests share: opening a store in a temporary directory and recording whole games.

package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"

	"dossier/play/opponent"
)

// openTemp opens a new memory in a temporary directory, closed when the test ends.
func openTemp(t testing.TB, with ...func(*Options)) *Memory {
	t.Helper()
	o := Options{Dir: t.TempDir(), GCInterval: -1}
	for _, f := range with {
		f(&o)
	}
	m, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// openTwice opens the memory directory dir twice, first and second in that order; the test closes them.
func openTwice(t *testing.T, dir string) (first, second *Memory) {
	t.Helper()
	first, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	second, err = Open(Options{Dir: dir})
	if err != nil {
		first.Close()
		t.Fatal(err)
	}
	return first, second
}

// waitAll waits up to 20 s for the moves' pending events, failing the test at the first that fails; when says
// at what point of the test ("" for none).
func waitAll(t *testing.T, pendings []*Pending, when string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for ply, p := range pendings {
		if err := p.Wait(ctx); err != nil {
			t.Fatalf("move %d%s: %v", ply, when, err)
		}
	}
}

// storedMoves counts the move records of game id in the store m owns.
func storedMoves(m *Memory, id string) int {
	n := 0
	m.own.st.kv.view(func(txn kvTxn) error {
		return m.own.st.scan(txn, movePrefix(id), false, func([]byte, any) error { n++; return nil })
	})
	return n
}

// mustRecord records an event and waits for its commit.
func mustRecord(t testing.TB, m *Memory, ev Event) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := m.Record(ev).Wait(ctx); err != nil {
		t.Fatalf("recording %+v: %v", ev, err)
	}
}

// t0 is the time the tests' games start at.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// playGame records a game against name: its start, plies moves (the opponent's at odd plies), its end with our
// score, and a model update; it returns the game's id.
func playGame(t testing.TB, m *Memory, name string, start time.Time, plies int, score float64) string {
	t.Helper()
	id := NewGameID()
	opp := opponent.Opponent{Name: name, Elo: 2000, Kind: opponent.Computer, Source: "uci"}
	mustRecord(t, m, Event{Start: &GameStart{GameID: id, Opponent: opp, Game: "chess", Variant: "standard",
		TimeControl: "40/60", StartFEN: "startpos", At: start}})
	moves := make([]string, plies)
	for ply := range plies {
		moves[ply] = fmt.Sprintf("m%d", ply)
		mustRecord(t, m, Event{Move: &MoveRecord{GameID: id, Ply: ply, ByOpponent: ply%2 == 1,
			PositionKey: uint64(ply) * 0x9e3779b97f4a7c15, FEN: fmt.Sprintf("fen %d", ply), Move: moves[ply],
			TimeMS: int64(100 * ply), Predicted: "m1", Probability: 0.25, Eval: float64(ply),
			At: start.Add(time.Duration(ply) * time.Second)}})
	}
	result := map[float64]string{1: "1-0", 0.5: "1/2-1/2", 0: "0-1"}[score]
	mustRecord(t, m, Event{End: &GameEnd{GameID: id, Result: result, Reason: "checkmate", OurScore: score,
		Moves: moves, FinalFEN: "final", At: start.Add(time.Hour)}})
	state, _ := json.Marshal(map[string]float64{"p": score})
	mustRecord(t, m, Event{Model: &ModelUpdate{OpponentKey: opponent.NameKey(name), Model: "typeprobs", State: state,
		GameID: id, At: start.Add(time.Hour)}})
	return id
}

// equalJSON compares two values by their JSON forms.
func equalJSON(t testing.TB, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(ja) == string(jb)
}

// nopLogger is the logger of tests that open badger themselves.
func nopLogger() *zap.Logger { return zap.NewNop() }

// statfs reads a file system's free space.
type statfs struct{}

func (statfs) free(t testing.TB, path string) int {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		t.Fatal(err)
	}
	return int(st.Bavail) * int(st.Bsize)
}
