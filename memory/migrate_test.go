// The migration from schema version 1, tested on a store that version wrote (testdata/v1, made by
// TestWriteV1Fixture), and the refusal of a newer schema.

package memory

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	badger "github.com/dgraph-io/badger/v4"
	"go.uber.org/zap"

	"dossier/play/opponent"
)

// v1Fixture is the memory directory schema version 1 wrote.
const v1Fixture = "testdata/v1"

// The fixture's game.
const v1Game = "20250101T000000.000000000Z-000000000001"

// TestWriteV1Fixture writes testdata/v1 when DOSSIER_WRITE_V1_FIXTURE=1: a store as schema version 1 laid it
// out, with its version 1 profiles (one name, one undated rating) next to records version 2 kept unchanged.
func TestWriteV1Fixture(t *testing.T) {
	if os.Getenv("DOSSIER_WRITE_V1_FIXTURE") != "1" {
		t.Skip("set DOSSIER_WRITE_V1_FIXTURE=1 to write " + v1Fixture)
	}
	if err := os.RemoveAll(v1Fixture); err != nil {
		t.Fatal(err)
	}
	db, err := badger.Open(badgerOptions(filepath.Join(v1Fixture, storeDir), true, zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	score := 1.0
	eval := 35.0
	records := map[string]any{
		string(profileKey("stockfish 16")): &opponentV1{Key: "stockfish 16", Name: "Stockfish 16", Elo: 3000,
			Kind: "computer", First: at, Last: at.Add(time.Hour)},
		string(profileKey(opponent.UnknownKey)): &opponentV1{Key: opponent.UnknownKey, First: at, Last: at},
		string(gameKey(v1Game)): &gameRec{ID: v1Game, Key: "stockfish 16", Game: "chess", Variant: "standard",
			StartFEN: "startpos", Start: at, Result: "1-0", Reason: "resignation", Score: &score,
			Moves: []string{"e2e4", "e7e5"}, End: at.Add(time.Hour)},
		string(moveKey(v1Game, 0, false)): &moveRec{Game: v1Game, Ply: 0, Hash: formatHash(0x463b96181691fc9c),
			Move: "e2e4", Eval: &eval, At: at},
		string(moveKey(v1Game, 1, true)): &moveRec{Game: v1Game, Ply: 1, Opp: true, Hash: formatHash(0x823c9b50fd114196),
			Move: "e7e5", Pred: "e7e5", At: at.Add(time.Second)},
		string(modelKey("stockfish 16", "depth", at.Add(time.Hour), v1Game)): &modelRec{Key: "stockfish 16",
			Model: "depth", At: at.Add(time.Hour), Game: v1Game, State: []byte(`{"depth":12}`)},
	}
	err = db.Update(func(txn *badger.Txn) error {
		if err := txn.Set([]byte(keySchema), []byte("1")); err != nil {
			return err
		}
		if err := txn.Set(indexKey("stockfish 16", v1Game), nil); err != nil {
			return err
		}
		for k, v := range records {
			if err := txn.Set([]byte(k), encodeValue(v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Badger's discard statistics (1 MB of zeros for a new store) are made anew when absent.
	if err := os.Remove(filepath.Join(v1Fixture, storeDir, "DISCARD")); err != nil {
		t.Fatal(err)
	}
}

// copyDir copies the directory tree src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMigrateFromVersion1(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, v1Fixture, dir)
	for open := range 2 { // the second open finds version 3 and changes nothing
		m, err := Open(Options{Dir: dir})
		if err != nil {
			t.Fatalf("open %d: %v", open, err)
		}
		p, err := m.Profile("stockfish 16")
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		if !slices.Equal(p.Names, []string{"Stockfish 16"}) || len(p.Ratings) != 1 || p.Ratings[0].Elo != 3000 ||
			p.Ratings[0].Source != ratingSourceV1 || !p.Ratings[0].At.Equal(at.Add(time.Hour)) || p.Kind != "computer" {
			t.Errorf("open %d: migrated profile %+v", open, p)
		}
		if len(p.Games) != 1 || p.Games[0].ID != v1Game || p.Games[0].Result != "1-0" || p.Games[0].Plies != 2 {
			t.Errorf("open %d: games %+v", open, p.Games)
		}
		if pts := p.Models["depth"]; len(pts) != 1 || string(pts[0].State) != `{"depth":12}` {
			t.Errorf("open %d: models %+v", open, p.Models)
		}
		games, err := m.Games("stockfish 16")
		if err != nil || len(games) != 1 || len(games[0].Records) != 2 || games[0].Records[0].Eval != 35 ||
			games[0].Records[1].PositionKey != 0x823c9b50fd114196 {
			t.Errorf("open %d: game records %+v %v", open, games, err)
		}
		if _, err := m.Profile(opponent.UnknownKey); err != nil {
			t.Errorf("open %d: the unnamed opponent: %v", open, err)
		}
		version := ""
		m.own.st.kv.view(func(txn kvTxn) error {
			v, _, err := txn.get([]byte(keySchema))
			version = string(v)
			return err
		})
		if version != "3" {
			t.Errorf("open %d: schema version %q after the migration", open, version)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot reads every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			data, _ := os.ReadFile(path)
			files[path] = string(data)
		}
		return nil
	})
	return files
}

func TestNewerSchemaIsRefusedUntouched(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	playGame(t, m, "future", t0, 2, 1)
	if err := m.own.st.update(func(txn kvTxn) error { return txn.set([]byte(keySchema), []byte("4")) }); err != nil {
		t.Fatal(err)
	}
	m.Close()
	before := snapshot(t, filepath.Join(dir, storeDir))
	_, err = Open(Options{Dir: dir})
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("got %v, want ErrNewerSchema", err)
	}
	for _, want := range []string{dir, "schema version is 4", "up to 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	after := snapshot(t, filepath.Join(dir, storeDir))
	for path, data := range before {
		if filepath.Base(path) == "LOCK" {
			continue // badger's pid file
		}
		if after[path] != data {
			t.Errorf("%s changed or went (%d bytes, then %d)", path, len(data), len(after[path]))
		}
	}
}
