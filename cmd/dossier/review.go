// The review subcommand: every move of a PGN file re-analysed by a UCI engine at a fixed depth, with each
// player's average centipawn loss, inaccuracies, mistakes and blunders, as lichess's analysis reports them.
package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"dossier/bots/match"
	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/internal/cli"
	"dossier/internal/datafile"
)

const reviewHelp = `usage: dossier review FILE.pgn --engine PATH [--depth N] [--json | --blunders]

Re-analyses every move of the chess games in FILE.pgn (gzip-compressed when it ends in .gz) with a UCI engine
at a fixed depth, and reports for each player (by the PGN's White and Black tags) the games, the average game
length, the average centipawn loss and the count of inaccuracies, mistakes and blunders.

Each position is searched once; a move's loss is the mover's value of the position before it minus its value
of the position after it (the engine's score there, negated), with both values clamped to +-1000 centipawns
(a mate counts 1000) and the loss capped at 1000. A move counts only when the position before it is not
decided yet, |value| < 500: losing a piece in a position already won or lost decides nothing. As lichess:
an inaccuracy loses 50 or more, a mistake 100 or more, a blunder 200 or more (two pawns).`

// The review's rules, in centipawns.
const (
	reviewClamp      = 1000 // values are clamped to +-reviewClamp, and a loss capped at it
	reviewDecided    = 500  // a position valued this much or more for either side is decided
	reviewInaccuracy = 50
	reviewMistake    = 100
	reviewBlunder    = 200
)

// reviewGame is one game to review: the players' names, its start and its moves.
type reviewGame struct {
	white, black string
	start        *chess.Position
	moves        []games.Move
}

// PlayerReview is one player's figures over the games reviewed.
type PlayerReview struct {
	Name  string `json:"name"`
	Games int    `json:"games"`
	// Plies is the total length of the player's games in plies (both sides' moves).
	Plies int `json:"plies"`
	// Moves counts the player's moves that were judged (in positions not decided yet); Loss sums their
	// centipawn losses.
	Moves        int     `json:"moves"`
	Loss         float64 `json:"loss"`
	ACPL         float64 `json:"acpl"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

// runReview reviews a PGN file; 2 is a usage error, 1 a failure (the engine, the file).
func runReview(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("dossier review", reviewHelp, stdout, stderr)
	fs := cmd.Flags
	enginePath := fs.String("engine", "", "the UCI engine that analyses (required), e.g. /usr/games/stockfish")
	depth := fs.Int("depth", 12, "the depth of every analysis")
	hash := fs.Int("hash", 64, "the engine's Hash in MiB")
	timeout := fs.Duration("timeout", time.Minute, "how long one position's analysis may take")
	asJSON := fs.Bool("json", false, "print the players as JSON instead of the table")
	listBlunders := fs.Bool("blunders", false, "print every blunder (game, move, loss) before the table")
	if code, stop := cmd.Parse(args, 1, 1); stop {
		return code
	}
	switch {
	case *enginePath == "":
		return cmd.UsageError("--engine is required (e.g. --engine /usr/games/stockfish)")
	case *depth < 1 || *depth > 60:
		return cmd.UsageError("--depth must be in 1..60")
	case *hash < 1:
		return cmd.UsageError("--hash must be positive")
	}
	f, err := datafile.Open(cmd.Args()[0])
	if err != nil {
		return cmd.UsageError("%v", err)
	}
	list, err := readReviewGames(f)
	f.Close()
	if err != nil {
		return cmd.UsageError("%s: %v", cmd.Args()[0], err)
	}
	if len(list) == 0 {
		return cmd.UsageError("%s holds no game", cmd.Args()[0])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	spec := match.PlayerSpec{Command: *enginePath, Options: []match.UCIOption{{Name: "Hash", Value: fmt.Sprint(*hash)}}}
	analyst, err := match.StartEngine(ctx, chess.Game{}, spec, 10*time.Second)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	defer analyst.Close()
	eval := func(g reviewGame, ply int, pos games.Position) (float64, error) {
		if err := analyst.NewGame(ctx); err != nil && ply == 0 {
			return 0, err
		}
		reply, err := analyst.Move(ctx, match.MoveRequest{Start: g.start, Moves: g.moves[:ply], Position: pos,
			Limits: engine.Limits{Depth: *depth}, Timeout: *timeout})
		if err != nil {
			return 0, err
		}
		if !reply.HasScore {
			return 0, fmt.Errorf("the engine gave no score at depth %d", *depth)
		}
		return reply.Score, nil
	}
	var onBlunder func(blunder)
	if *listBlunders && !*asJSON {
		onBlunder = func(b blunder) {
			fmt.Fprintf(stdout, "game %d (%s - %s), ply %d, %s %s: loses %.0f (%.0f before)\n", b.game, b.white, b.black,
				b.ply, b.player, b.san, b.loss, b.before)
		}
	}
	players, err := reviewAll(list, eval, onBlunder)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	if *asJSON {
		return printJSON(cmd, stdout, players)
	}
	writeReviewTable(stdout, players, *depth)
	return cli.ExitOK
}

// readReviewGames reads the games of a PGN file (splitPGN): tag pairs (White, Black, FEN, Variant), then the
// movetext in SAN. Every move is checked on dossier's chess; a game that does not replay is an error naming
// the game and the ply.
func readReviewGames(r io.Reader) ([]reviewGame, error) {
	text, err := readPGNText(r)
	if err != nil {
		return nil, err
	}
	texts, err := splitPGN(text)
	if err != nil {
		return nil, err
	}
	list := make([]reviewGame, 0, len(texts))
	for i, pg := range texts {
		g, err := reviewGameOf(pg)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		list = append(list, g)
	}
	return list, nil
}

// reviewGameOf replays a game's tokens from its start position.
func reviewGameOf(g pgnText) (reviewGame, error) {
	name := func(k, def string) string {
		if v := strings.TrimSpace(g.tags[k]); v != "" {
			return v
		}
		return def
	}
	if v := strings.ToLower(g.tags["Variant"]); v != "" && v != "standard" && v != "chess" {
		return reviewGame{}, fmt.Errorf("variant %q: only standard chess is reviewed", g.tags["Variant"])
	}
	fen := g.tags["FEN"]
	if fen == "" {
		fen = chess.Game{}.Start().FEN()
	}
	startPos, err := chess.Game{}.ParsePosition(fen)
	if err != nil {
		return reviewGame{}, fmt.Errorf("FEN: %w", err)
	}
	start := startPos.(*chess.Position)
	rg := reviewGame{white: name("White", "White"), black: name("Black", "Black"), start: start}
	p := start.Clone().(*chess.Position)
	for _, tok := range g.tokens {
		if strings.TrimLeft(tok, "0123456789") == "" {
			continue // a move number without its dot: no SAN move is all digits
		}
		m, err := p.ParseSAN(tok)
		if err != nil {
			return reviewGame{}, fmt.Errorf("ply %d: %w", len(rg.moves)+1, err)
		}
		p.Play(m)
		rg.moves = append(rg.moves, m)
	}
	return rg, nil
}

// positionValue is how reviewAll asks for the value of a game's position after ply plies, from the side to
// move there, in centipawns (mates as engine.MateScore minus plies).
type positionValue func(g reviewGame, ply int, pos games.Position) (float64, error)

// blunder is one blunder found, for --blunders.
type blunder struct {
	game, ply            int // numbered from 1
	white, black, player string
	san                  string
	loss, before         float64
}

// reviewAll values every position of every game and returns the players' figures, in order of first
// appearance; onBlunder, when not nil, is told every blunder.
func reviewAll(list []reviewGame, value positionValue, onBlunder func(blunder)) ([]PlayerReview, error) {
	var players []PlayerReview
	index := map[string]int{}
	player := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(players)
			index[name] = i
			players = append(players, PlayerReview{Name: name})
		}
		return i
	}
	for n, g := range list {
		values, err := gameValues(g, value)
		if err != nil {
			return nil, fmt.Errorf("game %d (%s - %s): %w", n+1, g.white, g.black, err)
		}
		sides := [2]int{player(g.white), player(g.black)}
		for _, i := range sides {
			players[i].Games++
			players[i].Plies += len(g.moves)
		}
		for ply := range g.moves {
			loss, counts := moveLoss(values[ply], values[ply+1])
			if !counts {
				continue
			}
			side := (int(g.start.ToMove()) + ply) % 2
			pr := &players[sides[side]]
			pr.Moves++
			pr.Loss += loss
			switch {
			case loss >= reviewBlunder:
				pr.Blunders++
				if onBlunder != nil {
					q := g.start.Clone()
					for _, m := range g.moves[:ply] {
						q.Play(m)
					}
					onBlunder(blunder{game: n + 1, ply: ply + 1, white: g.white, black: g.black, player: pr.Name,
						san: q.(*chess.Position).SAN(g.moves[ply]), loss: loss, before: values[ply]})
				}
			case loss >= reviewMistake:
				pr.Mistakes++
			case loss >= reviewInaccuracy:
				pr.Inaccuracies++
			}
		}
	}
	for i := range players {
		if players[i].Moves > 0 {
			players[i].ACPL = players[i].Loss / float64(players[i].Moves)
		}
	}
	return players, nil
}

// gameValues values the positions of a game, the start and after every move, each from its side to move,
// clamped: finished positions by the rules (a mate is -reviewClamp for the mated side, a draw 0), the others
// by value.
func gameValues(g reviewGame, value positionValue) ([]float64, error) {
	values := make([]float64, len(g.moves)+1)
	p := g.start.Clone()
	for ply := 0; ply <= len(g.moves); ply++ {
		if ply > 0 {
			p.Play(g.moves[ply-1])
		}
		if o := games.OutcomeOf(p); o.Result != games.Ongoing {
			if _, won := o.Result.Winner(); won {
				values[ply] = -reviewClamp // the side to move has lost
			}
			continue
		}
		v, err := value(g, ply, p.Clone())
		if err != nil {
			return nil, fmt.Errorf("ply %d: %w", ply, err)
		}
		values[ply] = clampValue(v)
	}
	return values, nil
}

// clampValue clamps a value to +-reviewClamp (mates included); NaN counts as 0.
func clampValue(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return max(-reviewClamp, min(v, reviewClamp))
}

// moveLoss is the mover's loss from the value before its move (its side to move) to the value after it (the
// opponent to move), and whether the move counts: only in a position not decided yet.
func moveLoss(before, after float64) (float64, bool) {
	if math.Abs(before) >= reviewDecided {
		return 0, false
	}
	return min(max(0, before+after), reviewClamp), true
}

// writeReviewTable prints the players' figures as a table.
func writeReviewTable(w io.Writer, players []PlayerReview, depth int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\tgames\tavg length\tmoves judged\tACPL\tinaccuracies\tmistakes\tblunders\t")
	for _, p := range players {
		length := 0.0
		if p.Games > 0 {
			length = float64(p.Plies) / float64(p.Games) / 2
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%d\t%.1f\t%d\t%d\t%d\t\n", p.Name, p.Games, length, p.Moves, p.ACPL,
			p.Inaccuracies, p.Mistakes, p.Blunders)
	}
	tw.Flush()
	fmt.Fprintf(w, "depth %d; avg length in moves; a move counts when |value before| < %d cp; inaccuracy >= %d, mistake >= %d, blunder >= %d cp\n",
		depth, reviewDecided, reviewInaccuracy, reviewMistake, reviewBlunder)
}
