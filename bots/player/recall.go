// Game memory: what the Player remembers of its earlier games against the opponent. Where a won game went
// through the position, it plays the move that won again while its own search, which reads the experience the
// analyses learned (experience.go), values the move within MemoryRisk of its best. A lost game's line is left
// where its analysis found our mistake, through that experience, and nowhere else. A draw that repeated (our
// same move in the same position in two drawn games) is left where our search values another move half a pawn
// (a man) above a draw, less the contempt our results against the opponent say, and within MemoryRisk of its
// best: against an opponent that repeats its moves the drawn move is worth a draw, which is worth less against
// one we outscore and more against one that outscores us.

package player

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"dossier/bots/openingbook"
	"dossier/bots/prepare"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory"
	"dossier/play"

	"go.uber.org/zap"
)

// recall is the game memory for one opponent and one game: our moves in the positions of its won games, and
// the mistakes its analyses blamed, by position.
type recall struct {
	opponent string                    // the opponent's key
	game     string                    // the game's name
	won      map[string]string         // position (FEN) -> the move we played there in a game we won
	drawn    map[string]map[string]int // position (FEN) -> our move there -> drawn games that played it
	lost     map[string]map[string]int // position (FEN) -> our move there -> lost games that played it
	mistakes map[string]mistakeShown   // position (FEN) -> the mistake an analysis blamed there
	// lines are our moves in the first bookLinePlies plies of the games, with our results: what the book's
	// choice against the opponent reads (book.go). By the position's hash, so that transpositions meet.
	lines openingbook.Lines
	// replies are the opponent's moves in the first bookLinePlies plies of the games: what predicts the lines
	// the next game plays (steeredPositions).
	replies openingbook.Replies
	// everyone are our lines against the other opponents (loadEveryone; nil when not read): the book's choice
	// tries new lines by them.
	everyone openingbook.Lines
	// results are our results in the opponent's games of the game: what leaving a repeated draw weighs a draw
	// by (see drawContemptLocked).
	results results
	// repeats says how much the opponent repeats its moves: what a won game's move is worth (consultRecall).
	repeats repeats
}

// mistakeShown is a mistake with its game as the info strings name it: "lost game 7" (its number among the
// opponent's games, 1 the first, as memory show numbers them).
type mistakeShown struct {
	memory.Mistake
	game string
}

// newRecall builds the game memory of an opponent's stored games of game g and the mistakes found in them,
// pausing in pause (nil for none) between games.
func newRecall(key string, g games.Game, stored []memory.Game, mistakes []memory.Mistake, pause func()) *recall {
	r := &recall{opponent: key, game: g.Name(), won: map[string]string{}, drawn: map[string]map[string]int{},
		lost: map[string]map[string]int{}, mistakes: map[string]mistakeShown{}, lines: openingbook.Lines{},
		replies: openingbook.Replies{}}
	named := map[string]string{}
	theirs := map[uint64]map[string]int{} // the opponent's moves by position
	// Each game is replayed from a position of its start that the last game from there was taken back to:
	// a position's history grows as it is played, and a new one for each of 1,000 games allocated a tenth of
	// what a game's start allocates (session 29's profile).
	starts := map[string]games.Position{}
	for i, sg := range stored {
		if pause != nil {
			pause() // a game costs a position and a move parsed a ply
		}
		verb := map[float64]string{0: "lost", 0.5: "drew", 1: "won"}[sg.OurScore]
		if verb == "" {
			verb = "played"
		}
		named[sg.ID] = fmt.Sprintf("%s game %d", verb, i+1)
		if sg.Game != g.Name() || sg.OurScore != 1 && sg.OurScore != 0.5 && sg.OurScore != 0 {
			continue
		}
		r.results.add(sg.GameSummary, g.Name())
		p := starts[sg.StartFEN]
		if p == nil {
			var err error
			if p, err = g.ParsePosition(sg.StartFEN); err != nil {
				continue
			}
			starts[sg.StartFEN] = p
		}
		r.replay(p, sg, theirs)
	}
	for _, moves := range theirs {
		r.repeats.add(moves)
	}
	for _, m := range mistakes {
		if m.Game == g.Name() {
			name, ok := named[m.GameID]
			if !ok {
				name = "an analysed game no longer stored"
			}
			r.mistakes[m.FEN] = mistakeShown{Mistake: m, game: name}
		}
	}
	return r
}

// replay adds a stored game's moves to the recall, and the opponent's to theirs (by position), playing them
// from p, its start, which it takes back to the start at the end.
func (r *recall) replay(p games.Position, sg memory.Game, theirs map[uint64]map[string]int) {
	played := 0
	defer func() {
		for ; played > 0; played-- {
			p.Undo()
		}
	}()
	ours := games.Side(sg.OurSide)
	for ply, text := range sg.Moves {
		m, err := p.ParseMove(text)
		if err != nil {
			break
		}
		addToLines(r.lines, r.replies, p, ours, ply, text, sg.OurScore)
		switch {
		case p.ToMove() != ours:
			if theirs[p.Hash()] == nil {
				theirs[p.Hash()] = map[string]int{}
			}
			theirs[p.Hash()][text]++
		case sg.OurScore == 1:
			r.won[p.FEN()] = text // the latest win through the position counts
		case sg.OurScore == 0.5:
			count(r.drawn, p.FEN(), text)
		default:
			count(r.lost, p.FEN(), text)
		}
		p.Play(m)
		played++
	}
}

// drawContemptLocked returns the contempt a repeated draw is left with (p.mu held): the search's own when it
// has one (the Contempt option, or MemoryContempt's), else the contempt our results against the opponent in the
// game memory r say (learn.ContemptFromResults, with the ratings the front end sent), for this decision alone.
// A draw repeated against an opponent we outscore gives away what we would likely win: in session 23's
// Connect-Four series (dossier 97.5% without its memory against the sophisticated preset) a move the memory
// chose drew 9 games in a row where the bar of a plain draw kept it against another valued the same; against
// a stronger opponent the bar rises, as the session 15 runs above ask.
func (p *Engine) drawContemptLocked(r *recall) float64 {
	if p.contempt.fixed || p.contempt.fromMemory {
		return p.cfg.Contempt
	}
	return r.results.contempt(p.game, p.ratingLocked()).Value
}

// bookLinePlies bounds the plies of a game whose moves the book's choice reads: deeper than any book's lines.
const bookLinePlies = 40

// addToLines adds a game's move text in p, ply plies from the game's start, to our lines (ours to move) or to the
// opponent's replies (nil: not kept), within the first bookLinePlies plies.
func addToLines(lines openingbook.Lines, replies openingbook.Replies, p games.Position, ours games.Side, ply int,
	text string, score float64) {
	switch {
	case ply >= bookLinePlies:
	case p.ToMove() == ours:
		lines.Add(p.Hash(), text, score)
	case replies != nil:
		replies.Add(p.Hash(), text)
	}
}

// Our lines against every other opponent are read for the book's choice while the opponent has played fewer than
// everyoneBelow games of the game with us (from there its own games decide), from the everyoneGames latest games
// of the opponents seen most recently: the read costs about a game's replay each, off the clock.
const (
	everyoneBelow = 20
	everyoneGames = 1000
)

// readEveryone reads our lines against the other opponents into r.everyone while the opponent has played fewer
// than everyoneBelow games of g with us, pausing in pause (nil for none) between games; a read that fails is said
// in the log, and keeps what it read.
func (r *recall) readEveryone(mem *memory.Memory, g games.Game, pause func(), log *zap.Logger) {
	if r.results.games() >= everyoneBelow {
		return
	}
	var err error
	if r.everyone, err = loadEveryone(mem, r.opponent, g, pause); err != nil {
		log.Warn("cannot read our lines against the other opponents", zap.Error(err))
	}
}

// loadEveryone returns our lines in the games of g against the opponents other than key, the most recently seen
// first, up to everyoneGames games, pausing in pause (nil for none) between games.
func loadEveryone(mem *memory.Memory, key string, g games.Game, pause func()) (openingbook.Lines, error) {
	list, err := mem.Opponents()
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(list, func(a, b memory.Summary) int { return b.LastSeen.Compare(a.LastSeen) })
	lines, read := openingbook.Lines{}, 0
	starts := map[string]games.Position{}
	for _, o := range list {
		if read >= everyoneGames {
			break
		}
		if o.Key == key || o.Key == play.UnknownKey || o.Games == 0 {
			continue
		}
		stored, err := mem.GamesBrief(o.Key)
		if err != nil {
			return lines, err
		}
		for i := len(stored) - 1; i >= 0 && read < everyoneGames; i-- { // the latest first
			sg := stored[i]
			if sg.Game != g.Name() || sg.OurScore != 1 && sg.OurScore != 0.5 && sg.OurScore != 0 {
				continue
			}
			if pause != nil {
				pause()
			}
			p := starts[sg.StartFEN]
			if p == nil {
				if p, err = g.ParsePosition(sg.StartFEN); err != nil {
					continue
				}
				starts[sg.StartFEN] = p
			}
			addGameLines(lines, p, sg)
			read++
		}
	}
	return lines, nil
}

// addGameLines adds our moves in the first bookLinePlies plies of a stored game to lines, playing them from p, its
// start, which it takes back to the start at the end.
func addGameLines(lines openingbook.Lines, p games.Position, sg memory.Game) {
	played := 0
	for ply, text := range sg.Moves {
		if ply >= bookLinePlies {
			break
		}
		m, err := p.ParseMove(text)
		if err != nil || !games.IsLegal(p, m) {
			break
		}
		addToLines(lines, nil, p, games.Side(sg.OurSide), ply, text, sg.OurScore)
		p.Play(m)
		played++
	}
	for ; played > 0; played-- {
		p.Undo()
	}
}

// bookRecords returns what the game memory knows of the book's moves in pos (a position of game): our records with
// them against the opponent and against every other opponent (when read), and our expected score against the
// opponent over all its games (Laplace's rule), or false when no opponent's games are installed.
func (g *gameMemory) bookRecords(game string, pos games.Position, moves []openingbook.Move) (records,
	everyone map[games.Move]openingbook.Record, prior float64, opponent string, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.recall
	if r == nil || r.game != game {
		return nil, nil, 0, "", false
	}
	return r.lines.ByMove(pos, moves), r.everyone.ByMove(pos, moves), r.prior(), r.opponent, true
}

// prior returns the prior of the book's choice against the opponent: our expected score from our results.
func (r *recall) prior() float64 {
	res := r.results
	return openingbook.Prior(float64(res.wins)+float64(res.draws)/2, res.games())
}

// count adds a game that played move in the position fen to counts.
func count(counts map[string]map[string]int, fen, move string) {
	if counts[fen] == nil {
		counts[fen] = map[string]int{}
	}
	counts[fen][move]++
}

// loadRecall reads the opponent's games, the mistakes found in them and the experience of the game from the
// memory, when it has one: the game memory when the opponent gave a name (games against unnamed opponents are
// not one opponent's), the experience of every opponent either way. It runs at a new game and when the
// opponent is named, never on the clock.
func (p *Engine) loadRecall() {
	p.mu.Lock()
	mem, key, g, log := p.filer.memory(), p.opponentKeyLocked(), p.game, p.filer.logger()
	p.mu.Unlock()
	if mem == nil {
		p.gameMemory.set("", nil, nil)
		return
	}
	if key == play.UnknownKey {
		p.gameMemory.set("", nil, loadExperience(mem, "", g, log, p.pauseReading))
		return
	}
	x := loadExperience(mem, key, g, log, p.pauseReading)
	stored, err := mem.GamesBrief(key)
	if err != nil {
		log.Debug("no game memory for the opponent", zap.String("opponent", key), zap.Error(err))
		p.gameMemory.set(key, nil, x)
		return
	}
	var mistakes []memory.Mistake
	if prof, err := mem.ProfileBrief(key); err == nil {
		mistakes = prof.Mistakes
	} else if !errors.Is(err, memory.ErrUnknownOpponent) {
		log.Warn("cannot read the mistakes found against the opponent", zap.String("opponent", key), zap.Error(err))
	}
	r := newRecall(key, g, stored, mistakes, p.pauseReading)
	if p.book.isOwn() {
		r.readEveryone(mem, g, p.pauseReading, log)
	}
	p.gameMemory.set(key, r, x)
}

// gameMemory holds the game memory of the current opponent (nil: none) and the experience of the game (nil:
// none), with its own lock: loadRecall replaces them off the clock while a search may read them.
type gameMemory struct {
	mu         sync.Mutex
	key        string // the opponent whose memory is installed ("" for none)
	recall     *recall
	experience *experienceTable
	keptDraw   bool // a repeated draw was kept for a loss in this game (keepDraw)
}

// set installs the game memory and the experience table of the opponent key.
func (g *gameMemory) set(key string, r *recall, x *experienceTable) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.key, g.recall, g.experience, g.keptDraw = key, r, x, false
}

// addPrepared installs, in place of the experience table, a copy with the preparation's finding fd, when the
// table installed is of game g against the opponent key (else the finding waits in the memory for the next
// game). A search in progress keeps the table it began with.
func (g *gameMemory) addPrepared(key string, game games.Game, fd prepare.Finding) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if key == "" || g.key != key || g.experience != nil && g.experience.game != game.Name() {
		return
	}
	g.experience = g.experience.withPrepared(game, fd)
}

// keepDraw notes that a repeated draw was kept in this game because leaving it lost once: no later position
// of the game leaves a draw (the positions after the one kept are the same drawn line's).
func (g *gameMemory) keepDraw() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.keptDraw = true
}

// drawKept reports whether keepDraw was called since the game memory was installed.
func (g *gameMemory) drawKept() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.keptDraw
}

// get returns the game memory installed (nil: none); a recall is never changed once built.
func (g *gameMemory) get() *recall {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.recall
}

// experienceOf returns the experience table installed when it is of the game named (nil otherwise); a table
// is never changed once built.
func (g *gameMemory) experienceOf(game string) *experienceTable {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.experience == nil || g.experience.game != game {
		return nil
	}
	return g.experience
}

// recallSearchShare is the part of the move's time the search gets where the game memory may check a move
// after it (recallLookup.mayCheck), while the search's best move is one the check would search against (another
// than the won game's, or a repeated draw's): the check (searchOnly) gets a quarter of what the search took, so
// that the two together take the move's time instead of a quarter more (session 23: at 8+0.08 against Glaurung
// the checks added 144 ms a game to our clock, 225 of them over 20 ms). While the best move is the won game's
// (the usual case against an opponent that repeats itself: our search chose it in that game) the search has the
// whole move, since no check follows (session 25: with the share fixed for the whole search, our moves in plies
// 0-19 were 0.35 ply shallower than without the memory at 8+0.08 against Stockfish 2050).
const recallSearchShare = 0.8

// recallLookup is what the game memory holds for the position about to be searched, read once before the
// search: the search's share of the move's time and the consultation after it both depend on it.
type recallLookup struct {
	r   *recall // nil: the game memory has nothing to do here
	fen string
	won bool // a won game's move is stored for the position
	// wonMove is that move (games.NoMove when it is not legal here).
	wonMove games.Move
	// drawn are our moves here by the drawn games that played them (empty, or a repeated draw kept earlier in
	// this game: nothing to leave).
	drawn map[string]int
}

// mayCheck reports whether consultRecall may search again after the search: a won game's move or drawn
// games' moves are stored for the position.
func (l recallLookup) mayCheck() bool { return l.won || len(l.drawn) > 0 }

// checks reports whether consultRecall would search again if the search's best move were best: another move
// than the won game's, or a move repeated drawn games played here.
func (l recallLookup) checks(pos games.Position, best games.Move) bool {
	if l.won {
		return l.wonMove != games.NoMove && best != l.wonMove
	}
	for text, n := range l.drawn {
		if m, err := pos.ParseMove(text); err == nil && m == best && n >= drawRepeats {
			return true
		}
	}
	return false
}

// shareTime returns the search's report function where the game memory may check a move after the search (at
// mayCheck): after each line it gives the search ctl (a control of WithTimeShare) recallSearchShare of the move
// while the line's move is one the check would search against, the whole move otherwise; then it passes the
// report on to next.
func (l recallLookup) shareTime(pos games.Position, ctl *engine.Control, next func(engine.Info)) func(engine.Info) {
	return func(info engine.Info) {
		if info.Text == "" && info.Depth > 0 && len(info.PV) > 0 && info.MultiPV <= 1 {
			share := 1.0
			if l.checks(pos, info.PV[0]) {
				share = recallSearchShare
			}
			ctl.SetTimeShare(share)
		}
		next(info)
	}
}

// recallAt reads what the game memory holds for pos: nothing unless the Player plays its own alpha-beta at
// full strength (plainSearchLocked), the game memory is of this game, and the search is not infinite.
func (p *Engine) recallAt(pos games.Position, ctl *engine.Control) recallLookup {
	p.mu.Lock()
	r, game, plain := p.gameMemory.get(), p.game.Name(), p.plainSearchLocked()
	p.mu.Unlock()
	if r == nil || r.game != game || !plain || ctl.Limits().Infinite || len(r.won) == 0 && len(r.drawn) == 0 {
		return recallLookup{}
	}
	l := recallLookup{r: r, fen: pos.FEN()}
	var won string
	if won, l.won = r.won[l.fen]; l.won {
		l.wonMove = games.NoMove
		if m, err := pos.ParseMove(won); err == nil && games.IsLegal(pos, m) {
			l.wonMove = m
		}
	}
	if !l.won && !p.gameMemory.drawKept() {
		l.drawn = r.drawn[l.fen]
	}
	return l
}

// consultRecall plays the move of a won game through this position when our own search, reading the
// experience, values it within MemoryRisk of its best. It searches again, restricted to that move, only in such
// positions, and compares the values at the deepest depth both searches completed (main kept the first
// search's best line at every depth), so that a check cut short by the clock still decides on equal terms.
// at is what recallAt read before the search.
func (p *Engine) consultRecall(s engine.Searcher, pos games.Position, ctl *engine.Control, at recallLookup,
	res engine.Result, main *searchers.DepthLines, report func(engine.Info)) engine.Result {
	if !at.mayCheck() || res.Move == games.NoMove {
		return res
	}
	r, fen := at.r, at.fen
	p.mu.Lock()
	risk := float64(p.memoryRiskLocked())
	p.mu.Unlock()
	say := func(format string, args ...any) {
		if report != nil {
			report(engine.Info{Text: fmt.Sprintf(format, args...)})
		}
	}
	if !at.won {
		// What another move must be worth to leave a repeated draw: a draw (less contempt) and half a pawn. Our
		// search's values near a draw say little against an opponent stronger than us: in session 15's checkers
		// runs against one (memory off 41%), the 13 games that left a draw at such values won 1, drew 2, lost 10.
		p.mu.Lock()
		drawBar := -p.drawContemptLocked(r) + presets.Strength(p.game).Unit/2
		p.mu.Unlock()
		sayAndLog := func(format string, args ...any) { // the log keeps what drawn lines did, for the experiments
			say(format, args...)
			p.filer.logger().Info("repeated draw", zap.Int("ply", pos.Ply()), zap.String("said", fmt.Sprintf(format, args...)))
		}
		left, kept := leaveRepeatedDraw(s, pos, ctl, res, main, at.drawn, r.lost[fen], risk, drawBar,
			sayAndLog)
		if left.Move != res.Move {
			p.use.leftDraw()
		}
		if kept {
			p.gameMemory.keepDraw()
		}
		return left
	}
	m := at.wonMove // parsed and checked legal by recallAt
	if m == games.NoMove {
		return res
	}
	shown := games.NumberedMove(pos, m)
	if m == res.Move {
		say("game memory: %s as in a game won against this opponent (the search rates it best)", shown)
		return res
	}
	// What the move may cost: MemoryRisk against an opponent that repeats its moves, less against one that varies
	// them, which is unlikely to play the rest of the won game again.
	riskText := fmt.Sprintf("MemoryRisk %.0f", risk)
	if share := r.repeats.riskShare(); share < 1 {
		riskText = fmt.Sprintf("MemoryRisk %.0f, %.0f against an opponent that repeats %.0f%% of its moves", risk,
			risk*share, 100*r.repeats.rate())
		risk *= share
	}
	alt, v, best, depth := searchOnly(s, pos, ctl, res, main, []games.Move{m})
	switch {
	case depth == 0:
		say("game memory: no time to check %s of a won game; not replayed", shown)
	case v >= best-risk:
		say("game memory: %s as in a game won against this opponent (%.0f, best %.0f at depth %d, %s)",
			shown, v, best, depth, riskText)
		return alt
	default:
		say("game memory: %s of a won game is %.0f below the best at depth %d (%s); not replayed",
			shown, best-v, depth, riskText)
	}
	return res
}

// drawRepeats is how many drawn games must have played our move in a position before it counts as a repeated
// draw: one draw says nothing of the opponent, two the same say it repeats.
const drawRepeats = 2

// leaveRepeatedDraw plays another move where the search chose a move that drawn games against this opponent
// played here at least twice (drawn: our moves in this position by the drawn games that played them), when
// our search values the best other move above bar (a draw and a margin) and within risk of its best. Against an
// opponent that repeats its moves the repeated move is worth a draw, whatever the search says of it. A
// position is left once: where a game lost after another move here (lost: our moves here by the lost games),
// the draw is kept, since the analysis of that loss need not blame the move that left the draw (session 15:
// without this rule the same draw was left for the same loss six times in a row); kept says so, and the
// caller then keeps the draw for the rest of the game, so that a drawn line costs one loss at most.
func leaveRepeatedDraw(s engine.Searcher, pos games.Position, ctl *engine.Control, res engine.Result,
	main *searchers.DepthLines, drawn, lost map[string]int, risk, bar float64,
	say func(string, ...any)) (_ engine.Result, kept bool) {
	if len(drawn) == 0 {
		return res, false
	}
	repeated := map[games.Move]int{}
	for text, n := range drawn {
		if m, err := pos.ParseMove(text); err == nil && n >= drawRepeats {
			repeated[m] = n
		}
	}
	times, ok := repeated[res.Move]
	if !ok {
		return res, false
	}
	shown := games.NumberedMove(pos, res.Move)
	for _, text := range slices.Sorted(maps.Keys(lost)) { // sorted: the same message every time
		if m, err := pos.ParseMove(text); err == nil && repeated[m] == 0 {
			say("game memory: %s as in %d drawn games against this opponent; %s lost %d", shown, times,
				games.NumberedMove(pos, m), lost[text])
			return res, true
		}
	}
	var buf [games.MaxMoves]games.Move
	var others []games.Move
	for _, m := range pos.AppendMoves(buf[:0]) {
		if _, drew := repeated[m]; !drew {
			others = append(others, m)
		}
	}
	if len(others) == 0 {
		return res, false
	}
	alt, v, best, depth := searchOnly(s, pos, ctl, res, main, others)
	switch {
	case depth == 0:
		say("game memory: %s drew %d games against this opponent; no time to search another move", shown, times)
	case v > bar && v >= best-risk:
		say("game memory: %s instead of %s, which drew %d games against this opponent (%.0f, best %.0f at depth %d, MemoryRisk %.0f)",
			games.NumberedMove(pos, alt.Move), shown, times, v, best, depth, risk)
		return alt, false
	default:
		say("game memory: %s drew %d games against this opponent; the best other move is %.0f at depth %d (best %.0f, needed above %.0f, MemoryRisk %.0f)",
			shown, times, v, depth, best, bar, risk)
	}
	return res, false
}

// searchOnly searches pos again, restricted to moves, at most as deep as the search that gave res, within a
// quarter of the time that search took when it had a clock. It returns the result, and the value of its best
// move and of the first search's best at the deepest depth both completed (depth 0: none).
func searchOnly(s engine.Searcher, pos games.Position, ctl *engine.Control, res engine.Result, main *searchers.DepthLines,
	moves []games.Move) (alt engine.Result, v, best float64, depth int) {
	lim := engine.Limits{Depth: max(res.Depth, 1), SearchMoves: moves}
	if outer := ctl.Limits(); outer.MoveTime > 0 || outer.Time[pos.ToMove()] > 0 {
		lim.MoveTime = max(ctl.Elapsed()/4, 5*time.Millisecond)
	}
	lines := searchers.NewDepthLines(nil)
	alt = s.Search(pos.Clone(), engine.NewControl(lim, pos.ToMove()), lines.Report)
	alt.Nodes += res.Nodes // the move's answer counts every node searched for it
	if alt.Move == games.NoMove {
		return alt, 0, 0, 0
	}
	first := main.Lines()
	for d, l := range lines.Lines() {
		if b, ok := first[d]; ok && d > depth && slices.Contains(moves, l.Move) {
			depth, v, best = d, l.Score, b.Score
		}
	}
	if alt.Depth >= res.Depth && alt.Depth > depth { // a search that reported no lines (a test's searcher)
		depth, v, best = alt.Depth, alt.Score, res.Score
	}
	return alt, v, best, depth
}
