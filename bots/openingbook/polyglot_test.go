// Our books against Debian's polyglot make-book: the same games give the same positions and moves.

package openingbook

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"dossier/games/chess"
	"dossier/internal/datafile"
)

// polyglotProgram returns Debian's polyglot, skipping the test where it is missing (failing it in CI).
func polyglotProgram(t *testing.T) string {
	t.Helper()
	for _, path := range []string{"polyglot", "/usr/games/polyglot"} {
		if found, err := exec.LookPath(path); err == nil {
			return found
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("polyglot is missing in CI: .ci/run should have installed it")
	}
	t.Skip("Debian's polyglot is not installed")
	return ""
}

// TestOurBookHoldsWhatPolyglotMakes has polyglot make-book and our Maker read the same 200 games (their
// first 16 plies) and compares the two books entry by entry: every (key, move) of polyglot's is one of ours
// and ours has no other, so our keys and move codes are polyglot's in every position of those games.
func TestOurBookHoldsWhatPolyglotMakes(t *testing.T) {
	program := polyglotProgram(t)
	in, err := datafile.Open("../../testdata/chess/8moves_v3_200.pgn.gz")
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(in)
	in.Close()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pgn, theirs := filepath.Join(dir, "games.pgn"), filepath.Join(dir, "polyglot.bin")
	if err := os.WriteFile(pgn, text, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(program, "make-book", "-pgn", pgn, "-bin", theirs, "-max-ply", "16", "-min-game", "1")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("polyglot make-book: %v\n%s", err, out)
	}
	polyglotBook, err := Open(theirs)
	if err != nil {
		t.Fatalf("reading polyglot's book: %v", err)
	}
	defer polyglotBook.Close()

	mk := NewMaker(16)
	n, err := mk.AddRecords(chess.Game{}, string(text))
	if err != nil || n != 200 {
		t.Fatalf("%d games read: %v", n, err)
	}
	entries, err := mk.Entries(MakeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type keyMove struct {
		key  uint64
		move uint16
	}
	ours := map[keyMove]bool{}
	for _, e := range entries {
		ours[keyMove{e.Key, e.Move}] = true
	}
	theirsSeen := map[keyMove]bool{}
	for i := int64(0); i < int64(polyglotBook.Len()); i++ {
		e, err := polyglotBook.entryAt(i)
		if err != nil {
			t.Fatal(err)
		}
		km := keyMove{e.Key, e.Move}
		theirsSeen[km] = true
		if !ours[km] {
			t.Fatalf("polyglot's entry %d (key %016x, move %#04x) is not in our book", i, e.Key, e.Move)
		}
	}
	if len(theirsSeen) != len(ours) {
		t.Fatalf("polyglot's book has %d moves, ours %d", len(theirsSeen), len(ours))
	}
	t.Logf("%d moves in %d positions, the same in both books", len(ours), mk.Positions())
}
