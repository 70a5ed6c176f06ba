// A search's best line at every depth it completed, kept from its reports: what the guard and the game
// memory compare moves by.

package searchers

import (
	"maps"
	"sync"

	"dossier/engine"
)

// DepthLines keeps a search's best line at every depth it completed from its reports, passing them on.
type DepthLines struct {
	mu      sync.Mutex
	byDepth map[int]OwnLine
	next    func(engine.Info)
}

// NewDepthLines returns a DepthLines passing reports on to next (nil: none).
func NewDepthLines(next func(engine.Info)) *DepthLines {
	return &DepthLines{byDepth: map[int]OwnLine{}, next: next}
}

// Report is the search's Report function.
func (d *DepthLines) Report(info engine.Info) {
	if info.Text == "" && info.Depth > 0 && len(info.PV) > 0 && info.MultiPV <= 1 {
		d.mu.Lock()
		d.byDepth[info.Depth] = OwnLine{Move: info.PV[0], Score: info.Score}
		d.mu.Unlock()
	}
	if d.next != nil {
		d.next(info)
	}
}

// Lines returns a copy of the Lines kept.
func (d *DepthLines) Lines() map[int]OwnLine {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.byDepth)
}
