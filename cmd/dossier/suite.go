// Test suites for bench: EPD positions with best moves (WinAtChess), solved by the default chess player under
// a fixed time per position.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"dossier/bots"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
)

// suiteEntry is one EPD test position: the position, its best moves and its id.
type suiteEntry struct {
	id   string
	pos  *chess.Position
	best []games.Move
}

// readSuite reads EPD lines "<4 FEN fields> bm <SAN> [<SAN>...]; id "<id>";"; a line it cannot read is an error
// naming the line.
func readSuite(r io.Reader) ([]suiteEntry, error) {
	var out []suiteEntry
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 6 {
			return nil, fmt.Errorf("line %d: too short for an EPD record", n)
		}
		pos, err := chess.ParseFEN(strings.Join(fields[:4], " "))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		e := suiteEntry{pos: pos, id: fmt.Sprintf("line %d", n)}
		for _, op := range strings.Split(strings.Join(fields[4:], " "), ";") {
			words := strings.Fields(op)
			if len(words) < 2 {
				continue
			}
			switch words[0] {
			case "bm":
				for _, san := range words[1:] {
					m, err := pos.ParseSAN(san)
					if err != nil {
						return nil, fmt.Errorf("line %d: best move %q: %v", n, san, err)
					}
					e.best = append(e.best, m)
				}
			case "id":
				e.id = strings.Trim(strings.Join(words[1:], " "), `"`)
			}
		}
		if len(e.best) == 0 {
			return nil, fmt.Errorf("line %d: no bm operation", n)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// runSuite searches every position for perPosition with the default chess player and reports how many it
// solves (plays one of the best moves), listing the misses.
func runSuite(path string, perPosition time.Duration, stdout io.Writer) (solved, total int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	entries, err := readSuite(f)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %v", path, err)
	}
	s, err := bots.NewSearcher(chess.Game{}, bots.PlayerConfig{HashMB: 64})
	if err != nil {
		return 0, 0, err
	}
	var misses []string
	for _, e := range entries {
		s.NewGame()
		res := s.Search(e.pos, engine.NewControl(engine.Limits{MoveTime: perPosition}, e.pos.ToMove()), nil)
		if slices.Contains(e.best, res.Move) {
			solved++
		} else {
			misses = append(misses, fmt.Sprintf("%s (played %s)", e.id, e.pos.SAN(res.Move)))
		}
	}
	fmt.Fprintf(stdout, "suite %s: %d of %d solved at %v per position\n", path, solved, len(entries), perPosition)
	if len(misses) > 0 {
		fmt.Fprintf(stdout, "missed: %s\n", strings.Join(misses, ", "))
	}
	return solved, len(entries), nil
}
