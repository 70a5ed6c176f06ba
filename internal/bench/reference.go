// The reference engine: a UCI engine (Debian's Stockfish by default) run in the same process as our figures,
// so that each of them is read as a ratio to what a peer does on the same machine at the same moment.

package bench

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// uciReference is a running reference engine: its input and its output's lines.
type uciReference struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

// startReference starts the engine at path and waits until it answers readyok after setup (UCI lines sent
// after "uci"), so that its start-up is not counted in what is timed next.
func startReference(path string, setup ...string) (*uciReference, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := &uciReference{cmd: cmd, in: in, lines: make(chan string, 256)}
	go func() {
		sc := bufio.NewScanner(outPipe)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	r.send("uci")
	for _, l := range setup {
		r.send(l)
	}
	r.send("isready")
	if _, err := r.waitFor("readyok", 30*time.Second, nil); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

func (r *uciReference) send(line string) { fmt.Fprintln(r.in, line) }

// waitFor returns the first line starting with prefix, passing every line before it to seen (when not nil).
func (r *uciReference) waitFor(prefix string, timeout time.Duration, seen func(string)) (string, error) {
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-r.lines:
			if !ok {
				return "", fmt.Errorf("engine closed its output before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l, nil
			}
			if seen != nil {
				seen(l)
			}
		case <-deadline:
			return "", fmt.Errorf("no %q within %v", prefix, timeout)
		}
	}
}

// close asks the engine to quit and kills it if it has not within 5 seconds.
func (r *uciReference) close() {
	r.send("quit")
	r.in.Close()
	done := make(chan struct{})
	go func() { r.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		r.cmd.Process.Kill()
		<-done
	}
}

// positionLine is the UCI position command of a case.
func positionLine(c Case) string {
	if c.FEN != "" {
		return "position fen " + c.FEN
	}
	return "position startpos"
}

// referencePerft runs "go perft" in a UCI engine that supports it (Stockfish) and returns the fastest time
// from sending the command to reading the node count. The node count must agree with ours.
func referencePerft(path string, c Case, wantNodes uint64, repeat int) (float64, error) {
	r, err := startReference(path, positionLine(c))
	if err != nil {
		return 0, err
	}
	defer r.close()
	best := 0.0
	for i := 0; i < repeat; i++ {
		start := time.Now()
		r.send(fmt.Sprintf("go perft %d", c.Depth))
		line, err := r.waitFor("Nodes searched", 10*time.Minute, nil)
		if err != nil {
			return 0, err
		}
		secs := time.Since(start).Seconds()
		n, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(line, "Nodes searched:")), 10, 64)
		if err != nil || n != wantNodes {
			return 0, fmt.Errorf("reference counted %q, we counted %d", line, wantNodes)
		}
		if i == 0 || secs < best {
			best = secs
		}
	}
	return best, nil
}

// referenceSearch has the reference engine search the case's position for d on one thread with a 64 MB
// table (as timeSearch gives ours) and returns its nodes per second, read from its last info line that gives
// nodes and time.
func referenceSearch(path string, c Case, d time.Duration) (float64, error) {
	r, err := startReference(path, "setoption name Threads value 1", "setoption name Hash value 64", "ucinewgame",
		positionLine(c))
	if err != nil {
		return 0, err
	}
	defer r.close()
	var nodes, ms uint64
	r.send(fmt.Sprintf("go movetime %d", d.Milliseconds()))
	_, err = r.waitFor("bestmove", d+time.Minute, func(l string) {
		n, okN := infoField(l, "nodes")
		t, okT := infoField(l, "time")
		if strings.HasPrefix(l, "info ") && okN && okT {
			nodes, ms = n, t
		}
	})
	if err != nil {
		return 0, err
	}
	if nodes == 0 || ms == 0 {
		return 0, fmt.Errorf("no info line with nodes and time in %v of search", d)
	}
	return float64(nodes) / (float64(ms) / 1000), nil
}

// infoField returns the number after key in a UCI info line.
func infoField(line, key string) (uint64, bool) {
	f := strings.Fields(line)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == key {
			v, err := strconv.ParseUint(f[i+1], 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}
