// Command tune fits the chess "strongest" preset's weights and the evaluation's tables to Stockfish's
// evaluations of quiet positions (docs/log/strength.md "Tuning the evaluation" has the commands that made the
// committed evaluation).
//
// gen plays games from random openings (8 random plies that Stockfish scores within 1.5 pawns) in which
// Stockfish picks every move with a 2,000-node search; at a random one in --every of the positions from ply
// 12 on it searches --depth plies instead (table cleared, one thread, so the answer depends on the position
// only; that search's move is played) and keeps the position when the side to move is not in check, the
// best move is quiet (no capture or promotion) and the score is not a mate. Each kept line is
// "FEN;score;result", the score in centipawns from the side to move and the game's result for the side to move
// (1, 0.5 or 0), or "FEN;score" where the game did not end (200 plies, or the last game cut off at --n): a game's
// lines are written when it ends. The committed sample, testdata/positions.txt.gz, is gen --n 10000 --seed 1
// --depth 10 (one position in five), written before results were.
//
// fit reads the file, holds out every tenth position, fits a least-squares solution first and refines it
// on the logistic (Texel) loss sum (sigmoid(score) - sigmoid(w . features))^2 with sigmoid(s) =
// 1/(1+10^(-s/400)), shrunk lightly towards the prior (hand-set weights, priorWeights), and
// prints the weights with the losses on the held-out positions.
//
// fit --method adam refines the least-squares start by Adam over the sparse feature vectors instead
// (adam.go): the same loss with the target a mix of sigmoid(score) and the game's result (--result-weight,
// for data lines "FEN;score;result"), the evaluation scaled by Texel's K inside the sigmoid (--fit-k fits
// it to the start first). fit --method adam --tables FILE fits the piece-square and mobility tables entry
// by entry with the weights, from the committed evaluation (tables.go), and writes the tables to FILE:
// the committed evaluation is that fit.
package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"dossier/bots/presets"
	"dossier/games"
	"dossier/games/chess"
	"dossier/internal/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const tuneHelp = `usage: tune gen|fit [options]

gen writes Stockfish-labelled quiet positions, fit fits the chess weights to them by least squares and a
logistic refinement, Gauss-Newton (the committed table) or Adam (--method adam); 'tune gen --help' and
'tune fit --help' list their options.`

// run dispatches to gen or fit.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("tune", tuneHelp, stdout, stderr)
	// The subcommand's flags are its own: parsing stops at its name.
	cmd.Flags.SetInterspersed(false)
	if code, stop := cmd.Parse(args, 1, -1); stop {
		return code
	}
	rest := cmd.Args()[1:]
	switch cmd.Args()[0] {
	case "gen":
		return runGen(rest, stdout, stderr)
	case "fit":
		return runFit(rest, stdout, stderr)
	}
	return cmd.UsageError("unknown command %q (want gen or fit)", cmd.Args()[0])
}

// Random openings: openingPlies random moves, kept when Stockfish scores the result within maxOpeningScore.
const (
	openingPlies    = 8
	maxOpeningScore = 150
)

// runGen writes labelled quiet positions.
func runGen(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("tune gen", "usage: tune gen [--n N] [--seed S] [--out FILE] [--stockfish PATH] [--depth D] [--nodes N] [--every E]", stdout, stderr)
	fs := cmd.Flags
	n := fs.Int("n", 12000, "positions to write")
	seed := fs.Uint64("seed", 1, "seed of the random openings and the sampling")
	out := fs.String("out", "positions.txt.gz", "output file (gzip)")
	engine := fs.String("stockfish", "/usr/games/stockfish", "Stockfish binary")
	depth := fs.Int("depth", 10, "labelling search depth")
	playNodes := fs.Int("nodes", 2000, "node limit of the searches that choose the games' moves")
	every := fs.Int("every", 5, "label one position in this many, at random, from ply 12 on (the labelling search also picks that move)")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	if *n < 1 || *depth < 1 || *playNodes < 1 || *every < 1 {
		return cmd.UsageError("--n, --depth, --nodes and --every must be at least 1")
	}
	if err := generate(*engine, *out, *n, *seed, *depth, *playNodes, *every, stderr); err != nil {
		return cmd.Fail("%v", err)
	}
	return cli.ExitOK
}

// generate plays Stockfish's games and writes n labelled quiet positions to out, reporting progress on stderr.
func generate(engine, out string, n int, seed uint64, depth, playNodes, every int, stderr io.Writer) error {
	sf, err := startStockfish(engine)
	if err != nil {
		return err
	}
	defer sf.close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := gzip.NewWriter(f)
	defer zw.Close()

	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	seen := map[string]bool{}
	kept := 0
	var buf [games.MaxMoves]games.Move
	for game := 0; kept < n; game++ {
		p := chess.StartPosition()
		for range openingPlies {
			moves := p.AppendMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
		if games.OutcomeOf(p).Result != games.Ongoing {
			continue
		}
		if res, err := sf.search(p.FEN(), fmt.Sprintf("depth %d", depth)); err != nil {
			return err
		} else if res.mate || math.Abs(float64(res.cp)) > maxOpeningScore {
			continue
		}
		var lines []labelled // this game's, written with its result when it ends
		for ply := openingPlies; ply < 200 && kept < n && games.OutcomeOf(p).Result == games.Ongoing; ply++ {
			fen := p.FEN()
			limit := fmt.Sprintf("nodes %d", playNodes)
			label := ply >= 12 && rng.IntN(every) == 0
			if label {
				limit = fmt.Sprintf("depth %d", depth)
			}
			res, err := sf.search(fen, limit)
			if err != nil {
				return err
			}
			m, err := p.ParseMove(res.bestMove)
			if err != nil {
				return fmt.Errorf("%s: stockfish's move: %v", fen, err)
			}
			key := strings.Join(strings.Fields(fen)[:4], " ")
			if label && !res.mate && !p.InCheck() && !p.IsTactical(m) && !seen[key] {
				seen[key] = true
				lines = append(lines, labelled{fen: fen, cp: res.cp, side: p.ToMove()})
				kept++
				if kept%500 == 0 {
					fmt.Fprintf(stderr, "%d positions from %d games\n", kept, game+1)
				}
			}
			p.Play(m)
		}
		result := games.OutcomeOf(p).Result
		for _, l := range lines {
			fmt.Fprintln(zw, l.format(result))
		}
	}
	return nil
}

// labelled is a kept position waiting for its game's result.
type labelled struct {
	fen  string
	cp   int
	side games.Side // to move
}

// format writes the data line: "FEN;score;result" with the result for the side to move, or "FEN;score" when
// the game has not ended.
func (l labelled) format(result games.Result) string {
	if result == games.Ongoing {
		return fmt.Sprintf("%s;%d", l.fen, l.cp)
	}
	return fmt.Sprintf("%s;%d;%g", l.fen, l.cp, result.PointsFor(l.side))
}

// readSamples reads a gen file into feature vectors and scores.
// untunedFeatures are left out of the fit: their column reads 0, so their weight stays the prior's. The
// mop-up term drives a bare king to the edge; the scores of the few bare-king positions in the data are the
// mates Stockfish saw, which no linear term fits.
var untunedFeatures = []string{"mop_up"}

// untuned indexes untunedFeatures among the chess features.
var untuned = func() []int {
	var out []int
	for i, name := range (chess.Game{}).FeatureNames() {
		if slices.Contains(untunedFeatures, name) {
			out = append(out, i)
		}
	}
	return out
}()

func readSamples(path string) ([]sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	g := chess.Game{}
	var out []sample
	sc := bufio.NewScanner(zr)
	for line := 1; sc.Scan(); line++ {
		fen, score, ok := strings.Cut(sc.Text(), ";")
		if !ok {
			return nil, fmt.Errorf("%s:%d: no ';' before the score", path, line)
		}
		score, resultText, hasResult := strings.Cut(score, ";")
		y, err := strconv.Atoi(score)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: score: %v", path, line, err)
		}
		var result float64
		if hasResult {
			if result, err = parseResult(resultText); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
		}
		p, err := g.ParsePosition(fen)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		x := make([]float64, len(g.FeatureNames()))
		p.Features(x)
		for _, i := range untuned {
			x[i] = 0
		}
		out = append(out, sample{x: x, y: float64(y), result: result, hasResult: hasResult})
	}
	return out, sc.Err()
}

// parseResult reads a game's result from the side to move: 1, 0.5 (or 1/2) or 0.
func parseResult(text string) (float64, error) {
	switch strings.TrimSpace(text) {
	case "1":
		return 1, nil
	case "0.5", "1/2":
		return 0.5, nil
	case "0":
		return 0, nil
	}
	return 0, fmt.Errorf("result %q: want 1, 0.5 or 0 (from the side to move)", text)
}

// The fit's settings that made the committed table.
const (
	defaultLambda     = 1e-2
	defaultIterations = 8
	defaultClip       = 1000
)

// runFit fits the weights and prints them.
func runFit(args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("tune fit", "usage: tune fit [--in FILE] [--lambda L] [--iterations N] [--clip CP] [--method gauss-newton|adam [adam's options]]", stdout, stderr)
	fs := cmd.Flags
	in := fs.String("in", "positions.txt.gz", "labelled positions written by gen (FEN;score or FEN;score;result, the result 1, 0.5 or 0 for the side to move)")
	lambda := fs.Float64("lambda", defaultLambda, "weight of the prior relative to the data")
	iterations := fs.Int("iterations", defaultIterations, "Gauss-Newton iterations on the logistic loss")
	clip := fs.Float64("clip", defaultClip, "least-squares start: ignore positions scored beyond this")
	method := fs.String("method", "gauss-newton", "the logistic refinement: gauss-newton (the committed table's) or adam")
	ao := defaultAdamOptions()
	fs.IntVar(&ao.Epochs, "epochs", ao.Epochs, "adam: passes over the data")
	fs.IntVar(&ao.Batch, "batch", ao.Batch, "adam: positions a step (0: all)")
	fs.Float64Var(&ao.Rate, "rate", ao.Rate, "adam: first step size in centipawns, decaying geometrically to rate × --final-rate")
	fs.Float64Var(&ao.FinalRate, "final-rate", ao.FinalRate, "adam: the last step size as a fraction of --rate")
	fs.Float64Var(&ao.L2, "l2", 0, "adam: pull towards the prior, L2 · mean((w - prior)/100)² added to the loss")
	fs.Uint64Var(&ao.Seed, "seed", 1, "adam: seed of the shuffling")
	fitK := fs.Bool("fit-k", false, "adam: fit the sigmoid's scale K to the least-squares start first (Texel's K), else K = 1")
	tablesOut := fs.String("tables", "", "adam: fit the piece-square and mobility tables entry by entry as well, from the committed evaluation, and write them to this Go file (games/chess/tables_tuned.go)")
	testFile := fs.String("test", "", "adam with --tables: also report the loss on all the positions of this gen file (other games than --in's)")
	resultWeight := fs.Float64("result-weight", 0, "adam: the share of the game's result in the target, the rest sigmoid(score) (positions without a result use their score)")
	if code, stop := cmd.Parse(args, 0, 0); stop {
		return code
	}
	if *lambda < 0 || *iterations < 0 || *clip <= 0 {
		return cmd.UsageError("--lambda and --iterations must not be negative, --clip must be positive")
	}
	adamFlags := []string{"epochs", "batch", "rate", "final-rate", "l2", "seed", "fit-k", "result-weight", "tables", "test"}
	switch *method {
	case "gauss-newton":
		for _, f := range adamFlags {
			if cmd.Changed(f) {
				return cmd.UsageError("--%s needs --method adam", f)
			}
		}
	case "adam":
		if ao.Epochs < 1 || ao.Batch < 0 || !(ao.Rate > 0) || !(ao.FinalRate > 0 && ao.FinalRate <= 1) || ao.L2 < 0 ||
			!(*resultWeight >= 0 && *resultWeight <= 1) {
			return cmd.UsageError("--epochs must be at least 1, --batch and --l2 not negative, --rate positive, --final-rate and --result-weight within (0, 1] and [0, 1]")
		}
	default:
		return cmd.UsageError("--method %q: want gauss-newton or adam", *method)
	}
	if *tablesOut != "" {
		if *fitK {
			return cmd.UsageError("--tables keeps K = 1 (the committed evaluation's scale)")
		}
		return fitTablesCommand(cmd, *in, *testFile, *tablesOut, ao, labelMode{resultWeight: *resultWeight}, stdout)
	}
	var fit fitResult
	var err error
	if *method == "adam" {
		fit, err = fitFileAdam(*in, *lambda, *clip, ao, *fitK, labelMode{resultWeight: *resultWeight})
	} else {
		fit, err = fitFile(*in, *lambda, *iterations, *clip)
	}
	if err != nil {
		return cmd.Fail("%v", err)
	}
	if fit.k != 0 {
		fmt.Fprintf(stdout, "// K = %.4f (the sigmoid's scale fitted to the least-squares start)\n", fit.k)
	}
	fmt.Fprintf(stdout, "// %d training and %d held-out positions; held-out logistic loss: prior %.5f, least squares %.5f, fit %.5f\n",
		fit.train, fit.test, fit.loss[0], fit.loss[1], fit.loss[2])
	fmt.Fprintf(stdout, "// held-out RMS error (cp, |score| <= 500): prior %.1f, least squares %.1f, fit %.1f\n",
		fit.rms[0], fit.rms[1], fit.rms[2])
	for i, name := range (chess.Game{}).FeatureNames() {
		fmt.Fprintf(stdout, "\t%q: %.1f,\n", name, fit.weights[i])
	}
	return cli.ExitOK
}

// fitTablesCommand runs fitTables, writes the tables to tablesOut and prints the weights as the Go table
// of bots/presets/chess.go.
func fitTablesCommand(cmd *cli.Command, in, test, tablesOut string, ao adamOptions, mode labelMode, stdout io.Writer) int {
	fit, err := fitTables(in, test, ao, mode)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	f, err := os.Create(tablesOut)
	if err != nil {
		return cmd.Fail("%v", err)
	}
	comment := fmt.Sprintf("fitted with the weights to %d positions, held-out logistic loss %.5f", fit.train, fit.loss[1])
	if err := writeTables(f, fit.tables, comment); err != nil {
		f.Close()
		return cmd.Fail("%v", err)
	}
	if err := f.Close(); err != nil {
		return cmd.Fail("%v", err)
	}
	fmt.Fprintf(stdout, "// %d training and %d held-out positions; held-out logistic loss: committed %.5f, fit %.5f\n",
		fit.train, fit.test, fit.loss[0], fit.loss[1])
	fmt.Fprintf(stdout, "// held-out RMS error (cp, |score| <= 500): committed %.1f, fit %.1f\n", fit.rms[0], fit.rms[1])
	if test != "" {
		fmt.Fprintf(stdout, "// %d positions of %s: logistic loss committed %.5f, fit %.5f\n", fit.other, test, fit.otherLoss[0], fit.otherLoss[1])
	}
	for i, name := range (chess.Game{}).FeatureNames() {
		fmt.Fprintf(stdout, "\t%q: %.1f,\n", name, math.Round(fit.weights[i]*10)/10)
	}
	return cli.ExitOK
}

// fitResult is a fit's weights (rounded to a tenth, as the table keeps them) and its held-out measures
// for the prior, the least-squares start and the fit.
type fitResult struct {
	weights     []float64
	train, test int
	loss, rms   [3]float64
	k           float64 // Adam's fitted K, 0 when not fitted
}

// fitFile fits the weights to a gen file by least squares and Gauss-Newton: every tenth position is held out.
func fitFile(path string, lambda float64, iterations int, clip float64) (fitResult, error) {
	var res fitResult
	train, test, prior, start, err := leastSquaresStart(path, lambda, clip)
	if err != nil {
		return res, err
	}
	w, err := fitLogistic(train, start, prior, lambda, iterations)
	if err != nil {
		return res, err
	}
	return measure(train, test, prior, start, w), nil
}

// fitFileAdam fits the weights to a gen file by least squares and Adam (the Adam options' K is replaced by
// the fitted one with fitK, else 1): every tenth position is held out.
func fitFileAdam(path string, lambda, clip float64, o adamOptions, fitKFirst bool, mode labelMode) (fitResult, error) {
	train, test, prior, start, err := leastSquaresStart(path, lambda, clip)
	if err != nil {
		return fitResult{}, err
	}
	data := examples(train, mode)
	o.K, o.Prior = 1, prior
	if fitKFirst {
		o.K = fitK(data, start)
	}
	res := measure(train, test, prior, start, fitAdam(data, start, o))
	if fitKFirst {
		res.k = o.K
	}
	return res, nil
}

// measure returns the fit's result: w rounded to a tenth, and the held-out losses of the prior, the start
// and w.
func measure(train, test []sample, prior, start, w []float64) fitResult {
	res := fitResult{train: len(train), test: len(test)}
	for i, v := range [][]float64{prior, start, w} {
		res.loss[i], res.rms[i] = logisticLoss(test, v), rmsError(test, v)
	}
	res.weights = make([]float64, len(w))
	for i, x := range w {
		res.weights[i] = math.Round(x*10) / 10
	}
	return res
}

// leastSquaresStart reads a gen file, holds out every tenth position, and returns the training and
// held-out positions, the prior and the least-squares fit (over the positions scored within clip)
// shrunk towards it by lambda.
func leastSquaresStart(path string, lambda, clip float64) (train, test []sample, prior, start []float64, err error) {
	data, err := readSamples(path)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for i, s := range data {
		if i%10 == 9 {
			test = append(test, s)
		} else {
			train = append(train, s)
		}
	}
	if prior, err = presets.Weights(chess.Game{}, priorWeights()); err != nil {
		return nil, nil, nil, nil, err
	}
	var xs [][]float64
	var target, ones []float64
	for _, s := range train {
		if math.Abs(s.y) <= clip {
			xs = append(xs, s.x)
			target = append(target, s.y)
			ones = append(ones, 1)
		}
	}
	start, err = weightedLeastSquares(xs, target, ones, prior, lambda)
	return train, test, prior, start, err
}

// rmsError is the root-mean-square difference in centipawns over the positions scored within 500.
func rmsError(data []sample, w []float64) float64 {
	var s float64
	n := 0
	for _, d := range data {
		if math.Abs(d.y) <= 500 {
			e := d.y - dot(w, d.x)
			s += e * e
			n++
		}
	}
	return math.Sqrt(s / float64(max(n, 1)))
}
