// The learn subcommand: Sen & Arora's training phase, learning an opponent's discrepancy counts by playing it,
// or Carmel & Markovitch's strategy learning from a player's recorded games (learnstrategy.go).
package main

import (
	"context"
	"dossier/bots/searchers"
	"fmt"
	"io"
	"os"
	"os/signal"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"time"

	"dossier/bots"
	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/internal/cli"
)

const learnHelp = `usage: dossier learn --learner discrepancy --player SPEC --opponent SPEC --out FILE [options]
       dossier learn --learner strategy --records FILE.pgn --name PLAYER [--max-depth N] [--examples N] [--seed N] [--json]

Plays --games games between the player and the opponent from random starting configurations (each played
twice, colours swapped) and counts every move of the opponent by its discrepancy: how much worse for the
opponent it is than its best reply, both valued as MEU at the player's depth values the replies to its move
(the player's evaluation searched depth - 2 plies below each reply). Writes the counts file (JSON) that
search=meu model=discrepancy:FILE reads, and prints the counts per band of move numbers (Sen & Arora's
Figure 2).

SPECs are dossier match's (dossier match --help). The player is in-process and needs a depth (its preset's,
depth= or --depth); with search=meu and no model= it learns while it plays, as Sen & Arora's MEU did,
with the counts learned so far as its model. The opponent may be a preset or an external engine (uci=).
e.g. dossier learn --game connect4 --learner discrepancy --player 'preset=sophisticated depth=4' \
       --opponent 'preset=sp' --games 400 --start-plies 2,4,6,8,10,12,14,16 --seed 1 --out sp-counts.json

The strategy learner reads the chess games of FILE.pgn, takes PLAYER's moves (each position once, where it had
a choice), draws --examples of them by --seed, and learns a linear evaluation over the chess features and a
depth that explain them (Carmel & Markovitch's Figure 9, by linear programming): 60% of the moves to train on,
15% to choose the depth and iterations by, 25% held out. It reports how well the learned strategy and minimax
with dossier's own evaluation at each depth up to --max-depth predict the held-out moves (top-1, top-3,
log-likelihood; moves of equal value share their places).
e.g. dossier learn --learner strategy --records glaurung-games.pgn --name glaurung --max-depth 2`

// runLearn plays the training games and writes the counts; 2 is a usage error, 1 a failure.
func runLearn(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier learn", learnHelp, stdout, stderr)
	fs := cmd.Flags
	gameName := fs.String("game", "connect4", "game: "+strings.Join(catalog.Names(), ", "))
	learner := fs.String("learner", "discrepancy", "what to learn: discrepancy (Sen & Arora's counts by discrepancy range, by playing) or strategy (Carmel & Markovitch's linear programming, from --records)")
	playerText := fs.String("player", "", "the learning player's spec (required, in-process)")
	opponentText := fs.String("opponent", "", "the opponent's spec (required)")
	gamesCount := fs.Int("games", 400, "number of training games (each starting configuration is played twice)")
	startPlies := fs.String("start-plies", "2,4,6,8,10,12,14,16", "random moves played before each starting configuration, cycled")
	seed := fs.Uint64("seed", 1, "seed of the starting configurations")
	out := fs.String("out", "", "the counts file to write (required)")
	edgesText := fs.String("edges", "", "discrepancy range edges, increasing (default: from the evaluation's weights, see bots.DefaultDiscrepancyEdges)")
	bandPlies := fs.Int("band-plies", 6, "width of a band of move numbers in plies (0: one band)")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	depth := fs.Int("depth", 0, "depth limit of every move, in plies")
	movetime := fs.Int("movetime", 0, "time of every move in milliseconds")
	maxMoves := fs.Int("max-moves", 0, "a draw after this many moves of each side; 0: none")
	records := fs.String("records", "", "strategy: the chess games to learn from (PGN, gzip-compressed when it ends in .gz)")
	name := fs.String("name", "", "strategy: the player whose moves are learned (its White or Black tag)")
	maxDepth := fs.Int("max-depth", 2, "strategy: the deepest search depth tried (1..4)")
	examples := fs.Int("examples", 800, "strategy: at most this many of the player's moves, drawn by --seed (more can make the solver fail: see the README)")
	asJSON := fs.Bool("json", false, "strategy: print the report as one JSON object")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	usageError := cmd.UsageError
	discrepancyOnly := []string{"player", "opponent", "games", "start-plies", "out", "edges", "band-plies", "concurrency",
		"depth", "movetime", "max-moves"}
	strategyOnly := []string{"records", "name", "max-depth", "examples", "json"}
	switch *learner {
	case "strategy":
		if code, stop := cmd.Refuse("with --learner strategy", discrepancyOnly...); stop {
			return code
		}
		switch {
		case *records == "" || *name == "":
			return usageError("--records and --name are required with --learner strategy (dossier learn --help)")
		case cmd.Changed("game") && !strings.EqualFold(*gameName, "chess"):
			return usageError("--game %s: the strategy learner reads chess games (PGN)", *gameName)
		case *maxDepth < 1 || *maxDepth > maxStrategyDepth:
			return usageError("--max-depth must be 1..%d", maxStrategyDepth)
		case *examples < 20:
			return usageError("--examples must be at least 20")
		}
		err := learnStrategyFromRecords(strategyOptions{records: *records, name: *name, maxDepth: *maxDepth,
			examples: *examples, seed: *seed, asJSON: *asJSON}, stdout)
		if err != nil {
			return cmd.Fail("%v", err)
		}
		return cli.ExitOK
	case "discrepancy":
		if code, stop := cmd.Refuse("with --learner discrepancy", strategyOnly...); stop {
			return code
		}
	default:
		return usageError("--learner %q: the learners are discrepancy and strategy", *learner)
	}
	switch {
	case *playerText == "" || *opponentText == "" || *out == "":
		return usageError("--player, --opponent and --out are required (dossier learn --help)")
	case *gamesCount < 1 || *concurrency < 1:
		return usageError("--games and --concurrency must be at least 1")
	case *depth < 0 || *movetime < 0 || *maxMoves < 0 || *bandPlies < 0:
		return usageError("--depth, --movetime, --max-moves and --band-plies must not be negative")
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		return usageError("%v", err)
	}
	plies, err := parseList(*startPlies, strconv.Atoi)
	if err != nil {
		return usageError("--start-plies: %v", err)
	}
	var edges []float64
	if *edgesText != "" {
		if edges, err = parseList(*edgesText, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }); err != nil {
			return usageError("--edges: %v", err)
		}
	}
	cfg := match.Config{Game: g, Games: *gamesCount, Concurrency: *concurrency, MaxMoves: *maxMoves,
		Limits: match.Limits{Depth: *depth, MoveTime: time.Duration(*movetime) * time.Millisecond}}
	for i, text := range []string{*playerText, *opponentText} {
		if cfg.Players[i], err = match.ParseSpec(text); err != nil {
			return usageError("--%s: %v", []string{"player", "opponent"}[i], err)
		}
	}
	player := cfg.Players[0]
	if player.External() {
		return usageError("--player: the learning player must be in-process (its evaluation measures the discrepancies)")
	}
	playerDepth, err := learnerDepth(g, player, *depth)
	if err != nil {
		return usageError("--player: %v", err)
	}
	dl, err := bots.NewDiscrepancyLearner(g, bots.DiscrepancyLearnerConfig{Preset: player.Preset, Depth: playerDepth,
		Edges: edges, BandPlies: *bandPlies, Opponent: *opponentText})
	if err != nil {
		return usageError("%v", err)
	}
	if cfg.Openings, err = bots.DiscrepancyStarts(g, plies, (*gamesCount+1)/2, *seed); err != nil {
		return usageError("%v", err)
	}
	online := strings.EqualFold(player.Search, searchers.MEUSearch) && player.Model == ""
	cfg.NewSearcher = func(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
		built, err := newBotSearcher(g, spec)
		if err != nil || !online || !reflect.DeepEqual(spec, player) {
			return built, err
		}
		searcher, err := dl.NewMEUSearcher(searchers.Config{Preset: spec.Preset, Depth: spec.Depth,
			HashMB: spec.HashMB, Threads: spec.Threads})
		built.Engine = match.SearcherEngine(searcher)
		built.Name += "(learning)"
		return built, err
	}
	progress := match.NewProgress(stderr, *gamesCount, match.IsTerminal(stderr))
	cfg.OnGame = func(rec match.GameRecord, sum match.Summary) { progress.Game(rec, sum) }

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := bots.TrainDiscrepancies(ctx, cfg, dl)
	progress.Done()
	if err != nil && sum.Games == 0 {
		return cmd.Fail("%v", err)
	}
	counts := dl.Counts()
	if sum.Players[1] != "" {
		counts.Opponent = sum.Players[1]
	}
	if saveErr := counts.Save(*out); saveErr != nil {
		return cmd.Fail("%v", saveErr)
	}
	fmt.Fprintf(stdout, "%s vs %s: +%d =%d -%d in %d games\n", sum.Players[0], sum.Players[1], sum.Wins, sum.Draws,
		sum.Losses, sum.Games)
	counts.WriteTable(stdout)
	fmt.Fprintf(stdout, "\nwrote %s\n", *out)
	if err != nil {
		return cmd.Fail("stopped after %d of %d games: %v", sum.Games, *gamesCount, err)
	}
	return cli.ExitOK
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
