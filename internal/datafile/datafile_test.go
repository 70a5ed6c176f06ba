// Tests of opening plain and gzip-compressed data files.

package datafile

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	text := "1. 11-15 23-19 *\n"
	var packed bytes.Buffer
	zw := gzip.NewWriter(&packed)
	zw.Write([]byte(text))
	zw.Close()
	files := map[string][]byte{"plain.pdn": []byte(text), "packed.pdn.gz": packed.Bytes(), "bad.pdn.gz": []byte(text)}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name, file, want, err string
	}{
		{"plain", "plain.pdn", text, ""},
		{"gzip", "packed.pdn.gz", text, ""},
		{"not gzip", "bad.pdn.gz", "", "bad.pdn.gz: gzip: invalid header"},
		{"missing", "none.pdn", "", "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Open(filepath.Join(dir, c.file))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil || string(got) != c.want {
				t.Errorf("read %q, %v; want %q", got, err, c.want)
			}
			if err := r.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
	}
}
