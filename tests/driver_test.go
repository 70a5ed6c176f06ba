// A line-by-line driver for programs under test (dossier, polyglot): pipes, a deadline on every read, a kill at the end.

package tests

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Deadlines for what a healthy program answers at once, and for a search that has a limit. They are generous
// because the machine is shared: a failure means the program stalled, not that it was slow.
const (
	promptTimeout = 10 * time.Second
	searchTimeout = 60 * time.Second
)

// transcriptKeep is how many of the last lines a failure report shows.
const transcriptKeep = 80

// timedLine is a line the program wrote and when the driver read it.
type timedLine struct {
	text string
	at   time.Time
}

// proc is a running program spoken to line by line. Every read waits at most a given time, every failure
// prints the transcript so far, and the program is killed when the test ends.
type proc struct {
	t     testing.TB
	name  string
	cmd   *exec.Cmd
	stdin *os.File // our end of the program's stdin pipe, written with a deadline

	mu         sync.Mutex
	pending    []timedLine // lines read from stdout and not yet taken
	eof        bool        // stdout is closed
	transcript []string    // the last lines sent ("> ") and taken ("< ")
	lineCount  int         // how many lines the transcript has seen in all
	stderr     bytes.Buffer
	exitCode   int

	// forbidden are texts no output line may contain (dossier's report of a panic it recovered from).
	forbidden []string

	notify chan struct{} // signalled when a line arrives or stdout closes
	exited chan struct{} // closed once the process has exited and exitCode is set
}

// startDossier starts the built dossier binary with args. The session turns a panic in a command into an
// "internal error" report and goes on, so such a report fails the test as a crash would.
func startDossier(t testing.TB, args ...string) *proc {
	t.Helper()
	p := startProc(t, "dossier", "", dossierBin, args...)
	p.forbidden = []string{"internal error"}
	return p
}

// startProc starts the program at path in dir (the current directory when empty) and arranges for it to be
// killed when the test ends; a program that wrote a Go panic to stderr fails the test.
func startProc(t testing.TB, name, dir, path string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, name: name, notify: make(chan struct{}, 1), exited: make(chan struct{})}
	p.cmd = exec.Command(path, args...)
	p.cmd.Dir = dir
	p.cmd.Stderr = &lockedWriter{mu: &p.mu, buf: &p.stderr}
	// A grandchild (polyglot's engine) may hold stderr open after the program exits.
	p.cmd.WaitDelay = 2 * time.Second
	// An os.Pipe rather than StdinPipe, so that writes can have a deadline: a program that stops reading
	// must fail the test, not hang it.
	stdinRead, stdinWrite, err := os.Pipe()
	if err != nil {
		t.Fatalf("%s: stdin pipe: %v", name, err)
	}
	p.cmd.Stdin, p.stdin = stdinRead, stdinWrite
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatalf("%s: stdout pipe: %v", name, err)
	}
	err = p.cmd.Start()
	stdinRead.Close() // the child has its copy
	if err != nil {
		stdinWrite.Close()
		t.Fatalf("starting %s: %v", name, err)
	}
	go p.readOutput(stdout)
	t.Cleanup(func() {
		p.kill()
		if text := p.stderrText(); strings.Contains(text, "panic:") || strings.Contains(text, "fatal error:") {
			t.Errorf("%s crashed; stderr:\n%s", name, text)
		}
	})
	return p
}

// lockedWriter appends to a buffer under the driver's lock, so stderr can be read while the program runs.
type lockedWriter struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
}

// Write appends b to the buffer.
func (w *lockedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(b)
}

// readOutput queues stdout line by line with the time each line arrived, then reaps the process.
func (p *proc) readOutput(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			now := time.Now()
			p.mu.Lock()
			p.pending = append(p.pending, timedLine{strings.TrimRight(line, "\r\n"), now})
			p.mu.Unlock()
			p.signal()
		}
		if err != nil {
			break
		}
	}
	waitErr := p.cmd.Wait()
	code := 0
	if ee, ok := waitErr.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if waitErr != nil {
		code = -1
	}
	p.mu.Lock()
	p.eof, p.exitCode = true, code
	p.mu.Unlock()
	close(p.exited)
	p.signal()
}

// signal wakes a reader waiting for a line without ever blocking the output goroutine.
func (p *proc) signal() {
	select {
	case p.notify <- struct{}{}:
	default:
	}
}

// shown returns a line as a failure message shows it: escaped, so that binary input stays readable, and
// cut short when long.
func shown(line string) string {
	const maxShown = 300
	if len(line) > maxShown {
		line = fmt.Sprintf("%s... (%d bytes)", line[:maxShown], len(line))
	}
	quoted := strconv.Quote(line)
	return quoted[1 : len(quoted)-1]
}

// record adds a line to the transcript, keeping only the last transcriptKeep.
func (p *proc) record(prefix, line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lineCount++
	p.transcript = append(p.transcript, prefix+shown(line))
	if len(p.transcript) > transcriptKeep {
		p.transcript = p.transcript[len(p.transcript)-transcriptKeep:]
	}
}

// stderrText returns what the program wrote to stderr so far.
func (p *proc) stderrText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// fatalf fails the test with the transcript so far and the program's stderr.
func (p *proc) fatalf(format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("%s: %s\n%s", p.name, fmt.Sprintf(format, args...), p.report())
}

// report writes the transcript tail and stderr for a failure message.
func (p *proc) report() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	if skipped := p.lineCount - len(p.transcript); skipped > 0 {
		fmt.Fprintf(&b, "transcript (last %d of %d lines):\n", len(p.transcript), p.lineCount)
	} else {
		b.WriteString("transcript:\n")
	}
	for _, line := range p.transcript {
		b.WriteString("  " + line + "\n")
	}
	if p.stderr.Len() > 0 {
		fmt.Fprintf(&b, "stderr:\n%s", p.stderr.String())
	}
	return b.String()
}

// send writes lines to the program's stdin and returns when it started writing the last one.
func (p *proc) send(lines ...string) time.Time {
	p.t.Helper()
	var sent time.Time
	for _, line := range lines {
		p.record("> ", line)
		sent = time.Now()
		p.stdin.SetWriteDeadline(sent.Add(promptTimeout))
		if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
			p.fatalf("writing %s: %v", shown(line), err)
		}
	}
	return sent
}

// next returns the next line within timeout; ok is false when none came in time or the output ended.
func (p *proc) next(timeout time.Duration) (line timedLine, ok bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		if len(p.pending) > 0 {
			line = p.pending[0]
			p.pending = p.pending[1:]
			p.mu.Unlock()
			p.record("< ", line.text)
			for _, bad := range p.forbidden {
				if strings.Contains(line.text, bad) {
					p.t.Errorf("%s: %q in %q\n%s", p.name, bad, line.text, p.report())
				}
			}
			return line, true
		}
		eof := p.eof
		p.mu.Unlock()
		if eof {
			return timedLine{}, false
		}
		select {
		case <-p.notify:
		case <-deadline.C:
			return timedLine{}, false
		}
	}
}

// expect reads lines until one satisfies match and returns it with the lines skipped before it; it fails
// the test if none does within timeout.
func (p *proc) expect(timeout time.Duration, what string, match func(string) bool) (timedLine, []string) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	var skipped []string
	for {
		line, ok := p.next(time.Until(deadline))
		if !ok {
			if p.ended() {
				p.fatalf("output ended (exit code %d) while waiting for %s", p.exitCodeNow(), what)
			}
			p.fatalf("no %s within %v", what, timeout)
		}
		if match(line.text) {
			return line, skipped
		}
		skipped = append(skipped, line.text)
	}
}

// expectLine reads lines until one equals want, and returns the lines before it.
func (p *proc) expectLine(timeout time.Duration, want string) []string {
	p.t.Helper()
	_, skipped := p.expect(timeout, fmt.Sprintf("%q", want), func(s string) bool { return s == want })
	return skipped
}

// expectPrefix reads lines until one starts with prefix, and returns it and the lines before it.
func (p *proc) expectPrefix(timeout time.Duration, prefix string) (string, []string) {
	p.t.Helper()
	line, skipped := p.expect(timeout, fmt.Sprintf("a line starting %q", prefix),
		func(s string) bool { return strings.HasPrefix(s, prefix) })
	return line.text, skipped
}

// quiet reads lines for the whole of d and fails if one satisfies match.
func (p *proc) quiet(d time.Duration, what string, match func(string) bool) {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		line, ok := p.next(left)
		if !ok {
			if p.ended() {
				p.fatalf("output ended (exit code %d) while checking for no %s", p.exitCodeNow(), what)
			}
			return
		}
		if match(line.text) {
			p.fatalf("unexpected %s: %q", what, line.text)
		}
	}
}

// ended reports whether the program's output has closed.
func (p *proc) ended() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.eof && len(p.pending) == 0
}

// exitCodeNow returns the exit code once the process has exited (-1 before).
func (p *proc) exitCodeNow() int {
	select {
	case <-p.exited:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.exitCode
	default:
		return -1
	}
}

// closeInput closes the program's stdin, as a GUI that goes away does.
func (p *proc) closeInput() {
	p.record("> ", "<end of input>")
	p.stdin.Close()
}

// wait waits for the program to exit and returns its exit code, failing the test after timeout.
func (p *proc) wait(timeout time.Duration) int {
	p.t.Helper()
	select {
	case <-p.exited:
		return p.exitCodeNow()
	case <-time.After(timeout):
		p.fatalf("still running %v after the end of its input", timeout)
	}
	return -1
}

// kill ends the program if it is still running and waits for it.
func (p *proc) kill() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.stdin.Close()
	p.cmd.Process.Kill()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
	}
}
