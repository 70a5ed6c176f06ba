// Magic bitboards: sliding-piece attacks by one multiply, shift and table load.

package chess

//go:generate env DOSSIER_GENERATE_MAGICS=1 go test -run=^TestGenerateMagics$ .

// magicEntry finds the attacks of a slider on one square: the relevant blockers (mask) times the magic number,
// shifted down, index that square's block of attackTable.
type magicEntry struct {
	mask   uint64
	magic  uint64
	offset uint32
	shift  uint8
}

// attackTableSize is the sum over squares of 2^(relevant blocker squares) for rooks (102,400) and bishops (5,248).
const attackTableSize = 102400 + 5248

var (
	rookMagic   [64]magicEntry
	bishopMagic [64]magicEntry
	attackTable [attackTableSize]uint64
)

func rookAttacks(sq int, occ uint64) uint64 {
	m := &rookMagic[sq]
	return attackTable[m.offset+uint32(((occ&m.mask)*m.magic)>>(m.shift&63))]
}

func bishopAttacks(sq int, occ uint64) uint64 {
	m := &bishopMagic[sq]
	return attackTable[m.offset+uint32(((occ&m.mask)*m.magic)>>(m.shift&63))]
}

func queenAttacks(sq int, occ uint64) uint64 { return rookAttacks(sq, occ) | bishopAttacks(sq, occ) }

// rookMask and bishopMask are the squares whose occupancy can change a slider's attacks: its rays without
// the last square on each (a blocker on the board edge blocks nothing further).
func rookMask(sq int) uint64 {
	ranks := slowSliderAttacks(sq, 0, rookDirs[:2]) &^ (fileA | fileH)
	files := slowSliderAttacks(sq, 0, rookDirs[2:]) &^ (rank1 | rank8)
	return ranks | files
}

func bishopMask(sq int) uint64 {
	return slowSliderAttacks(sq, 0, bishopDirs) &^ (fileA | fileH | rank1 | rank8)
}

// subsets calls f with every subset of mask (the carry-rippler enumeration).
func subsets(mask uint64, f func(uint64)) {
	var sub uint64
	for {
		f(sub)
		sub = (sub - mask) & mask
		if sub == 0 {
			return
		}
	}
}

func init() {
	var offset uint32
	fill := func(entries *[64]magicEntry, magics *[64]uint64, maskOf func(int) uint64, dirs [][2]int) {
		for sq := 0; sq < 64; sq++ {
			mask := maskOf(sq)
			n := popcount(mask)
			e := magicEntry{mask: mask, magic: magics[sq], offset: offset, shift: uint8(64 - n)}
			subsets(mask, func(occ uint64) {
				attackTable[e.offset+uint32((occ*e.magic)>>e.shift)] = slowSliderAttacks(sq, occ, dirs)
			})
			entries[sq] = e
			offset += 1 << uint(n)
		}
	}
	fill(&rookMagic, &rookMagicNumbers, rookMask, rookDirs)
	fill(&bishopMagic, &bishopMagicNumbers, bishopMask, bishopDirs)
}
