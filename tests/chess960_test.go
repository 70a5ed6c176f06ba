// End-to-end Chess960 tests: dossier's go perft against Stockfish's with UCI_Chess960, and a Chess960 match
// against Stockfish whose PGN replays.

package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"dossier/games"
	"dossier/games/chess"
)

// perftReport is one "go perft" answer: the count below each root move and the total.
type perftReport struct {
	divide map[string]uint64
	total  uint64
}

// runPerfts sends setoption UCI_Chess960 to a UCI program and then, for each FEN, position fen and go perft
// depth, and returns its answers in order and the time it took to answer them (from each go to its total).
func runPerfts(t *testing.T, p *proc, fens []string, depth int) ([]perftReport, time.Duration) {
	t.Helper()
	handshake(p)
	p.send("setoption name UCI_Chess960 value true")
	ready(p)
	moveCount := regexp.MustCompile(`^([a-h][1-8][a-h][1-8][qrbn]?): (\d+)$`)
	var reports []perftReport
	var elapsed time.Duration
	for _, fen := range fens {
		p.send("position fen " + fen)
		sent := p.send("go perft " + strconv.Itoa(depth))
		line, skipped := p.expect(time.Minute, "Nodes searched", func(s string) bool { return strings.HasPrefix(s, "Nodes searched: ") })
		elapsed += line.at.Sub(sent)
		r := perftReport{divide: map[string]uint64{}}
		r.total, _ = strconv.ParseUint(strings.TrimPrefix(line.text, "Nodes searched: "), 10, 64)
		for _, text := range skipped {
			if m := moveCount.FindStringSubmatch(strings.TrimSpace(text)); m != nil {
				r.divide[m[1]], _ = strconv.ParseUint(m[2], 10, 64)
			} else if strings.Contains(text, "error") {
				t.Errorf("%s: %s", fen, text)
			}
		}
		reports = append(reports, r)
	}
	p.send("quit")
	return reports, elapsed
}

// chess960SuiteFENs returns every step-th position of games/chess/testdata/chess960.perft (Shredder-FEN)
// and the X-FEN positions of x-fen.perft.
func chess960SuiteFENs(t *testing.T, step int) []string {
	t.Helper()
	var fens []string
	for i, file := range []string{"chess960.perft", "x-fen.perft"} {
		text, err := os.ReadFile(filepath.Join("..", "games", "chess", "testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, line := range strings.Split(string(text), "\n") {
			if fen, ok := strings.CutPrefix(line, "epd "); ok {
				if i == 1 || n%step == 0 {
					fens = append(fens, strings.TrimSpace(fen))
				}
				n++
			}
		}
	}
	return fens
}

// TestChess960PerftAgainstStockfish compares dossier's go perft 4 under UCI_Chess960, root move by root
// move (castling written king takes rook), with Stockfish's on 20 positions of the Chess960 suite and the
// X-FEN positions.
func TestChess960PerftAgainstStockfish(t *testing.T) {
	stockfish := requirePeer(t, "/usr/games/stockfish")
	fens := chess960SuiteFENs(t, 48)
	const depth = 4
	ours, ourTime := runPerfts(t, startDossier(t), fens, depth)
	theirs, theirTime := runPerfts(t, startProc(t, "stockfish", "", stockfish), fens, depth)
	castlings := 0
	var nodes uint64
	for i, fen := range fens {
		if ours[i].total != theirs[i].total || len(ours[i].divide) != len(theirs[i].divide) {
			t.Errorf("%s: dossier %d nodes over %d moves, Stockfish %d over %d", fen, ours[i].total,
				len(ours[i].divide), theirs[i].total, len(theirs[i].divide))
			continue
		}
		p, err := chess.Game{Chess960: true}.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		for move, n := range theirs[i].divide {
			if ours[i].divide[move] != n {
				t.Errorf("%s: %s: dossier %d, Stockfish %d", fen, move, ours[i].divide[move], n)
			}
			if m, err := p.ParseMove(move); err == nil && chess.IsCastling(m) {
				castlings++
			}
		}
		nodes += ours[i].total
	}
	if castlings == 0 {
		t.Error("no position had a castling at the root")
	}
	t.Logf("%d positions, %d nodes at depth %d, %d root castlings; dossier %v, Stockfish %v (go perft to its total)",
		len(fens), nodes, depth, castlings, ourTime.Round(time.Millisecond), theirTime.Round(time.Millisecond))
}

// TestMatchChess960AgainstStockfish plays two short Chess960 games against Stockfish at a low strength
// (one random start position, both colours): no engine failure, a result in each, and a PGN whose tags
// name the variant and start, and whose SAN moves (castling as O-O) replay legally from that start.
func TestMatchChess960AgainstStockfish(t *testing.T) {
	stockfish := requirePeer(t, "/usr/games/stockfish")
	pgn := filepath.Join(t.TempDir(), "games.pgn")
	sum := runMatch(t, 3*time.Minute, "--game", "chess960", "--games", "2", "--seed", "960", "--movetime", "50",
		"--max-moves", "80", "--pgn", pgn, "--player1", "preset=strongest",
		"--player2", "uci="+stockfish+" UCI_LimitStrength=true UCI_Elo=1350")
	if sum.Games != 2 || !strings.Contains(strings.ToLower(sum.Players[1]), "stockfish") {
		t.Errorf("summary %+v", sum)
	}
	text, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	records := strings.Split(strings.TrimSpace(string(text)), "\n\n[Event ")
	if len(records) != 2 {
		t.Fatalf("%d games in the PGN, want 2:\n%s", len(records), text)
	}
	var starts []string
	for i, record := range records {
		tags, movetext := readPGNRecord(record)
		if tags["Variant"] != "Chess960" || tags["SetUp"] != "1" {
			t.Errorf("game %d: Variant %q SetUp %q", i+1, tags["Variant"], tags["SetUp"])
		}
		starts = append(starts, tags["FEN"])
		p, err := chess.Game{Chess960: true}.ParsePosition(tags["FEN"])
		if err != nil {
			t.Fatalf("game %d: FEN tag: %v", i+1, err)
		}
		plies := 0
		for _, tok := range movetext {
			m, err := p.ParseMove(tok)
			if err != nil {
				t.Fatalf("game %d: move %d %q: %v\n%s", i+1, plies+1, tok, err, record)
			}
			p.Play(m)
			plies++
		}
		if tags["PlyCount"] != strconv.Itoa(plies) {
			t.Errorf("game %d: %d moves replayed, PlyCount %q", i+1, plies, tags["PlyCount"])
		}
		result := tags["Result"]
		if result != "1-0" && result != "0-1" && result != "1/2-1/2" {
			t.Errorf("game %d: result %q", i+1, result)
		}
		if o := games.OutcomeOf(p); o.Result.Over() && o.Result.String() != result {
			t.Errorf("game %d ends in %s (%s) on the board, but the PGN says %s", i+1, o.Result, o.Reason, result)
		}
		t.Logf("game %d from %s: %s after %d plies (%s)", i+1, tags["FEN"], result, plies, tags["Termination"])
	}
	if starts[0] != starts[1] || !strings.Contains(starts[0], "/pppppppp/8/8/8/8/PPPPPPPP/") {
		t.Errorf("the two games start from %q and %q; want one Chess960 start with colours swapped", starts[0], starts[1])
	}
}

// readPGNRecord splits one PGN game into its tags and its move tokens (SAN), leaving out move numbers and
// the result.
func readPGNRecord(record string) (map[string]string, []string) {
	if !strings.HasPrefix(record, "[") {
		record = "[Event " + record
	}
	tags := map[string]string{}
	header, movetext, _ := strings.Cut(record, "\n\n")
	tagLine := regexp.MustCompile(`^\[(\w+) "(.*)"\]$`)
	for _, line := range strings.Split(header, "\n") {
		if m := tagLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			tags[m[1]] = strings.ReplaceAll(m[2], `\"`, `"`)
		}
	}
	var moves []string
	for _, tok := range strings.Fields(movetext) {
		switch {
		case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
		case strings.HasSuffix(tok, "."):
		default:
			moves = append(moves, tok)
		}
	}
	return tags, moves
}
