// The socket protocol between the owning process and its clients: newline-delimited JSON requests carrying a
// sequence number, answered by replies carrying the same number and an error.

package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// protocolVersion changes whenever requests or replies change meaning; a client and an owner of different
// versions refuse each other at hello.
const protocolVersion = 3

// Files of the memory directory besides the store.
const (
	lockFile       = "lock"        // flock'd by the owner
	socketFile     = "socket"      // the owner's unix socket
	socketPathFile = "socket.path" // where the socket is when the directory's path is too long for one
)

// maxSocketPath is the longest path a unix socket address holds (108 bytes with the terminating NUL).
const maxSocketPath = 107

// The requests' operations.
const (
	opHello     = "hello"
	opEvent     = "event"
	opProfile   = "profile"
	opOpponents = "opponents"
	opGames     = "games"
	opDump      = "dump"
	opImport    = "import"
	opForget    = "forget"
	opMerge     = "merge"
	opCompact   = "compact"
	// opExperience reads a game's experience tables (protocol version 2).
	opExperience = "experience"
)

// wireRequest is one request from a client (or this process) to the owner.
type wireRequest struct {
	Seq     uint64            `json:"seq"`
	Op      string            `json:"op"`
	Version int               `json:"version,omitempty"` // hello
	Event   *eventRec         `json:"event,omitempty"`
	Key     string            `json:"key,omitempty"`     // profile, games, forget, merge (the alias), experience
	Brief   bool              `json:"brief,omitempty"`   // games: without the move records; profile: without games and models
	Game    string            `json:"game,omitempty"`    // experience
	Into    string            `json:"into,omitempty"`    // merge
	After   string            `json:"after,omitempty"`   // dump: the cursor
	Records []json.RawMessage `json:"records,omitempty"` // import: dump lines
	Job     *jobCall          `json:"job,omitempty"`     // the job operations (protocol version 3)
}

// wireReply answers the request with the same Seq; Code names the sentinel error of Err, if any.
type wireReply struct {
	Seq  uint64          `json:"seq"`
	Err  string          `json:"err,omitempty"`
	Code string          `json:"code,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// errorCodes name the sentinel errors on the wire, so errors.Is works on a client as on the owner.
var errorCodes = map[string]error{
	"unknown_opponent": ErrUnknownOpponent,
	"newer_schema":     ErrNewerSchema,
	"not_a_store":      ErrNotAStore,
	"corrupt":          ErrCorrupt,
	"bad_event":        ErrBadEvent,
	"bad_import":       ErrBadImport,
	"unavailable":      ErrUnavailable,
	"closed":           ErrClosed,
	"merge":            ErrMerge,
	"disk_full":        ErrDiskFull,
	"bad_location":     ErrBadLocation,
	"job_lost":         ErrJobLost,
}

// newReply builds the reply to seq from a result and an error.
func newReply(seq uint64, data any, err error) wireReply {
	r := wireReply{Seq: seq}
	if err != nil {
		r.Err = err.Error()
		for code, sentinel := range errorCodes {
			if errors.Is(err, sentinel) {
				r.Code = code
				break
			}
		}
		return r
	}
	if data != nil {
		raw, err := json.Marshal(data)
		if err != nil {
			r.Err = fmt.Sprintf("encoding the reply: %v", err)
			return r
		}
		r.Data = raw
	}
	return r
}

// err returns the reply's error, nil when it succeeded: an *Error of the memory directory dir with the owner's
// message and the sentinel its code names.
func (r *wireReply) err(dir string) error {
	if r.Err == "" {
		return nil
	}
	return &Error{Dir: dir, Kind: errorCodes[r.Code], remote: r.Err}
}

// socketPath returns where the owner of the memory directory dir listens: dir/socket, or, when that path is
// too long for a unix socket address, a file under os.TempDir() named by a hash of the directory.
func socketPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if p := filepath.Join(abs, socketFile); len(p) <= maxSocketPath {
		return p, nil
	}
	sum := sha256.Sum256([]byte(abs))
	p := filepath.Join(os.TempDir(), "dossier-"+hex.EncodeToString(sum[:12])+".sock")
	if len(p) > maxSocketPath {
		return "", fmt.Errorf("no unix socket path fits: %s is too long and so is %s", abs, p)
	}
	return p, nil
}
