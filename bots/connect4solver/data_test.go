// Loading Pascal Pons's benchmark sets from the repository's testdata folder, for the tests and benchmarks.

package connect4solver

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"dossier/games/connect4"
	"dossier/games/gametest"
)

// testCase is one line of a benchmark set: a position given by its moves and its exact score.
type testCase struct {
	line     int
	moves    string
	position *connect4.Position
	score    int
}

// loadSet reads the benchmark set called name (e.g. "Test_L3_R1") from the repository's test data.
func loadSet(tb testing.TB, name string) []testCase {
	tb.Helper()
	path := "testdata/connect4/" + name
	var cases []testCase
	scanner := bufio.NewScanner(gametest.OpenTestData(tb, "connect4/"+name))
	for line := 1; scanner.Scan(); line++ {
		c, err := parseCase(scanner.Text())
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, line, err)
		}
		c.line = line
		cases = append(cases, c)
	}
	if err := scanner.Err(); err != nil {
		tb.Fatal(err)
	}
	return cases
}

// parseCase reads "<moves> <score>".
func parseCase(text string) (testCase, error) {
	fields := strings.Fields(text)
	if len(fields) != 2 {
		return testCase{}, fmt.Errorf("want \"<moves> <score>\", got %q", text)
	}
	score, err := strconv.Atoi(fields[1])
	if err != nil {
		return testCase{}, fmt.Errorf("score %q: %v", fields[1], err)
	}
	p, err := connect4.Game{}.StartPosition()
	if err != nil {
		return testCase{}, err
	}
	if err := connect4.PlayMoveString(p, fields[0]); err != nil {
		return testCase{}, err
	}
	return testCase{moves: fields[0], position: p, score: score}, nil
}
