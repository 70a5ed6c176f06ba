// Package memorycost measures what the memory costs our search on the clock: the Player with a memory of many
// games and experience entries against one opponent, and the Player without a memory, play the same line at a
// fixed time a move on one processor (every thread bound to one CPU, as under taskset or a one-CPU container), with
// the opponent's moves observed between the searches as a front end reports them and the analysis of a lost
// game running in the opponent's time. It reports their nodes per second and how soon each search reported
// its first depth, so that "the memory is free on our clock" is a number.
package memorycost

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"dossier/bots/player"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory"
	"dossier/play"
	"dossier/play/opponent"
)

// Options of a measurement.
type Options struct {
	// Game is the game played (chess by default in the callers).
	Game games.Game
	// Games and Entries size the synthesized memory (see Synthesize); Dir is its directory ("" a temporary
	// one, removed afterwards). A Dir that holds a memory already is used as it is.
	Games, Entries int
	Dir            string
	// MoveTime is each search's time; Moves how many of our moves are searched in the measured game.
	MoveTime time.Duration
	Moves    int
	// Rounds is how many times each Player plays the measured game, alternating (the machine's load drifts).
	Rounds int
	// AskReady waits for the Player's reading of the memory after NewGame, as a front end that asks isready
	// before it starts the clock does (cutechess-cli); false sends the first move's request at once, as
	// python-chess (lichess-bot) does, so that the reading runs beside the first searches.
	AskReady bool
	// ProcessPerGame plays each game with a Player of its own, as lichess-bot and cutechess-cli's restart=on
	// start one engine process per game: the measured game is then the first of its Player, whose reading of
	// the whole memory runs beside its first searches, and the lost game's analysis is left in the memory's
	// queue by the Player that played it. False keeps one Player for both games, as a match that keeps the
	// process does.
	ProcessPerGame bool
	// Baseline plays both sides without the memory: what the measure finds between two equal sides is its own
	// noise on this machine, the yardstick for a single run's ratio.
	Baseline bool
	// Progress receives a line per step (nil: none).
	Progress io.Writer
}

// Side is what one Player's searches measured.
type Side struct {
	Searches int
	// Nodes are what the moves' searches visited, every search a move made counted (the game memory's check of
	// a won game's move searches beside the search proper); MoveTime is the time from the moves' requests to
	// their answers, all the Player did included, and LongestMove the longest. Their ratio, the nodes per
	// second, is what the memory costs the search: not the last depth's own count and time, which leave out
	// the depth a search did not finish and say nothing where the experience filled the table (the first
	// move's search then reports depth 14 after 3 ms and no more).
	Nodes    uint64
	MoveTime time.Duration
	// SearchCPU is the CPU time the thread that searched got during the moves (the measure locks the searching
	// goroutine to its thread; one search thread): what the memory's work beside it took from our search is
	// MoveTime less SearchCPU, whatever the memory does to the speed of a node (a cache that its work between
	// our moves emptied, the experience the search reads).
	SearchCPU   time.Duration
	LongestMove time.Duration
	// FirstInfo is, for each search, the time from the call to its first depth report.
	FirstInfo []time.Duration
	DepthSum  int
	// ReadingBytes is what the Players' first games' starts allocated, from NewGame to the end of the memory's
	// reading (AskReady only: a front end that waits for it; nothing else of the Player runs yet), and Readings
	// how many were counted. The collections this wakes run beside our search, and it does not depend on the
	// machine's load.
	ReadingBytes uint64
	Readings     int
}

// ReadingMB is the mean of ReadingBytes a game's start, in MB.
func (s Side) ReadingMB() float64 { return float64(s.ReadingBytes) / float64(max(s.Readings, 1)) / 1e6 }

// NPS is the nodes per second over all searches.
func (s Side) NPS() float64 {
	if s.MoveTime <= 0 {
		return 0
	}
	return float64(s.Nodes) / s.MoveTime.Seconds()
}

// CPUShare is the part of the moves' time that the searching thread had the CPU.
func (s Side) CPUShare() float64 {
	if s.MoveTime <= 0 {
		return 0
	}
	return s.SearchCPU.Seconds() / s.MoveTime.Seconds()
}

// MeanDepth is the mean depth of the searches.
func (s Side) MeanDepth() float64 { return float64(s.DepthSum) / float64(max(s.Searches, 1)) }

// FirstInfoMedian is the median time to the first depth report.
func (s Side) FirstInfoMedian() time.Duration {
	if len(s.FirstInfo) == 0 {
		return 0
	}
	d := slices.Clone(s.FirstInfo)
	slices.Sort(d)
	return d[len(d)/2]
}

// MeanMove is the mean time from a move's request to its answer.
func (s Side) MeanMove() time.Duration { return s.MoveTime / time.Duration(max(s.Searches, 1)) }

func (s *Side) add(o Side) {
	s.Searches += o.Searches
	s.Nodes += o.Nodes
	s.SearchCPU += o.SearchCPU
	s.MoveTime += o.MoveTime
	s.LongestMove = max(s.LongestMove, o.LongestMove)
	s.FirstInfo = append(s.FirstInfo, o.FirstInfo...)
	s.DepthSum += o.DepthSum
	s.ReadingBytes += o.ReadingBytes
	s.Readings += o.Readings
}

// Report is a measurement: the memory's size, the searches with and without it, and their ratios.
type Report struct {
	Game             string
	AskReady         bool
	ProcessPerGame   bool
	Baseline         bool // both sides played without the memory (Options.Baseline)
	Games, Entries   int  // as the memory holds them against the opponent (its own experience entries)
	MoveTime         time.Duration
	With, Without    Side
	NPSRatio         float64       // With's nodes per second over Without's
	FirstInfoDelta   time.Duration // With's median time to the first depth report less Without's
	MeanDepthDelta   float64       // With's mean depth less Without's
	ExperienceLoaded int           // the experience entries of the game the Player read for the opponent
}

// String writes the report in a line.
func (r Report) String() string {
	flow := "go at once after ucinewgame"
	if r.AskReady {
		flow = "isready before the game"
	}
	if r.ProcessPerGame {
		flow += ", one process a game"
	}
	if r.Baseline {
		flow += `, baseline: the side "with" played without the memory too`
	}
	return fmt.Sprintf("memory cost (%s, %d games and %d experience entries against the opponent, %v a move, one processor, %s): "+
		"search nodes/s %.0f with the memory, %.0f without (ratio %.3f); our search's thread had the CPU %.1f%% of the moves' time with, %.1f%% without; "+
		"first depth after %v with, %v without (%+v); "+
		"a move took %v with (longest %v), %v without (longest %v); mean depth %.2f with, %.2f without",
		r.Game, r.Games, r.Entries, r.MoveTime, flow, r.With.NPS(), r.Without.NPS(), r.NPSRatio,
		100*r.With.CPUShare(), 100*r.Without.CPUShare(),
		r.With.FirstInfoMedian().Round(10*time.Microsecond), r.Without.FirstInfoMedian().Round(10*time.Microsecond),
		r.FirstInfoDelta.Round(10*time.Microsecond), r.With.MeanMove().Round(100*time.Microsecond),
		r.With.LongestMove.Round(100*time.Microsecond), r.Without.MeanMove().Round(100*time.Microsecond),
		r.Without.LongestMove.Round(100*time.Microsecond), r.With.MeanDepth(), r.Without.MeanDepth()) + r.readingText()
}

// readingText says what a game's start allocated (measured where the front end waits for the reading).
func (r Report) readingText() string {
	if r.With.Readings == 0 {
		return ""
	}
	return fmt.Sprintf("; a game's start allocated %.1f MB with the memory, %.1f MB without", r.With.ReadingMB(), r.Without.ReadingMB())
}

// opponentName is the opponent the synthesized memory holds.
const opponentName = "memorycost-opponent"

// Measure synthesizes (or reuses) the memory, folds the learners over it off the clock, and plays the
// measured game with and without the memory, Rounds times each, alternating, on one processor.
func Measure(o Options) (Report, error) {
	if o.Game == nil || o.MoveTime <= 0 || o.Moves <= 0 {
		return Report{}, fmt.Errorf("memorycost: a game, a move time and a number of moves are needed")
	}
	o.Rounds = max(o.Rounds, 1)
	dir := o.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "dossier-memorycost-")
		if err != nil {
			return Report{}, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	say := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, format+"\n", args...)
		}
	}
	rep := Report{Game: o.Game.Name(), MoveTime: o.MoveTime, AskReady: o.AskReady, ProcessPerGame: o.ProcessPerGame,
		Baseline: o.Baseline}
	if err := prepareMemory(dir, o, say, &rep); err != nil {
		return rep, err
	}
	// Two lines: the first game's, lost and analysed in the opponent's time of the second, and the measured
	// game's, which the memory knows nothing of (else its experience of the line would change the searches
	// measured, and each run would find more: the cost measured is the memory's, not what it learned).
	warmUp, line := referenceLine(o.Game, 2*o.Moves+2, 1), referenceLine(o.Game, 2*o.Moves+2, 0)
	// One CPU, as under taskset: the runtime then starts with GOMAXPROCS 1 (the Player raises it for its
	// memory's threads, as it does there), and every thread runs on that CPU.
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	defer pinToOneCPU()()
	for round := range o.Rounds {
		for _, withMemory := range []bool{false, true} {
			// Every run from the memory as synthesized: a copy, which the run's own games do not outlive.
			runDir, err := copyMemory(dir)
			if err != nil {
				return rep, err
			}
			side, loaded, err := playMeasured(o, runDir, withMemory && !o.Baseline, warmUp, line)
			os.RemoveAll(runDir)
			if err != nil {
				return rep, err
			}
			if withMemory {
				rep.With.add(side)
				rep.ExperienceLoaded = loaded
			} else {
				rep.Without.add(side)
			}
			say("round %d, memory %v: %d searches, %.0f nodes/s, the CPU %.1f%% of the time, first depth after %v, a move in %v (longest %v), mean depth %.2f",
				round+1, withMemory, side.Searches, side.NPS(), 100*side.CPUShare(), side.FirstInfoMedian(), side.MeanMove(),
				side.LongestMove, side.MeanDepth())
		}
	}
	if w := rep.Without.NPS(); w > 0 {
		rep.NPSRatio = rep.With.NPS() / w
	}
	rep.FirstInfoDelta = rep.With.FirstInfoMedian() - rep.Without.FirstInfoMedian()
	rep.MeanDepthDelta = rep.With.MeanDepth() - rep.Without.MeanDepth()
	return rep, nil
}

// prepareMemory synthesizes the memory in dir unless it holds the opponent already, and folds the learners
// over every game (what a study worker does between games), so that the measured game starts from a
// memory whose learning is up to date.
func prepareMemory(dir string, o Options, say func(string, ...any), rep *Report) error {
	mem, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		return err
	}
	defer mem.Close()
	key := opponent.NameKey(opponentName)
	prof, err := mem.Profile(key)
	if err != nil || len(prof.Games) == 0 {
		began := time.Now()
		if err := Synthesize(mem, o.Game, opponentName, o.Games, o.Entries, 1); err != nil {
			return err
		}
		say("synthesized %d games and %d experience entries in %v", o.Games, o.Entries, time.Since(began).Round(time.Millisecond))
		if prof, err = mem.Profile(key); err != nil {
			return err
		}
	}
	began := time.Now()
	if err := player.FoldLearners(mem, key, o.Game); err != nil {
		return err
	}
	say("learners folded over the games in %v", time.Since(began).Round(time.Millisecond))
	xp, err := mem.Experience(key, o.Game.Name())
	if err != nil {
		return err
	}
	rep.Games = len(prof.Games)
	for _, e := range xp {
		if e.OpponentKey == key {
			rep.Entries++
		}
	}
	return nil
}

// referenceLine is a line both Players follow: the game's default player at a fixed shallow depth plays
// both sides (deterministic, and the same positions for both Players whatever they would play), from the
// first move of rank first (0: the one it finds best, 1: the next legal move after it).
func referenceLine(g games.Game, plies, first int) []games.Move {
	s, err := searchers.New(g, searchers.Config{Depth: 4})
	if err != nil {
		return nil
	}
	p := g.Start()
	var line []games.Move
	for ply := range plies {
		if games.OutcomeOf(p).Result != games.Ongoing {
			break
		}
		res := s.Search(p.Clone(), engine.NewControl(engine.Limits{Depth: 4}, p.ToMove()), nil)
		if res.Move == games.NoMove {
			break
		}
		m := res.Move
		if ply == 0 && first > 0 {
			legal := p.AppendMoves(nil)
			i := slices.Index(legal, m)
			m = legal[(i+first)%len(legal)]
		}
		line = append(line, m)
		p.Play(m)
	}
	return line
}

// playMeasured plays two games as White: the first, along warmUp and lost, leaves its analysis to run in the
// opponent's time of the second, along line, whose searches are measured; the opponent's turns take as long as
// ours. Both games are one Player's, as in a match that keeps the process, or each its own (o.ProcessPerGame).
func playMeasured(o Options, dir string, withMemory bool, warmUp, line []games.Move) (Side, int, error) {
	open := func() (*player.Engine, error) {
		p := player.New(o.Game, searchers.Config{})
		if err := p.UseMemory(player.MemoryConfig{Enabled: withMemory, Dir: dir}); err != nil {
			p.Close()
			return nil, err
		}
		return p, nil
	}
	p, err := open()
	if err != nil {
		return Side{}, 0, err
	}
	defer func() { p.Close() }()
	var side Side
	for game, line := range [][]games.Move{warmUp, line} {
		if game > 0 && o.ProcessPerGame {
			p.Close()
			if p, err = open(); err != nil {
				return Side{}, 0, err
			}
		}
		playGame(o, p, line, game == 1, game == 0, &side)
	}
	return side, experienceLoaded(p, o.Game), nil
}

// playGame plays one game along line with p as White, lost at its end, adding its searches to side when
// measured, and what its start allocated when countReading (see Side.ReadingBytes).
func playGame(o Options, p *player.Engine, line []games.Move, measured, countReading bool, side *Side) {
	runtime.LockOSThread() // the search runs on this goroutine, so on this thread (SearchCPU)
	defer runtime.UnlockOSThread()
	countReading = countReading && o.AskReady // the reading ends within NewGame..WaitPrepared only then
	var before runtime.MemStats
	if countReading {
		runtime.ReadMemStats(&before)
	}
	p.SetOpponent(play.Opponent{Name: opponentName, Kind: opponent.Computer})
	p.NewGame(o.Game)
	start := o.Game.Start()
	if o.AskReady {
		p.WaitPrepared()
	}
	if countReading {
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		side.ReadingBytes += after.TotalAlloc - before.TotalAlloc
		side.Readings++
	}
	p.StartGame(play.GameStart{Game: o.Game, OurSide: start.ToMove(), Start: start.Clone(), TimeControl: "2+0.05"})
	pos := start.Clone()
	var played []games.Move
	for k := 0; k+1 < len(line) && k/2 < o.Moves; k += 2 {
		if k > 0 {
			before := pos.Clone()
			before.Undo()
			p.ObserveMove(play.ObservedMove{Before: before, Move: line[k-1], Ply: k - 1, Elapsed: o.MoveTime})
		}
		ctl := engine.NewControl(engine.Limits{MoveTime: o.MoveTime}, pos.ToMove())
		var first time.Duration
		cpuBefore := player.ThreadCPU()
		began := time.Now()
		res := p.Search(pos.Clone(), ctl, func(i engine.Info) {
			if i.Depth > 0 && first == 0 {
				first = time.Since(began)
			}
		})
		took := time.Since(began)
		cpu := player.ThreadCPU() - cpuBefore
		if measured {
			side.Searches++
			side.Nodes += res.Nodes
			side.MoveTime += took
			side.SearchCPU += cpu
			side.LongestMove = max(side.LongestMove, took)
			side.FirstInfo = append(side.FirstInfo, first)
			side.DepthSum += res.Depth
		}
		pos.Play(line[k])
		pos.Play(line[k+1])
		played = append(played, line[k], line[k+1])
		time.Sleep(o.MoveTime) // the opponent's turn
	}
	p.GameOver(play.GameEnd{Outcome: games.Outcome{Result: lossFor(start.ToMove()), Reason: games.Checkmate},
		Reason: "adjudicated for the measurement", Moves: played})
}

// lossFor is the result in which side lost.
func lossFor(side games.Side) games.Result {
	if side == games.Side(0) {
		return games.SecondWins
	}
	return games.FirstWins
}

// experienceLoaded counts the entries the Player's memory holds for the opponent in game g.
func experienceLoaded(p *player.Engine, g games.Game) int {
	mem := p.Memory()
	if mem == nil {
		return 0
	}
	xp, err := mem.Experience(opponent.NameKey(opponentName), g.Name())
	if err != nil {
		return 0
	}
	return len(xp)
}

// WriteText writes the report as dossier bench prints it.
func (r Report) WriteText(w io.Writer) { fmt.Fprintln(w, r.String()) }

// copyMemory copies the memory directory dir (its files; the owner's lock and socket are made anew) into a new
// temporary directory.
func copyMemory(dir string) (string, error) {
	to, err := os.MkdirTemp("", "dossier-memorycost-run-")
	if err != nil {
		return "", err
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case !d.Type().IsRegular():
			return nil // the socket
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o600)
	})
	if err != nil {
		os.RemoveAll(to)
	}
	return to, err
}

// Reports are measurements of several front ends' ways (see MeasureFlows).
type Reports []Report

// WriteText writes a line a measurement.
func (rs Reports) WriteText(w io.Writer) {
	for _, r := range rs {
		r.WriteText(w)
	}
}

// MeasureFlows measures as a front end that asks isready before the game (cutechess-cli), as one that sends
// the first move's request at once (python-chess), and as lichess-bot plays: go at once, one process a game, in
// that order, on one synthesized memory.
func MeasureFlows(o Options) (Reports, error) {
	var out Reports
	for _, flow := range []struct{ ask, processPerGame bool }{{true, false}, {false, false}, {false, true}} {
		o.AskReady, o.ProcessPerGame = flow.ask, flow.processPerGame
		rep, err := Measure(o)
		if err != nil {
			return out, err
		}
		out = append(out, rep)
	}
	return out, nil
}
