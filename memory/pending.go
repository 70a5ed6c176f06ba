// Record, which queues an event and returns at once, the Pending it returns, and Flush, which waits for them.

package memory

import (
	"context"
	"time"
)

// Pending is an event on its way into the store.
type Pending struct {
	done chan struct{}
	err  error
}

func newPending() *Pending { return &Pending{done: make(chan struct{})} }

// finish records the outcome; only the first call counts.
func (p *Pending) finish(err error) {
	select {
	case <-p.done:
	default:
		p.err = err
		close(p.done)
	}
}

// Done returns a channel closed when the event is committed durably or has failed.
func (p *Pending) Done() <-chan struct{} { return p.done }

// Err returns the event's error after Done is closed: nil when it was committed (and before Done).
func (p *Pending) Err() error {
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}

// Wait waits until the event is committed or has failed, or ctx ends.
func (p *Pending) Wait(ctx context.Context) error {
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Record queues an event and returns at once, never blocking on the disk or the owner; a background
// goroutine sends events, in order, to the store. A malformed event fails its Pending at once.
func (m *Memory) Record(ev Event) *Pending {
	p := newPending()
	rec, err := ev.record(time.Now())
	if err != nil {
		p.finish(fail(m.dir, ErrBadEvent, err))
		return p
	}
	if err := m.enqueue(&request{wire: wireRequest{Op: opEvent, Event: rec}, pending: p}); err != nil {
		p.finish(err)
	}
	return p
}

// Flush waits until every event recorded so far is committed or has failed, or ctx ends; it returns ctx's
// error, or the first failed event's.
func (m *Memory) Flush(ctx context.Context) error { return m.flush(ctx) }

func (m *Memory) flush(ctx context.Context) error {
	m.mu.Lock()
	var waits []*Pending
	for _, r := range m.queue {
		if r.pending != nil {
			waits = append(waits, r.pending)
		}
	}
	for _, r := range m.inflight {
		if r.pending != nil {
			waits = append(waits, r.pending)
		}
	}
	m.mu.Unlock()
	var first error
	for _, p := range waits {
		if err := p.Wait(ctx); err != nil {
			if ctx.Err() != nil {
				return err
			}
			if first == nil {
				first = err
			}
		}
	}
	return first
}
