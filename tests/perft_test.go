// End-to-end tests of `dossier perft`: known counts for every game, the JSON form, and errors.

package tests

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

func TestPerftCommand(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		nodes uint64
	}{
		{"chess start d4", []string{"--game", "chess", "--depth", "4"}, 197281},
		{"chess kiwipete d3", []string{"--game", "chess", "--depth", "3", "--fen",
			"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}, 97862},
		{"chess two threads", []string{"--game", "chess", "--depth", "4", "--threads", "2"}, 197281},
		{"chess960 Shredder-FEN d4", []string{"--game", "chess960", "--depth", "4", "--fen",
			"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"}, 326672},
		{"checkers start d8", []string{"--game", "checkers", "--depth", "8"}, 845931},
		{"checkers tricky", []string{"--game", "checkers", "--depth", "6", "--fen", "B:W18,26,27,25,11,19:BK15"}, 5138},
		// Perft counts only the games still going at the last ply: 127,872 of the 255,168 games last 9 plies.
		{"tictactoe d9", []string{"--game", "tictactoe", "--depth", "9"}, 127872},
		{"connect4 d4", []string{"--game", "connect4", "--depth", "4"}, 2401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := runDossier(t, time.Minute, "", append([]string{"perft", "--json"}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			var rep struct {
				Nodes   uint64  `json:"nodes"`
				Seconds float64 `json:"seconds"`
				NPS     float64 `json:"nps"`
			}
			if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &rep); err != nil {
				t.Fatalf("output %q is not one JSON object: %v", out, err)
			}
			if rep.Nodes != c.nodes || rep.Seconds <= 0 || rep.NPS <= 0 {
				t.Errorf("got %+v, want nodes %d", rep, c.nodes)
			}
		})
	}
}

func TestPerftDivide(t *testing.T) {
	out, _, code := runDossier(t, time.Minute, "", "perft", "--game", "chess", "--depth", "2", "--divide")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "e2e4: 20\n") || !strings.Contains(out, "nodes 400\n") {
		t.Errorf("divide output lacks e2e4: 20 or the total 400:\n%s", out)
	}
	if n := strings.Count(out, ": "); n != 20 {
		t.Errorf("divide lists %d root moves, want 20", n)
	}
}

func TestPerftErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no depth", []string{"--game", "chess"}, "--depth"},
		{"unknown game", []string{"--game", "go", "--depth", "1"}, "unknown game"},
		{"bad fen", []string{"--game", "chess", "--depth", "1", "--fen", "rnbqkbnr/pppppppp/8 w"}, "bad position"},
		{"bad checkers fen", []string{"--game", "checkers", "--depth", "1", "--fen", "B:W33:B1"}, "bad position"},
		{"bad flag", []string{"--frobnicate"}, "frobnicate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runDossier(t, time.Minute, "", append([]string{"perft"}, c.args...)...)
			if code == 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want a failure mentioning %q", code, stderr, c.want)
			}
		})
	}
}

func TestBenchCommand(t *testing.T) {
	out, stderr, code := runDossier(t, time.Minute, "", "bench", "--game", "tictactoe", "--repeat", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var figs []struct {
		Game  string  `json:"game"`
		Depth int     `json:"depth"`
		Nodes uint64  `json:"nodes"`
		NPS   float64 `json:"nps"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &figs); err != nil {
		t.Fatalf("output %q is not a JSON array: %v", out, err)
	}
	if len(figs) != 1 || figs[0].Game != "tictactoe" || figs[0].Depth != 9 || figs[0].Nodes != 127872 || figs[0].NPS <= 0 {
		t.Errorf("got %+v, want one tic-tac-toe perft(9) of 127872 nodes", figs)
	}
}

func TestBenchReference(t *testing.T) {
	if testing.Short() {
		t.Skip("runs chess perft(6) twice")
	}
	sf := requirePeer(t, "/usr/games/stockfish")
	out, stderr, code := runDossier(t, 5*time.Minute, "", "bench", "--game", "chess", "--repeat", "1", "--json", "--reference", sf,
		"--search-time", "1s")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var figs []struct {
		Nodes        uint64  `json:"nodes"`
		NPS          float64 `json:"nps"`
		ReferenceNPS float64 `json:"reference_nps"`
		Ratio        float64 `json:"ratio_to_reference"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &figs); err != nil {
		t.Fatalf("output %q is not a JSON array: %v", out, err)
	}
	if len(figs) != 4 || figs[0].Nodes != 119060324 || figs[0].Ratio <= 0 || figs[1].Ratio <= 0 {
		t.Errorf("got %+v (stderr %q), want two perft figures with a ratio to Stockfish and two searches", figs, stderr)
	}
	// The searches: ours beside Stockfish's on the same position for the same time, one thread each.
	for _, f := range figs[2:] {
		if f.Nodes == 0 || f.ReferenceNPS <= 0 || math.Abs(f.Ratio-f.NPS/f.ReferenceNPS) > 1e-9*f.Ratio {
			t.Errorf("a search figure without its nodes or Stockfish's nodes per second beside them: %+v", figs)
		}
	}
}

func TestBenchSuite(t *testing.T) {
	dir := t.TempDir()
	good := dir + "/five.epd"
	lines := []string{
		`2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";`,
		`8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id "WAC.002";`,
		`5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - bm Rg3; id "WAC.003";`,
	}
	if err := os.WriteFile(good, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runDossier(t, time.Minute, "", "bench", "--suite", good, "--suite-time", "50ms")
	if code != 0 || !strings.Contains(out, " of 3 solved at 50ms per position") {
		t.Errorf("exit %d, stdout %q, stderr %q; want a count of 3 positions", code, out, stderr)
	}
	bad := dir + "/bad.epd"
	if err := os.WriteFile(bad, []byte("8/8/8/8/8/8/8/8 w - - bm Qg6;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runDossier(t, time.Minute, "", "bench", "--suite", bad)
	if code == 0 || !strings.Contains(stderr, "line 1") {
		t.Errorf("exit %d, stderr %q; want an error naming line 1", code, stderr)
	}
}
