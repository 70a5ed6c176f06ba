// The dump format (JSON lines, one record a line with its "type") and the import that merges one back.

package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Limits of one dump page and one import batch sent over the socket.
const (
	pageRecords = 1000
	pageBytes   = 1 << 20
	maxLineLen  = 4 << 20
)

// dumpPage is one page of a dump: lines after a cursor (a store key), and the cursor to ask for the next.
type dumpPage struct {
	Lines []json.RawMessage `json:"lines"`
	Next  string            `json:"next"`
	Done  bool              `json:"done"`
}

// dumpPrefixes are the key prefixes a dump holds; the game index (g/) follows from the games, the jobs' names
// (q/) from the jobs, and the schema version is the dump's first line. Jobs are operational state, but a dump
// moved to another store (or restored) keeps the work that was left.
var dumpPrefixes = []string{prefAlias, prefGame, prefMove, prefProfile, prefModel, prefMistake, prefExperience,
	prefCommonExperience, prefJob}

// page reads up to a page of records after the key cursor ("" for the start).
func (s *store) page(after string) (*dumpPage, error) {
	out := &dumpPage{Next: after}
	err := s.kv.view(func(txn kvTxn) error {
		size := 0
		// after+"\x00" is the first key after the cursor.
		err := txn.scan(nil, []byte(after+"\x00"), true, func(k, v []byte) error {
			if len(out.Lines) >= pageRecords || size >= pageBytes {
				return errStopScan
			}
			key := string(k)
			out.Next = key
			if !hasAnyPrefix(key, dumpPrefixes) {
				return nil
			}
			rec, err := decodeValue(k, v)
			if err != nil {
				return fail(s.dir, ErrCorrupt, err)
			}
			line := dumpLine(rec)
			out.Lines = append(out.Lines, line)
			size += len(line)
			return nil
		})
		out.Done = err == nil && len(out.Lines) < pageRecords && size < pageBytes
		return err
	})
	return out, err
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// dumpLine encodes a decoded record as a dump line, with its type (set for the encoding and cleared again).
func dumpLine(rec any) []byte {
	field, name := dumpType(rec)
	if field == nil {
		panic(fmt.Sprintf("memory: no dump line for %T", rec))
	}
	*field = name
	defer func() { *field = "" }()
	return encodeValue(rec)
}

// dumpType returns the Type field of a record a dump holds, which only its dump line sets, and the type that
// line names; nil for any other record.
func dumpType(rec any) (field *string, name string) {
	switch r := rec.(type) {
	case *opponentRec:
		return &r.Type, typeOpponent
	case *aliasRec:
		return &r.Type, typeAlias
	case *gameRec:
		return &r.Type, typeGame
	case *moveRec:
		return &r.Type, typeMove
	case *modelRec:
		return &r.Type, typeModel
	case *mistakeRec:
		return &r.Type, typeMistake
	case *experienceRec:
		return &r.Type, typeExperience
	case *jobRec:
		return &r.Type, typeJob
	}
	return nil, ""
}

// parseLine reads one dump line into its checked record (a *schemaRec, *opponentRec, *aliasRec, *gameRec,
// *moveRec, *modelRec, *mistakeRec, *experienceRec or *jobRec, without its type).
func parseLine(line []byte) (any, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return nil, err
	}
	var rec interface{ check() error }
	switch head.Type {
	case typeSchema:
		r := &schemaRec{}
		if err := decodeStrict(line, r); err != nil {
			return nil, err
		}
		if r.Version < 1 || r.Version > schemaVersion {
			return nil, fmt.Errorf("%w: the dump's schema version is %d, this dossier reads up to %d",
				ErrNewerSchema, r.Version, schemaVersion)
		}
		return r, nil
	case typeOpponent:
		rec = &opponentRec{}
	case typeAlias:
		rec = &aliasRec{}
	case typeGame:
		rec = &gameRec{}
	case typeMove:
		rec = &moveRec{}
	case typeModel:
		rec = &modelRec{}
	case typeMistake:
		rec = &mistakeRec{}
	case typeExperience:
		rec = &experienceRec{}
	case typeJob:
		rec = &jobRec{}
	case "":
		return nil, errors.New(`the line has no "type"`)
	default:
		return nil, fmt.Errorf("unknown record type %q", head.Type)
	}
	if err := decodeStrict(line, rec); err != nil {
		return nil, err
	}
	if err := rec.check(); err != nil {
		return nil, err
	}
	clearType(rec)
	return rec, nil
}

// clearType drops the dump's type from a record, which the store does not keep.
func clearType(rec any) {
	if field, _ := dumpType(rec); field != nil {
		*field = ""
	}
}

// importOrder ranks the record kinds in the order an import applies them: opponents before the aliases that
// merge them, games before their moves, models, mistakes, experience and jobs last.
func importOrder(rec any) int {
	switch rec.(type) {
	case *opponentRec:
		return 0
	case *aliasRec:
		return 1
	case *gameRec:
		return 2
	case *moveRec:
		return 3
	}
	return 4
}

// readDump reads and checks a whole dump, returning its lines (without the schema line) in import order. The
// first malformed line fails it, named by number.
func readDump(r io.Reader) ([][]byte, int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLineLen)
	var kinds [5][][]byte
	n, records := 0, 0
	schema := false
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		rec, err := parseLine(line)
		if err != nil {
			return nil, 0, fmt.Errorf("line %d: %w", n, err)
		}
		records++
		if _, ok := rec.(*schemaRec); ok {
			if schema || records != 1 {
				return nil, 0, fmt.Errorf("line %d: the schema line must come first, once", n)
			}
			schema = true
			continue
		}
		if !schema {
			return nil, 0, fmt.Errorf("line %d: the dump does not start with its schema line", n)
		}
		kinds[importOrder(rec)] = append(kinds[importOrder(rec)], bytes.Clone(line))
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("line %d: %w", n+1, err)
	}
	var out [][]byte
	for _, k := range kinds {
		out = append(out, k...)
	}
	return out, records, nil
}

// importRecords applies checked dump records (in import order), merging each into what is stored; it reports
// how many changed the store.
func (s *store) importRecords(lines []json.RawMessage) (ImportStats, error) {
	var stats ImportStats
	recs := make([]any, len(lines))
	for i, line := range lines {
		rec, err := parseLine(line)
		if err != nil {
			return stats, fail(s.dir, ErrBadImport, err)
		}
		if _, ok := rec.(*schemaRec); ok {
			return stats, fail(s.dir, ErrBadImport, errors.New("a schema line inside a batch"))
		}
		recs[i] = rec
	}
	err := s.batch(func(b batcher) error {
		for _, rec := range recs {
			var changed bool
			var err error
			if a, ok := rec.(*aliasRec); ok {
				changed, err = s.merge(b, a.Alias, a.Key)
			} else {
				err = b.do(func(txn kvTxn) error {
					changed, err = s.importOne(txn, rec)
					return err
				})
			}
			if err != nil {
				return err
			}
			stats.Records++
			if changed {
				stats.Added++
			} else {
				stats.Unchanged++
			}
		}
		return nil
	})
	return stats, err
}

// importOne merges one record that is not an alias.
func (s *store) importOne(txn kvTxn, rec any) (bool, error) {
	switch r := rec.(type) {
	case *opponentRec:
		key, err := s.resolve(txn, r.Key)
		if err != nil {
			return false, err
		}
		c := *r
		c.Key = key
		return s.mergeInto(txn, &c)
	case *gameRec:
		cur, err := s.getGame(txn, r.ID)
		if err != nil {
			return false, err
		}
		merged := *r
		if cur != nil {
			merged = *cur
			overlayGame(&merged, r)
		}
		if merged.Key != "" {
			if merged.Key, err = s.resolve(txn, merged.Key); err != nil {
				return false, err
			}
			if cur != nil && cur.Key != "" && cur.Key != merged.Key {
				if err := txn.del(indexKey(cur.Key, cur.ID)); err != nil {
					return false, err
				}
			}
			if err := txn.set(indexKey(merged.Key, merged.ID), nil); err != nil {
				return false, err
			}
		}
		return s.put(txn, gameKey(merged.ID), &merged)
	case *moveRec:
		return s.put(txn, moveKey(r.Game, r.Ply, r.Opp), r)
	case *modelRec:
		return s.putModel(txn, r)
	case *mistakeRec:
		key, err := s.resolve(txn, r.Key)
		if err != nil {
			return false, err
		}
		if _, err := s.mergeInto(txn, &opponentRec{Key: key}); err != nil {
			return false, err
		}
		c := *r
		c.Key = key
		return s.put(txn, mistakeKey(key, c.ID), &c)
	case *experienceRec:
		key := r.Key
		if key != "" {
			var err error
			if key, err = s.resolve(txn, key); err != nil {
				return false, err
			}
		}
		return s.mergeExperience(txn, key, r)
	case *jobRec:
		return s.importJob(txn, r)
	}
	return false, fmt.Errorf("record %T cannot be imported", rec)
}

// overlayGame sets on dst every field src knows.
func overlayGame(dst, src *gameRec) {
	set := func(d *string, s string) {
		if s != "" {
			*d = s
		}
	}
	set(&dst.Key, src.Key)
	set(&dst.Game, src.Game)
	set(&dst.Variant, src.Variant)
	set(&dst.TC, src.TC)
	set(&dst.StartFEN, src.StartFEN)
	set(&dst.Result, src.Result)
	set(&dst.Reason, src.Reason)
	set(&dst.FinalFEN, src.FinalFEN)
	if src.Key != "" {
		dst.Side = src.Side
	}
	if src.Score != nil {
		dst.Score = src.Score
	}
	if len(src.Moves) > 0 {
		dst.Moves = src.Moves
	}
	if !src.Start.IsZero() {
		dst.Start = src.Start
	}
	if !src.End.IsZero() {
		dst.End = src.End
	}
}
