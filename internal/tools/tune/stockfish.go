// A minimal UCI client for Stockfish: fixed-depth and fixed-node searches with the score and best move.

package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// stockfish is a running Stockfish process spoken to over UCI.
type stockfish struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startStockfish starts the engine at path with one thread and a small table, so that its answers depend
// only on the position and the limit (the table is cleared before every search).
func startStockfish(path string) (*stockfish, error) {
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sf := &stockfish{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	sf.out.Buffer(make([]byte, 1<<16), 1<<20)
	sf.send("uci")
	if _, err := sf.until("uciok"); err != nil {
		return nil, err
	}
	sf.send("setoption name Threads value 1")
	sf.send("setoption name Hash value 16")
	sf.send("isready")
	if _, err := sf.until("readyok"); err != nil {
		return nil, err
	}
	return sf, nil
}

// send writes one command.
func (sf *stockfish) send(cmd string) { fmt.Fprintln(sf.in, cmd) }

// until reads lines up to the first starting with prefix and returns the lines before it and that line.
func (sf *stockfish) until(prefix string) ([]string, error) {
	var lines []string
	for sf.out.Scan() {
		line := sf.out.Text()
		lines = append(lines, line)
		if strings.HasPrefix(line, prefix) {
			return lines, nil
		}
	}
	if err := sf.out.Err(); err != nil {
		return lines, err
	}
	return lines, fmt.Errorf("stockfish ended before %q", prefix)
}

// searchResult is what one search reports: the best move, and the last score from the side to move.
type searchResult struct {
	bestMove string
	cp       int
	mate     bool
}

// search searches a position (FEN) from a cleared table under a go limit such as "depth 10" or
// "nodes 2000".
func (sf *stockfish) search(fen, limit string) (searchResult, error) {
	sf.send("ucinewgame")
	sf.send("position fen " + fen)
	sf.send("go " + limit)
	lines, err := sf.until("bestmove")
	if err != nil {
		return searchResult{}, err
	}
	var res searchResult
	fields := strings.Fields(lines[len(lines)-1])
	if len(fields) < 2 {
		return res, fmt.Errorf("malformed %q", lines[len(lines)-1])
	}
	res.bestMove = fields[1]
	for _, line := range lines {
		f := strings.Fields(line)
		for i := 0; i+2 < len(f); i++ {
			if f[i] != "score" {
				continue
			}
			n, err := strconv.Atoi(f[i+2])
			if err != nil {
				return res, fmt.Errorf("score in %q: %v", line, err)
			}
			res.cp, res.mate = n, f[i+1] == "mate"
		}
	}
	return res, nil
}

// close ends the process.
func (sf *stockfish) close() error {
	sf.send("quit")
	sf.in.Close()
	return sf.cmd.Wait()
}
