// Package contest plays dossier match: it builds the in-process players that match specs name and runs a
// match from the command line's options, with its game records and progress.
package contest

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"dossier/bots/match"
	"dossier/games/catalog"
	"dossier/games/chess"
	"dossier/internal/cli"
	"dossier/internal/datafile"
)

// Options are dossier match's flags, one field a flag.
type Options struct {
	GameName               string
	Player1, Player2       string // the players' specs
	Games, Concurrency     int
	Openings               string // the openings file
	OpeningPlies           int
	RandomPlies            int
	Seed                   uint64
	Depth                  int
	Nodes                  uint64
	MoveTimeMS             int
	TimeControl            string
	MaxMoves               int
	DrawAfter              int
	DrawScore, ResignScore float64
	ResignMoves            int
	TimeMargin             time.Duration
	MoveTimeout            time.Duration
	StartupTimeout         time.Duration
	PGN, PDN               string // the record files
	Event                  string
	// SPRT is "elo0,elo1" for a sequential test (empty: none), with its error rates Alpha and Beta.
	SPRT        string
	Alpha, Beta float64
}

// DefaultSPRTGames is the most games of an SPRT match when --games is not given.
const DefaultSPRTGames = 100000

// Outcome is what a match that ran leaves: its summary, and whether writing its records failed (each failure
// was reported as it happened).
type Outcome struct {
	Summary      match.Summary
	RecordFailed bool
}

// checkDependencies refuses a flag that refines another one given without it, rather than ignoring it;
// changed tells whether the user set a flag.
func checkDependencies(gameName string, changed func(flag string) bool) error {
	for _, dep := range []struct{ flag, needs string }{
		{"opening-plies", "openings"}, {"seed", "random-plies"}, {"draw-score", "adjudicate-draw-after"},
		{"resign-moves", "resign-score"}, {"event", "pgn"}, {"alpha", "sprt"}, {"beta", "sprt"},
	} {
		if dep.flag == "seed" && strings.EqualFold(gameName, chess.Game{Chess960: true}.Variant()) {
			continue // the seed draws Chess960's start positions too
		}
		if changed(dep.flag) && !changed(dep.needs) && !(dep.needs == "pgn" && changed("pdn")) {
			return cli.Usagef("--%s needs --%s", dep.flag, dep.needs)
		}
	}
	return nil
}

// config checks the options and builds the match's configuration; every error is the command line's fault.
func (o Options) config(changed func(flag string) bool) (match.Config, error) {
	if err := checkDependencies(o.GameName, changed); err != nil {
		return match.Config{}, err
	}
	g, err := catalog.Lookup(o.GameName)
	if err != nil {
		return match.Config{}, cli.Usagef("%v", err)
	}
	if o.Player1 == "" || o.Player2 == "" {
		return match.Config{}, cli.Usagef("--player1 and --player2 are required (e.g. --player1 'preset=strongest depth=6')")
	}
	cfg := match.Config{Game: g, Games: o.Games, Concurrency: o.Concurrency, RandomPlies: o.RandomPlies,
		Seed: o.Seed, MaxMoves: o.MaxMoves, DrawAfter: o.DrawAfter, DrawScore: o.DrawScore, ResignScore: o.ResignScore,
		ResignMoves: o.ResignMoves, TimeMargin: o.TimeMargin, MoveTimeout: o.MoveTimeout,
		StartupTimeout: o.StartupTimeout, NewSearcher: NewPlayer}
	for i, text := range []string{o.Player1, o.Player2} {
		if cfg.Players[i], err = match.ParseSpec(text); err != nil {
			return cfg, cli.Usagef("--player%d: %v", i+1, err)
		}
	}
	switch {
	case o.Games < 1:
		return cfg, cli.Usagef("--games must be at least 1")
	case o.Concurrency < 1:
		return cfg, cli.Usagef("--concurrency must be at least 1")
	case o.RandomPlies < 0 || o.OpeningPlies < 0 || o.MaxMoves < 0 || o.DrawAfter < 0 || o.ResignMoves < 1:
		return cfg, cli.Usagef("--random-plies, --opening-plies, --max-moves and --adjudicate-draw-after must not be negative, --resign-moves must be positive")
	case o.Depth < 0 || o.MoveTimeMS < 0:
		return cfg, cli.Usagef("--depth and --movetime must not be negative")
	case o.ResignScore < 0 || o.DrawScore < 0:
		return cfg, cli.Usagef("--resign-score and --draw-score must not be negative")
	case o.PGN != "" && o.PDN != "":
		return cfg, cli.Usagef("give --pgn or --pdn, not both")
	}
	if o.SPRT != "" {
		test, err := match.ParseSPRT(o.SPRT, o.Alpha, o.Beta)
		if err != nil {
			return cfg, cli.Usagef("--sprt %s --alpha %g --beta %g: %v", o.SPRT, o.Alpha, o.Beta, err)
		}
		cfg.SPRT = &test
		if !changed("games") {
			cfg.Games = DefaultSPRTGames
		} else if o.Games%2 != 0 {
			return cfg, cli.Usagef("--games is the most games of --sprt, which plays game pairs: it must be even, not %d", o.Games)
		}
	}
	cfg.Limits = match.Limits{Depth: o.Depth, Nodes: o.Nodes, MoveTime: time.Duration(o.MoveTimeMS) * time.Millisecond}
	if o.TimeControl != "" {
		if cfg.Limits.Clock, err = match.ParseTimeControl(o.TimeControl); err != nil {
			return cfg, cli.Usagef("--tc: %v", err)
		}
	}
	if o.Openings != "" {
		f, err := datafile.Open(o.Openings)
		if err != nil {
			return cfg, cli.Usagef("--openings: %v", err)
		}
		cfg.Openings, err = match.ReadOpenings(g, f, o.OpeningPlies)
		f.Close()
		if err != nil {
			return cfg, cli.Usagef("--openings %s: %v", o.Openings, err)
		}
	}
	return cfg, nil
}

// createRecords creates the --pgn or --pdn file and its writer, or returns nil without either flag. The
// format is checked before the file is created, so that a wrong flag leaves no empty file.
func (o Options) createRecords(cfg match.Config) (*match.RecordWriter, io.Closer, error) {
	path, pdn := o.PGN+o.PDN, o.PDN != ""
	if path == "" {
		return nil, nil, nil
	}
	if _, err := match.NewRecordWriter(io.Discard, cfg.Game, pdn, o.Event); err != nil {
		return nil, nil, cli.Usagef("%v", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, cli.Usagef("%v", err)
	}
	records, _ := match.NewRecordWriter(f, cfg.Game, pdn, o.Event)
	return records, f, nil
}

// Run checks the options (changed tells whether the user set a flag), plays the match with its progress on
// stderr and writes its records; warn reports a record that could not be written. It returns an error only
// when the options are wrong (cli.Usagef) or no game was played for a reason other than ctx's end.
func Run(ctx context.Context, o Options, changed func(flag string) bool, stderr io.Writer,
	warn func(format string, a ...any)) (Outcome, error) {
	var out Outcome
	cfg, err := o.config(changed)
	if err != nil {
		return out, err
	}
	records, file, err := o.createRecords(cfg)
	if err != nil {
		return out, err
	}
	if file != nil {
		defer file.Close()
	}
	if cfg.SPRT != nil && len(cfg.Openings) == 0 && cfg.RandomPlies == 0 && !strings.EqualFold(o.GameName, "chess960") {
		warn("--sprt without --openings or --random-plies: every pair starts from the same position, so a deterministic pair of players repeats one pair of games")
	}
	progress := match.NewProgress(stderr, cfg.Games, match.IsTerminal(stderr))
	cfg.OnGame = func(rec match.GameRecord, sum match.Summary) {
		if records != nil {
			if err := records.Write(rec); err != nil && !out.RecordFailed {
				out.RecordFailed = true
				warn("writing game %d: %v", rec.Number, err)
			}
		}
		progress.Game(rec, sum)
	}
	out.Summary, err = match.Run(ctx, cfg)
	progress.Done()
	if err != nil && out.Summary.Games == 0 && ctx.Err() == nil {
		return out, err
	}
	return out, nil
}
