// Transposition table: lockless two-entry buckets of four words, safe to share between search threads.

package engine

import (
	"math"
	"sync/atomic"

	"dossier/games"
	"dossier/internal/prefetch"
	"dossier/internal/tablemem"
)

// Bound says how a stored score relates to the true value of its position.
type Bound uint8

// The kinds of stored score.
const (
	BoundNone  Bound = iota
	BoundUpper       // the search failed low: the value is at most the score
	BoundLower       // the search failed high: the value is at least the score
	BoundExact
)

// SolvedDraft is the draft stored for a position whose whole subtree was searched to terminal positions,
// so that its score holds at any depth.
const SolvedDraft = 1000

const (
	entryWords  = 4
	bucketSize  = 2
	bucketWords = entryWords * bucketSize // 64 bytes: one cache line per bucket
	bytesPerMB  = 1 << 20
)

// TT is a transposition table. Each entry is four words: a check-and-metadata word, the move, the score
// and the static evaluation (both full float64, so that a value read back is exactly the one stored). The
// metadata (draft, bound, epoch, generation) fills the low half of the first word, the high half holds the
// key's low 32 bits xor a fold of the other words and of the table's epoch: a reader recomputes it, so an
// entry torn by a concurrent writer, or written before the last Clear, reads as a miss. The key's high
// bits pick the bucket. Every word goes through sync/atomic, so sharing a table between threads is
// race-free.
//
// Clear only starts a new epoch: touching every entry of a table of gigabytes would take seconds (the
// first touch of each page is a page fault), longer than a GUI waits for readyok after ucinewgame.
type TT struct {
	memory     *tablemem.Table // owns words: a large table lives outside the Go heap while the TT does
	words      []uint64
	mask       uint64 // bucket count - 1
	generation uint8
	clears     uint32 // the epoch: how many times the table was cleared
	stamp      uint32 // the epoch's part of every check: distinct for distinct epochs
}

// TTEntry is what a probe of the table finds.
type TTEntry struct {
	Move  games.Move
	Score float64 // adjusted to the probing node's ply when it is a mate score
	Eval  float64 // static evaluation of the position, NaN when unknown
	Draft int
	Bound Bound
}

// NewTT returns a table of at most mb MiB (a power of two number of buckets), or nil when mb <= 0.
func NewTT(mb int) *TT {
	if mb <= 0 {
		return nil
	}
	buckets := uint64(1)
	for buckets*2*bucketWords*8 <= uint64(mb)*bytesPerMB {
		buckets *= 2
	}
	memory := tablemem.New(int(buckets*bucketWords), false)
	return &TT{memory: memory, words: memory.Words, mask: buckets - 1}
}

// Clear empties the table in constant time: the entries of earlier epochs no longer match any key, and
// Store takes them as empty. It must not run while a search uses the table.
func (t *TT) Clear() {
	if t == nil {
		return
	}
	t.clears++
	if t.clears == 0 {
		// After 2^32 epochs the stamps repeat: only then is the memory wiped.
		clear(t.words)
	}
	// Multiplying by an odd number permutes the 32-bit words, so no two epochs share a stamp.
	t.stamp = t.clears * 0x9e3779b9
	t.generation++
}

// NewSearch ages the entries of earlier searches so that they are replaced first.
func (t *TT) NewSearch() {
	if t != nil {
		t.generation++
	}
}

// Probe looks key up; ply is the distance of the probing node from the root, used to turn stored
// mate distances back into root-relative scores.
func (t *TT) Probe(key uint64, ply int) (TTEntry, bool) {
	if t == nil {
		return TTEntry{}, false
	}
	b := t.bucket(key)
	for i := 0; i < bucketSize; i++ {
		e := b + i*entryWords
		head := atomic.LoadUint64(&t.words[e])
		move := atomic.LoadUint64(&t.words[e+1])
		score := atomic.LoadUint64(&t.words[e+2])
		eval := atomic.LoadUint64(&t.words[e+3])
		meta := uint32(head)
		if meta == 0 || uint32(head>>32) != t.checkOf(key, meta, move, score, eval) {
			continue
		}
		draft, bound, _, _ := unpackMeta(meta)
		return TTEntry{
			Move:  games.Move(move),
			Score: scoreFromTT(math.Float64frombits(score), ply),
			Eval:  math.Float64frombits(eval),
			Draft: draft,
			Bound: bound,
		}, true
	}
	return TTEntry{}, false
}

// Store records a search result for key. It replaces the entry of the same key, else the entry that is
// oldest and then shallowest. A stored move of NoMove keeps the entry's previous move for the same key.
func (t *TT) Store(key uint64, ply int, move games.Move, score, eval float64, draft int, bound Bound) {
	if t == nil {
		return
	}
	b := t.bucket(key)
	victim, worst := b, math.MaxInt
	for i := 0; i < bucketSize; i++ {
		e := b + i*entryWords
		head := atomic.LoadUint64(&t.words[e])
		meta := uint32(head)
		oldDraft, _, epoch, gen := unpackMeta(meta)
		if meta == 0 || epoch != t.epochBits() {
			// Empty, or of an earlier epoch (the few bits of the epoch in the metadata can repeat, but then
			// the check in the other half rejects the entry anyway).
			if worst > math.MinInt {
				victim, worst = e, math.MinInt
			}
			continue
		}
		if uint32(head>>32) == t.checkOf(key, meta, atomic.LoadUint64(&t.words[e+1]),
			atomic.LoadUint64(&t.words[e+2]), atomic.LoadUint64(&t.words[e+3])) {
			if bound != BoundExact && draft+3 < oldDraft {
				return // a much deeper result (another thread's, or a solved one) is worth more
			}
			if move == games.NoMove {
				move = games.Move(atomic.LoadUint64(&t.words[e+1]))
			}
			victim = e
			break
		}
		value := oldDraft
		if gen != t.generation {
			value -= 2 * SolvedDraft // any entry of an earlier search goes before any of this one
		}
		if value < worst {
			victim, worst = e, value
		}
	}
	newScore := math.Float64bits(scoreToTT(score, ply))
	newEval := math.Float64bits(eval)
	meta := packMeta(draft, bound, t.epochBits(), t.generation)
	atomic.StoreUint64(&t.words[victim+1], uint64(move))
	atomic.StoreUint64(&t.words[victim+2], newScore)
	atomic.StoreUint64(&t.words[victim+3], newEval)
	atomic.StoreUint64(&t.words[victim], uint64(t.checkOf(key, meta, uint64(move), newScore, newEval))<<32|uint64(meta))
}

// HashFull returns the per-mille share of the first thousand entries that this search wrote.
func (t *TT) HashFull() int {
	if t == nil {
		return 0
	}
	n := min(1000, len(t.words)/entryWords)
	used := 0
	for i := 0; i < n; i++ {
		meta := uint32(atomic.LoadUint64(&t.words[i*entryWords]))
		if _, _, epoch, gen := unpackMeta(meta); meta != 0 && epoch == t.epochBits() && gen == t.generation {
			used++
		}
	}
	return used * 1000 / n
}

// Prefetch asks the processor to bring key's bucket into its caches without waiting, so that a probe soon
// after (the child node's, once the move is played) does not stall on memory.
func (t *TT) Prefetch(key uint64) {
	if t != nil {
		prefetch.Line(&t.words[t.bucket(key)])
	}
}

// bucket picks a bucket by the key's high bits; the check uses the low ones.
func (t *TT) bucket(key uint64) int {
	return int((key>>32)&t.mask) * bucketWords
}

// checkOf is what the high half of an entry's first word holds: the key's low bits xor a fold of the rest
// and the epoch's stamp.
func (t *TT) checkOf(key uint64, meta uint32, move, score, eval uint64) uint32 {
	x := move ^ score*0x9e3779b97f4a7c15 ^ eval*0xbf58476d1ce4e5b9
	return uint32(key) ^ meta ^ uint32(x) ^ uint32(x>>32) ^ t.stamp
}

// epochMask keeps the low bits of the epoch that the metadata holds.
const epochMask = 1<<6 - 1

// epochBits returns the low bits of the epoch, as the metadata holds them.
func (t *TT) epochBits() uint8 { return uint8(t.clears & epochMask) }

// packMeta puts the draft (biased by one, so that no entry of a draft of 0 or more is 0, which marks an
// empty entry), the bound, the epoch's low bits and the generation in one word.
func packMeta(draft int, bound Bound, epoch, gen uint8) uint32 {
	return uint32(uint16(int16(draft)+1)) | uint32(bound)<<16 | uint32(epoch&epochMask)<<18 | uint32(gen)<<24
}

func unpackMeta(meta uint32) (draft int, bound Bound, epoch, gen uint8) {
	return int(int16(uint16(meta))) - 1, Bound(meta>>16) & 3, uint8(meta>>18) & epochMask, uint8(meta >> 24)
}

// scoreToTT makes a mate score relative to the storing node (plies to mate from there), so that the entry
// is right wherever the position recurs in the tree.
func scoreToTT(score float64, ply int) float64 {
	switch {
	case score >= MateBound:
		return score + float64(ply)
	case score <= -MateBound:
		return score - float64(ply)
	}
	return score
}

func scoreFromTT(score float64, ply int) float64 {
	switch {
	case score >= MateBound:
		return score - float64(ply)
	case score <= -MateBound:
		return score + float64(ply)
	}
	return score
}
