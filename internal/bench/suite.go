// Test suites for bench: EPD positions with best moves (WinAtChess), solved by the default chess player under
// a fixed time per position.

package bench

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"dossier/bots/match"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/internal/cli"
	"dossier/internal/datafile"
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

// SuiteMiss is a suite position the player did not solve, and the move it played there.
type SuiteMiss struct {
	ID     string `json:"id"`
	Played string `json:"played"`
}

// SuiteReport is the outcome of a suite run, printed as text or, under --json, as one JSON object.
type SuiteReport struct {
	Suite       string      `json:"suite"`
	Solved      int         `json:"solved"`
	Total       int         `json:"total"`
	PerPosition string      `json:"per_position"`
	Missed      []SuiteMiss `json:"missed"`
}

// loadSuite reads the EPD suite at path.
func loadSuite(path string) ([]suiteEntry, error) {
	f, err := datafile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := readSuite(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return entries, nil
}

// runSuite searches every position for perPosition with the default chess player and reports how many it
// solves (plays one of the best moves) and the misses, one progress step a position.
func runSuite(path string, entries []suiteEntry, perPosition SuiteLimit, progress *match.Progress) (SuiteReport, error) {
	rep := SuiteReport{Suite: path, Total: len(entries), PerPosition: perPosition.String(), Missed: []SuiteMiss{}}
	s, err := searchers.New(chess.Game{}, searchers.Config{HashMB: 64})
	if err != nil {
		return rep, err
	}
	for i, e := range entries {
		s.NewGame()
		res := s.Search(e.pos, engine.NewControl(perPosition.limits(), e.pos.ToMove()), nil)
		played, outcome := e.pos.SAN(res.Move), "solved"
		if slices.Contains(e.best, res.Move) {
			rep.Solved++
		} else {
			rep.Missed = append(rep.Missed, SuiteMiss{ID: e.id, Played: played})
			outcome = "missed"
		}
		tally := fmt.Sprintf("%d of %d solved", rep.Solved, i+1)
		progress.Step(i+1, tally, fmt.Sprintf("position %d/%d %s: %s (played %s); %s", i+1, len(entries), e.id,
			outcome, played, tally))
	}
	return rep, nil
}

// WriteText prints the report as two lines: the score, then the misses.
func (rep SuiteReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "suite %s: %d of %d solved at %s per position\n", rep.Suite, rep.Solved, rep.Total, rep.PerPosition)
	if len(rep.Missed) > 0 {
		missed := make([]string, len(rep.Missed))
		for i, m := range rep.Missed {
			missed[i] = fmt.Sprintf("%s (played %s)", m.ID, m.Played)
		}
		fmt.Fprintf(w, "missed: %s\n", strings.Join(missed, ", "))
	}
}

// SuiteLimit is what each suite position gets: a search time, or a node count when Nodes is not zero (a
// result that does not depend on the machine or its load).
type SuiteLimit struct {
	Time  time.Duration
	Nodes uint64
}

// String says the limit as the report does: "1s" or "500000 nodes".
func (l SuiteLimit) String() string {
	if l.Nodes > 0 {
		return fmt.Sprintf("%d nodes", l.Nodes)
	}
	return l.Time.String()
}

func (l SuiteLimit) limits() engine.Limits {
	if l.Nodes > 0 {
		return engine.Limits{Nodes: l.Nodes}
	}
	return engine.Limits{MoveTime: l.Time}
}

// SolveSuite checks the suite's options, reads the EPD suite at path and solves it (game is --game's, "" when
// not given) with its progress on stderr.
func SolveSuite(path, game string, perPosition SuiteLimit, stderr io.Writer) (SuiteReport, error) {
	if game != "" && game != chessName {
		return SuiteReport{}, cli.Usagef("--suite is a chess EPD suite, not %s", game)
	}
	if perPosition.Nodes == 0 && perPosition.Time <= 0 {
		return SuiteReport{}, cli.Usagef("--suite-time must be positive")
	}
	entries, err := loadSuite(path)
	if err != nil {
		return SuiteReport{}, cli.Usagef("--suite: %v", err)
	}
	progress := match.NewProgress(stderr, len(entries), match.IsTerminal(stderr))
	rep, err := runSuite(path, entries, perPosition, progress)
	progress.Done()
	return rep, err
}
