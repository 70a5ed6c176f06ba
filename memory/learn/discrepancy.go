// Discrepancy counts files: Sen & Arora's learned model of an opponent as JSON, read, checked, written and tabled.

package learn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"dossier/engine/model"
)

// maxCountsDepth bounds the depth a counts file was measured for: the deepest search a player makes (its
// Depth option's maximum).
const maxCountsDepth = 100

// A counts file holds what a learner saw of one opponent (see DiscrepancyLearner): per band of move
// numbers, how often the opponent chose a reply of each discrepancy range, measured with one evaluation
// at one depth. Example (connect4, learned from SP by the sophisticated evaluation at depth 4):
//
//	{
//	  "format": "dossier discrepancy counts",
//	  "version": 1,
//	  "game": "connect4",
//	  "evaluation": "sophisticated",
//	  "depth": 4,
//	  "replyDepth": 2,
//	  "opponent": "sp d1",
//	  "games": 400,
//	  "observations": 3518,
//	  "edges": [1, 5, 25, 125, 495000],
//	  "bandPlies": 6,
//	  "counts":  [[410, 3, 20, 61, 12, 9], ...],
//	  "offered": [[598, 41, 160, 311, 87, 52], ...]
//	}
//
// format and version identify the file; game, evaluation (a preset name of the game), depth (the search
// depth of the player the counts are for) and replyDepth (the depth of the search that valued each reply,
// depth - 2: what MEU at that depth sees at the replies to its move) say how the discrepancies were
// measured; opponent, games and observations are for the reader. edges and bandPlies are
// model.DiscrepancyModel's: range 0 is discrepancy 0, range r holds (edges[r-2], edges[r-1]], the last
// range the discrepancies above the last edge; band b holds the opponent's moves at plies
// [b*bandPlies, (b+1)*bandPlies) of the game (0: one band). counts[b][r] is how often the opponent picked
// a reply of range r in band b; offered[b][r] (optional) how often a reply of range r was among its choices.

// Identification of the counts file format.
const (
	// DiscrepancyCountsFormat is the value of a counts file's "format" field.
	DiscrepancyCountsFormat = "dossier discrepancy counts"
	// DiscrepancyCountsVersion is the version this package reads and writes.
	DiscrepancyCountsVersion = 1
)

// Limits of a counts file, so that a corrupt file cannot ask for unbounded memory.
const (
	MaxDiscrepancyEdges = 30
	MaxDiscrepancyBands = 1000
	maxCountsFileBytes  = 16 << 20
)

// DiscrepancyCounts is the content of a counts file (see the format above).
type DiscrepancyCounts struct {
	// Format and Version identify the file (DiscrepancyCountsFormat, DiscrepancyCountsVersion).
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Game is the name of the game (games.Game.Name).
	Game string `json:"game"`
	// Evaluation names the preset whose evaluation measured the discrepancies.
	Evaluation string `json:"evaluation"`
	// Depth is the search depth of the player the counts were measured for.
	Depth int `json:"depth"`
	// ReplyDepth is the depth of the search that valued each reply of the opponent.
	ReplyDepth int `json:"replyDepth"`
	// Opponent describes the opponent observed (a display name).
	Opponent string `json:"opponent,omitempty"`
	// Games and Observations count the games played and the opponent's moves counted.
	Games        int `json:"games"`
	Observations int `json:"observations"`
	// Edges are the upper ends of the discrepancy ranges (model.NewDiscrepancyModel's edges).
	Edges []float64 `json:"edges"`
	// BandPlies is the width of a band of move numbers, in plies (0: one band).
	BandPlies int `json:"bandPlies"`
	// Counts holds per band, per range, how often the opponent chose a reply of that range.
	Counts [][]float64 `json:"counts"`
	// Offered holds per band, per range, how often a reply of that range was among the opponent's
	// choices; nil when the file gives none.
	Offered [][]float64 `json:"offered,omitempty"`
}

// NewDiscrepancyCounts returns empty counts for a game, evaluation and depths with the given ranges and bands.
func NewDiscrepancyCounts(game, evaluation string, depth, replyDepth int, edges []float64, bandPlies int) (*DiscrepancyCounts, error) {
	c := &DiscrepancyCounts{Format: DiscrepancyCountsFormat, Version: DiscrepancyCountsVersion, Game: game,
		Evaluation: evaluation, Depth: depth, ReplyDepth: replyDepth, Edges: slices.Clone(edges),
		BandPlies: bandPlies, Counts: [][]float64{}}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return c, nil
}

// Ranges returns the number of discrepancy ranges, len(Edges) + 2.
func (c *DiscrepancyCounts) Ranges() int { return len(c.Edges) + 2 }

// Check reports the first field that is missing or out of range, naming it and saying what is wrong.
func (c *DiscrepancyCounts) Check() error {
	switch {
	case c.Format != DiscrepancyCountsFormat:
		return fmt.Errorf("field format is %q, want %q", c.Format, DiscrepancyCountsFormat)
	case c.Version != DiscrepancyCountsVersion:
		return fmt.Errorf("field version is %d, this dossier reads version %d", c.Version, DiscrepancyCountsVersion)
	case c.Game == "":
		return errors.New("field game is missing")
	case c.Evaluation == "":
		return errors.New("field evaluation is missing")
	case c.Depth < 1 || c.Depth > maxCountsDepth:
		return fmt.Errorf("field depth is %d, want a depth in 1..%d", c.Depth, maxCountsDepth)
	case c.ReplyDepth < 0 || c.ReplyDepth >= c.Depth:
		return fmt.Errorf("field replyDepth is %d, want a depth in 0..%d (below depth)", c.ReplyDepth, c.Depth-1)
	case c.Games < 0:
		return fmt.Errorf("field games is %d, want a count >= 0", c.Games)
	case c.Observations < 0:
		return fmt.Errorf("field observations is %d, want a count >= 0", c.Observations)
	case c.Edges == nil:
		return errors.New("field edges is missing (write [] for ranges 0 and above 0 only)")
	case len(c.Edges) > MaxDiscrepancyEdges:
		return fmt.Errorf("field edges has %d edges, at most %d are allowed", len(c.Edges), MaxDiscrepancyEdges)
	case c.BandPlies < 0:
		return fmt.Errorf("field bandPlies is %d, want a number of plies >= 0", c.BandPlies)
	case c.Counts == nil:
		return errors.New("field counts is missing (write [] for no counts)")
	case len(c.Counts) > MaxDiscrepancyBands || len(c.Offered) > MaxDiscrepancyBands:
		return fmt.Errorf("field counts or offered has more than %d bands", MaxDiscrepancyBands)
	case c.BandPlies == 0 && len(c.Counts) > 1:
		return fmt.Errorf("field counts has %d bands, but bandPlies 0 means one band", len(c.Counts))
	case c.Offered != nil && len(c.Offered) != len(c.Counts):
		return fmt.Errorf("field offered has %d bands, counts has %d", len(c.Offered), len(c.Counts))
	}
	for i, e := range c.Edges {
		if math.IsNaN(e) || math.IsInf(e, 0) || e <= 0 || (i > 0 && e <= c.Edges[i-1]) {
			return fmt.Errorf("field edges: edge %d is %v, want finite positive edges in increasing order", i, e)
		}
	}
	for name, table := range map[string][][]float64{"counts": c.Counts, "offered": c.Offered} {
		for b, row := range table {
			if len(row) != c.Ranges() {
				return fmt.Errorf("field %s: band %d has %d numbers, want one per range (%d with %d edges)",
					name, b, len(row), c.Ranges(), len(c.Edges))
			}
			for r, x := range row {
				if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
					return fmt.Errorf("field %s: band %d, range %d is %v, want a finite number >= 0", name, b, r, x)
				}
			}
		}
	}
	return nil
}

// Model returns the engine's discrepancy model with these counts.
func (c *DiscrepancyCounts) Model() (*model.DiscrepancyModel, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	m, err := model.NewDiscrepancyModel(c.Edges, c.BandPlies)
	if err != nil {
		return nil, err
	}
	for b, row := range c.Counts {
		if err := m.SetCounts(b, row); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// ReadDiscrepancyCounts reads and checks a counts file. Errors name the offending field (or the JSON
// syntax error's offset) and what is wrong.
func ReadDiscrepancyCounts(r io.Reader) (*DiscrepancyCounts, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxCountsFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxCountsFileBytes {
		return nil, fmt.Errorf("discrepancy counts: more than %d bytes", maxCountsFileBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c DiscrepancyCounts
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("discrepancy counts: %w", describeJSONError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("discrepancy counts: data after the JSON object at byte %d", dec.InputOffset())
	}
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("discrepancy counts: %w", err)
	}
	return &c, nil
}

// describeJSONError words the decoder's errors with the field or the byte offset they are about.
func describeJSONError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("not JSON at byte %d: %v", syntax.Offset, syntax)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return fmt.Errorf("the file holds a JSON %s, want an object", typ.Value)
		}
		return fmt.Errorf("field %s holds a JSON %s, want %v", field, typ.Value, typ.Type)
	case errors.Is(err, io.EOF):
		return errors.New("the file is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the file ends inside the JSON object")
	}
	return err // unknown fields: "json: unknown field \"x\"" names it
}

// LoadDiscrepancyCounts reads and checks the counts file at path.
func LoadDiscrepancyCounts(path string) (*DiscrepancyCounts, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := ReadDiscrepancyCounts(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Write writes the counts as indented JSON, one band per line.
func (c *DiscrepancyCounts) Write(w io.Writer) error {
	if err := c.Check(); err != nil {
		return fmt.Errorf("discrepancy counts: %w", err)
	}
	// The tables are written one band to a line by hand: json.MarshalIndent would put every number on
	// a line of its own.
	head := *c
	head.Edges, head.Counts, head.Offered = nil, nil, nil
	b, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return err
	}
	text := strings.TrimSuffix(string(b), "\n}")
	text = strings.Replace(text, `"edges": null`, `"edges": `+numberRow(c.Edges), 1)
	text = strings.Replace(text, `"counts": null`, `"counts": `+bandRows(c.Counts), 1)
	if c.Offered != nil {
		text += ",\n  \"offered\": " + bandRows(c.Offered)
	}
	_, err = io.WriteString(w, text+"\n}\n")
	return err
}

// bandRows writes a table of numbers as a JSON array with one band per line.
func bandRows(rows [][]float64) string {
	if len(rows) == 0 {
		return "[]"
	}
	lines := make([]string, len(rows))
	for i, row := range rows {
		lines[i] = "    " + numberRow(row)
	}
	return "[\n" + strings.Join(lines, ",\n") + "\n  ]"
}

// numberRow writes numbers as a JSON array on one line.
func numberRow(row []float64) string {
	nums := make([]string, len(row))
	for j, x := range row {
		nums[j] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return "[" + strings.Join(nums, ", ") + "]"
}

// Save writes the counts to path, replacing it only once the whole file is written.
func (c *DiscrepancyCounts) Save(path string) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := c.Write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// RangeLabels returns the names of the discrepancy ranges: "0", "(0,1]", ..., ">E" for the last edge E.
func (c *DiscrepancyCounts) RangeLabels() []string {
	labels := []string{"0"}
	low := "0"
	for _, e := range c.Edges {
		high := strconv.FormatFloat(e, 'g', -1, 64)
		labels = append(labels, "("+low+","+high+"]")
		low = high
	}
	if len(c.Edges) == 0 {
		return append(labels, ">0")
	}
	return append(labels, ">"+low)
}

// BandLabel names the plies of band b ("plies 12-17"; "all plies" for a single band).
func (c *DiscrepancyCounts) BandLabel(b int) string {
	if c.BandPlies == 0 {
		return "all plies"
	}
	return fmt.Sprintf("plies %d-%d", b*c.BandPlies, (b+1)*c.BandPlies-1)
}

// WriteTable writes the counts as Sen & Arora's Figure 2 shows them: per band of move numbers, the share
// of the opponent's choices in each discrepancy range, then (when the file has them) how often the
// opponent took a reply of each range when one was offered.
func (c *DiscrepancyCounts) WriteTable(w io.Writer) {
	labels := c.RangeLabels()
	fmt.Fprintf(w, "%s: %s at depth %d (replies valued at depth %d), %d games, %d moves of %s counted\n",
		c.Game, c.Evaluation, c.Depth, c.ReplyDepth, c.Games, c.Observations, orUnknown(c.Opponent))
	header := func(title string) {
		fmt.Fprintf(w, "\n%s\n%-13s %6s", title, "band", "moves")
		for _, l := range labels {
			fmt.Fprintf(w, " %9s", l)
		}
		fmt.Fprintln(w)
	}
	header("share of the opponent's moves by discrepancy range (%)")
	for b, row := range c.Counts {
		total := 0.0
		for _, x := range row {
			total += x
		}
		fmt.Fprintf(w, "%-13s %6s", c.BandLabel(b), strconv.FormatFloat(total, 'g', 6, 64))
		for _, x := range row {
			fmt.Fprintf(w, " %9s", percent(x, total))
		}
		fmt.Fprintln(w)
	}
	if c.Offered == nil {
		return
	}
	header("moves of a range taken when one was offered (%)")
	for b, row := range c.Offered {
		total := 0.0
		for _, x := range c.Counts[b] {
			total += x
		}
		fmt.Fprintf(w, "%-13s %6s", c.BandLabel(b), strconv.FormatFloat(total, 'g', 6, 64))
		for r, x := range row {
			fmt.Fprintf(w, " %9s", percent(c.Counts[b][r], x))
		}
		fmt.Fprintln(w)
	}
}

// percent writes part/whole as a percentage, "-" when whole is 0.
func percent(part, whole float64) string {
	if whole == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*part/whole, 'f', 1, 64)
}

// orUnknown returns s, or "the opponent" when s is empty.
func orUnknown(s string) string {
	if s == "" {
		return "the opponent"
	}
	return s
}
