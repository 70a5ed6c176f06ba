// The memory's errors: their kinds survive wrapping and the socket, and their messages keep their old form.

package memory

import (
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
)

// overSocket returns err as a client receives it from the owner, an *Error of the client's directory dir.
func overSocket(err error, dir string) error {
	reply := newReply(1, nil, err)
	return reply.err(dir)
}

func TestErrorKindsAreRecognisedThroughWrapping(t *testing.T) {
	cause := errors.New("bad bytes")
	tests := []struct {
		name    string
		err     error
		text    string // the message, as fmt.Errorf wrote it before Error existed
		kind    error  // the sentinel errors.Is must find, nil for none
		dir     string // the Dir errors.As must find
		isCause bool   // whether errors.Is finds cause
	}{
		{"kind and cause", fail("/d", ErrCorrupt, cause),
			fmt.Sprintf("memory %s: %v: %v", "/d", ErrCorrupt, cause), ErrCorrupt, "/d", true},
		{"kind alone", fail("/d", ErrClosed, nil), fmt.Sprintf("memory %s: %v", "/d", ErrClosed), ErrClosed, "/d", false},
		{"storage failure", errStorage("/d", "writing the store", cause),
			fmt.Sprintf("memory %s: %s: %v", "/d", "writing the store", cause), nil, "/d", true},
		{"no directory yet", &Error{Doing: "no default directory", Err: cause},
			fmt.Sprintf("memory: no default directory: %v", cause), nil, "", true},
		{"cause alone", &Error{Dir: "/d", Err: cause}, fmt.Sprintf("memory %s: %v", "/d", cause), nil, "/d", true},
		{"wrapped once more", fmt.Errorf("opening: %w", fail("/d", ErrNotAStore, cause)),
			fmt.Sprintf("opening: memory %s: %v: %v", "/d", ErrNotAStore, cause), ErrNotAStore, "/d", true},
		{"a cause that wraps a system error", fail("/d", ErrUnavailable, fmt.Errorf("no answer: %w", os.ErrDeadlineExceeded)),
			fmt.Sprintf("memory %s: %v: no answer: %v", "/d", ErrUnavailable, os.ErrDeadlineExceeded), ErrUnavailable, "/d", false},
		{"over the socket", overSocket(fail("/owner", ErrUnknownOpponent, cause), "/client"),
			fmt.Sprintf("memory %s: %v: %v", "/owner", ErrUnknownOpponent, cause), ErrUnknownOpponent, "/client", false},
		{"over the socket and wrapped", fmt.Errorf("show: %w", overSocket(fail("/d", ErrMerge, nil), "/d")),
			fmt.Sprintf("show: memory %s: %v", "/d", ErrMerge), ErrMerge, "/d", false},
		{"over the socket without a kind", overSocket(errStorage("/d", "reading the store", cause), "/d"),
			fmt.Sprintf("memory %s: reading the store: %v", "/d", cause), nil, "/d", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.text {
				t.Errorf("message %q, want %q", got, tc.text)
			}
			for _, sentinel := range errorCodes {
				if got, want := errors.Is(tc.err, sentinel), sentinel == tc.kind; got != want {
					t.Errorf("errors.Is(err, %v) = %v, want %v", sentinel, got, want)
				}
			}
			if got := errors.Is(tc.err, cause); got != tc.isCause {
				t.Errorf("errors.Is(err, cause) = %v, want %v", got, tc.isCause)
			}
			var memErr *Error
			if !errors.As(tc.err, &memErr) || !isMemoryError(tc.err) {
				t.Fatalf("errors.As does not find an *Error in %v", tc.err)
			}
			if memErr.Dir != tc.dir {
				t.Errorf("Dir %q, want %q", memErr.Dir, tc.dir)
			}
		})
	}
}

func TestOtherErrorsAreNotTheMemorys(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"a plain error", io.EOF},
		{"a sentinel alone", ErrCorrupt},
		{"a message that merely starts like one", errors.New("memory /d: unknown opponent")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if isMemoryError(tc.err) {
				t.Errorf("isMemoryError(%v) = true", tc.err)
			}
		})
	}
}

func TestEveryKindCrossesTheSocket(t *testing.T) {
	for code, sentinel := range errorCodes {
		t.Run(code, func(t *testing.T) {
			sent := fail("/d", sentinel, errors.New("why"))
			got := overSocket(sent, "/d")
			if !errors.Is(got, sentinel) || got.Error() != sent.Error() {
				t.Errorf("%q crosses the socket as %v, which errors.Is does not see as %v", sent, got, sentinel)
			}
		})
	}
}
