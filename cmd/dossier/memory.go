// The memory subcommand: list, show, export, dump, import, forget, merge and compact the per-opponent memory,
// in a directory (alone or while an engine owns the store: the memory reaches it through the owner) or in a
// PostgreSQL database.

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"dossier/bots/player"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/internal/report"
	"dossier/memory"
	"dossier/play"
)

const memoryUsage = `usage: dossier memory COMMAND [--memory DIR|URL] [--json] [arguments]

The memory keeps a dossier on every opponent: the names it was seen under, its ratings, every game with
each of its moves and what we predicted, the results, and what the learners made of it. It lives in
$XDG_DATA_HOME/dossier (else ~/.local/share/dossier) unless --memory says otherwise, and these commands
work while an engine is using it. --memory postgres://USER@HOST:PORT/DB?sslmode=MODE[&schema=NAME] keeps it
in a PostgreSQL database instead, shared by engines on many machines; the password comes from PGPASSWORD or
~/.pgpass and is never printed. dossier memory dump | dossier memory import --memory URL moves a whole
memory from one to the other (either way).

Commands:
  ls                     every opponent: games, wins/draws/losses, last seen, rating, models
  show NAME [--svg FILE] one opponent: profile, results by game, side and time control, prediction
                         accuracy, the models' history (--svg writes a picture: score by game with a
                         95% band, results per colour and opening, the opponent type the learner
                         believes, each model's prediction accuracy by game)
  games NAME [--out F]   the opponent's games as PGN (PDN for checkers), our predictions as comments
  dump [--out F]         the whole store as JSON lines (the format is in memory/doc.go)
  import [FILE|-]        merge a dump, standard input without FILE (importing twice changes nothing; a bad
                         line refuses the whole input)
  forget NAME --yes      remove an opponent with all its games and models
  merge ALIAS NAME       file ALIAS's games and names under NAME (two names of one opponent)
  compact                reclaim the space of deleted and rewritten records now
  prepare NAME [--game G] [--time D] [--min-count N] [--book FILE|default [--book-depth N]]
                         search the positions the opponent's stored games reached at least N times (2)
                         with us to move, most frequent first, for D in all (10m; progress on stderr), and
                         file the moves found as experience: the next game plays them where its own search
                         is shallower. With --book (the engine's BookFile; default: the built-in
                         repertoire) and its BookDepth, as an engine with OwnBook prepares: the positions
                         where the book plays are left out, and those where the lines we are likely to
                         play against the opponent leave the book are searched too, the likeliest first
  study [--follow] [--time D] [--nice N]
                         do the work left after games (the analyses of finished games, the deep pass after
                         the quick one, the preparation when asked for) that no engine did yet, one job at a
                         time, the lost games first, then fold the learners of the opponents studied;
                         progress on stderr. --follow keeps waiting for new jobs (beside an engine that plays
                         one process per game, as under lichess-bot), --time bounds the whole (the job in
                         progress goes back to the queue), --nice sets the priority (19: idle CPU only)
  identify FILE.pgn      which stored opponent played a side of the games (dossier memory identify --help)
`

// memoryCommand is one subcommand of dossier memory: its argument count and what it does with the open
// memory.
type memoryCommand struct {
	args int // the number of positional arguments
	run  func(m *memory.Memory, c *memoryContext) error
}

// memoryContext is what a memory command gets besides the memory: its arguments, flags and output.
type memoryContext struct {
	args   []string
	json   bool
	svg    string
	out    string
	yes    bool
	stdout io.Writer
	stderr io.Writer
	// prepare's flags
	game      string
	budget    time.Duration
	minCount  int
	book      string // "": no book; player.DefaultBookFile: the built-in repertoire
	bookDepth int
	// study's flags (budget is its --time too)
	follow bool
	nice   int
}

// memoryCommands lists the subcommands of dossier memory.
var memoryCommands = map[string]memoryCommand{
	"ls":      {0, memoryLs},
	"show":    {1, memoryShow},
	"games":   {1, memoryGames},
	"dump":    {0, memoryDump},
	"import":  {1, memoryImport},
	"forget":  {1, memoryForget},
	"merge":   {2, memoryMerge},
	"compact": {0, memoryCompact},
	"prepare": {1, memoryPrepare},
	"study":   {0, memoryStudy},
}

func runMemory(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "identify" { // its own flags: see identify.go
		return runMemoryIdentify(args[1:], stdout, stderr)
	}
	cmd := cli.New("dossier memory", memoryUsage, stdout, stderr)
	dir := cmd.Flags.String("memory", "", "the memory: a directory (default $XDG_DATA_HOME/dossier, else ~/.local/share/dossier) or a postgres:// URL")
	asJSON := cmd.Flags.Bool("json", false, "print JSON instead of text")
	svg := cmd.Flags.String("svg", "", "show: also write the chart as an SVG picture to this file")
	out := cmd.Flags.String("out", "", "games, dump: write to this file instead of standard output")
	yes := cmd.Flags.Bool("yes", false, "forget: really forget")
	game := cmd.Flags.String("game", "chess", "prepare: the game to prepare")
	budget := cmd.Flags.Duration("time", 10*time.Minute, "prepare: the time for all positions together")
	minCount := cmd.Flags.Int("min-count", 2, "prepare: how many stored games must have reached a position")
	book := cmd.Flags.String("book", "", "prepare: steer by our book, a polyglot file or default (the built-in repertoire)")
	bookDepth := cmd.Flags.Int("book-depth", 0, "prepare: the book's BookDepth (plies; 0: as deep as it goes)")
	follow := cmd.Flags.Bool("follow", false, "study: keep waiting for new jobs")
	nice := cmd.Flags.Int("nice", 19, "study: the priority of its thread (19: only the CPU nothing else wants)")
	if code, stop := cmd.Parse(args, 0, -1); stop {
		return code
	}
	if len(cmd.Args()) == 0 {
		return cmd.UsageError("which command? (ls, show, games, dump, import, forget, merge, compact, prepare, study)")
	}
	name := cmd.Args()[0]
	sub, ok := memoryCommands[name]
	if !ok {
		return cmd.UsageError("unknown command %q (ls, show, games, dump, import, forget, merge, compact, prepare, study)", name)
	}
	rest := cmd.Args()[1:]
	if name == "import" && len(rest) == 0 {
		rest = []string{"-"} // dossier memory dump | dossier memory import --memory URL
	}
	if len(rest) != sub.args {
		return cmd.UsageError("%s wants %d argument(s), got %d: %q", name, sub.args, len(rest), rest)
	}
	for flag, allowed := range map[string]bool{"svg": name == "show", "out": name == "games" || name == "dump", "yes": name == "forget",
		"game": name == "prepare", "time": name == "prepare" || name == "study", "min-count": name == "prepare",
		"book": name == "prepare", "book-depth": name == "prepare",
		"follow": name == "study", "nice": name == "study"} {
		if cmd.Changed(flag) && !allowed {
			return cmd.UsageError("--%s is not a flag of %s", flag, name)
		}
	}
	if name == "forget" && !*yes {
		return cmd.UsageError("forget removes %q with all its games; add --yes to do it", rest[0])
	}
	m, err := memory.Open(memory.Options{Dir: *dir})
	if err != nil {
		return cmd.Fail("%v", err)
	}
	if name == "prepare" {
		if *budget <= 0 || *minCount < 1 {
			return cmd.UsageError("prepare: --time must be positive and --min-count at least 1")
		}
		if _, err := catalog.Lookup(*game); err != nil {
			return cmd.UsageError("prepare: --game: %v", err)
		}
		if cmd.Changed("book-depth") && *book == "" {
			return cmd.UsageError("prepare: --book-depth needs --book")
		}
		if *book == "default" {
			*book = player.DefaultBookFile
		}
	}
	if name == "study" {
		if !cmd.Changed("time") {
			*budget = 0 // no bound
		}
		if *budget < 0 || *nice < 0 || *nice > 19 {
			return cmd.UsageError("study: --time must not be negative and --nice must be 0 to 19")
		}
	}
	c := &memoryContext{args: rest, json: *asJSON, svg: *svg, out: *out, yes: *yes, stdout: stdout, stderr: stderr,
		game: *game, budget: *budget, minCount: *minCount, book: *book, bookDepth: *bookDepth, follow: *follow, nice: *nice}
	runErr := sub.run(m, c)
	closeErr := m.Close()
	if runErr != nil {
		if errors.Is(runErr, memory.ErrUnknownOpponent) {
			return cmd.UsageError("%s: %v", name, runErr)
		}
		return cmd.Fail("%s: %v", name, runErr)
	}
	if closeErr != nil {
		return cmd.Fail("%v", closeErr)
	}
	return cli.ExitOK
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// memoryLs lists every opponent.
func memoryLs(m *memory.Memory, c *memoryContext) error {
	list, err := m.Opponents()
	if err != nil {
		return err
	}
	if c.json {
		if list == nil {
			list = []memory.Summary{}
		}
		return writeJSON(c.stdout, list)
	}
	return report.WriteOpponents(c.stdout, m.Dir(), list)
}

// memoryShow prints one opponent's profile.
func memoryShow(m *memory.Memory, c *memoryContext) error {
	prof, err := m.Profile(c.args[0])
	if err != nil {
		return err
	}
	gameList, err := m.Games(prof.Key)
	if err != nil {
		return err
	}
	var experience []memory.Experience
	seen := map[string]bool{}
	for _, g := range prof.Games {
		if seen[g.Game] {
			continue
		}
		seen[g.Game] = true
		entries, err := m.Experience(prof.Key, g.Game)
		if err != nil {
			return err
		}
		experience = append(experience, entries...)
	}
	rep := report.NewShow(prof, gameList, experience)
	if c.svg != "" {
		if err := os.WriteFile(c.svg, []byte(rep.SVG()), 0o644); err != nil {
			return err
		}
	}
	if c.json {
		return writeJSON(c.stdout, rep)
	}
	rep.WriteText(c.stdout, c.svg)
	return nil
}

// outputFile returns where a command writes: the --out file (created) or standard output, and its closer.
func outputFile(c *memoryContext) (io.Writer, func() error, error) {
	if c.out == "" {
		return c.stdout, func() error { return nil }, nil
	}
	f, err := os.Create(c.out)
	if err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriter(f)
	return bw, func() error { return errors.Join(bw.Flush(), f.Close()) }, nil
}

// memoryGames exports an opponent's games as PGN (PDN for checkers) with our predictions as comments.
func memoryGames(m *memory.Memory, c *memoryContext) error {
	prof, err := m.Profile(c.args[0])
	if err != nil {
		return err
	}
	list, err := m.Games(prof.Key)
	if err != nil {
		return err
	}
	w, closeOut, err := outputFile(c)
	if err != nil {
		return err
	}
	for i, g := range list {
		text, err := report.StoredGame(g, prof, i+1)
		if err != nil {
			// One game that cannot be written (a move that does not replay, a game this build does not
			// know) must not hide the others.
			fmt.Fprintf(c.stderr, "dossier memory games: warning: skipping game %s (%s, %s): %v\n", g.ID, g.Game,
				g.Start.Format(time.DateTime), err)
			continue
		}
		if _, err := io.WriteString(w, text); err != nil {
			closeOut()
			return err
		}
	}
	return closeOut()
}

// memoryDump writes the whole store as JSON lines.
func memoryDump(m *memory.Memory, c *memoryContext) error {
	w, closeOut, err := outputFile(c)
	if err != nil {
		return err
	}
	if err := m.Dump(w); err != nil {
		closeOut()
		return err
	}
	return closeOut()
}

// memoryImport merges a dump.
func memoryImport(m *memory.Memory, c *memoryContext) error {
	f := os.Stdin
	if c.args[0] != "-" {
		var err error
		if f, err = os.Open(c.args[0]); err != nil {
			return err
		}
		defer f.Close()
	}
	stats, err := m.Import(bufio.NewReader(f))
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(c.stdout, stats)
	}
	fmt.Fprintf(c.stdout, "imported %s: %d records read, %d added or changed, %d already there\n", c.args[0],
		stats.Records, stats.Added, stats.Unchanged)
	return nil
}

// memoryForget removes an opponent.
func memoryForget(m *memory.Memory, c *memoryContext) error {
	key := play.NameKey(c.args[0])
	if err := m.Forget(key); err != nil {
		return err
	}
	if !c.json {
		fmt.Fprintf(c.stdout, "forgot %s\n", key)
	}
	return nil
}

// memoryMerge files one opponent's records under another's name.
func memoryMerge(m *memory.Memory, c *memoryContext) error {
	alias, into := play.NameKey(c.args[0]), play.NameKey(c.args[1])
	if err := m.Merge(alias, into); err != nil {
		return err
	}
	if !c.json {
		fmt.Fprintf(c.stdout, "merged %s into %s\n", alias, into)
	}
	return nil
}

// memoryCompact reclaims space now.
func memoryCompact(m *memory.Memory, c *memoryContext) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := m.Flush(ctx); err != nil {
		return err
	}
	if err := m.Compact(); err != nil {
		return err
	}
	if !c.json {
		fmt.Fprintf(c.stdout, "compacted %s\n", m.Dir())
	}
	return nil
}
