// The learned models of memory show in short: the latest state of each learner the Player keeps.

package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"dossier/bots/searchers"
	"dossier/memory"
	"dossier/memory/learn"
)

// learnedSummaries fill a line from the latest state of each learner the Player keeps, in the order shown.
var learnedSummaries = []struct {
	model string
	fill  func(state json.RawMessage, line *LearnedLine) error
}{
	{learn.ModelTypeProbs, typeProbabilitiesLine},
	{learn.ModelDepth, depthLine},
	{searchers.DiscrepancyModelName, discrepancyLine},
}

// learnedLines summarises the latest state of each learner the Player keeps (type probabilities, depth,
// discrepancy counts); a state that does not read is said so.
func learnedLines(prof *memory.Profile) []LearnedLine {
	var out []LearnedLine
	for _, learner := range learnedSummaries {
		points := prof.Models[learner.model]
		if len(points) == 0 {
			continue
		}
		pt := points[len(points)-1]
		line := LearnedLine{Model: learner.model, At: pt.At, GameID: pt.GameID}
		if err := learner.fill(pt.State, &line); err != nil {
			line.Summary = "unreadable: " + err.Error()
		}
		out = append(out, line)
	}
	return out
}

// typeProbabilitiesLine summarises the type learner: its most probable types.
func typeProbabilitiesLine(state json.RawMessage, line *LearnedLine) error {
	var st learn.TypeLearnerState
	if err := json.Unmarshal(state, &st); err != nil {
		return err
	}
	line.Moves = st.Moves
	for i, t := range st.Types {
		line.Types = append(line.Types, TypeProbability{Type: fmt.Sprintf("%s@%d", t.Eval.Name, t.Depth), Probability: st.Probabilities[i]})
	}
	sort.SliceStable(line.Types, func(i, j int) bool { return line.Types[i].Probability > line.Types[j].Probability })
	line.Types = line.Types[:min(len(line.Types), maxShownTypes)]
	parts := make([]string, len(line.Types))
	for i, t := range line.Types {
		parts[i] = fmt.Sprintf("%s %.2f", t.Type, t.Probability)
	}
	line.Summary = fmt.Sprintf("%s (of %d types, %d moves)", strings.Join(parts, ", "), len(st.Types), st.Moves)
	return nil
}

// depthLine summarises the depth learner: the depth that explains the most moves.
func depthLine(state json.RawMessage, line *LearnedLine) error {
	var st learn.DepthLearnerState
	if err := json.Unmarshal(state, &st); err != nil {
		return err
	}
	line.Moves, line.Depth = st.Examples, 1
	for d, c := range st.Counts {
		if c > st.Counts[line.Depth-1] {
			line.Depth = d + 1
		}
	}
	line.Summary = fmt.Sprintf("depth %d with %s's evaluation (of 1..%d, %d moves)", line.Depth, st.Eval.Name, st.MaxDepth, st.Examples)
	return nil
}

// discrepancyLine summarises the discrepancy counts: how many moves were counted, and how.
func discrepancyLine(state json.RawMessage, line *LearnedLine) error {
	var c learn.DiscrepancyCounts
	if err := json.Unmarshal(state, &c); err != nil {
		return err
	}
	line.Moves = c.Observations
	line.Summary = fmt.Sprintf("%d moves counted in %d games, %s at depth %d", c.Observations, c.Games, c.Evaluation, c.ReplyDepth)
	return nil
}
