// The correction history: a static evaluation errs the same way across positions of one structure (chess's
// pawns: a weakness it does not see, a passer it undervalues), and what the searches below such nodes found
// beyond it is learned, by side to move and structure, and added to it where the prunings read it.

package engine

import "math"

// corrected returns the static evaluation raw of the current position corrected by what was learned of its
// structure (raw itself without a correction, or when raw is unknown).
func (t *thread) corrected(raw float64) float64 {
	if t.structure == nil || math.IsNaN(raw) {
		return raw
	}
	return raw + *t.correctionSlot()
}

// learnCorrection moves the correction of the current position's structure toward best less raw (bounded by
// CorrectionLimit): best is what a search to depth found, so a deeper one weighs more. A mate score or an
// unknown evaluation teaches nothing.
func (t *thread) learnCorrection(raw, best float64, depth int) {
	if t.structure == nil || math.IsNaN(raw) || math.IsInf(best, 0) || math.Abs(best) >= MateBound {
		return
	}
	limit := t.opts.CorrectionLimit
	c := t.correctionSlot()
	*c += (min(max(best-raw, -limit), limit) - *c) * float64(min(depth, correctionWeightMax)) / correctionWeightDivisor
}

// correctionSlot is the correction of the current position: its side to move's, at its structure's key.
func (t *thread) correctionSlot() *float64 {
	i := (t.structure.StructureKey() * 0x9e3779b97f4a7c15) >> (64 - correctionBits)
	return &t.correction[t.pos.ToMove()&1][i]
}
