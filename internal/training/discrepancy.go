// Package training runs dossier learn's two learners: Sen & Arora's discrepancy counts, learned by playing the
// opponent, and Carmel & Markovitch's strategy, learned from a player's recorded games.
package training

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"

	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/internal/contest"
	"dossier/memory/learn"
)

// DiscrepancyOptions are the flags of the discrepancy learner.
type DiscrepancyOptions struct {
	GameName           string
	Player, Opponent   string // the specs
	Games, Concurrency int
	StartPlies         string // random plies before each starting configuration, comma-separated and cycled
	Seed               uint64
	Out                string // the counts file
	Edges              string // discrepancy range edges, comma-separated; "" for the default
	BandPlies          int
	Depth, MoveTimeMS  int
	MaxMoves           int
}

// discrepancyRun is a checked discrepancy training: the match to play and the learner that counts its moves.
type discrepancyRun struct {
	cfg    match.Config
	player match.PlayerSpec
	dl     *learn.DiscrepancyLearner
}

// prepare checks the options and builds the match and the learner; every error is the command line's fault.
func (o DiscrepancyOptions) prepare() (discrepancyRun, error) {
	var run discrepancyRun
	switch {
	case o.Player == "" || o.Opponent == "" || o.Out == "":
		return run, cli.Usagef("--player, --opponent and --out are required (dossier learn --help)")
	case o.Games < 1 || o.Concurrency < 1:
		return run, cli.Usagef("--games and --concurrency must be at least 1")
	case o.Depth < 0 || o.MoveTimeMS < 0 || o.MaxMoves < 0 || o.BandPlies < 0:
		return run, cli.Usagef("--depth, --movetime, --max-moves and --band-plies must not be negative")
	}
	g, err := catalog.Lookup(o.GameName)
	if err != nil {
		return run, cli.Usagef("%v", err)
	}
	plies, err := parseList(o.StartPlies, strconv.Atoi)
	if err != nil {
		return run, cli.Usagef("--start-plies: %v", err)
	}
	var edges []float64
	if o.Edges != "" {
		if edges, err = parseList(o.Edges, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }); err != nil {
			return run, cli.Usagef("--edges: %v", err)
		}
	}
	run.cfg = match.Config{Game: g, Games: o.Games, Concurrency: o.Concurrency, MaxMoves: o.MaxMoves,
		Limits: match.Limits{Depth: o.Depth, MoveTime: time.Duration(o.MoveTimeMS) * time.Millisecond}}
	for i, text := range []string{o.Player, o.Opponent} {
		if run.cfg.Players[i], err = match.ParseSpec(text); err != nil {
			return run, cli.Usagef("--%s: %v", []string{"player", "opponent"}[i], err)
		}
	}
	run.player = run.cfg.Players[0]
	if run.player.External() {
		return run, cli.Usagef("--player: the learning player must be in-process (its evaluation measures the discrepancies)")
	}
	playerDepth, err := learnerDepth(g, run.player, o.Depth)
	if err != nil {
		return run, cli.Usagef("--player: %v", err)
	}
	run.dl, err = searchers.NewDiscrepancyLearner(g, run.player.Preset, 0, learn.DiscrepancyLearnerConfig{Depth: playerDepth,
		Edges: edges, BandPlies: o.BandPlies, Opponent: o.Opponent})
	if err != nil {
		return run, cli.Usagef("%v", err)
	}
	if run.cfg.Openings, err = match.DistinctRandomStarts(g, plies, (o.Games+1)/2, o.Seed); err != nil {
		return run, cli.Usagef("%v", err)
	}
	return run, nil
}

// newSearcher builds the match's in-process players (contest.NewPlayer); with search=meu and no model= the
// learning player learns while it plays, as Sen & Arora's MEU did, with the counts so far as its model.
func (run discrepancyRun) newSearcher(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
	online := strings.EqualFold(run.player.Search, searchers.MEUSearch) && run.player.Model == ""
	built, err := contest.NewPlayer(g, spec)
	if err != nil || !online || !reflect.DeepEqual(spec, run.player) {
		return built, err
	}
	searcher, err := searchers.NewLearningMEU(g, run.dl, searchers.Config{Preset: spec.Preset, Depth: spec.Depth,
		HashMB: spec.HashMB, Threads: spec.Threads})
	built.Engine = match.SearcherEngine(searcher)
	built.Name += "(learning)"
	return built, err
}

// LearnDiscrepancies plays the training games with their progress on stderr, writes the counts file and
// prints the result and the counts on stdout. A training stopped early still writes what it counted, and
// then returns its error.
func LearnDiscrepancies(ctx context.Context, o DiscrepancyOptions, stdout, stderr io.Writer) error {
	run, err := o.prepare()
	if err != nil {
		return err
	}
	run.cfg.NewSearcher = run.newSearcher
	progress := match.NewProgress(stderr, o.Games, match.IsTerminal(stderr))
	run.cfg.OnGame = func(rec match.GameRecord, sum match.Summary) { progress.Game(rec, sum) }
	sum, err := TrainDiscrepancies(ctx, run.cfg, run.dl)
	progress.Done()
	if err != nil && sum.Games == 0 {
		return err
	}
	counts := run.dl.Counts()
	if sum.Players[1] != "" {
		counts.Opponent = sum.Players[1]
	}
	if saveErr := counts.Save(o.Out); saveErr != nil {
		return saveErr
	}
	fmt.Fprintf(stdout, "%s vs %s: +%d =%d -%d in %d games\n", sum.Players[0], sum.Players[1], sum.Wins, sum.Draws,
		sum.Losses, sum.Games)
	counts.WriteTable(stdout)
	fmt.Fprintf(stdout, "\nwrote %s\n", o.Out)
	if err != nil {
		return fmt.Errorf("stopped after %d of %d games: %v", sum.Games, o.Games, err)
	}
	return nil
}

// learnerDepth returns the search depth of the learning player: its spec's depth, else the smaller of the
// match's depth limit and its preset's depth.
func learnerDepth(g games.Game, spec match.PlayerSpec, limit int) (int, error) {
	if spec.Depth > 0 {
		return spec.Depth, nil
	}
	preset, err := presets.Lookup(g, spec.Preset)
	if err != nil {
		return 0, err
	}
	d := preset.Depth
	if limit > 0 && (d == 0 || limit < d) {
		d = limit
	}
	if d == 0 {
		return 0, fmt.Errorf("preset %s searches as deep as time allows: give depth= or --depth, the depth the counts are for", preset.Name)
	}
	return d, nil
}

// parseList reads comma-separated values.
func parseList[T any](text string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, field := range strings.Split(text, ",") {
		v, err := parse(strings.TrimSpace(field))
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", strings.TrimSpace(field))
		}
		out = append(out, v)
	}
	return out, nil
}
