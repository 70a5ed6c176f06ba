package memory

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestMistypedURLIsNoDirectory opens locations that were meant as URLs but are none (issue #34, item 10: a
// missing colon made a badger store whose path held the password): each is refused with ErrBadLocation, the
// error never shows the password, and nothing is created. Directories and real URLs still pass the check.
func TestMistypedURLIsNoDirectory(t *testing.T) {
	const secret = "S3cret-PW"
	t.Chdir(t.TempDir())
	for _, loc := range []string{
		"postgres//dossier:" + secret + "@127.0.0.1:54329/chessmem",
		"postgresql//dossier:" + secret + "@127.0.0.1/chessmem",
		"postgres:/dossier:" + secret + "@127.0.0.1/chessmem",
		"postgres:dossier:" + secret + "@127.0.0.1/chessmem",
		"POSTGRES://dossier:" + secret + "@127.0.0.1/chessmem",
		"postgress://dossier:" + secret + "@127.0.0.1/chessmem",
		"mysql://dossier:" + secret + "@127.0.0.1/chessmem",
		"dossier:" + secret + "@127.0.0.1:5432/chessmem",
		"postgres//dossier:pa/" + secret + "@127.0.0.1/chessmem",
		"postgres//dossier:" + secret + "@x@127.0.0.1/chessmem",
	} {
		t.Run(strings.ReplaceAll(loc, secret, "PW"), func(t *testing.T) {
			m, err := Open(Options{Dir: loc, SpoolDir: t.TempDir()})
			if err == nil {
				m.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, ErrBadLocation) {
				t.Errorf("error %v, want ErrBadLocation", err)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error shows the password: %v", err)
			}
			entries, _ := os.ReadDir(".")
			if len(entries) != 0 {
				t.Errorf("created %v", entries)
			}
		})
	}
	for _, loc := range []string{"", "memory", "./postgres", "postgres", "postgres-old/x", "postgres_data",
		"/var/lib/dossier", "postgres://dossier@127.0.0.1/db", "postgresql://h/db?sslmode=disable", "a/b:c/d",
		"/srv/x://y", "postgres/dossier@host"} {
		if err := CheckLocation(loc); err != nil {
			t.Errorf("CheckLocation(%q) = %v, want nil", loc, err)
		}
	}
}
