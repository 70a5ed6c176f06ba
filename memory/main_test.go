// The memory tests' main: it tears down the throw-away PostgreSQL cluster the tests started, if any.

package memory

import (
	"os"
	"testing"

	"dossier/internal/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}
