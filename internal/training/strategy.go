// dossier learn --learner strategy: Carmel and Markovitch's strategy learning (their Figure 9) on the moves of
// a player in recorded chess games, measured on held-out moves against minimax with dossier's own evaluation.
package training

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"text/tabwriter"

	"dossier/bots/presets"
	"dossier/games"
	"dossier/games/chess"
	"dossier/internal/cli"
	"dossier/internal/datafile"
	"dossier/internal/pgntext"
	"dossier/memory/learn"
)

// StrategyReport is what dossier learn --learner strategy found: the learned strategy and how it and minimax
// with dossier's evaluation predicted the held-out moves.
type StrategyReport struct {
	Player string `json:"player"`
	// Observed counts the player's moves read (in positions with two legal moves or more, each position once);
	// Train, Monitor and Test how many went to each part.
	Observed int `json:"observed"`
	Train    int `json:"train"`
	Monitor  int `json:"monitor"`
	Test     int `json:"test"`
	// Strategy is the learned (W, d).
	Strategy learn.Strategy `json:"strategy"`
	// Models are the held-out scores: the learned strategy first, then minimax at each depth.
	Models []StrategyModelScore `json:"models"`
}

// StrategyModelScore is one model's prediction of the held-out moves.
type StrategyModelScore struct {
	Model string      `json:"model"`
	Depth int         `json:"depth"`
	Score learn.Score `json:"score"`
}

// MaxStrategyDepth bounds --max-depth: every alternative of every example is searched that deep, again at
// each iteration, without quiescence, and a chess search of 5 plies from a few hundred positions would take hours.
const MaxStrategyDepth = 4

// StrategyOptions are the flags of the strategy learner.
type StrategyOptions struct {
	// Game is --game when it was given, else "": the learner reads chess games alone.
	Game          string
	Records, Name string
	MaxDepth      int
	Examples      int
	Seed          uint64
	JSON          bool
}

// check refuses options the learner cannot work with, as the command line's fault.
func (opt StrategyOptions) check() error {
	switch {
	case opt.Records == "" || opt.Name == "":
		return cli.Usagef("--records and --name are required with --learner strategy (dossier learn --help)")
	case opt.Game != "" && !strings.EqualFold(opt.Game, chess.Game{}.Name()):
		return cli.Usagef("--game %s: the strategy learner reads chess games (PGN)", opt.Game)
	case opt.MaxDepth < 1 || opt.MaxDepth > MaxStrategyDepth:
		return cli.Usagef("--max-depth must be 1..%d", MaxStrategyDepth)
	case opt.Examples < 20:
		return cli.Usagef("--examples must be at least 20")
	}
	return nil
}

// LearnStrategy checks the options, reads the records, learns the named player's strategy and writes the
// report.
func LearnStrategy(opt StrategyOptions, stdout io.Writer) error {
	if err := opt.check(); err != nil {
		return err
	}
	f, err := datafile.Open(opt.Records)
	if err != nil {
		return err
	}
	list, err := pgntext.ReadChessGames(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", opt.Records, err)
	}
	obs, err := playerObservations(list, opt.Name)
	if err != nil {
		return fmt.Errorf("%s: %w", opt.Records, err)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5eed))
	rng.Shuffle(len(obs), func(i, j int) { obs[i], obs[j] = obs[j], obs[i] })
	if len(obs) > opt.Examples {
		obs = obs[:opt.Examples]
	}
	if len(obs) < 20 {
		return fmt.Errorf("%s: %d moves of %s in positions with a choice; want at least 20", opt.Records, len(obs), opt.Name)
	}
	// Carmel and Markovitch's proportions: most to train, a monitoring set to choose the depth and the
	// iterations by, and a quarter held out for the report.
	nTest := len(obs) / 4
	nMonitor := len(obs) * 15 / 100
	test, monitor, train := obs[:nTest], obs[nTest:nTest+nMonitor], obs[nTest+nMonitor:]
	g := chess.Game{}
	s, err := learn.LearnStrategy(g, train, monitor, learn.StrategyConfig{MaxDepth: opt.MaxDepth})
	if err != nil {
		return err
	}
	rep := StrategyReport{Player: opt.Name, Observed: len(obs), Train: len(train), Monitor: len(monitor), Test: len(test), Strategy: s}
	score := func(label string, pl learn.MinimaxPlayer) error {
		m, err := learn.MinimaxModel(g, pl)
		if err != nil {
			return err
		}
		sc, err := learn.Measure(m, test)
		if err != nil {
			return err
		}
		rep.Models = append(rep.Models, StrategyModelScore{Model: label, Depth: pl.Depth, Score: sc})
		return nil
	}
	if err := score("learned", s.Player); err != nil {
		return err
	}
	ours, err := presets.Lookup(g, presets.Default)
	if err != nil {
		return err
	}
	for d := 1; d <= opt.MaxDepth; d++ {
		if err := score("minimax "+ours.Name, learn.MinimaxPlayer{Eval: ours.Eval, Depth: d}); err != nil {
			return err
		}
	}
	if opt.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	writeStrategyReport(stdout, g, rep)
	return nil
}

// playerObservations returns the named player's moves in the games (by the White and Black tags), each
// position once (the first time it occurs), and only where the player had a choice.
func playerObservations(list []pgntext.ChessGame, name string) ([]learn.Observation, error) {
	var names []string
	seen := map[uint64]bool{}
	var obs []learn.Observation
	var buf [games.MaxMoves]games.Move
	for _, rg := range list {
		for _, n := range []string{rg.White, rg.Black} {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		if rg.White != name && rg.Black != name {
			continue
		}
		p := rg.Start.Clone()
		for _, m := range rg.Moves {
			mover := rg.White
			if p.ToMove() != games.First {
				mover = rg.Black
			}
			if mover == name && !seen[p.Hash()] && len(p.AppendMoves(buf[:0])) >= 2 {
				seen[p.Hash()] = true
				obs = append(obs, learn.Observation{Position: p.Clone(), Move: m})
			}
			p.Play(m)
		}
	}
	if !slices.Contains(names, name) {
		return nil, fmt.Errorf("no player %q in the records (players: %s)", name, strings.Join(names, ", "))
	}
	return obs, nil
}

// writeStrategyReport writes the report as text: the split, the learned depth and weights, and the table of
// the models' held-out scores.
func writeStrategyReport(w io.Writer, g games.Game, rep StrategyReport) {
	fmt.Fprintf(w, "%s: %d moves (each position once, a choice of two moves or more): %d to train, %d to monitor, %d held out\n",
		rep.Player, rep.Observed, rep.Train, rep.Monitor, rep.Test)
	for _, d := range rep.Strategy.Depths {
		fmt.Fprintf(w, "depth %d: monitoring accuracy %.1f%% after %d linear programs (%d constraints)\n", d.Depth,
			100*d.Accuracy, d.Programs, d.Constraints)
	}
	fmt.Fprintf(w, "learned: depth %d, weights", rep.Strategy.Player.Depth)
	names := g.FeatureNames()
	none := true
	for i, x := range rep.Strategy.Player.Eval.Weights {
		if x != 0 && i < len(names) {
			fmt.Fprintf(w, " %s %.4g", names[i], x)
			none = false
		}
	}
	if none {
		fmt.Fprint(w, " all 0")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "held-out model\tdepth\tmoves\ttop-1\ttop-3\tlog-likelihood")
	for _, m := range rep.Models {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%.1f%%\t%.3f\n", m.Model, m.Depth, m.Score.Moves, 100*m.Score.Top1,
			100*m.Score.Top3, m.Score.LogLikelihood)
	}
	tw.Flush()
}
