// The bench subcommand: speed figures for every game's move generator against a reference engine, the search
// signature, or an EPD suite solved (internal/bench measures them).

package main

import (
	"io"
	"strings"
	"time"

	"dossier/bots/memorycost"
	"dossier/games/catalog"
	"dossier/internal/bench"
	"dossier/internal/cli"
)

const benchHelp = `usage: dossier bench [--game G] [--repeat N] [--search-time D] [--reference ENGINE] [--json]
       dossier bench --suite FILE [--suite-time D | --suite-nodes N] [--json]
       dossier bench --signature [--game G] [--json]
       dossier bench --memory-cost [--memory-cost-dir DIR] [--memory-cost-baseline] [--json]

Times perft for every game (or --game's) on one thread, the fastest of --repeat runs, and the default chess
player's search for --search-time on two positions. For chess it runs the same perft with the reference
engine's go perft in the same process, and the reference's search of the same positions for the same time on
one thread, and prints the ratios, since the machines are too noisy for absolute figures to compare; the
default reference is used when it is installed, one given with --reference must work. CPU seconds are
printed beside wall time.

--suite solves an EPD suite instead (bm operations, e.g. WinAtChess) with the default chess player at
--suite-time a position (or --suite-nodes, which does not depend on the machine's load), showing progress on
stderr, and prints how many it solved and the misses.

--signature runs fixed-depth searches (alpha-beta and the model searches, one thread, a fresh table) over a
fixed set of positions of every game (or --game's) and prints their nodes and the total, the signature: it
changes exactly when a search's or an evaluation's behaviour changes, whatever the machine.

--memory-cost measures what the memory costs the search on the clock: a memory of 1,000 games and 100,000
experience entries against one opponent (synthesized into --memory-cost-dir, kept there for the next run; a
temporary directory by default), the Player with it and without a memory play the same chess line at 50 ms a
move on one processor (every thread bound to one CPU, as taskset does), six times each, alternating, and it
prints the searches' nodes per second (every node a move searched, over the moves' time), the first
depth's time and the moves' times: once with isready before each game (cutechess-cli), once with the first
move asked at once (python-chess), once with the first move asked at once and one process a game
(lichess-bot: the measured game is the first of its process); with isready it also prints what a game's start
allocated (the memory's reading), which does not depend on the machine's load. The target (issue 33): nodes per second within 3% and the first depth
within 1 ms of no memory. --memory-cost-baseline plays both sides without the memory: the ratios it prints are
the measure's own noise on this machine, against which to read a single run's.`

func runBench(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier bench", benchHelp, stdout, stderr)
	fs := cmd.Flags
	var speed bench.SpeedOptions
	only := fs.String("game", "", "bench only this game: "+strings.Join(catalog.Names(), ", "))
	fs.IntVar(&speed.Repeat, "repeat", 3, "runs of each perft; the fastest counts")
	fs.DurationVar(&speed.SearchTime, "search-time", 5*time.Second, "time of each chess search speed measurement (0: none)")
	fs.StringVar(&speed.Reference, "reference", bench.DefaultReference, "UCI engine with 'go perft' for the chess reference, perft and search (empty: none)")
	asJSON := fs.Bool("json", false, "print the figures as one JSON value")
	suite := fs.String("suite", "", "an EPD suite (bm operations) to solve with the default chess player instead of the speed figures")
	suiteTime := fs.Duration("suite-time", time.Second, "search time per suite position")
	suiteNodes := fs.Uint64("suite-nodes", 0, "node count per suite position instead of --suite-time (0: the time)")
	memoryCost := fs.Bool("memory-cost", false, "measure what the memory costs the search on the clock instead of the speed figures")
	memoryCostDir := fs.String("memory-cost-dir", "", "the memory --memory-cost synthesizes and reuses (default: a temporary directory)")
	memoryCostBaseline := fs.Bool("memory-cost-baseline", false, "with --memory-cost: both sides without the memory, the measure's own noise")
	signature := fs.Bool("signature", false, "print the node-count signature of fixed-depth searches instead of the speed figures")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	if *only != "" {
		g, err := catalog.Lookup(*only)
		if err != nil {
			return cmd.UsageError("--game: %v", err)
		}
		speed.Game = g.Name()
	}
	if *memoryCost {
		if code, stop := cmd.Refuse("with --memory-cost", "repeat", "search-time", "reference", "suite", "suite-time", "suite-nodes", "signature", "game"); stop {
			return code
		}
		g, err := catalog.Lookup("chess")
		if err != nil {
			return cmd.Exit(err)
		}
		rep, err := memorycost.MeasureFlows(memorycost.Options{Game: g, Games: 1000, Entries: 100000,
			Dir: *memoryCostDir, MoveTime: 50 * time.Millisecond, Moves: 20, Rounds: 6, Baseline: *memoryCostBaseline, Progress: stderr})
		return printReport(cmd, stdout, *asJSON, rep, err)
	}
	if code, stop := cmd.Refuse("without --memory-cost", "memory-cost-dir", "memory-cost-baseline"); stop {
		return code
	}
	if *signature {
		if code, stop := cmd.Refuse("with --signature", "repeat", "search-time", "reference", "suite", "suite-time", "suite-nodes"); stop {
			return code
		}
		rep, err := bench.Signature(speed.Game)
		return printReport(cmd, stdout, *asJSON, rep, err)
	}
	if *suite != "" {
		if code, stop := cmd.Refuse("with --suite", "repeat", "search-time", "reference"); stop {
			return code
		}
		if *suiteNodes > 0 {
			if code, stop := cmd.Refuse("with --suite-nodes", "suite-time"); stop {
				return code
			}
		}
		rep, err := bench.SolveSuite(*suite, speed.Game, bench.SuiteLimit{Time: *suiteTime, Nodes: *suiteNodes}, stderr)
		return printReport(cmd, stdout, *asJSON, rep, err)
	}
	if code, stop := cmd.Refuse("without --suite", "suite-time", "suite-nodes"); stop {
		return code
	}
	if err := speed.Check(); err != nil {
		return cmd.Exit(err)
	}
	if !bench.BenchesChess(speed.Game) {
		if code, stop := cmd.Refuse("without chess", "search-time", "reference"); stop {
			return code
		}
	}
	speed.ReferenceGiven = cmd.Changed("reference")
	text := io.Writer(stdout)
	if *asJSON {
		text = nil
	}
	figures, referenceFailed, err := bench.Speed(speed, text, cmd.Warn)
	if err != nil {
		return cmd.Exit(err)
	}
	if *asJSON {
		if code := printJSON(cmd, stdout, figures); code != cli.ExitOK {
			return code
		}
	}
	if referenceFailed {
		return cli.ExitFailure
	}
	return cli.ExitOK
}

// textReport is a report a subcommand prints as text unless --json asks for JSON.
type textReport interface{ WriteText(w io.Writer) }

// printReport prints a report made with err: the failure, else the report as one line of JSON or as text.
func printReport(cmd *cli.Command, stdout io.Writer, asJSON bool, rep textReport, err error) int {
	if err != nil {
		return cmd.Exit(err)
	}
	if asJSON {
		return printJSON(cmd, stdout, rep)
	}
	rep.WriteText(stdout)
	return cli.ExitOK
}
