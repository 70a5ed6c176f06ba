// Live models: a search reads the model's current state at every move and rebuilds only when it changed,
// and the model survives option changes.

package searchers

import (
	"sync"
)

// countingModel is a LiveModel whose state a test replaces, counting how often searches read it.
type countingModel struct {
	mu    sync.Mutex
	state LiveModelState
	reads int
}

func (m *countingModel) Current() LiveModelState {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	return m.state
}

func (m *countingModel) set(spec string, version uint64) {
	parsed, err := ParseModelSpec(spec)
	if err != nil {
		panic(err)
	}
	m.mu.Lock()
	m.state = LiveModelState{Spec: parsed, Version: version}
	m.mu.Unlock()
}

func (m *countingModel) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reads
}
