// The bench signature: node counts of fixed-depth searches over a fixed position set, which change exactly
// when a search's or an evaluation's behaviour changes (not with the machine's speed or load).

package bench

import (
	"fmt"
	"io"
	"strings"

	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/engine"
	"dossier/games"
	"dossier/games/catalog"
)

// SignatureCase is one fixed-depth search of the signature: a game's position, a search and its model.
type SignatureCase struct {
	Game   string `json:"game"`
	FEN    string `json:"fen,omitempty"`
	Search string `json:"search"`
	Model  string `json:"model,omitempty"`
	Depth  int    `json:"depth"`
}

// SignatureFigure is a SignatureCase's outcome.
type SignatureFigure struct {
	SignatureCase
	Nodes uint64 `json:"nodes"`
	Move  string `json:"move"`
	Value int    `json:"value"`
}

// SignatureReport is what bench --signature prints: every case and the total, the signature itself.
type SignatureReport struct {
	Cases     []SignatureFigure `json:"cases"`
	Signature uint64            `json:"signature"`
}

// signaturePositions are the positions of each game the signature searches ("" is the start).
var signaturePositions = map[string][]string{
	"chess": {"",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"},
	"checkers":  {"", "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"},
	"connect4":  {"", "4453"},
	"tictactoe": {""},
}

// signatureDepths are the alpha-beta depth of each game's signature searches; the model searches go three
// plies less deep, for they search much wider.
var signatureDepths = map[string]int{"chess": 7, "checkers": 10, "connect4": 10, "tictactoe": 9}

// signatureModels are the model searches the signature runs beside alpha-beta, each with a model written
// from the game's first two presets (A and B in the templates).
var signatureModels = []struct{ search, model string }{
	{searchers.MStarSearch, "B,A"},
	{searchers.AlphaBetaStarSearch, "B,A"},
	{searchers.OMSearch, "B@2"},
	{searchers.PromSearch, "A:0.4,B:0.6"},
	{searchers.MEUSearch, "rank:0.7"},
}

// SignatureCases lists the signature's searches, in a fixed order.
func SignatureCases(only string) []SignatureCase {
	var cases []SignatureCase
	for _, name := range catalog.Names() {
		positions, ok := signaturePositions[name]
		if !ok || (only != "" && only != name) {
			continue
		}
		depth := signatureDepths[name]
		presets := presets.Names(name)
		a, b := presets[0], presets[len(presets)-1]
		for _, fen := range positions {
			cases = append(cases, SignatureCase{Game: name, FEN: fen, Search: searchers.AlphaBetaSearch, Depth: depth})
			for _, m := range signatureModels {
				model := strings.NewReplacer("A", a, "B", b).Replace(m.model)
				cases = append(cases, SignatureCase{Game: name, FEN: fen, Search: m.search, Model: model,
					Depth: max(depth-3, 1)})
			}
		}
	}
	return cases
}

// Signature searches every case of the game ("" for every game) on one thread with a fresh table and adds up the nodes.
func Signature(only string) (SignatureReport, error) {
	var rep SignatureReport
	for _, c := range SignatureCases(only) {
		g, p, err := casePosition(c.Game, c.FEN)
		if err != nil {
			return rep, fmt.Errorf("%s position %q: %v", c.Game, c.FEN, err)
		}
		s, err := searchers.New(g, searchers.Config{Search: c.Search, Model: c.Model, Depth: c.Depth, HashMB: 16,
			Threads: 1})
		if err != nil {
			return rep, fmt.Errorf("%s %s: %v", c.Game, c.Search, err)
		}
		res := s.Search(p, engine.NewControl(engine.Limits{Depth: c.Depth}, p.ToMove()), nil)
		fig := SignatureFigure{SignatureCase: c, Nodes: res.Nodes, Value: int(res.Score)}
		if res.Move != games.NoMove {
			fig.Move = p.FormatMove(res.Move)
		}
		rep.Cases = append(rep.Cases, fig)
		rep.Signature += res.Nodes
	}
	return rep, nil
}

// WriteText prints one line a case and the signature last.
func (rep SignatureReport) WriteText(w io.Writer) {
	for _, f := range rep.Cases {
		pos := f.FEN
		if pos == "" {
			pos = "start"
		}
		search := f.Search
		if f.Model != "" {
			search += " " + f.Model
		}
		fmt.Fprintf(w, "%-9s %-22s depth %2d %12d nodes  %-6s %6d  %s\n", f.Game, search, f.Depth, f.Nodes, f.Move,
			f.Value, pos)
	}
	fmt.Fprintf(w, "signature %d\n", rep.Signature)
}
