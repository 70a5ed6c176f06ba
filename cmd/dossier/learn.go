// The learn subcommand: Sen & Arora's training phase, learning an opponent's discrepancy counts by playing it,
// or Carmel & Markovitch's strategy learning from a player's recorded games (internal/training runs both).
package main

import (
	"io"
	"strings"

	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/internal/training"
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

// runLearn runs the learner --learner names; 2 is a usage error, 1 a failure.
func runLearn(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier learn", learnHelp, stdout, stderr)
	fs := cmd.Flags
	var d training.DiscrepancyOptions
	var s training.StrategyOptions
	fs.StringVar(&d.GameName, "game", "connect4", "game: "+strings.Join(catalog.Names(), ", "))
	learner := fs.String("learner", "discrepancy", "what to learn: discrepancy (Sen & Arora's counts by discrepancy range, by playing) or strategy (Carmel & Markovitch's linear programming, from --records)")
	fs.StringVar(&d.Player, "player", "", "the learning player's spec (required, in-process)")
	fs.StringVar(&d.Opponent, "opponent", "", "the opponent's spec (required)")
	fs.IntVar(&d.Games, "games", 400, "number of training games (each starting configuration is played twice)")
	fs.StringVar(&d.StartPlies, "start-plies", "2,4,6,8,10,12,14,16", "random moves played before each starting configuration, cycled")
	fs.Uint64Var(&d.Seed, "seed", 1, "seed of the starting configurations")
	fs.StringVar(&d.Out, "out", "", "the counts file to write (required)")
	fs.StringVar(&d.Edges, "edges", "", "discrepancy range edges, increasing (default: from the evaluation's weights, see bots.DefaultDiscrepancyEdges)")
	fs.IntVar(&d.BandPlies, "band-plies", 6, "width of a band of move numbers in plies (0: one band)")
	fs.IntVar(&d.Concurrency, "concurrency", 1, "games played at once")
	fs.IntVar(&d.Depth, "depth", 0, "depth limit of every move, in plies")
	fs.IntVar(&d.MoveTimeMS, "movetime", 0, "time of every move in milliseconds")
	fs.IntVar(&d.MaxMoves, "max-moves", 0, "a draw after this many moves of each side; 0: none")
	fs.StringVar(&s.Records, "records", "", "strategy: the chess games to learn from (PGN, gzip-compressed when it ends in .gz)")
	fs.StringVar(&s.Name, "name", "", "strategy: the player whose moves are learned (its White or Black tag)")
	fs.IntVar(&s.MaxDepth, "max-depth", 2, "strategy: the deepest search depth tried (1..4)")
	fs.IntVar(&s.Examples, "examples", 800, "strategy: at most this many of the player's moves, drawn by --seed (more can make the solver fail: see docs/papers.md)")
	fs.BoolVar(&s.JSON, "json", false, "strategy: print the report as one JSON object")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	discrepancyOnly := []string{"player", "opponent", "games", "start-plies", "out", "edges", "band-plies", "concurrency",
		"depth", "movetime", "max-moves"}
	strategyOnly := []string{"records", "name", "max-depth", "examples", "json"}
	switch *learner {
	case "strategy":
		if code, stop := cmd.Refuse("with --learner strategy", discrepancyOnly...); stop {
			return code
		}
		if cmd.Changed("game") {
			s.Game = d.GameName
		}
		s.Seed = d.Seed
		return cmd.Exit(training.LearnStrategy(s, stdout))
	case "discrepancy":
		if code, stop := cmd.Refuse("with --learner discrepancy", strategyOnly...); stop {
			return code
		}
	default:
		return cmd.UsageError("--learner %q: the learners are discrepancy and strategy", *learner)
	}
	ctx, stop := interruptible()
	defer stop()
	return cmd.Exit(training.LearnDiscrepancies(ctx, d, stdout, stderr))
}
