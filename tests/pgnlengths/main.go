// Command pgnlengths compares two matches against the same opponent opening by opening: Sen & Arora's count
// of the games one player won in fewer, more or the same number of moves as the other.
//
// usage: go run ./tests/pgnlengths [--opponent NAME] A.pgn B.pgn
//
// Each file is the --pgn record of a `dossier match` from the same openings (--openings), where one player
// meets the opponent (default: the player named "sp d1"). Games are paired by their start position (the FEN
// tag) and the colour the player had there. For each file it prints the player's wins, draws and losses
// (all games, then by colour); for the pairs both players won, how often A won in fewer plies than B, in
// more, in the same number; and the pairs with any other outcome.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"dossier/internal/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const pgnlengthsHelp = `usage: go run ./tests/pgnlengths [--opponent NAME] A.pgn B.pgn

Compares two matches against the same opponent opening by opening: the games one player won in fewer,
more or the same number of plies as the other.`

// run reads the two records and prints the comparison.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("pgnlengths", pgnlengthsHelp, stdout, stderr)
	opponent := cmd.Flags.String("opponent", "sp d1", "the display name of the common opponent")
	if code, stop := cmd.Parse(args, 2, 2); stop {
		return code
	}
	var matches [2][]game
	for i, path := range cmd.Args() {
		f, err := os.Open(path)
		if err != nil {
			return cmd.Fail("%v", err)
		}
		matches[i], err = readGames(f, *opponent)
		f.Close()
		if err != nil {
			return cmd.Fail("%s: %v", path, err)
		}
	}
	if err := compare(stdout, cmd.Args(), matches[0], matches[1]); err != nil {
		return cmd.Fail("%v", err)
	}
	return cli.ExitOK
}

// game is one game of a match as the comparison sees it.
type game struct {
	start  string // the FEN tag
	player string // the player's name
	first  bool   // whether the player moved first
	result int    // for the player: 1 win, 0 draw, -1 loss
	plies  int    // the PlyCount tag
}

// key pairs a game with the game of the other match from the same start, the player with the same colour.
func (g game) key() string { return g.start + "|" + strconv.FormatBool(g.first) }

// readGames reads the tag sections of a PGN file; the player is whoever of White and Black is not opponent.
func readGames(r io.Reader, opponent string) ([]game, error) {
	var out []game
	tags := map[string]string{}
	flush := func() error {
		if len(tags) == 0 {
			return nil
		}
		defer clear(tags)
		g, err := gameOf(tags, opponent)
		if err != nil {
			return fmt.Errorf("game %d (round %s): %w", len(out)+1, tags["Round"], err)
		}
		out = append(out, g)
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	inTags := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			if !inTags {
				if err := flush(); err != nil {
					return nil, err
				}
				inTags = true
			}
			name, value, ok := strings.Cut(line[1:len(line)-1], " ")
			if !ok {
				return nil, fmt.Errorf("tag %q has no value", line)
			}
			tags[name] = strings.Trim(value, `"`)
			continue
		}
		inTags = false
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no games")
	}
	return out, nil
}

// gameOf reads a game's tags.
func gameOf(tags map[string]string, opponent string) (game, error) {
	g := game{start: tags["FEN"]}
	white, black := tags["White"], tags["Black"]
	switch opponent {
	case black:
		g.player, g.first = white, true
	case white:
		g.player = black
	default:
		return game{}, fmt.Errorf("neither White %q nor Black %q is the opponent %q", white, black, opponent)
	}
	switch tags["Result"] {
	case "1-0":
		g.result = 1
	case "0-1":
		g.result = -1
	case "1/2-1/2":
	default:
		return game{}, fmt.Errorf("result %q", tags["Result"])
	}
	if !g.first {
		g.result = -g.result
	}
	n, err := strconv.Atoi(tags["PlyCount"])
	if err != nil || n < 0 {
		return game{}, fmt.Errorf("PlyCount %q", tags["PlyCount"])
	}
	g.plies = n
	return g, nil
}

// tally is a player's wins, draws and losses.
type tally struct{ wins, draws, losses int }

func (t *tally) add(result int) {
	switch result {
	case 1:
		t.wins++
	case 0:
		t.draws++
	default:
		t.losses++
	}
}

func (t tally) String() string { return fmt.Sprintf("+%d =%d -%d", t.wins, t.draws, t.losses) }

// lengths is the comparison of the pairs of games both players won.
type lengths struct{ fewer, more, same int }

// compareLengths pairs the games of a and b and counts, among the pairs both won, A's fewer, more and same
// plies; other lists the pairs with another outcome, and unpaired counts games of a without a partner.
func compareLengths(a, b []game) (both lengths, other []string, unpaired int, err error) {
	byKey := map[string]game{}
	for _, g := range b {
		if _, dup := byKey[g.key()]; dup {
			return lengths{}, nil, 0, fmt.Errorf("the second match plays the start %s with the player moving first=%v twice", g.start, g.first)
		}
		byKey[g.key()] = g
	}
	for _, g := range a {
		h, ok := byKey[g.key()]
		if !ok {
			unpaired++
			continue
		}
		switch {
		case g.result == 1 && h.result == 1 && g.plies < h.plies:
			both.fewer++
		case g.result == 1 && h.result == 1 && g.plies > h.plies:
			both.more++
		case g.result == 1 && h.result == 1:
			both.same++
		default:
			other = append(other, fmt.Sprintf("%s first=%v: A %+d in %d plies, B %+d in %d plies",
				g.start, g.first, g.result, g.plies, h.result, h.plies))
		}
	}
	sort.Strings(other)
	return both, other, unpaired, nil
}

// compare prints the tallies and the length comparison of two matches.
func compare(w io.Writer, names []string, a, b []game) error {
	for i, games := range [][]game{a, b} {
		var all, first, second tally
		for _, g := range games {
			all.add(g.result)
			if g.first {
				first.add(g.result)
			} else {
				second.add(g.result)
			}
		}
		fmt.Fprintf(w, "%s %s (%s): %s; moving first %s, second %s\n", "AB"[i:i+1], games[0].player, names[i], all, first, second)
	}
	for _, side := range []struct {
		label string
		keep  func(game) bool
	}{
		{"all games", func(game) bool { return true }},
		{"A moving first", func(g game) bool { return g.first }},
		{"A moving second", func(g game) bool { return !g.first }},
	} {
		var subset []game
		for _, g := range a {
			if side.keep(g) {
				subset = append(subset, g)
			}
		}
		both, other, unpaired, err := compareLengths(subset, b)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: both won %d: A in fewer plies %d, more %d, same %d; other outcomes %d",
			side.label, both.fewer+both.more+both.same, both.fewer, both.more, both.same, len(other))
		if unpaired > 0 {
			fmt.Fprintf(w, "; %d of A's games have no partner in B", unpaired)
		}
		fmt.Fprintln(w)
		if side.label == "all games" {
			for _, o := range other {
				fmt.Fprintln(w, "  "+o)
			}
		}
	}
	return nil
}
