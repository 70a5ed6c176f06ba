// The experience the Player's search reads: the deep values its analyses learned, loaded at a game's start, off
// the clock, from the opponent's table and the table of every opponent of the game into a map that the search
// reads and nothing writes while it does.

package player

import (
	"fmt"
	"maps"
	"sort"

	"dossier/bots/prepare"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/memory"

	"go.uber.org/zap"
)

// experienceTable is the experience of one game: the entries by position hash, and whether each is the
// opponent's own (else every opponent's).
type experienceTable struct {
	game    string
	entries map[uint64]engine.ExperienceEntry
	own     map[uint64]bool
	// prepared marks the entries a preparation filed (bots/prepare): the Player plays their move where its
	// own search is shallower (consultPrepared).
	prepared map[uint64]bool
	// present has the bit of every entry's hash (experienceFilterBit): the search asks at each of its nodes, and
	// nearly every answer is no, which one bit of a table that stays in the processor's cache gives at a few
	// nanoseconds instead of a map's lookup (session 30: with 19,755 entries the lookups cost our search about
	// 3% of its nodes per second, as much as all the memory's work beside it).
	present []uint64
}

// experienceFilterLog is the log2 of present's bits: 128 KB, in which 100,000 entries leave about one node in ten
// that the map must answer.
const experienceFilterLog = 20

// experienceFilterBit is the bit of present that stands for hash: the high bits of its product by 2^64 over the
// golden ratio, spread whatever bits a game's hash varies in.
func experienceFilterBit(hash uint64) (word int, bit uint64) {
	i := (hash * 0x9e3779b97f4a7c15) >> (64 - experienceFilterLog)
	return int(i >> 6), 1 << (i & 63)
}

var _ engine.Experience = (*experienceTable)(nil)

// Lookup returns the entry of the position with this hash.
func (x *experienceTable) Lookup(hash uint64) (engine.ExperienceEntry, bool) {
	if word, bit := experienceFilterBit(hash); x.present[word]&bit == 0 {
		return engine.ExperienceEntry{}, false
	}
	e, ok := x.entries[hash]
	return e, ok
}

// size counts the entries.
func (x *experienceTable) size() int {
	if x == nil {
		return 0
	}
	return len(x.entries)
}

// experienceBounds maps the memory's bounds to the search's.
var experienceBounds = map[string]engine.Bound{
	memory.BoundExact: engine.BoundExact,
	memory.BoundLower: engine.BoundLower,
	memory.BoundUpper: engine.BoundUpper,
}

// pauseEvery is how many entries or games a loop over what the memory read takes between two calls of its pause
// (see Engine.pauseReading): an entry costs a few microseconds.
const pauseEvery = 16

// buildExperience builds the table of game g from the memory's entries (pausing in pause, nil for none). Where the opponent's table and every
// opponent's hold the same position the opponent's entry wins, else the deeper. Entries of another game, of
// another version (stale), whose position does not read in g or whose move is not legal there are ignored,
// with one warning for each reason saying how many and one example; an entry filed under a hash that is not
// its position's (the hashing changed since) is taken under its position's hash.
func buildExperience(g games.Game, entries []memory.Experience, log *zap.Logger, pause func()) *experienceTable {
	x := newExperienceTable(g)
	ignored := map[string][]string{} // reason -> the entries' positions
	rehashed := 0
	for i, e := range entries {
		if pause != nil && i%pauseEvery == 0 {
			pause()
		}
		bound, okBound := experienceBounds[e.Bound]
		var reason string
		var pos games.Position
		var move games.Move = games.NoMove
		switch {
		case e.Game != g.Name():
			reason = fmt.Sprintf("an entry of %s, not %s", e.Game, g.Name())
		case e.Version != memory.ExperienceVersion:
			reason = fmt.Sprintf("a stale entry (version %d; this dossier reads version %d)", e.Version, memory.ExperienceVersion)
		case !okBound:
			reason = fmt.Sprintf("an entry with an unknown bound %q", e.Bound)
		default:
			var err error
			if pos, err = g.ParsePosition(e.FEN); err != nil {
				reason = fmt.Sprintf("an entry whose position does not read in %s", g.Name())
			} else if e.Move != "" {
				if m, err := pos.ParseMove(e.Move); err != nil || !games.IsLegal(pos, m) {
					reason = "an entry whose move is not legal in its position"
				} else {
					move = m
				}
			}
		}
		if reason != "" {
			ignored[reason] = append(ignored[reason], e.FEN)
			continue
		}
		hash := pos.Hash()
		if hash != e.Hash {
			rehashed++
		}
		x.put(hash, engine.ExperienceEntry{Move: move, Score: e.Value, Depth: e.Depth, Bound: bound}, e.OpponentKey != "",
			prepare.IsPreparation(e.GameID))
	}
	reasons := make([]string, 0, len(ignored))
	for r := range ignored {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		log.Warn("experience: ignoring "+r, zap.Int("entries", len(ignored[r])), zap.String("example", ignored[r][0]))
	}
	if rehashed > 0 {
		log.Info("experience: entries filed under another hash of their position, taken under this dossier's",
			zap.Int("entries", rehashed))
	}
	return x
}

// withPrepared returns a copy of x (nil: an empty table of g) with the preparation's finding fd as the
// opponent's own entry where the table holds none of the opponent's as deep; x itself is not changed, since a
// search may be reading it.
func (x *experienceTable) withPrepared(g games.Game, fd prepare.Finding) *experienceTable {
	y := newExperienceTable(g)
	if x != nil {
		maps.Copy(y.entries, x.entries)
		maps.Copy(y.own, x.own)
		maps.Copy(y.prepared, x.prepared)
		copy(y.present, x.present)
	}
	pos, err := g.ParsePosition(fd.FEN)
	if err != nil {
		return y
	}
	m, err := pos.ParseMove(fd.Move)
	if err != nil || !games.IsLegal(pos, m) {
		return y
	}
	// Filed as a lower bound, as the memory files it (prepare.Event).
	y.put(pos.Hash(), engine.ExperienceEntry{Move: m, Score: fd.Score, Depth: fd.Depth, Bound: engine.BoundLower}, true, true)
	return y
}

// newExperienceTable returns an empty table of game g.
func newExperienceTable(g games.Game) *experienceTable {
	return &experienceTable{game: g.Name(), entries: map[uint64]engine.ExperienceEntry{}, own: map[uint64]bool{},
		prepared: map[uint64]bool{}, present: make([]uint64, 1<<experienceFilterLog/64)}
}

// put keeps e for the position with this hash unless the table holds a better claim to it: the opponent's own
// entry wins over every opponent's, and between two of the same kind the deeper (the earlier at equal depth).
func (x *experienceTable) put(hash uint64, e engine.ExperienceEntry, own, prepared bool) {
	if cur, ok := x.entries[hash]; ok && (x.own[hash] && !own || x.own[hash] == own && cur.Depth >= e.Depth) {
		return
	}
	x.entries[hash], x.own[hash], x.prepared[hash] = e, own, prepared
	word, bit := experienceFilterBit(hash)
	x.present[word] |= bit
}

// loadExperience reads the experience of game g (the opponent's, key "" for none, and every opponent's) from
// the memory; nil when there is none or it cannot be read.
func loadExperience(mem *memory.Memory, key string, g games.Game, log *zap.Logger, pause func()) *experienceTable {
	entries, err := mem.Experience(key, g.Name())
	if err != nil {
		log.Warn("experience: cannot read it; playing without", zap.String("game", g.Name()), zap.Error(err))
		return nil
	}
	if len(entries) == 0 {
		return nil
	}
	return buildExperience(g, entries, log, pause)
}

// installExperience hands the searcher the experience of the game played (none when the table is of another
// game): before each search, on the search's goroutine, so that the searcher never changes while it searches.
func (p *Engine) installExperience(s engine.Searcher) *experienceTable {
	p.mu.Lock()
	weak, _ := p.cfg.Weakens()
	p.mu.Unlock()
	x := p.gameMemory.experienceOf(p.Game().Name())
	if x == nil || weak { // a player held to a rating plays at it, not above it with what it learned
		searchers.SetExperience(s, nil) // a nil table is no nil interface
		return nil
	}
	if !searchers.SetExperience(s, x) {
		return nil
	}
	return x
}

// reportExperience says, after a search, what the experience did: how many nodes it settled, and at a position
// where an analysed game of the opponent's blamed our move, which move the search played instead (or that it
// played the same again).
func (p *Engine) reportExperience(x *experienceTable, pos games.Position, res engine.Result,
	hits uint64, report func(engine.Info)) {
	if report == nil || x == nil || res.Move == games.NoMove {
		return
	}
	unit := presets.Strength(p.Game()).Unit
	if r := p.gameMemory.get(); r != nil && r.game == x.game {
		if m, ok := r.mistakes[pos.FEN()]; ok {
			if blamed, err := pos.ParseMove(m.Move); err == nil {
				played := games.NumberedMove(pos, blamed)
				if res.Move != blamed {
					report(engine.Info{Text: fmt.Sprintf("experience: %s, %s? %s (%+.1f at depth %d)",
						games.NumberedMove(pos, res.Move), played, m.game, m.Value/unit, m.Depth)})
				} else {
					report(engine.Info{Text: fmt.Sprintf("experience: %s again, although it was blamed in %s "+
						"(%+.1f at depth %d; the search, at depth %d, rates it best)", played, m.game, m.Value/unit,
						m.Depth, res.Depth)})
				}
			}
		}
	}
	if hits > 0 {
		report(engine.Info{Text: fmt.Sprintf("experience: %d nodes settled by the %d entries loaded", hits, x.size())})
	}
}

// SetExperience gives Search auto's alpha-beta the experience.
func (s *autoSearcher) SetExperience(x engine.Experience) bool {
	return searchers.SetExperience(s.alpha, x)
}

// ExperienceHits says what the experience settled in Search auto's last alpha-beta search.
func (s *autoSearcher) ExperienceHits() uint64 { return searchers.ExperienceHits(s.alpha) }
