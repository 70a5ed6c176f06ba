// The end of an engine's input at a termination signal.

package main

import (
	"io"
	"os"
	"os/signal"
)

// endInputOnSignal returns a reader of in that ends (io.EOF) when the process receives one of signals, and
// the function that stops watching for them. Under CECP xboard sends SIGTERM shortly after quit unless the
// engine announces sigterm=0, which python-chess rejects ("rejected sigterm", and a warning at every start);
// so the signal ends the session as the end of its input does: the search stops with its move, the game is
// filed and the memory closed before the process exits, rather than the process dying mid-write.
func endInputOnSignal(in io.Reader, signals ...os.Signal) (io.Reader, func()) {
	caught := make(chan os.Signal, 1)
	signal.Notify(caught, signals...)
	r, w := io.Pipe()
	go func() {
		_, err := io.Copy(w, in)
		w.CloseWithError(err) // nil: io.EOF for the reader
	}()
	done := make(chan struct{})
	go func() {
		select {
		case <-caught:
			w.Close() // the copy, blocked on in, stays so until the process exits
		case <-done:
		}
	}()
	return r, func() {
		signal.Stop(caught)
		close(done)
	}
}
