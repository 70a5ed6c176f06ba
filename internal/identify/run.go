// Identification from the command line's options: the options read, the file and the memory opened, the
// report built.
package identify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dossier/games"
	"dossier/internal/cli"
	"dossier/internal/datafile"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

// Options are what dossier memory identify is asked.
type Options struct {
	MemoryDir string
	Game      games.Game
	File      string // the PGN (PDN) file, gzip-compressed when it ends in .gz
	Side      string // the player's name in the tags; "" for whoever is not dossier
	After     []int  // the numbers of games accuracy is measured after
	LeaveOut  bool   // leave the player's own stored games out
	Backoff   learn.IdentifierOptions
}

// ParseBackoff reads --backoff: classes, pooled (the engine's) or uniform.
func ParseBackoff(name string) (learn.IdentifierOptions, error) {
	var opts learn.IdentifierOptions
	switch name {
	case "classes":
		opts.Classes = true
	case "pooled":
	case "uniform":
		opts.Uniform = true
	default:
		return opts, cli.Usagef("--backoff: %q is not classes, pooled or uniform", name)
	}
	return opts, nil
}

// ParseAfter reads --after's comma-separated numbers of games, each at least 1.
func ParseAfter(list string) ([]int, error) {
	var after []int
	for f := range strings.SplitSeq(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 {
			return nil, cli.Usagef("--after: %q is not a number of games", f)
		}
		after = append(after, k)
	}
	return after, nil
}

// FromFile reads the player's games from the file and the stored opponents' from the memory, and ranks the
// hypotheses (Report).
func FromFile(opts Options) (*Report, error) {
	r, err := datafile.Open(opts.File)
	if err != nil {
		return nil, err
	}
	recs, err := readGames(opts.Game, r)
	r.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", opts.File, err)
	}
	name, sessions, err := playerSessions(recs, opts.Side)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", opts.File, err)
	}
	m, err := memory.Open(memory.Options{Dir: opts.MemoryDir})
	if err != nil {
		return nil, err
	}
	stored, err := learn.LoadOpponentGames(m, opts.Game)
	closeErr := m.Close()
	if err != nil {
		return nil, err
	}
	if closeErr != nil {
		return nil, closeErr
	}
	key := play.NameKey(name)
	if opts.LeaveOut {
		stored = slices.DeleteFunc(stored, func(o learn.OpponentGames) bool { return o.Key == key })
	}
	return rank(opts.Game, stored, opts.Backoff, name, sessions, opts.After, opts.LeaveOut)
}
