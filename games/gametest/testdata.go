// The one way tests find the repository's test data: the testdata folder at the module root.

package gametest

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"dossier/internal/datafile"
)

// TestData returns the path of rel under the testdata folder beside go.mod. The data is part of the
// repository, so a missing file fails the test rather than skipping it.
func TestData(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
	path := filepath.Join(dir, "testdata", rel)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("test data %s is missing from the repository: %v", rel, err)
	}
	return path
}

// OpenTestData opens rel under the testdata folder, decompressing it when its name ends in ".gz"; the file
// is closed when the test ends.
func OpenTestData(t testing.TB, rel string) io.Reader {
	t.Helper()
	r, err := datafile.Open(TestData(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
