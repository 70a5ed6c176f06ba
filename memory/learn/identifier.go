// Identifying an opponent who gives no name from its moves: a table of the moves each stored opponent played in
// each position, and the posterior over the stored opponents (and someone new) given the moves seen so far.
package learn

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"dossier/games"
	"dossier/memory"
	"dossier/play/opponent"
)

// Defaults of IdentifierOptions.
const (
	// DefaultIdentifyThreshold is the posterior above which the identifier names an opponent.
	DefaultIdentifyThreshold = 0.95
	// DefaultIdentifyAlpha is the weight a of the back-off against an opponent's own counts, a quarter of a
	// game: a deviation from a move seen once costs a factor u/5, so one deviation (an engine on the clock does
	// not always repeat its move) does not rule an opponent out, and a repeated move counts nearly in full. Of
	// a = 0.05, 0.25, 1 and 4 in TestIdentifyAccuracy's games, 0.25 identified best and told someone new
	// apart best but for 0.05, which loses accuracy; larger a dilutes an opponent's counts (4: 17% after 10
	// games).
	DefaultIdentifyAlpha = 0.25
	// DefaultIdentifyBeta is the weight b of the uniform distribution in the back-off's pooled counts: one
	// pseudo-move, so that the back-off follows the pooled counts once a few opponents were seen in the
	// position (b = 5 identified as well and told someone new apart less often).
	DefaultIdentifyBeta = 1.0
)

// NewOpponentKey is the key the identifier gives the "someone new" hypothesis in its ranking.
const NewOpponentKey = "(new)"

// IdentifierOptions tunes an Identifier; zero fields take the defaults.
type IdentifierOptions struct {
	// Threshold is the posterior above which a stored opponent is identified (DefaultIdentifyThreshold).
	Threshold float64
	// Alpha is a in (c_j(pos, move) + a u(move)) / (c_j(pos) + a) (DefaultIdentifyAlpha).
	Alpha float64
	// Beta is b in the back-off u(move) = (C(pos, move) + b/n) / (C(pos) + b) (DefaultIdentifyBeta).
	Beta float64
	// Uniform makes the back-off uniform over the legal moves instead of the pooled counts.
	Uniform bool
	// Classes puts each opponent's own preference for kinds of move (see moveClass) under the uniform part
	// of the back-off, so that every move it plays is evidence, in positions no stored opponent saw too.
	Classes bool
}

// OpponentGames is one stored opponent's games, from which the identifier learns its moves.
type OpponentGames struct {
	// Key is the opponent's store key.
	Key string
	// Games are its stored games; those of another game than the identifier's are skipped.
	Games []memory.Game
}

// IdentifyCandidate is one hypothesis of the identifier with its posterior probability.
type IdentifyCandidate struct {
	// Key is the stored opponent's key, or NewOpponentKey for someone not in the memory.
	Key string
	// Probability is the posterior probability (uniform prior over the stored opponents and someone new).
	Probability float64
	// LogLikelihood is the log-likelihood ratio of the moves seen against the back-off alone.
	LogLikelihood float64
}

// idCount is how often one stored opponent did something (was to move in a position, played a move).
type idCount struct {
	opp int32
	n   int32
}

// idMove is one move played in a position: how often in all, and by whom.
type idMove struct {
	move  games.Move
	total int32
	by    []idCount
}

// idEntry is what the stored opponents did in one position (by hash): how often each was to move there, and
// the moves played, with the number of legal moves there for the uniform back-off.
type idEntry struct {
	legal int32
	total int32
	by    []idCount
	moves []idMove
}

// idDelta is one term added to an opponent's log-likelihood, kept for the current game so that a take-back
// can remove it.
type idDelta struct {
	ply int
	opp int32
	d   float64
}

// Identifier ranks the stored opponents (and someone new) as the author of the moves it observes. Each stored
// opponent j is the model P_j(move | pos) = (c_j(pos, move) + a u_j(move)) / (c_j(pos) + a), from the counts
// of its stored moves; u_j is the back-off, the moves the other stored opponents played in the position
// smoothed towards uniform over the legal moves: u_j(move) = (C_-j(pos, move) + b/n) / (C_-j(pos) + b).
// "Someone new" plays u (the pooled counts of everyone). The back-off is pooled rather than uniform because a
// position's obvious move (a recapture, a forced reply) is played by every engine: a player's playing it says
// little about who it is, and the pooled back-off gives it the probability that says so; in positions no stored
// opponent saw, every hypothesis gives the same probability, so they carry no evidence and cost nothing.
//
// An observation costs one map lookup by the position's hash and a loop over the opponents that were seen in
// the position (none for most positions out of the opening). An Identifier is not safe for concurrent use.
type Identifier struct {
	game    string
	keys    []string
	table   map[uint64]*idEntry
	alpha   float64
	beta    float64
	uniform bool
	// With Classes: per stored opponent, how often a move of each class was offered (legal) and chosen, and
	// the class weights w[j][c] (someone new's at index len(keys)), computed once the games are in.
	classes   bool
	offered   [][numClasses]float64
	chosen    [][numClasses]float64
	weights   [][numClasses]float64
	threshold float64
	loglik    []float64 // per stored opponent; someone new stays at 0
	cur       []idDelta // the current game's terms, for take-backs
	moves     int       // moves observed
	evidence  int       // moves observed in a position some stored opponent was seen in
	games     int       // games observed (StartGame calls)
	skipped   int       // stored games (or their tails) that could not be replayed
}

// NewIdentifier builds the identifier of game g from the stored opponents' games (the opponent's moves are
// those of the side that was not OurSide). Games of other games, and a stored game's moves from one that does
// not replay on, are skipped (Skipped counts them). Opponents without a game of g are left out.
func NewIdentifier(g games.Game, stored []OpponentGames, opts IdentifierOptions) (*Identifier, error) {
	if g == nil {
		return nil, errors.New("identifier: no game")
	}
	if opts.Threshold == 0 {
		opts.Threshold = DefaultIdentifyThreshold
	}
	if opts.Alpha == 0 {
		opts.Alpha = DefaultIdentifyAlpha
	}
	if opts.Beta == 0 {
		opts.Beta = DefaultIdentifyBeta
	}
	if opts.Threshold <= 0 || opts.Threshold > 1 || opts.Alpha < 0 || opts.Beta < 0 {
		return nil, fmt.Errorf("identifier: threshold %g must be in (0, 1], alpha %g and beta %g positive",
			opts.Threshold, opts.Alpha, opts.Beta)
	}
	id := &Identifier{game: g.Name(), table: map[uint64]*idEntry{}, alpha: opts.Alpha, beta: opts.Beta,
		threshold: opts.Threshold, uniform: opts.Uniform, classes: opts.Classes && !opts.Uniform}
	var buf [games.MaxMoves]games.Move
	for _, og := range stored {
		if og.Key == opponent.UnknownKey || slices.Contains(id.keys, og.Key) {
			continue
		}
		opp := int32(len(id.keys))
		if id.classes {
			id.offered = append(id.offered[:opp], [numClasses]float64{})
			id.chosen = append(id.chosen[:opp], [numClasses]float64{})
		}
		added := false
		for _, sg := range og.Games {
			if sg.Game != "" && sg.Game != g.Name() {
				continue
			}
			n, ok := id.addGame(g, sg, opp, buf[:0])
			if !ok {
				id.skipped++
			}
			added = added || n > 0
		}
		if added {
			id.keys = append(id.keys, og.Key)
		}
	}
	id.loglik = make([]float64, len(id.keys))
	if id.classes {
		id.offered, id.chosen = id.offered[:len(id.keys)], id.chosen[:len(id.keys)]
		id.classWeights()
	}
	return id, nil
}

// numClasses bounds the classes moveClass returns.
const numClasses = 32

// classKappa is how many offers of a class the pooled rate counts for in an opponent's own class weight.
const classKappa = 4.0

// sanWriter is a position that writes moves in Standard Algebraic Notation (chess).
type sanWriter interface {
	SAN(m games.Move) string
}

// moveClass sorts a legal move into a kind that an opponent's style prefers or avoids, whatever the position:
// in chess the piece moved (or castling) with capture, check and promotion; in a game with tactical moves
// (checkers' captures and crownings), tactical or not; otherwise one class, which leaves the back-off as it
// was.
func moveClass(p games.Position, m games.Move) int {
	if sw, ok := p.(sanWriter); ok {
		san := sw.SAN(m)
		piece := 0
		switch {
		case strings.HasPrefix(san, "O-O"):
			piece = 6
		case san != "":
			piece = max(strings.IndexByte("PNBRQK", san[0]), 0)
		}
		c := piece * 4
		if strings.ContainsRune(san, 'x') || strings.ContainsRune(san, '=') {
			c += 2
		}
		if strings.HasSuffix(san, "+") || strings.HasSuffix(san, "#") {
			c++
		}
		return c
	}
	if t, ok := p.(games.Tactical); ok && t.IsTactical(m) {
		return 1
	}
	return 0
}

// classWeights computes the class weights: someone new's is the pooled rate at which a class of move is
// chosen when offered, smoothed towards the overall rate; an opponent's is its own rate, smoothed towards the
// pooled one with classKappa offers.
func (id *Identifier) classWeights() {
	var offered, chosen [numClasses]float64
	var allOffered, allChosen float64
	for j := range id.keys {
		for c := range numClasses {
			offered[c] += id.offered[j][c]
			chosen[c] += id.chosen[j][c]
			allOffered += id.offered[j][c]
			allChosen += id.chosen[j][c]
		}
	}
	overall := 1.0
	if allOffered > 0 {
		overall = allChosen / allOffered
	}
	var pooled [numClasses]float64
	for c := range numClasses {
		pooled[c] = (chosen[c] + overall) / (offered[c] + 1)
	}
	id.weights = make([][numClasses]float64, len(id.keys)+1)
	for j := range id.keys {
		for c := range numClasses {
			id.weights[j][c] = (id.chosen[j][c] + classKappa*pooled[c]) / (id.offered[j][c] + classKappa)
		}
	}
	id.weights[len(id.keys)] = pooled
}

// addGame adds a stored game's opponent moves as opponent opp's and returns how many it added and whether the
// whole game replayed. The moves come from the game's move list, else (a game that never ended) from its
// records of the opponent's moves.
func (id *Identifier) addGame(g games.Game, sg memory.Game, opp int32, buf []games.Move) (int, bool) {
	added := 0
	if len(sg.Moves) > 0 {
		p, err := g.ParsePosition(sg.StartFEN)
		if sg.StartFEN == "" {
			p, err = g.Start(), nil
		}
		if err != nil {
			return 0, false
		}
		ours := games.Side(sg.OurSide)
		for _, text := range sg.Moves {
			m, err := p.ParseMove(text)
			if err != nil {
				return added, false
			}
			if p.ToMove() != ours {
				id.add(p, m, opp, buf)
				added++
			}
			p.Play(m)
		}
		return added, true
	}
	for _, r := range sg.Records {
		if !r.ByOpponent {
			continue
		}
		p, err := g.ParsePosition(r.FEN)
		if err != nil {
			return added, false
		}
		m, err := p.ParseMove(r.Move)
		if err != nil {
			return added, false
		}
		id.add(p, m, opp, buf)
		added++
	}
	return added, true
}

// add counts move m in position p for opponent opp, if it is legal there.
func (id *Identifier) add(p games.Position, m games.Move, opp int32, buf []games.Move) {
	h := p.Hash()
	e := id.table[h]
	if id.classes {
		legal := p.AppendMoves(buf)
		if !slices.Contains(legal, m) {
			return
		}
		for _, l := range legal {
			id.offered[opp][moveClass(p, l)]++
		}
		id.chosen[opp][moveClass(p, m)]++
	}
	if e == nil {
		legal := p.AppendMoves(buf)
		if !slices.Contains(legal, m) {
			return
		}
		e = &idEntry{legal: int32(len(legal))}
		id.table[h] = e
	}
	e.total++
	e.by = bump(e.by, opp)
	k := slices.IndexFunc(e.moves, func(x idMove) bool { return x.move == m })
	if k < 0 {
		e.moves = append(e.moves, idMove{move: m})
		k = len(e.moves) - 1
	}
	e.moves[k].total++
	e.moves[k].by = bump(e.moves[k].by, opp)
}

// bump adds one to opp's count in a list of counts.
func bump(list []idCount, opp int32) []idCount {
	for i := range list {
		if list[i].opp == opp {
			list[i].n++
			return list
		}
	}
	return append(list, idCount{opp: opp, n: 1})
}

// Game returns the name of the game the identifier was built for.
func (id *Identifier) Game() string { return id.game }

// Opponents returns the number of stored opponents it tells apart (someone new not counted).
func (id *Identifier) Opponents() int { return len(id.keys) }

// Positions returns the number of positions in its table.
func (id *Identifier) Positions() int { return len(id.table) }

// Skipped returns the number of stored games it could not replay to the end.
func (id *Identifier) Skipped() int { return id.skipped }

// Observed returns the number of games begun (StartGame), of moves observed, and of those moves played in a
// position some stored opponent was seen in (the only ones that tell the hypotheses apart).
func (id *Identifier) Observed() (gamesBegun, moves, evidence int) {
	return id.games, id.moves, id.evidence
}

// Reset forgets the evidence observed, keeping the stored opponents' tables.
func (id *Identifier) Reset() {
	clear(id.loglik)
	id.cur, id.moves, id.evidence, id.games = id.cur[:0], 0, 0, 0
}

// StartGame begins a new game of the same unnamed opponent: the evidence of the games before stays.
func (id *Identifier) StartGame() {
	id.games++
	id.cur = id.cur[:0]
}

// Observe adds the unnamed opponent's move m in position before (left unchanged), the game's ply-th move.
func (id *Identifier) Observe(before games.Position, m games.Move, ply int) {
	id.moves++
	if id.classes {
		id.observeClasses(before, m, ply)
		return
	}
	e := id.table[before.Hash()]
	if e == nil {
		return
	}
	id.evidence++
	var mv *idMove
	for i := range e.moves {
		if e.moves[i].move == m {
			mv = &e.moves[i]
			break
		}
	}
	var cm int32
	if mv != nil {
		cm = mv.total
	}
	uniform := id.beta / float64(e.legal)
	logU := math.Log((float64(cm) + uniform) / (float64(e.total) + id.beta))
	if id.uniform {
		logU = -math.Log(float64(e.legal))
	}
	// e.by and mv.by are both in the order of the opponents (NewIdentifier adds them in turn), so one walk
	// pairs them: the observation costs O(opponents seen in the position).
	var by []idCount
	if mv != nil {
		by = mv.by
	}
	k := 0
	for _, c := range e.by {
		for k < len(by) && by[k].opp < c.opp {
			k++
		}
		var cjm int32
		if k < len(by) && by[k].opp == c.opp {
			cjm = by[k].n
		}
		// The back-off leaves the opponent's own counts out, so that its own moves are not counted twice.
		uj := (float64(cm-cjm) + uniform) / (float64(e.total-c.n) + id.beta)
		if id.uniform {
			uj = 1 / float64(e.legal)
		}
		d := math.Log((float64(cjm)+id.alpha*uj)/(float64(c.n)+id.alpha)) - logU
		id.loglik[c.opp] += d
		id.cur = append(id.cur, idDelta{ply: ply, opp: c.opp, d: d})
	}
}

// observeClasses is Observe with the class back-off: every hypothesis gives the move its own probability,
// so every opponent's log-likelihood changes (O(opponents x classes) after classifying the legal moves).
func (id *Identifier) observeClasses(before games.Position, m games.Move, ply int) {
	var buf [games.MaxMoves]games.Move
	legal := before.AppendMoves(buf[:0])
	if !slices.Contains(legal, m) {
		return
	}
	var count [numClasses]float64
	for _, l := range legal {
		count[moveClass(before, l)]++
	}
	cm := moveClass(before, m)
	// classProb is hypothesis h's probability of m from its class weights alone.
	classProb := func(h int) float64 {
		z := 0.0
		for c, n := range count {
			if n > 0 {
				z += n * id.weights[h][c]
			}
		}
		return id.weights[h][cm] / z
	}
	e := id.table[before.Hash()]
	var mv *idMove
	var total, moveTotal float64
	if e != nil {
		id.evidence++
		total = float64(e.total)
		for i := range e.moves {
			if e.moves[i].move == m {
				mv = &e.moves[i]
				moveTotal = float64(mv.total)
			}
		}
	}
	newKey := len(id.keys)
	pNew := (moveTotal + id.beta*classProb(newKey)) / (total + id.beta)
	logNew := math.Log(pNew)
	var by, moveBy []idCount
	if e != nil {
		by = e.by
	}
	if mv != nil {
		moveBy = mv.by
	}
	k, km := 0, 0
	for j := range newKey {
		opp := int32(j)
		var cj, cjm float64
		for k < len(by) && by[k].opp < opp {
			k++
		}
		if k < len(by) && by[k].opp == opp {
			cj = float64(by[k].n)
		}
		for km < len(moveBy) && moveBy[km].opp < opp {
			km++
		}
		if km < len(moveBy) && moveBy[km].opp == opp {
			cjm = float64(moveBy[km].n)
		}
		u := (moveTotal - cjm + id.beta*classProb(j)) / (total - cj + id.beta)
		d := math.Log((cjm+id.alpha*u)/(cj+id.alpha)) - logNew
		id.loglik[j] += d
		id.cur = append(id.cur, idDelta{ply: ply, opp: opp, d: d})
	}
}

// TakeBack removes the evidence of the current game's moves from its ply keep on.
func (id *Identifier) TakeBack(keep int) {
	kept := id.cur[:0]
	for _, t := range id.cur {
		if t.ply >= keep {
			id.loglik[t.opp] -= t.d
			continue
		}
		kept = append(kept, t)
	}
	id.cur = kept
}

// Ranking returns every hypothesis, the stored opponents and someone new, by posterior, most probable first
// (ties by key).
func (id *Identifier) Ranking() []IdentifyCandidate {
	out := make([]IdentifyCandidate, 0, len(id.keys)+1)
	top := 0.0 // someone new's log-likelihood
	for _, l := range id.loglik {
		top = max(top, l)
	}
	sum := math.Exp(-top)
	for _, l := range id.loglik {
		sum += math.Exp(l - top)
	}
	for j, k := range id.keys {
		out = append(out, IdentifyCandidate{Key: k, Probability: math.Exp(id.loglik[j]-top) / sum, LogLikelihood: id.loglik[j]})
	}
	out = append(out, IdentifyCandidate{Key: NewOpponentKey, Probability: math.Exp(-top) / sum})
	slices.SortStableFunc(out, func(a, b IdentifyCandidate) int {
		if c := cmp.Compare(b.Probability, a.Probability); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return out
}

// Identified returns the stored opponent whose posterior exceeds the threshold, if there is one.
// It costs one pass over the opponents (no sort), as the Player asks after every move.
func (id *Identifier) Identified() (IdentifyCandidate, bool) {
	best, top := -1, 0.0 // someone new's log-likelihood is 0
	for j, l := range id.loglik {
		if l > top {
			best, top = j, l
		}
	}
	if best < 0 {
		return IdentifyCandidate{}, false
	}
	sum := math.Exp(-top)
	for _, l := range id.loglik {
		sum += math.Exp(l - top)
	}
	if p := 1 / sum; p >= id.threshold {
		return IdentifyCandidate{Key: id.keys[best], Probability: p, LogLikelihood: top}, true
	}
	return IdentifyCandidate{}, false
}

// LoadOpponentGames reads from the memory every named opponent's games of game g, for NewIdentifier.
func LoadOpponentGames(mem *memory.Memory, g games.Game) ([]OpponentGames, error) {
	list, err := mem.Opponents()
	if err != nil {
		return nil, err
	}
	var out []OpponentGames
	for _, s := range list {
		if s.Key == opponent.UnknownKey || s.Games == 0 {
			continue
		}
		stored, err := mem.Games(s.Key)
		if err != nil {
			return nil, fmt.Errorf("games of %s: %w", s.Key, err)
		}
		stored = slices.DeleteFunc(stored, func(sg memory.Game) bool { return sg.Game != g.Name() })
		if len(stored) > 0 {
			out = append(out, OpponentGames{Key: s.Key, Games: stored})
		}
	}
	return out, nil
}
