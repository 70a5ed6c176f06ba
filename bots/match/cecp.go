// A CECP (xboard protocol) client for external engines: fairymax, phalanx, gnuchess, dossier --protocol xboard.

package match

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"dossier/games"
)

// featureGrace is how long an engine that has started talking may stay silent before the client goes on
// without (more) features, as the protocol asks (an engine of protocol version 1 announces none). The
// protocol's 2 s count from protover; here they count from the engine's last line, and an engine that has
// said nothing yet or sent feature done=0 has the whole start-up time-out: on a loaded machine a program
// can take longer than 2 s to start, and taking it for a version 1 engine would lose its features.
const featureGrace = 2 * time.Second

// cecpEngine is an external engine run as a subprocess and spoken to in CECP. CECP keeps the game in the
// engine: the client tells it the moves as they are played, and sets the game up afresh (force, setboard,
// the moves, go) only when the engine's game and the match's part.
type cecpEngine struct {
	*engineProcess
	game games.Game
	// features are what the engine announced (feature name=value), options the lower-case names of its
	// feature option= settings.
	features map[string]string
	options  map[string]bool

	// opponent is the name the engine is told at the start of every game ("" for none).
	opponent string
	// pings counts the ping commands sent, so that each pong is matched with its ping.
	pings int
	// known is how many moves of the current game the engine has, -1 until it was given the game.
	known int
}

// startCECP runs the CECP engine of spec for game g: the xboard and protover handshake, the variant check,
// the spec's options, and a ping round trip, each answered within timeout.
func startCECP(ctx context.Context, g games.Game, spec PlayerSpec, timeout time.Duration) (Contestant, error) {
	proc, err := startProcess(spec)
	if err != nil {
		return nil, err
	}
	e := &cecpEngine{engineProcess: proc, game: g, features: map[string]string{}, options: map[string]bool{}, known: -1}
	if err := e.handshake(ctx, spec, timeout); err != nil {
		e.Close()
		return nil, fmt.Errorf("engine %s: %w", spec.Command, err)
	}
	e.nameAfter(spec, e.features["myname"])
	return e, nil
}

// handshake sends xboard and protover 2, reads the features until done=1 (or the grace period of an engine
// that announces none), checks the variant and sets the spec's options.
func (e *cecpEngine) handshake(ctx context.Context, spec PlayerSpec, timeout time.Duration) error {
	if err := e.send("xboard"); err != nil {
		return err
	}
	if err := e.send("protover 2"); err != nil {
		return err
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	waitingForDone := false
reading:
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return e.diedError()
			}
			if !waitingForDone {
				timer.Reset(min(featureGrace, timeout))
			}
			words := strings.Fields(line)
			if len(words) == 0 || words[0] != "feature" {
				continue
			}
			for _, f := range parseFeatures(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "feature"))) {
				if f.name == "option" {
					name, _, _ := strings.Cut(f.value, " -")
					e.options[strings.ToLower(strings.TrimSpace(name))] = true
				} else {
					e.features[f.name] = f.value
				}
				if err := e.send("accepted " + f.name); err != nil {
					return err
				}
				if f.name == "done" {
					if f.value == "1" {
						break reading
					}
					waitingForDone = true // done=0: the engine asks for time to start up
					timer.Reset(timeout)
				}
			}
		case <-timer.C:
			if waitingForDone {
				return playerErrorf(EngineStalled, "%s sent feature done=0 and no done=1 within %v", e.name, timeout)
			}
			break reading // protocol version 1: no features
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if variant := games.VariantsOf(e.game).CECP; variant != "normal" {
		offered := strings.Split(e.features["variants"], ",")
		if !containsFold(offered, variant) {
			return fmt.Errorf("the engine's variants (%s) do not include %s", e.features["variants"], variant)
		}
	}
	for _, o := range spec.Options {
		if !e.options[strings.ToLower(o.Name)] {
			return fmt.Errorf("the engine has no option %q", o.Name)
		}
		line := "option " + o.Name
		if o.Value != "" {
			line += "=" + o.Value
		}
		if err := e.send(line); err != nil {
			return err
		}
	}
	return e.sync(ctx, timeout)
}

// feature is one name=value pair of a feature line.
type feature struct{ name, value string }

// parseFeatures reads the pairs of a feature line (without the word feature): name=value or name="value
// with spaces". A pair without = is skipped.
func parseFeatures(text string) []feature {
	var out []feature
	for text = strings.TrimSpace(text); text != ""; text = strings.TrimSpace(text) {
		eq := strings.IndexByte(text, '=')
		space := strings.IndexAny(text, " \t")
		if eq < 0 || (space >= 0 && space < eq) {
			if space < 0 {
				break
			}
			text = text[space:]
			continue
		}
		name, rest := text[:eq], text[eq+1:]
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				value, rest = rest[1:], ""
			} else {
				value, rest = rest[1:end+1], rest[end+2:]
			}
		} else if i := strings.IndexAny(rest, " \t"); i >= 0 {
			value, rest = rest[:i], rest[i:]
		} else {
			value, rest = rest, ""
		}
		out = append(out, feature{name, value})
		text = rest
	}
	return out
}

// sync makes a ping round trip when the engine does ping (feature ping=1): every command before it is done
// once the pong arrives. Without ping there is nothing to wait for.
func (e *cecpEngine) sync(ctx context.Context, timeout time.Duration) error {
	if e.features["ping"] != "1" {
		return nil
	}
	e.pings++
	want := "pong " + strconv.Itoa(e.pings)
	if err := e.send("ping " + strconv.Itoa(e.pings)); err != nil {
		return err
	}
	return e.readUntil(ctx, timeout, want, func(line string) bool { return strings.TrimSpace(line) == want })
}

// SetOpponentName keeps the opponent's name, which the engine is told at the start of every game.
func (e *cecpEngine) SetOpponentName(name string) { e.opponent = name }

// NewGame sends new, the variant, post (for the thinking lines' scores), easy (no pondering), computer (the
// opponent is a program) and the opponent's name (to an engine that asked for it with feature name=1), then
// waits for the engine with a ping.
func (e *cecpEngine) NewGame(ctx context.Context) error {
	e.drain()
	lines := []string{"new"}
	if variant := games.VariantsOf(e.game).CECP; variant != "normal" {
		lines = append(lines, "variant "+variant)
	}
	lines = append(lines, "post", "easy", "computer")
	if e.opponent != "" && e.features["name"] == "1" {
		lines = append(lines, "name "+e.opponent)
	}
	for _, line := range lines {
		if err := e.send(line); err != nil {
			return err
		}
	}
	e.known = -1
	return e.sync(ctx, newGameTimeout)
}

// Move tells the engine the moves it lacks and reads its move. When the engine has the game up to the
// opponent's last move, that move (with the clocks) is all it needs; otherwise the game is set up again in
// force mode and go makes the engine play the side to move.
func (e *cecpEngine) Move(ctx context.Context, req MoveRequest) (Reply, error) {
	e.drain()
	ours := req.Position.ToMove()
	var lines []string
	if e.known >= 0 && e.known == len(req.Moves)-1 {
		lines = append(e.clockLines(req, ours), e.moveLine(req.Start, req.Moves, len(req.Moves)-1))
	} else {
		setup, err := e.setupLines(req)
		if err != nil {
			return Reply{}, err
		}
		lines = append(append(setup, e.clockLines(req, ours)...), "go")
	}
	for _, line := range lines {
		if err := e.send(line); err != nil {
			return Reply{}, err
		}
	}
	var reply Reply
	var move string
	var failure *PlayerError
	err := e.readUntil(ctx, req.Timeout, "move", func(line string) bool {
		words := strings.Fields(line)
		if len(words) == 0 {
			return false
		}
		switch {
		case words[0] == "move" && len(words) > 1:
			move = words[1]
			return true
		case words[0] == "resign" || (isResult(words[0]) && resultLoses(e.game, words[0], ours)):
			failure = playerErrorf(Resignation, "%s resigns: %s", e.name, line)
			return true
		case isResult(words[0]):
			failure = playerErrorf(EngineError, "%s claimed %q instead of moving in %s", e.name, line, req.Position.FEN())
			return true
		case strings.HasPrefix(line, "Illegal move"):
			failure = playerErrorf(EngineError, "%s refused a move of the game: %s", e.name, line)
			return true
		case words[0][0] >= '0' && words[0][0] <= '9':
			readThinking(words, &reply)
		}
		return false
	})
	if err != nil {
		return Reply{}, e.killIfStalled(err)
	}
	if failure != nil {
		return Reply{}, failure
	}
	m, err := e.legalMove(req.Position, move)
	if err != nil {
		return Reply{}, err
	}
	e.known = len(req.Moves) + 1
	reply.Move = m
	return reply, nil
}

// setupLines gives the engine the game from its start: force, the time control, setboard for a start other
// than the game's own, and every move so far.
func (e *cecpEngine) setupLines(req MoveRequest) ([]string, error) {
	lines := []string{"force"}
	lim := req.Limits
	switch ours := req.Position.ToMove(); {
	case lim.MoveTime > 0:
		// st takes whole seconds: a shorter move time is a second.
		lines = append(lines, "st "+strconv.FormatInt(max(int64(math.Round(lim.MoveTime.Seconds())), 1), 10))
	case !req.Clock.IsZero():
		lines = append(lines, levelCommand(req.Clock))
	case lim.Time[ours] > 0:
		lines = append(lines, levelCommand(TimeControl{Moves: lim.MovesToGo, Base: lim.Time[ours], Inc: lim.Inc[ours]}))
	case lim.Depth == 0:
		return nil, playerErrorf(EngineError, "%s speaks CECP, which has no node limit: give it depth, movetime or tc", e.name)
	}
	if lim.Depth > 0 {
		lines = append(lines, "sd "+strconv.Itoa(lim.Depth))
	}
	if req.Start.FEN() != e.game.Start().FEN() {
		if e.features["setboard"] != "1" {
			return nil, playerErrorf(EngineError, "%s cannot set up a position (no feature setboard=1): %s", e.name, req.Start.FEN())
		}
		lines = append(lines, "setboard "+req.Start.FEN())
	}
	for i := range req.Moves {
		lines = append(lines, e.moveLine(req.Start, req.Moves, i))
	}
	return lines, nil
}

// levelCommand writes a time control as "level MPS BASE INC", BASE in minutes:seconds (at least a second).
func levelCommand(tc TimeControl) string {
	secs := max(int64(math.Ceil(tc.Base.Seconds())), 1)
	base := strconv.FormatInt(secs/60, 10)
	if secs%60 != 0 {
		base += fmt.Sprintf(":%02d", secs%60)
	}
	return fmt.Sprintf("level %d %s %s", tc.Moves, base, strconv.FormatFloat(tc.Inc.Seconds(), 'f', -1, 64))
}

// clockLines writes the clocks before a move, time for the engine's and otim for its opponent's, in
// centiseconds; none without a clock.
func (e *cecpEngine) clockLines(req MoveRequest, ours games.Side) []string {
	if req.Limits.Time[ours] <= 0 {
		return nil
	}
	cs := func(d time.Duration) string { return strconv.FormatInt(max(d.Milliseconds()/10, 1), 10) }
	lines := []string{"time " + cs(req.Limits.Time[ours])}
	if t := req.Limits.Time[ours.Other()]; t > 0 {
		lines = append(lines, "otim "+cs(t))
	}
	return lines
}

// moveLine writes move i of the game as the engine asked: with usermove when it set usermove=1, in SAN when
// it set san=1 (chess), else in the game's coordinate notation.
func (e *cecpEngine) moveLine(start games.Position, moves []games.Move, i int) string {
	p := start.Clone()
	for _, m := range moves[:i] {
		p.Play(m)
	}
	text := p.FormatMove(moves[i])
	if san, ok := p.(interface{ SAN(games.Move) string }); ok && (e.features["san"] == "1" || isChess960(e.game)) {
		if s := san.SAN(moves[i]); e.features["san"] == "1" || strings.HasPrefix(s, "O-O") {
			text = s // xboard writes Chess960 castling as O-O, O-O-O
		}
	}
	if e.features["usermove"] == "1" {
		return "usermove " + text
	}
	return text
}

// isResult reports whether word is a CECP result.
func isResult(word string) bool {
	return word == "1-0" || word == "0-1" || word == "1/2-1/2"
}

// resultLoses reports whether a CECP result is a loss for side (White is the first player but in checkers).
func resultLoses(g games.Game, result string, side games.Side) bool {
	white := games.WhiteSide(g)
	return (result == "1-0" && side != white) || (result == "0-1" && side == white)
}

// readThinking takes depth, score (centipawns, mates as ±100000+n) and nodes from a thinking line
// "ply score time nodes pv".
func readThinking(words []string, reply *Reply) {
	if len(words) < 4 {
		return
	}
	depth, err1 := strconv.Atoi(words[0])
	score, err2 := strconv.ParseInt(words[1], 10, 64)
	nodes, err3 := strconv.ParseUint(words[3], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return
	}
	reply.Depth, reply.Nodes = depth, nodes
	switch {
	case score >= 100000:
		reply.Score = mateScore(score - 100000)
	case score <= -100000:
		reply.Score = mateScore(score + 100000)
	default:
		reply.Score = float64(score)
	}
	reply.HasScore = true
}

// EndGame sends the game's result with its reason, as xboard does.
func (e *cecpEngine) EndGame(rec GameRecord) {
	result := "*"
	if winner, won := rec.Result.Winner(); won {
		result = "0-1"
		if winner == games.WhiteSide(e.game) {
			result = "1-0"
		}
	} else if rec.Result == games.Draw {
		result = "1/2-1/2"
	}
	why := rec.Detail
	if why == "" {
		why = string(rec.Termination)
	}
	if len(why) > 120 {
		why = why[:120]
	}
	e.send("result " + result + " " + games.FormatComment(why))
	e.known = -1
}
