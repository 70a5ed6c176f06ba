// The one way tests find the project's shared data folder (../shared/data beside the module root).
package gametest

import (
	"os"
	"path/filepath"
	"testing"
)

// SharedData returns the path of rel under the shared data folder, which lies beside the module root (the
// folder holding go.mod). A missing file skips the test on a developer's machine and fails it in CI
// (CI=true), where the shared folder is always checked out beside the repository.
func SharedData(t testing.TB, rel string) string {
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
	path := filepath.Join(dir, "..", "shared", "data", rel)
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("shared data %s is missing in CI: %v", rel, err)
		}
		t.Skipf("shared data %s is not available: %v", rel, err)
	}
	return path
}
