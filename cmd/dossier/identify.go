// The memory identify subcommand: which stored opponent played one side of the games of a PGN (PDN) file, by
// the identifier the engine uses on an opponent who gives no name, with its accuracy after k games.
package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"dossier/bots"
	"dossier/games"
	"dossier/games/catalog"
	"dossier/games/checkers"
	"dossier/games/chess"
	"dossier/internal/cli"
	"dossier/internal/datafile"
	"dossier/memory"
	"dossier/play"
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
	dir := cmd.Flags.String("memory", "", "the memory directory (default $XDG_DATA_HOME/dossier, else ~/.local/share/dossier)")
	gameName := cmd.Flags.String("game", "chess", "game: "+strings.Join(catalog.Names(), ", "))
	side := cmd.Flags.String("side", "", "the player to identify, by its name in the White/Black tags (default: whoever is not dossier)")
	afterList := cmd.Flags.String("after", "", "measure accuracy after these numbers of games, e.g. 1,3,10")
	leaveOut := cmd.Flags.Bool("leave-out", false, "leave the player's own stored games out (the right answer is then someone new)")
	asJSON := cmd.Flags.Bool("json", false, "print JSON instead of text")
	backoff := cmd.Flags.String("backoff", "pooled", "the back-off under an opponent's counts: pooled (the engine's), uniform or classes (see bots.IdentifierOptions)")
	if code, stop := cmd.Parse(args, 1, 1); stop {
		return code
	}
	g, err := catalog.Lookup(*gameName)
	if err != nil {
		return cmd.UsageError("%v", err)
	}
	var opts bots.IdentifierOptions
	switch *backoff {
	case "classes":
		opts.Classes = true
	case "pooled":
	case "uniform":
		opts.Uniform = true
	default:
		return cmd.UsageError("--backoff: %q is not classes, pooled or uniform", *backoff)
	}
	var after []int
	for f := range strings.SplitSeq(*afterList, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 {
			return cmd.UsageError("--after: %q is not a number of games", f)
		}
		after = append(after, k)
	}
	r, err := datafile.Open(cmd.Args()[0])
	if err != nil {
		return cmd.Fail("%v", err)
	}
	recs, err := readIdentifyGames(g, r)
	r.Close()
	if err != nil {
		return cmd.Fail("%s: %v", cmd.Args()[0], err)
	}
	name, sessions, err := playerSessions(recs, *side)
	if err != nil {
		return cmd.Fail("%s: %v", cmd.Args()[0], err)
	}
	m, err := memory.Open(memory.Options{Dir: *dir})
	if err != nil {
		return cmd.Fail("%v", err)
	}
	stored, err := bots.LoadOpponentGames(m, g)
	closeErr := m.Close()
	if err != nil {
		return cmd.Fail("%v", err)
	}
	if closeErr != nil {
		return cmd.Fail("%v", closeErr)
	}
	key := play.NameKey(name)
	if *leaveOut {
		stored = slices.DeleteFunc(stored, func(o bots.OpponentGames) bool { return o.Key == key })
	}
	rep, err := identify(g, stored, opts, name, sessions, after, *leaveOut)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	if *asJSON {
		err = writeJSON(stdout, rep)
	} else {
		err = rep.write(stdout)
	}
	if err != nil {
		return cmd.Fail("%v", err)
	}
	return cli.ExitOK
}

// identifyGame is one game of the file: its players (first, second) and its moves from its start.
type identifyGame struct {
	names [2]string
	start games.Position
	moves []games.Move
}

// identifyMove is one move of the player to identify.
type identifyMove struct {
	before games.Position
	move   games.Move
	ply    int
}

// IdentifyReport is what dossier memory identify prints.
type IdentifyReport struct {
	Player string `json:"player"`
	Key    string `json:"key"`
	// Expected is the right first of the ranking: the player's key, or someone new with --leave-out.
	Expected  string `json:"expected"`
	Games     int    `json:"games"`
	Moves     int    `json:"moves"`
	Evidence  int    `json:"evidence"` // moves in positions some stored opponent was seen in
	Opponents int    `json:"opponents"`
	Positions int    `json:"positions"`
	// Ranking is the ranking after all the games.
	Ranking []bots.IdentifyCandidate `json:"ranking"`
	After   []IdentifyAccuracy       `json:"after,omitempty"`
}

// IdentifyAccuracy is the accuracy after a number of games.
type IdentifyAccuracy struct {
	Games  int `json:"games"`
	Trials int `json:"trials"`
	Right  int `json:"right"`
	// Taken counts the wrong answers by the key taken.
	Taken map[string]int `json:"taken,omitempty"`
	// Named and NamedRight count the windows after which a stored opponent passed the threshold (the engine
	// would say "identified"), and those where it was the player.
	Named      int `json:"named"`
	NamedRight int `json:"named_right"`
}

// identify builds the identifier and ranks the hypotheses after the whole session and after each window.
func identify(g games.Game, stored []bots.OpponentGames, opts bots.IdentifierOptions, name string, sessions [][]identifyMove, after []int,
	leaveOut bool) (*IdentifyReport, error) {
	id, err := bots.NewIdentifier(g, stored, opts)
	if err != nil {
		return nil, err
	}
	if id.Opponents() == 0 {
		return nil, fmt.Errorf("the memory holds no named opponent's games of %s", g.Name())
	}
	run := func(games [][]identifyMove) {
		id.Reset()
		for _, game := range games {
			id.StartGame()
			for _, o := range game {
				id.Observe(o.before, o.move, o.ply)
			}
		}
	}
	rep := &IdentifyReport{Player: name, Key: play.NameKey(name), Games: len(sessions), Opponents: id.Opponents(),
		Positions: id.Positions()}
	rep.Expected = rep.Key
	if leaveOut {
		rep.Expected = bots.NewOpponentKey
	}
	run(sessions)
	_, rep.Moves, rep.Evidence = id.Observed()
	rep.Ranking = id.Ranking()
	for _, k := range after {
		acc := IdentifyAccuracy{Games: k, Taken: map[string]int{}}
		for from := 0; from+k <= len(sessions); from++ {
			run(sessions[from : from+k])
			acc.Trials++
			if top := id.Ranking()[0].Key; top == rep.Expected {
				acc.Right++
			} else {
				acc.Taken[top]++
			}
			if c, ok := id.Identified(); ok {
				acc.Named++
				if c.Key == rep.Expected {
					acc.NamedRight++
				}
			}
		}
		rep.After = append(rep.After, acc)
	}
	return rep, nil
}

// write prints the report as text.
func (rep *IdentifyReport) write(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "player %s (key %s): %d games, %d moves, %d in positions of the stored games; %d stored opponents, %d positions\n",
		rep.Player, rep.Key, rep.Games, rep.Moves, rep.Evidence, rep.Opponents, rep.Positions)
	sb.WriteString("after all the games:")
	for i, c := range rep.Ranking[:min(5, len(rep.Ranking))] {
		fmt.Fprintf(&sb, "  %d. %s %.3f", i+1, c.Key, c.Probability)
	}
	sb.WriteByte('\n')
	for _, a := range rep.After {
		if a.Trials == 0 {
			fmt.Fprintf(&sb, "after %d games: fewer games than that\n", a.Games)
			continue
		}
		fmt.Fprintf(&sb, "after %d games: %s first in %d of %d windows (%.0f%%); identified in %d, rightly in %d",
			a.Games, rep.Expected, a.Right, a.Trials, 100*float64(a.Right)/float64(a.Trials), a.Named, a.NamedRight)
		if len(a.Taken) > 0 {
			keys := make([]string, 0, len(a.Taken))
			for k := range a.Taken {
				keys = append(keys, k)
			}
			slices.SortFunc(keys, func(x, y string) int {
				if a.Taken[x] != a.Taken[y] {
					return a.Taken[y] - a.Taken[x]
				}
				return strings.Compare(x, y)
			})
			parts := make([]string, len(keys))
			for i, k := range keys {
				parts[i] = fmt.Sprintf("%s x%d", k, a.Taken[k])
			}
			fmt.Fprintf(&sb, "; taken for %s", strings.Join(parts, ", "))
		}
		sb.WriteByte('\n')
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// playerSessions picks the player (side, else whoever is not dossier in the first game) and returns its moves
// game by game, in the games it played.
func playerSessions(recs []identifyGame, side string) (string, [][]identifyMove, error) {
	if len(recs) == 0 {
		return "", nil, errors.New("no games")
	}
	name := side
	if name == "" {
		for _, n := range recs[0].names {
			if !strings.EqualFold(n, "dossier") {
				name = n
				break
			}
		}
		if name == "" {
			return "", nil, errors.New("both players of the first game are dossier: say which with --side")
		}
	}
	var sessions [][]identifyMove
	for _, rec := range recs {
		s := slices.IndexFunc(rec.names[:], func(n string) bool { return play.NameKey(n) == play.NameKey(name) })
		if s < 0 {
			continue
		}
		p := rec.start.Clone()
		var game []identifyMove
		for ply, m := range rec.moves {
			if p.ToMove() == games.Side(s) {
				game = append(game, identifyMove{before: p.Clone(), move: m, ply: ply})
			}
			p.Play(m)
		}
		sessions = append(sessions, game)
	}
	if len(sessions) == 0 {
		return "", nil, fmt.Errorf("no game has a player named %q", name)
	}
	return name, sessions, nil
}

// readIdentifyGames reads the games of a PGN file of g (PDN for checkers): players, start and moves, each move
// checked legal. Chess moves are SAN or the protocol's notation; the other games' the protocol's.
func readIdentifyGames(g games.Game, r io.Reader) ([]identifyGame, error) {
	data, err := readPGNText(r)
	if err != nil {
		return nil, err
	}
	first, second := "White", "Black"
	if g.Name() == "checkers" {
		first, second = "Black", "White"
	}
	var out []identifyGame
	if g.Name() == "checkers" {
		list, err := checkers.ParsePDN(data)
		if err != nil {
			return nil, err
		}
		for i, pg := range list {
			start, err := pg.StartPosition()
			if err != nil {
				return nil, fmt.Errorf("game %d: %w", i+1, err)
			}
			_, moves, err := pg.Replay()
			if err != nil {
				return nil, fmt.Errorf("game %d: %w", i+1, err)
			}
			a, _ := pg.Tag(first)
			b, _ := pg.Tag(second)
			out = append(out, identifyGame{names: [2]string{a, b}, start: start, moves: moves})
		}
		return out, nil
	}
	texts, err := splitPGN(data)
	if err != nil {
		return nil, err
	}
	for i, pg := range texts {
		rec := identifyGame{names: [2]string{pg.tags[first], pg.tags[second]}, start: g.Start()}
		if fen := pg.tags["FEN"]; fen != "" {
			if rec.start, err = g.ParsePosition(fen); err != nil {
				return nil, fmt.Errorf("game %d: FEN: %w", i+1, err)
			}
		}
		p := rec.start.Clone()
		for _, tok := range pg.tokens {
			m, err := p.ParseMove(tok)
			if err != nil {
				cp, ok := p.(*chess.Position)
				if !ok {
					return nil, fmt.Errorf("game %d, ply %d: %w", i+1, len(rec.moves)+1, err)
				}
				if m, err = cp.ParseSAN(tok); err != nil {
					return nil, fmt.Errorf("game %d, ply %d: %w", i+1, len(rec.moves)+1, err)
				}
			}
			if !games.IsLegal(p, m) {
				return nil, fmt.Errorf("game %d, ply %d: %s is not legal", i+1, len(rec.moves)+1, tok)
			}
			p.Play(m)
			rec.moves = append(rec.moves, m)
		}
		out = append(out, rec)
	}
	return out, nil
}
