// The book subcommand: make an opening book from game records, or show what a book holds in a position.

package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"dossier/bots/openingbook"
	"dossier/bots/searchers"
	"dossier/games/catalog"
	"dossier/internal/cli"
	"dossier/internal/datafile"
)

const bookHelp = `usage: dossier book make --out FILE [--game G] [--plies N] [--min-games N] [--weight games|results]
                         [--vet-depth D --vet-margin M [--threads T]] RECORDS...
       dossier book show [FILE] [--game G] [--fen FEN] [--moves "M1 M2 ..."]

make reads game records (PGN for chess, PDN for checkers; gzip-compressed when a name ends in .gz) and
writes an opening book in polyglot's layout (a chess book is a polyglot book any GUI reads): every move of
the games' first --plies plies played in at least --min-games games, weighed by the games it was played in
(--weight games, for a file of openings without results) or by 2 a win and 1 a draw for its player
(--weight results, as polyglot make-book). With --vet-depth, our search at that depth vets each move: a move
valued more than --vet-margin (centipawns in chess) below the position's best is left out.

show prints the book's moves in the position (the start, --fen, then --moves played from it) with their
weights; without FILE it shows the game's built-in repertoire (the OwnBook option's default BookFile).`

// runBook dispatches book make and book show.
func runBook(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "make":
			return runBookMake(args[1:], stdout, stderr)
		case "show":
			return runBookShow(args[1:], stdout, stderr)
		}
	}
	cmd := cli.New("dossier book", bookHelp, stdout, stderr)
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	return cmd.UsageError("want book make or book show")
}

// runBookMake makes a book from record files.
func runBookMake(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier book make", bookHelp, stdout, stderr)
	fs := cmd.Flags
	gameName := fs.String("game", "chess", "game: chess, checkers")
	out := fs.String("out", "", "the book file to write (required)")
	plies := fs.Int("plies", 16, "how many plies of each game the book takes")
	minGames := fs.Int("min-games", 1, "the fewest games a move must be played in")
	weight := fs.String("weight", "games", "how moves are weighed: games or results")
	vetDepth := fs.Int("vet-depth", 0, "vet every move with our search at this depth (0: no vetting)")
	vetMargin := fs.Float64("vet-margin", 50, "leave out a move valued more than this below the best")
	threads := fs.Int("threads", 1, "searches vetting positions at once")
	if code, stop := cmd.Parse(args, 1, -1); stop {
		return code
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		return cmd.UsageError("--game: %v", err)
	}
	var opts openingbook.MakeOptions
	switch {
	case *out == "":
		return cmd.UsageError("--out is required")
	case *plies < 1:
		return cmd.UsageError("--plies must be at least 1")
	case *minGames < 1:
		return cmd.UsageError("--min-games must be at least 1")
	case *threads < 1:
		return cmd.UsageError("--threads must be at least 1")
	case *weight == "games":
		opts.Weighing = openingbook.ByGames
	case *weight == "results":
		opts.Weighing = openingbook.ByResults
	default:
		return cmd.UsageError("--weight %q: want games or results", *weight)
	}
	opts.MinGames = *minGames
	mk := openingbook.NewMaker(*plies)
	for _, path := range cmd.Args() {
		text, err := readRecordsFile(path)
		if err != nil {
			return cmd.Fail("%v", err)
		}
		n, err := mk.AddRecords(g, text)
		if err != nil && n == 0 {
			return cmd.Fail("%s: %v", path, err)
		}
		if err != nil {
			cmd.Warn("%s: %v", path, err)
		}
	}
	for i := 0; *vetDepth > 0 && i < *threads; i++ {
		s, err := searchers.New(g, searchers.Config{HashMB: 64})
		if err != nil {
			return cmd.Fail("%v", err)
		}
		opts.Vetters = append(opts.Vetters, openingbook.SearchVet(s, *vetDepth, *vetMargin))
		opts.Progress = func(done, total int) {
			if done%500 == 0 || done == total {
				fmt.Fprintf(stderr, "%d of %d positions vetted\n", done, total)
			}
		}
	}
	entries, err := mk.Entries(opts)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	f, err := os.Create(*out)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	if err := openingbook.Write(f, entries); err != nil {
		f.Close()
		return cmd.Fail("writing %s: %v", *out, err)
	}
	if err := f.Close(); err != nil {
		return cmd.Fail("writing %s: %v", *out, err)
	}
	fmt.Fprintf(stdout, "%s: %d entries from %d games (%d positions)\n", *out, len(entries), mk.Games(), mk.Positions())
	return cli.ExitOK
}

// readRecordsFile reads a record file, plain or gzip-compressed.
func readRecordsFile(path string) (string, error) {
	f, err := datafile.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return string(data), nil
}

// runBookShow prints a book's moves in a position.
func runBookShow(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier book show", bookHelp, stdout, stderr)
	fs := cmd.Flags
	gameName := fs.String("game", "chess", "game: chess, checkers, connect4, tictactoe")
	fen := fs.String("fen", "", "the position (the game's position string); default the start")
	moves := fs.String("moves", "", "moves played from the position, separated by spaces")
	if code, stop := cmd.Parse(args, 0, 1); stop {
		return code
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		return cmd.UsageError("--game: %v", err)
	}
	var book *openingbook.Book
	if len(cmd.Args()) == 1 {
		if book, err = openingbook.Open(cmd.Args()[0]); err != nil {
			return cmd.Fail("%v", err)
		}
		defer book.Close()
	} else if book, err = openingbook.Default(g.Name()); err != nil {
		return cmd.Fail("%v", err)
	} else if book == nil {
		return cmd.Fail("%s has no built-in repertoire", g.Name())
	}
	p := g.Start()
	if *fen != "" {
		if p, err = g.ParsePosition(*fen); err != nil {
			return cmd.UsageError("--fen: bad position: %v", err)
		}
	}
	for _, tok := range strings.Fields(*moves) {
		m, err := p.ParseMove(tok)
		if err != nil {
			return cmd.UsageError("--moves: %v", err)
		}
		p.Play(m)
	}
	fmt.Fprintf(stdout, "%s: %d entries\n", book.Name(), book.Len())
	if err := openingbook.WriteMoves(stdout, book, p); err != nil {
		return cmd.Fail("%v", err)
	}
	return cli.ExitOK
}
