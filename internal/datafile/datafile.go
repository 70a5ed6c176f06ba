// Package datafile opens the project's data files (openings, test suites, test data), plain or gzip-compressed,
// so that large files can be kept compressed and read by every command and test the same way.
package datafile

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// Open opens the file at path for reading, decompressing it on the fly when its name ends in ".gz". Closing
// the result closes the file.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return gzipFile{zr, f}, nil
}

// gzipFile reads through the decompressor and closes both it and the file beneath.
type gzipFile struct {
	*gzip.Reader
	file *os.File
}

// Close closes the decompressor, which checks nothing more, and the file.
func (g gzipFile) Close() error {
	zerr := g.Reader.Close()
	if err := g.file.Close(); err != nil {
		return err
	}
	return zerr
}
