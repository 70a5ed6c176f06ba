// dossier memory identify: the command against a real store of two opponents.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dossier/games/connect4"
	"dossier/internal/cli"
	"dossier/internal/identify"
	"dossier/memory"
	"dossier/memory/learn"
	"dossier/play"
)

func TestMemoryIdentify(t *testing.T) {
	g := connect4.Game{}
	dir := filepath.Join(t.TempDir(), "memory")
	mem, err := memory.Open(memory.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// left and right answered our d1 differently, twice each; we moved first.
	lines := map[string][]string{
		"Left":  {"P@d1", "P@c1", "P@d2", "P@c2", "P@d3", "P@d4"},
		"Right": {"P@d1", "P@e1", "P@d2", "P@e2", "P@d3", "P@d4"},
	}
	for _, name := range []string{"Left", "Right"} {
		for range 2 {
			id := memory.NewGameID()
			mem.Record(memory.Event{Start: &memory.GameStart{GameID: id, Opponent: play.Opponent{Name: name}, Game: g.Name(),
				StartFEN: g.Start().FEN(), At: time.Now()}})
			mem.Record(memory.Event{End: &memory.GameEnd{GameID: id, Result: "*", Reason: "unknown", OurScore: -1,
				Moves: lines[name], At: time.Now()}})
		}
	}
	if err := mem.Close(); err != nil {
		t.Fatal(err)
	}
	// Five held-out games of Right's, as dossier match writes them, Right second.
	var pgn strings.Builder
	for range 5 {
		pgn.WriteString("[White \"dossier\"]\n[Black \"Right\"]\n[Variant \"cfour\"]\n\n1. P@d1 P@e1 2. P@d2 P@e2 3. P@d3 P@d4 *\n\n")
	}
	file := filepath.Join(t.TempDir(), "heldout.pgn")
	if err := os.WriteFile(file, []byte(pgn.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		expected string // the report's expected key
		right    []int  // right answers after 1 and 5 games
	}{
		{"the player is found", []string{"--side", "Right"}, cli.ExitOK, "right", []int{5, 1}},
		{"whoever is not dossier", nil, cli.ExitOK, "right", []int{5, 1}},
		{"left out: someone new", []string{"--leave-out"}, cli.ExitOK, learn.NewOpponentKey, []int{5, 1}},
		{"no such player", []string{"--side", "nobody"}, cli.ExitFailure, "", nil},
		{"bad --after", []string{"--after", "x"}, cli.ExitUsage, "", nil},
		{"unknown game", []string{"--game", "go"}, cli.ExitUsage, "", nil},
		{"unknown back-off", []string{"--backoff", "magic"}, cli.ExitUsage, "", nil},
		{"uniform back-off", []string{"--backoff", "uniform"}, cli.ExitOK, "right", []int{5, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"identify", "--memory", dir, "--game", "connect4", "--after", "1,5", "--json", file}, tc.args...)
			if code := runMemory(args, &stdout, &stderr); code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.code, stderr.String())
			}
			if tc.code != cli.ExitOK {
				if stderr.Len() == 0 {
					t.Error("no error message")
				}
				return
			}
			var rep identify.Report
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Expected != tc.expected || rep.Games != 5 || rep.Moves != 15 || len(rep.After) != 2 {
				t.Fatalf("report %+v", rep)
			}
			if rep.Ranking[0].Key != tc.expected {
				t.Errorf("ranking %+v: want %s first", rep.Ranking, tc.expected)
			}
			for i, a := range rep.After {
				if a.Right != tc.right[i] {
					t.Errorf("after %d games: %d right of %d, want %d", a.Games, a.Right, a.Trials, tc.right[i])
				}
			}
		})
	}
}
