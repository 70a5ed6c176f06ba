// Package match plays bot-vs-bot matches: dossier's in-process players against each other or against external
// UCI engines, game after game (several at once), with openings played twice with colours swapped, time
// controls, adjudication, game records and the papers' scoring (2 points a win, 1 a draw) with Elo.
package match

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"dossier/bots/openingbook"
	"dossier/engine"
	"dossier/games"
)

// Config describes a match.
type Config struct {
	// Game is the game played.
	Game games.Game
	// Players are player 1 and player 2. Player 1 plays first in the odd-numbered games.
	Players [2]PlayerSpec
	// Limits are every move's limits; a player's spec overrides them key by key.
	Limits Limits
	// Games is the number of games (default 2).
	Games int
	// Concurrency is how many games run at once, each with its own players (default 1).
	Concurrency int
	// Openings are the start positions, each played twice with colours swapped, in order and cycling;
	// empty means the game's initial position (for Chess960 one of its 960, drawn by Seed for each pair).
	Openings []games.Position
	// RandomPlies adds that many random legal plies to each opening, seeded by Seed and the opening
	// pair's number, so that a match is reproducible whatever the concurrency.
	RandomPlies int
	Seed        uint64
	// MaxMoves ends a game as a draw after that many moves of each side (2·MaxMoves plies from the
	// opening position; 0: no limit).
	MaxMoves int
	// DrawAfter adjudicates a draw once the last DrawAfter plies were each played with a reported score of
	// at most DrawScore in absolute value (0: off).
	DrawAfter int
	DrawScore float64
	// ResignScore makes a player lose once its own last ResignMoves moves each reported a score of
	// -ResignScore or worse (0: off).
	ResignScore float64
	ResignMoves int
	// TimeMargin is how far past zero a clock may run before its flag falls (for the delays of pipes
	// and scheduling).
	TimeMargin time.Duration
	// MoveTimeout is how long a move without a clock may take before the player counts as stalled and
	// loses; 0 means 5 s past the move time, or 10 minutes without one.
	MoveTimeout time.Duration
	// StartupTimeout bounds an external engine's answers to uci and isready (default 10 s).
	StartupTimeout time.Duration
	// NewSearcher builds the in-process players; needed when a spec is not external.
	NewSearcher SearcherFactory
	// SPRT, when set, stops the match once the test decides: no game pair starts after the decision (the
	// pairs already started are finished); Games is then the most that are played and must be even.
	SPRT *SPRT
	// OnGame is called with every finished game and the tally so far, one call at a time, in the order
	// the games finish.
	OnGame func(GameRecord, Summary)

	// books are the players' book= files, opened by check.
	books [2]*openingbook.Book
}

// GameRecord is a finished game.
type GameRecord struct {
	// Number is the game's number in the match, from 1.
	Number int
	// Start is the opening position; Moves are the moves played from it.
	Start games.Position
	Moves []games.Move
	// Names are the players' display names by side (Names[games.First] moved first).
	Names [2]string
	// Player1 is the side player 1 played.
	Player1 games.Side
	// Result is the game's result; Termination why it ended and Detail the full reason in words.
	Result      games.Result
	Termination Termination
	Detail      string
	// Limits are each side's limits.
	Limits [2]Limits
	// Duration is the game's wall-clock time.
	Duration time.Duration
	// Comments, when not empty, are written after the moves of the same index in PGN and PDN ({...}).
	Comments []string
}

// Default settings.
const (
	defaultStartupTimeout = 10 * time.Second
	moveTimeSlack         = 5 * time.Second
	noTimeLimitTimeout    = 10 * time.Minute
	defaultResignMoves    = 3
)

// check validates the configuration and fills in defaults.
func (cfg *Config) check() error {
	if cfg.Game == nil {
		return errors.New("match: no game")
	}
	if cfg.Games <= 0 {
		cfg.Games = 2
	}
	cfg.Concurrency = max(1, min(cfg.Concurrency, cfg.Games))
	if cfg.StartupTimeout <= 0 {
		cfg.StartupTimeout = defaultStartupTimeout
	}
	if cfg.ResignMoves <= 0 {
		cfg.ResignMoves = defaultResignMoves
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.Check(); err != nil {
			return fmt.Errorf("match: SPRT: %w", err)
		}
		if cfg.Games%2 != 0 {
			return fmt.Errorf("match: an SPRT plays game pairs: the number of games (%d) must be even", cfg.Games)
		}
	}
	for i, spec := range cfg.Players {
		if !spec.External() && cfg.NewSearcher == nil {
			return fmt.Errorf("match: player %d is in-process but no searcher factory is set", i+1)
		}
	}
	for i, p := range cfg.Openings {
		if err := playable(p); err != nil {
			return fmt.Errorf("match: opening %d: %w", i+1, err)
		}
	}
	for i, spec := range cfg.Players {
		if spec.Book == "" {
			continue
		}
		b, err := openingbook.Open(spec.Book)
		if err != nil {
			cfg.closeBooks()
			return fmt.Errorf("match: player %d: %w", i+1, err)
		}
		cfg.books[i] = b
	}
	return nil
}

// closeBooks closes the players' books.
func (cfg *Config) closeBooks() {
	for i, b := range cfg.books {
		if b != nil {
			b.Close()
			cfg.books[i] = nil
		}
	}
}

// opponentNamer is a player that can be told its opponent's name (an in-process engine with a memory).
type opponentNamer interface{ SetOpponentName(name string) }

// gameEnder is a player that is told how each game ended (an in-process engine with a memory).
type gameEnder interface{ EndGame(rec GameRecord) }

// seat is one player of a worker: the player and what its spec and factory say about its limits.
type seat struct {
	player Contestant
	limits Limits
}

// newSeat starts player index i (0 or 1) of the match.
func (cfg *Config) newSeat(ctx context.Context, i int) (*seat, error) {
	spec := cfg.Players[i]
	limits := cfg.Limits.Over(spec.Limits)
	if spec.External() {
		p, err := StartEngine(ctx, cfg.Game, spec, cfg.StartupTimeout)
		if err != nil {
			return nil, err
		}
		if limits.IsZero() {
			p.Close()
			return nil, fmt.Errorf("player %d (%s) has no limit: give --depth, --nodes, --movetime or --tc, or one in its spec", i+1, p.Name())
		}
		return &seat{player: p, limits: limits}, nil
	}
	built, err := cfg.NewSearcher(cfg.Game, spec)
	if err != nil {
		return nil, fmt.Errorf("player %d: %w", i+1, err)
	}
	if built.Depth > 0 && (limits.Depth == 0 || built.Depth < limits.Depth) {
		// The preset's depth caps the search whatever the limits say, so the record shows the smaller one.
		limits.Depth = built.Depth
	}
	name := built.Name
	if spec.Name != "" {
		name = spec.Name
	}
	if limits.IsZero() {
		return nil, fmt.Errorf("player %d (%s) has no limit: give --depth, --nodes, --movetime or --tc, or depth= in its spec", i+1, name)
	}
	return &seat{player: NewEngineContestant(name, cfg.Game, built.Engine), limits: limits}, nil
}

// Run plays the match and returns its tally. It fails before the first game when a player cannot be
// built or started; later failures of a player lose it the game at hand and the player is restarted.
// When ctx ends, games in progress are abandoned (not counted) and Run returns the tally with ctx's error.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.check(); err != nil {
		return Summary{}, err
	}
	defer cfg.closeBooks()
	// The first worker's players are started here, so that a bad spec fails the match at once.
	var first [2]*seat
	for i := range first {
		s, err := cfg.newSeat(ctx, i)
		if err != nil {
			for _, prev := range first[:i] {
				prev.player.Close()
			}
			return Summary{}, err
		}
		first[i] = s
	}
	names := [2]string{first[0].player.Name(), first[1].player.Name()}
	if names[0] == names[1] {
		names[0] += " (1)"
		names[1] += " (2)"
	}
	sum := Summary{Players: names, Terminations: map[Termination]int{}, SPRT: cfg.SPRT}
	// decided is closed when the SPRT reaches its verdict: no pair starts after it.
	decided := make(chan struct{})

	jobs := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < cfg.Concurrency; w++ {
		var seats [2]*seat
		if w == 0 {
			seats = first
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				for _, s := range seats {
					if s != nil {
						s.player.Close()
					}
				}
			}()
			for number := range jobs {
				rec, err := cfg.playGame(ctx, number, &seats, names)
				if err != nil {
					continue // abandoned: the context ended
				}
				mu.Lock()
				sum.Add(rec)
				if cfg.SPRT != nil && sum.Verdict == Undecided {
					if v := cfg.SPRT.Decide(sum.Pentanomial); v != Undecided {
						sum.Verdict, sum.VerdictPairs = v, sum.Pairs()
						close(decided)
					}
				}
				if cfg.OnGame != nil {
					cfg.OnGame(rec, sum.clone())
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for n := 1; n <= cfg.Games; n++ {
		// A decided test starts no new pair, but the second game of a started pair is always played, so
		// that every game counts in the pentanomial tally (a nil channel never fires).
		var stop <-chan struct{}
		if n%2 == 1 {
			select {
			case <-decided:
				break feed
			default:
			}
			stop = decided
		}
		select {
		case jobs <- n:
		case <-ctx.Done():
			break feed
		case <-stop:
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return sum, ctx.Err()
}

// randomStarter is a game with several start positions, such as Chess960, that a match draws from.
type randomStarter interface {
	RandomStart(rng *rand.Rand) games.Position
}

// opening returns the start position of game number n (from 1): pair (n-1)/2 of the openings, or without
// openings the game's start, drawn at random (seeded by Seed and the pair) for a game with several.
func (cfg *Config) opening(n int) (games.Position, error) {
	pair := (n - 1) / 2
	rng := openingRNG(cfg.Seed, pair)
	p := cfg.Game.Start()
	if len(cfg.Openings) > 0 {
		p = cfg.Openings[pair%len(cfg.Openings)].Clone()
	} else if starter, ok := cfg.Game.(randomStarter); ok {
		p = starter.RandomStart(rng)
	}
	if cfg.RandomPlies > 0 {
		return RandomOpening(p, cfg.RandomPlies, rng)
	}
	return p, nil
}

// moveTimeout returns how long a move may take before its player loses.
func (cfg *Config) moveTimeout(lim Limits, clock *Clock) time.Duration {
	switch {
	case clock != nil:
		return clock.Remaining() + cfg.TimeMargin
	case cfg.MoveTimeout > 0:
		return cfg.MoveTimeout
	case lim.MoveTime > 0:
		return lim.MoveTime + moveTimeSlack
	}
	return noTimeLimitTimeout
}

// plyNote is what the adjudication looks at for one ply.
type plyNote struct {
	side     games.Side
	score    float64
	hasScore bool
}

// playGame plays game number n with the worker's seats (indexed by player), starting any that are missing.
// The error is only ever ctx's: every failure of a player is a lost game in the record.
func (cfg *Config) playGame(ctx context.Context, n int, seats *[2]*seat, names [2]string) (GameRecord, error) {
	began := time.Now()
	player1 := games.First
	if n%2 == 0 {
		player1 = games.Second
	}
	rec := GameRecord{Number: n, Player1: player1}
	bySide := func(side games.Side) int { // the player index of a side
		if side == player1 {
			return 0
		}
		return 1
	}
	rec.Names[player1], rec.Names[player1.Other()] = names[0], names[1]
	for side := games.First; side <= games.Second; side++ {
		spec := cfg.Players[bySide(side)]
		rec.Limits[side] = cfg.Limits.Over(spec.Limits)
	}
	start, err := cfg.opening(n)
	if err != nil {
		// A random opening that cannot be made is the match's problem, not a player's: a draw, reported.
		start = cfg.Game.Start()
		rec.Start = start
		rec.Result, rec.Termination, rec.Detail = games.Draw, NoOpening, err.Error()
		return rec, nil
	}
	rec.Start = start
	finish := func(result games.Result, t Termination, detail string) (GameRecord, error) {
		rec.Result, rec.Termination, rec.Detail = result, t, detail
		rec.Duration = time.Since(began)
		for i, s := range seats {
			if s == nil {
				continue
			}
			if ender, ok := s.player.(gameEnder); ok {
				ender.EndGame(rec)
			}
			if cfg.Players[i].Restart {
				s.player.Close() // quit: the next game starts it anew
				seats[i] = nil
			}
		}
		return rec, nil
	}
	// Start or reset the players; one that cannot start loses this game.
	for i := range seats {
		side := player1
		if i == 1 {
			side = player1.Other()
		}
		if seats[i] == nil {
			s, err := cfg.newSeat(ctx, i)
			if ctx.Err() != nil {
				return rec, ctx.Err()
			}
			if err != nil {
				return finish(games.LossFor(side), EngineError, fmt.Sprintf("%s could not start: %v", names[i], err))
			}
			seats[i] = s
		}
		if namer, ok := seats[i].player.(opponentNamer); ok {
			namer.SetOpponentName(names[1-i])
		}
		if err := seats[i].player.NewGame(ctx); err != nil {
			if ctx.Err() != nil {
				return rec, ctx.Err()
			}
			seats[i].player.Close()
			seats[i] = nil
			return finish(games.LossFor(side), failureKind(err), fmt.Sprintf("%s: %v", names[i], err))
		}
	}
	var clocks [2]*Clock
	for side := games.First; side <= games.Second; side++ {
		if tc := seats[bySide(side)].limits.Clock; !tc.IsZero() {
			clocks[side] = NewClock(tc)
		}
		rec.Limits[side] = seats[bySide(side)].limits
	}
	pos := start.Clone()
	var notes []plyNote
	var ownMoves [2]int // moves each player made in this game, for RandomMoves and BookDepth
	var randomMoves, bookMoves [2]*rand.Rand
	var outOfBook [2]bool
	for {
		if o := games.OutcomeOf(pos); o.Result.Over() {
			return finish(o.Result, Termination(o.Reason.String()), o.Reason.String())
		}
		if cfg.MaxMoves > 0 && len(rec.Moves) >= 2*cfg.MaxMoves {
			return finish(games.Draw, MoveLimit, fmt.Sprintf("%d moves each without a result", cfg.MaxMoves))
		}
		side := pos.ToMove()
		i := bySide(side)
		s := seats[i]
		// The overhead matters to a player in this process; a UCI engine keeps back its own.
		lim := engine.Limits{Depth: s.limits.Depth, Nodes: s.limits.Nodes, MoveTime: s.limits.MoveTime,
			MoveOverhead: engine.DefaultMoveOverhead}
		for c := games.First; c <= games.Second; c++ {
			if clocks[c] != nil {
				lim.Time[c] = max(clocks[c].Remaining(), time.Millisecond)
				lim.Inc[c] = seats[bySide(c)].limits.Clock.Inc
			}
		}
		if clocks[side] != nil {
			lim.MovesToGo = clocks[side].MovesToGo()
		}
		ownMoves[i]++
		if ownMoves[i] <= cfg.Players[i].RandomMoves {
			// Off the player's clock: the move a book of its own would give it at once.
			if randomMoves[i] == nil {
				randomMoves[i] = openingRNG(cfg.Seed^randomMovesSeed, 2*n+i)
			}
			move := randomMove(pos, randomMoves[i])
			pos.Play(move)
			rec.Moves = append(rec.Moves, move)
			notes = append(notes, plyNote{side: side})
			continue
		}
		if b := cfg.books[i]; b != nil && !outOfBook[i] && (cfg.Players[i].BookDepth == 0 || ownMoves[i] <= cfg.Players[i].BookDepth) {
			// Off the player's clock, as a GUI plays an engine's book; the first position out of the book ends it.
			if bookMoves[i] == nil {
				bookMoves[i] = openingRNG(cfg.Seed^bookMovesSeed, 2*n+i)
			}
			if move, ok := bookMove(b, pos, bookMoves[i]); ok {
				pos.Play(move)
				rec.Moves = append(rec.Moves, move)
				notes = append(notes, plyNote{side: side})
				continue
			}
			outOfBook[i] = true
		}
		req := MoveRequest{Start: start, Moves: rec.Moves, Position: pos.Clone(), Limits: lim, Clock: s.limits.Clock,
			Timeout: cfg.moveTimeout(s.limits, clocks[side])}
		moveStart := time.Now()
		reply, err := s.player.Move(ctx, req)
		elapsed := time.Since(moveStart)
		if ctx.Err() != nil {
			return rec, ctx.Err()
		}
		if err != nil {
			s.player.Close()
			seats[i] = nil
			kind := failureKind(err)
			if kind == EngineStalled && clocks[side] != nil {
				kind = TimeForfeit
			}
			return finish(games.LossFor(side), kind, err.Error())
		}
		if clocks[side] != nil && !clocks[side].Punch(elapsed, cfg.TimeMargin) {
			return finish(games.LossFor(side), TimeForfeit, fmt.Sprintf("%s lost on time: its move took %v with %v on the clock",
				names[i], elapsed.Round(time.Millisecond), (clocks[side].Remaining()+elapsed).Round(time.Millisecond)))
		}
		pos.Play(reply.Move)
		rec.Moves = append(rec.Moves, reply.Move)
		notes = append(notes, plyNote{side: side, score: reply.Score, hasScore: reply.HasScore})
		if cfg.resigns(notes, side) {
			return finish(games.LossFor(side), Resignation, fmt.Sprintf("%s resigns: its last %d moves scored %.0f or worse",
				names[i], cfg.ResignMoves, -cfg.ResignScore))
		}
		if cfg.drawn(notes) {
			if o := games.OutcomeOf(pos); !o.Result.Over() {
				return finish(games.Draw, AdjudicatedDraw, fmt.Sprintf("the last %d plies scored within ±%g", cfg.DrawAfter, cfg.DrawScore))
			}
		}
	}
}

// failureKind returns the termination of a player's failure.
func failureKind(err error) Termination {
	var pe *PlayerError
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return EngineError
}

// resigns reports whether side's last ResignMoves moves all scored -ResignScore or worse.
func (cfg *Config) resigns(notes []plyNote, side games.Side) bool {
	if cfg.ResignScore <= 0 {
		return false
	}
	count := 0
	for i := len(notes) - 1; i >= 0 && count < cfg.ResignMoves; i-- {
		n := notes[i]
		if n.side != side {
			continue
		}
		if !n.hasScore || n.score > -cfg.ResignScore {
			return false
		}
		count++
	}
	return count == cfg.ResignMoves
}

// drawn reports whether the last DrawAfter plies all scored within ±DrawScore.
func (cfg *Config) drawn(notes []plyNote) bool {
	if cfg.DrawAfter <= 0 || len(notes) < cfg.DrawAfter {
		return false
	}
	for _, n := range notes[len(notes)-cfg.DrawAfter:] {
		if !n.hasScore || n.score > cfg.DrawScore || n.score < -cfg.DrawScore {
			return false
		}
	}
	return true
}
