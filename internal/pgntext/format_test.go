// Tests of the record facts: which games are written in PDN, and the tags of their sides.

package pgntext

import (
	"testing"

	"dossier/games"
	"dossier/games/catalog"
)

func TestRecordFormats(t *testing.T) {
	for _, name := range catalog.Names() {
		g, err := catalog.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		pdn, tags := WrittenAsPDN(g), SideTags(g)
		if wantPDN := name == "checkers"; pdn != wantPDN {
			t.Errorf("%s: WrittenAsPDN %v", name, pdn)
		}
		if first := games.SideName(g, games.First); (first == "black") != (tags[0] == "Black") {
			t.Errorf("%s: first side %q tagged %q", name, first, tags[0])
		}
	}
}
