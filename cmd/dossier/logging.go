// Logging: one zap logger for the whole process, on stderr (never stdout, which belongs to the protocol) or
// in a log file that the LogFile option can change while the engine runs.

package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// logSink is where the process's log lines go: stderr, or a file opened for appending. Its destination can
// change at any time; lines never interleave.
type logSink struct {
	mu     sync.Mutex
	stderr io.Writer
	file   *os.File // nil: stderr
	path   string
}

// Write writes one encoded log entry to the current destination.
func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file != nil {
		return s.file.Write(p)
	}
	return s.stderr.Write(p)
}

// Sync flushes the log file.
func (s *logSink) Sync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file != nil {
		return s.file.Sync()
	}
	return nil
}

// setFile moves the log to path (created owner-only, appended to), or back to stderr for "".
func (s *logSink) setFile(path string) error {
	var f *os.File
	if path != "" {
		var err error
		if f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err != nil {
			return fmt.Errorf("log file: %w", err)
		}
	}
	s.mu.Lock()
	old := s.file
	s.file, s.path = f, path
	s.mu.Unlock()
	if old != nil {
		return old.Close()
	}
	return nil
}

// close closes the log file, if any.
func (s *logSink) close() error { return s.setFile("") }

// newLogger returns the process's logger writing to sink at the given level ("debug", "info", "warn",
// "error"), as human-readable console lines.
func newLogger(sink *logSink, level string) (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, fmt.Errorf("log level %q: want debug, info, warn or error", level)
	}
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.ISO8601TimeEncoder
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.AddSync(sink), lvl)
	return zap.New(core), nil
}
