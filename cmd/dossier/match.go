// The match subcommand: bot-vs-bot matches between presets and external UCI engines, with the papers' scoring
// (internal/contest plays them).

package main

import (
	"io"
	"strings"
	"time"

	"dossier/bots/match"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/internal/contest"
)

const matchHelp = `usage: dossier match --game G --player1 SPEC --player2 SPEC [options]

A player SPEC is space-separated key=value pairs (quote values with spaces):
  preset=P [search=S] [model=M] [depth=N] [hash=MB] [threads=T] [contempt=C] [memory=DIR]
                                                                     a dossier player (preset: default strongest)
  ... log=FILE                                                       its memory's log (info level, JSON lines;
                                                                     one line a game says what the memory did)
  ... mode=even | elo=N                                              that player aims at an even game (learning
                                                                     per opponent, in memory=DIR when given) or
                                                                     plays at rating N (UCI_LimitStrength)
  uci=PATH [args="A B"] [Option=Value ...]                           an external UCI engine; other keys are setoption
  ... restart=on                                                     quit after every game, started anew for the
                                                                     next (one process a game, as lichess-bot)
  ... risk=N                                                         a model search (search=S below) guarded by
                                                                     our alpha-beta: never a move it values more
                                                                     than N below its best (0..10000, 10000: off)
  name=N                                                             display name
  randommoves=N                                                      this player's first N moves of each game drawn
                                                                     at random (an opponent varying its openings)
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
     --game chess --player1 'search=prom model="strongest:0.5,materialist:0.3,attacker:0.2" depth=4'

SPRT (--sprt elo0,elo1 [--alpha A] [--beta B]): a sequential test of H0 "player 1 is elo0 Elo stronger" against
H1 "elo1 Elo stronger" (logistic Elo) over game pairs (an opening played with both colours), as fishtest runs
it: the generalized log-likelihood ratio (LLR) of the pentanomial counts [LL, LD, DD/WL, WD, WW] with the
most likely pair distributions under each hypothesis. The match stops, after finishing the pairs under way,
once the LLR reaches log((1-B)/A) (H1 accepted: the change gains elo1) or log(B/(1-A)) (H0 accepted), or
at --games. The table then gives the pentanomial counts, the Elo from the pairs with its 95% interval, the
LLR, its bounds and the verdict; --json gives the same under "pentanomial", "pair_elo*" and "sprt".
e.g. --player1 'uci=./dossier-new name=new' --player2 'uci=./dossier-base name=base' --tc 5+0.05
     --openings testdata/chess/uho_4060_v3_2000.epd.gz --sprt 0,5 --concurrency 16`

// runMatch plays a match and prints the final table (or --json's summary); 2 is a usage error, 1 a failure.
func runMatch(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier match", matchHelp, stdout, stderr)
	fs := cmd.Flags
	var o contest.Options
	fs.StringVar(&o.GameName, "game", "chess", "game: "+strings.Join(catalog.Names(), ", "))
	fs.StringVar(&o.Player1, "player1", "", "player 1's spec (required)")
	fs.StringVar(&o.Player2, "player2", "", "player 2's spec (required)")
	fs.IntVar(&o.Games, "games", 2, "number of games")
	fs.IntVar(&o.Concurrency, "concurrency", 1, "games played at once, each with its own players")
	fs.StringVar(&o.Openings, "openings", "", "openings file: EPD/FEN or PGN games (chess), PDN FEN or moves or games (checkers), Pons digits (connect4), one per line; gzip-compressed when it ends in .gz")
	fs.IntVar(&o.OpeningPlies, "opening-plies", 0, "keep only this many plies of openings given as moves (PGN or PDN games, Pons digits); 0: all")
	fs.IntVar(&o.RandomPlies, "random-plies", 0, "random legal plies added to every opening (seeded by --seed)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the random openings (and of Chess960's start positions)")
	fs.IntVar(&o.Depth, "depth", 0, "depth limit of every move, in plies")
	fs.Uint64Var(&o.Nodes, "nodes", 0, "node limit of every move")
	fs.IntVar(&o.MoveTimeMS, "movetime", 0, "time of every move in milliseconds")
	fs.StringVar(&o.TimeControl, "tc", "", "clock per player: [MOVES/]SECONDS[+INC], e.g. 40/60+0.6, 10+0.1")
	fs.IntVar(&o.MaxMoves, "max-moves", 0, "a draw after this many moves of each side (the papers' 100-move limit); 0: none")
	fs.IntVar(&o.DrawAfter, "adjudicate-draw-after", 0, "a draw once this many plies in a row were played with |score| <= --draw-score; 0: off")
	fs.Float64Var(&o.DrawScore, "draw-score", 10, "the score (centipawn-like, as players report) below which --adjudicate-draw-after counts a ply")
	fs.Float64Var(&o.ResignScore, "resign-score", 0, "a player resigns after --resign-moves moves of its own scoring -S or worse; 0: off")
	fs.IntVar(&o.ResignMoves, "resign-moves", 3, "moves in a row for --resign-score")
	fs.DurationVar(&o.TimeMargin, "time-margin", 100*time.Millisecond, "how far past zero a clock may run before the flag falls")
	fs.DurationVar(&o.MoveTimeout, "move-timeout", 0, "how long a move without a clock may take before its player loses as stalled (0: movetime + 5s, or 10m)")
	fs.DurationVar(&o.StartupTimeout, "startup-timeout", 10*time.Second, "how long an engine may take to answer uci and isready")
	fs.StringVar(&o.PGN, "pgn", "", "write the games as PGN to this file (chess, connect4, tictactoe)")
	fs.StringVar(&o.PDN, "pdn", "", "write the games as PDN to this file (checkers)")
	fs.StringVar(&o.Event, "event", "dossier match", "the Event tag of the game records")
	fs.StringVar(&o.SPRT, "sprt", "", "elo0,elo1: stop once a sequential test accepts elo = elo0 or elo = elo1 (logistic Elo of player 1, game pairs); --games is then the most games (default 100000, even)")
	fs.Float64Var(&o.Alpha, "alpha", match.DefaultAlpha, "--sprt's chance of accepting elo1 when elo0 is true")
	fs.Float64Var(&o.Beta, "beta", match.DefaultBeta, "--sprt's chance of accepting elo0 when elo1 is true")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object instead of the table")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	ctx, stop := interruptible()
	defer stop()
	out, err := contest.Run(ctx, o, cmd.Changed, stderr, cmd.Warn)
	if err != nil {
		return cmd.Exit(err)
	}
	if *asJSON {
		if code := printJSON(cmd, stdout, out.Summary); code != cli.ExitOK {
			return code
		}
	} else {
		out.Summary.WriteTable(stdout)
	}
	if ctx.Err() != nil {
		if o.SPRT != "" {
			return cmd.Fail("interrupted after %d games, the SPRT %s", out.Summary.Games, out.Summary.Verdict)
		}
		return cmd.Fail("interrupted after %d of %d games", out.Summary.Games, o.Games)
	}
	if out.RecordFailed {
		return cli.ExitFailure
	}
	return cli.ExitOK
}
