// The match subcommand: bot-vs-bot matches between presets and external UCI engines, with the papers' scoring.
package main

import (
	"context"
	"dossier/bots/searchers"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"dossier/bots"
	"dossier/bots/match"
	"dossier/bots/presets"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/internal/datafile"
)

const matchHelp = `usage: dossier match --game G --player1 SPEC --player2 SPEC [options]

A player SPEC is space-separated key=value pairs (quote values with spaces):
  preset=P [search=S] [model=M] [depth=N] [hash=MB] [threads=T] [contempt=C] [memory=DIR]
                                                                     a dossier player (preset: default strongest)
  ... mode=even | elo=N                                              that player aims at an even game (learning
                                                                     per opponent, in memory=DIR when given) or
                                                                     plays at rating N (UCI_LimitStrength)
  uci=PATH [args="A B"] [Option=Value ...]                           an external UCI engine; other keys are setoption
  ... risk=N                                                         a model search (search=S below) guarded by
                                                                     our alpha-beta: never a move it values more
                                                                     than N below its best (0..10000, 10000: off)
  name=N                                                             display name
  depth=N nodes=N movetime=MS tc=TC                                  this player's limits, over the match's
e.g. --player1 'preset=strongest depth=8' --player2 'uci=/usr/games/stockfish UCI_LimitStrength=true UCI_Elo=1350'
External engines play chess in UCI, the other games through UCI_Variant (another dossier, for example).
Every opening is played twice with colours swapped. An engine that dies, stalls or plays an illegal move
loses that game, and the match goes on. Points: 2 a win, 1 a draw.

Searches (search=S; the preset's evaluation is ours, model=M the opponent model, presets of the game):
  alphabeta (default)            no model
  mstar, mstar-1pass, alphabeta-star
                                 model=P1,P2,...  the opponent plays P1 and models us as P2, ... (completed
                                 as minimax below the last); mstar with model=P@D: the strategy form
  mstar-strategy, mstar-risk     model=P[@D]      the opponent is a D-ply minimax player with P (D below our
                                 depth, default our depth - 1); mstar-risk trusts the model for one reply
  om                             model=P[@D]      the opponent plays P searching D plies (default: our horizon)
  prom                           model=P1:p1,...  the opponent is type Pi with probability pi (sum 1)
  meu                            model=rank:PS    the opponent's reply of rank r has probability ~ (1-PS)^(r-1)
                                 model=discrepancy:PATH  the counts file written by dossier learn
  symmetric                      model=P          both sides know each other's evaluation (ours and P's)
Without model= a model search uses minimax's implicit model and plays as alpha-beta at equal depth.
A model search plays unguarded here unless its spec gives risk=N, so that the papers' players reproduce
their papers; the UCI engine guards every model search with its ModelRisk option (default 50).
e.g. --game checkers --player1 'preset=mat-tot25 search=mstar model=mat-tot25@3' --player2 'preset=mat-tot25'
     --game chess --player1 'search=prom model="strongest:0.5,materialist:0.3,attacker:0.2" depth=4'`

// runMatch plays a match and prints the final table (or --json's summary); 2 is a usage error, 1 a failure.
func runMatch(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier match", matchHelp, stdout, stderr)
	fs := cmd.Flags
	gameName := fs.String("game", "chess", "game: "+strings.Join(catalog.Names(), ", "))
	player1 := fs.String("player1", "", "player 1's spec (required)")
	player2 := fs.String("player2", "", "player 2's spec (required)")
	gamesCount := fs.Int("games", 2, "number of games")
	concurrency := fs.Int("concurrency", 1, "games played at once, each with its own players")
	openingsFile := fs.String("openings", "", "openings file: EPD/FEN (chess), PDN FEN or moves (checkers), Pons digits (connect4), one per line; gzip-compressed when it ends in .gz")
	openingPlies := fs.Int("opening-plies", 0, "keep only this many plies of openings given as moves (PDN games, Pons digits); 0: all")
	randomPlies := fs.Int("random-plies", 0, "random legal plies added to every opening (seeded by --seed)")
	seed := fs.Uint64("seed", 1, "seed of the random openings (and of Chess960's start positions)")
	depth := fs.Int("depth", 0, "depth limit of every move, in plies")
	nodes := fs.Uint64("nodes", 0, "node limit of every move")
	movetime := fs.Int("movetime", 0, "time of every move in milliseconds")
	tc := fs.String("tc", "", "clock per player: [MOVES/]SECONDS[+INC], e.g. 40/60+0.6, 10+0.1")
	maxMoves := fs.Int("max-moves", 0, "a draw after this many moves of each side (the papers' 100-move limit); 0: none")
	drawAfter := fs.Int("adjudicate-draw-after", 0, "a draw once this many plies in a row were played with |score| <= --draw-score; 0: off")
	drawScore := fs.Float64("draw-score", 10, "the score (centipawn-like, as players report) below which --adjudicate-draw-after counts a ply")
	resignScore := fs.Float64("resign-score", 0, "a player resigns after --resign-moves moves of its own scoring -S or worse; 0: off")
	resignMoves := fs.Int("resign-moves", 3, "moves in a row for --resign-score")
	timeMargin := fs.Duration("time-margin", 100*time.Millisecond, "how far past zero a clock may run before the flag falls")
	moveTimeout := fs.Duration("move-timeout", 0, "how long a move without a clock may take before its player loses as stalled (0: movetime + 5s, or 10m)")
	startupTimeout := fs.Duration("startup-timeout", 10*time.Second, "how long an engine may take to answer uci and isready")
	pgnFile := fs.String("pgn", "", "write the games as PGN to this file (chess, connect4, tictactoe)")
	pdnFile := fs.String("pdn", "", "write the games as PDN to this file (checkers)")
	event := fs.String("event", "dossier match", "the Event tag of the game records")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object instead of the table")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	usageError := cmd.UsageError
	// Flags that refine another one mean nothing without it; each is refused rather than ignored.
	for _, dep := range []struct{ flag, needs string }{
		{"opening-plies", "openings"}, {"seed", "random-plies"}, {"draw-score", "adjudicate-draw-after"},
		{"resign-moves", "resign-score"}, {"event", "pgn"},
	} {
		if dep.flag == "seed" && strings.EqualFold(*gameName, "chess960") {
			continue // the seed draws Chess960's start positions too
		}
		if cmd.Changed(dep.flag) && !cmd.Changed(dep.needs) && !(dep.needs == "pgn" && cmd.Changed("pdn")) {
			return usageError("--%s needs --%s", dep.flag, dep.needs)
		}
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		return usageError("%v", err)
	}
	if *player1 == "" || *player2 == "" {
		return usageError("--player1 and --player2 are required (e.g. --player1 'preset=strongest depth=6')")
	}
	cfg := match.Config{Game: g, Games: *gamesCount, Concurrency: *concurrency, RandomPlies: *randomPlies,
		Seed: *seed, MaxMoves: *maxMoves, DrawAfter: *drawAfter, DrawScore: *drawScore, ResignScore: *resignScore,
		ResignMoves: *resignMoves, TimeMargin: *timeMargin, MoveTimeout: *moveTimeout,
		StartupTimeout: *startupTimeout, NewSearcher: newBotSearcher}
	for i, text := range []string{*player1, *player2} {
		if cfg.Players[i], err = match.ParseSpec(text); err != nil {
			return usageError("--player%d: %v", i+1, err)
		}
	}
	switch {
	case *gamesCount < 1:
		return usageError("--games must be at least 1")
	case *concurrency < 1:
		return usageError("--concurrency must be at least 1")
	case *randomPlies < 0 || *openingPlies < 0 || *maxMoves < 0 || *drawAfter < 0 || *resignMoves < 1:
		return usageError("--random-plies, --opening-plies, --max-moves and --adjudicate-draw-after must not be negative, --resign-moves must be positive")
	case *depth < 0 || *movetime < 0:
		return usageError("--depth and --movetime must not be negative")
	case *resignScore < 0 || *drawScore < 0:
		return usageError("--resign-score and --draw-score must not be negative")
	case *pgnFile != "" && *pdnFile != "":
		return usageError("give --pgn or --pdn, not both")
	}
	cfg.Limits = match.Limits{Depth: *depth, Nodes: *nodes, MoveTime: time.Duration(*movetime) * time.Millisecond}
	if *tc != "" {
		if cfg.Limits.Clock, err = match.ParseTimeControl(*tc); err != nil {
			return usageError("--tc: %v", err)
		}
	}
	if *openingsFile != "" {
		f, err := datafile.Open(*openingsFile)
		if err != nil {
			return usageError("--openings: %v", err)
		}
		cfg.Openings, err = match.ReadOpenings(g, f, *openingPlies)
		f.Close()
		if err != nil {
			return usageError("--openings %s: %v", *openingsFile, err)
		}
	}
	var records *match.RecordWriter
	if path, pdn := *pgnFile+*pdnFile, *pdnFile != ""; path != "" {
		// The format is checked before the file is created, so that a wrong flag leaves no empty file.
		if _, err := match.NewRecordWriter(io.Discard, g, pdn, *event); err != nil {
			return usageError("%v", err)
		}
		f, err := os.Create(path)
		if err != nil {
			return usageError("%v", err)
		}
		defer f.Close()
		records, _ = match.NewRecordWriter(f, g, pdn, *event)
	}
	progress := match.NewProgress(stderr, *gamesCount, match.IsTerminal(stderr))
	recordFailed := false
	cfg.OnGame = func(rec match.GameRecord, sum match.Summary) {
		if records != nil {
			if err := records.Write(rec); err != nil && !recordFailed {
				recordFailed = true
				cmd.Warn("writing game %d: %v", rec.Number, err)
			}
		}
		progress.Game(rec, sum)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := match.Run(ctx, cfg)
	progress.Done()
	if err != nil && sum.Games == 0 && ctx.Err() == nil {
		return cmd.Fail("%v", err)
	}
	if *asJSON {
		if code := printJSON(cmd, stdout, sum); code != cli.ExitOK {
			return code
		}
	} else {
		sum.WriteTable(stdout)
	}
	if ctx.Err() != nil {
		return cmd.Fail("interrupted after %d of %d games", sum.Games, *gamesCount)
	}
	if recordFailed {
		return cli.ExitFailure
	}
	return cli.ExitOK
}

// newMixedPlayer builds a mix= player: a bots.MixedSearcher (seeded with 1, so a match replays) named after
// its mixture.
func newMixedPlayer(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
	if spec.Preset != "" || spec.Search != "" || spec.Model != "" || spec.Memory != "" {
		return match.InProcess{}, fmt.Errorf("mix= plays presets with alpha-beta: give it without preset=, search=, model= or memory=")
	}
	cfg := searchers.Config{Depth: spec.Depth, HashMB: spec.HashMB, Threads: spec.Threads, Contempt: spec.Contempt}
	s, err := searchers.NewMixedSearcher(g, cfg, spec.Mix, 1)
	if err != nil {
		return match.InProcess{}, err
	}
	return match.InProcess{Engine: match.SearcherEngine(s), Name: "mix(" + spec.Mix + ")", Depth: spec.Depth}, nil
}

// newBotSearcher builds an in-process player with bots.NewSearcher; its name is the preset's, with the depth
// and, for a model search, the search and its model ("mat-tot25 d4 mstar(mat-tot25@3)").
func newBotSearcher(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
	if spec.Mix != "" {
		return newMixedPlayer(g, spec)
	}
	cfg := searchers.Config{Preset: spec.Preset, Search: spec.Search, Model: spec.Model,
		Depth: spec.Depth, HashMB: spec.HashMB, Threads: spec.Threads, Contempt: spec.Contempt,
		Mode: spec.Mode, LimitStrength: spec.Elo > 0, Elo: spec.Elo, ModelRisk: searchers.ModelRiskOff}
	if spec.Search == "" || strings.EqualFold(spec.Search, searchers.AlphaBetaSearch) {
		cfg.ModelRisk = 0 // the Player's default (alpha-beta plays no model; its game memory reads MemoryRisk)
	}
	if _, err := searchers.New(g, cfg); err != nil {
		return match.InProcess{}, err
	}
	player := bots.NewPlayer(g, cfg)
	if spec.Guarded {
		player.SetModelRisk(spec.ModelRisk)
	}
	if spec.Memory != "" {
		if err := player.UseMemory(bots.MemoryConfig{Enabled: true, Dir: spec.Memory}); err != nil {
			return match.InProcess{}, err
		}
		if err := player.OpenMemory(); err != nil {
			return match.InProcess{}, err
		}
	}
	name, depth := spec.Preset, spec.Depth
	for i, p := range presets.Of(g) {
		if (spec.Preset == "" && i == 0) || strings.EqualFold(p.Name, spec.Preset) {
			name = p.Name
			if depth == 0 {
				depth = p.Depth
			}
			break
		}
	}
	if depth > 0 {
		name += fmt.Sprintf(" d%d", depth)
	}
	switch {
	case spec.Elo > 0:
		name += fmt.Sprintf(" elo%d", spec.Elo)
	case strings.EqualFold(spec.Mode, searchers.EvenMode):
		name += " even"
	}
	if spec.Search != "" && !strings.EqualFold(spec.Search, searchers.AlphaBetaSearch) {
		name += " " + strings.ToLower(spec.Search)
		if model, err := searchers.ParseModelSpec(spec.Model); err == nil && !model.IsZero() {
			name += "(" + model.String() + ")"
		}
	}
	return match.InProcess{Engine: player, Name: name, Depth: depth}, nil
}
