// Bad memory directories: the engine says so once in an info string and plays on without memory, dossier
// memory exits non-zero naming the path, and nothing that was there is deleted or changed.

package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMemoryBadStorage(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the --memory path
	}{
		{"foreign directory", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "photos")
			writeFile(t, filepath.Join(path, "holiday.jpg"), "not a dossier store")
			return path
		}},
		{"a file, not a directory", func(t *testing.T, dir string) string {
			path := filepath.Join(dir, "notes.txt")
			writeFile(t, path, "some notes")
			return path
		}},
		{"below a file", func(t *testing.T, dir string) string {
			writeFile(t, filepath.Join(dir, "notes.txt"), "some notes")
			return filepath.Join(dir, "notes.txt", "memory")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			path := tc.setup(t, root)
			before := snapshot(t, root)

			p := startDossier(t, "--memory", path)
			p.send("uci", "setoption name UCI_Opponent value none none computer someone", "ucinewgame", "isready")
			p.expectLine(30*time.Second, "readyok")
			var errors []string
			for i := 0; i < 2; i++ {
				p.send("position startpos", "go depth 2")
				_, skipped := p.expectPrefix(30*time.Second, "bestmove ")
				for _, line := range skipped {
					if strings.Contains(line, "memory") && strings.HasPrefix(line, "info string error") {
						errors = append(errors, line)
					}
				}
			}
			if len(errors) != 1 || !strings.Contains(errors[0], path) || !strings.Contains(errors[0], "playing without memory") {
				t.Errorf("memory errors over two searches: %q, want one naming %s", errors, path)
			}
			p.send("quit")
			if code := p.wait(30 * time.Second); code != 0 {
				t.Errorf("dossier exited %d", code)
			}

			_, errText, code := runDossier(t, 30*time.Second, "", "memory", "ls", "--memory", path)
			if code != 1 || !strings.Contains(errText, path) {
				t.Errorf("dossier memory ls: exit %d, stderr %q; want 1 and the path named", code, errText)
			}
			if after := snapshot(t, root); after != before {
				t.Errorf("the directory changed:\nbefore\n%s\nafter\n%s", before, after)
			}
		})
	}
}

// writeFile writes a file, making its directory.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot lists every file under root with its size and content, for comparing before and after.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		b.WriteString(rel + " " + info.Mode().String())
		if !info.IsDir() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			b.WriteString(" " + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
