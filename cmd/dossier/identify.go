// The memory identify subcommand: which stored opponent played one side of the games of a PGN (PDN) file
// (internal/identify).

package main

import (
	"io"
	"strings"

	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/internal/identify"
)

const identifyUsage = `usage: dossier memory identify [--memory DIR] [--game G] [--side NAME] [--after 1,3,10] [--leave-out] [--json] FILE.pgn

Ranks the stored opponents of the memory, and someone new, as the player of one side of the games in FILE.pgn
(PDN for checkers; gzip-compressed when it ends in .gz), as the engine does for an opponent who gives no name:
per stored opponent, the moves it played in each position of its stored games; the likelihood of the player's
moves under each; the posterior with a uniform prior. The player is the one named NAME in the White/Black tags,
or by default the one that is not "dossier"; its games are taken in file order as one session.

--after K,... also measures accuracy: for each K, every window of K consecutive games is one trial, right when
the first of the ranking is the player's own key (the NAME as the memory files it); it counts too the windows
after which one stored opponent's posterior passed 0.95 (the engine's "identified"), and how many of those
named the player. --leave-out drops the player's own stored games first, so that a right answer is someone new.
--backoff picks the identifier's back-off (the engine uses pooled).
`

// runMemoryIdentify is dossier memory identify; 2 is a usage error, 1 a failure.
func runMemoryIdentify(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier memory identify", identifyUsage, stdout, stderr)
	var opts identify.Options
	cmd.Flags.StringVar(&opts.MemoryDir, "memory", "", "the memory: a directory (default $XDG_DATA_HOME/dossier, else ~/.local/share/dossier) or a postgres:// URL")
	gameName := cmd.Flags.String("game", "chess", "game: "+strings.Join(catalog.Names(), ", "))
	cmd.Flags.StringVar(&opts.Side, "side", "", "the player to identify, by its name in the White/Black tags (default: whoever is not dossier)")
	afterList := cmd.Flags.String("after", "", "measure accuracy after these numbers of games, e.g. 1,3,10")
	cmd.Flags.BoolVar(&opts.LeaveOut, "leave-out", false, "leave the player's own stored games out (the right answer is then someone new)")
	asJSON := cmd.Flags.Bool("json", false, "print JSON instead of text")
	backoff := cmd.Flags.String("backoff", "pooled", "the back-off under an opponent's counts: pooled (the engine's), uniform or classes (see bots.IdentifierOptions)")
	if code, stop := cmd.Parse(args, 1, 1); stop {
		return code
	}
	var err error
	if opts.Game, err = catalog.Lookup(*gameName); err != nil {
		return cmd.UsageError("%v", err)
	}
	if opts.Backoff, err = identify.ParseBackoff(*backoff); err != nil {
		return cmd.Exit(err)
	}
	if opts.After, err = identify.ParseAfter(*afterList); err != nil {
		return cmd.Exit(err)
	}
	opts.File = cmd.Args()[0]
	rep, err := identify.FromFile(opts)
	if err == nil && *asJSON {
		err = writeJSON(stdout, rep)
	} else if err == nil {
		err = rep.Write(stdout)
	}
	return cmd.Exit(err)
}
