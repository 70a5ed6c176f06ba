// Tests of the bench signature: repeatable, the sum of its cases, and one case per search and position.

package bench

import (
	"testing"
)

func TestSignatureIsRepeatableAndTheSumOfItsCases(t *testing.T) {
	first, err := Signature("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	second, err := Signature("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(signaturePositions["tictactoe"]) * (1 + len(signatureModels)); len(first.Cases) != want {
		t.Fatalf("%d cases, want %d", len(first.Cases), want)
	}
	var sum uint64
	for i, c := range first.Cases {
		if c.Nodes == 0 || c.Move == "" {
			t.Errorf("case %d (%s %s) searched %d nodes, move %q", i, c.Search, c.Model, c.Nodes, c.Move)
		}
		if c.Nodes != second.Cases[i].Nodes || c.Move != second.Cases[i].Move {
			t.Errorf("case %d (%s): %d nodes %s, then %d nodes %s", i, c.Search, c.Nodes, c.Move,
				second.Cases[i].Nodes, second.Cases[i].Move)
		}
		sum += c.Nodes
	}
	if first.Signature != sum || second.Signature != sum {
		t.Fatalf("signatures %d and %d, cases sum to %d", first.Signature, second.Signature, sum)
	}
}
