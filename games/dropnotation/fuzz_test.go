// Fuzz tests of the shared drop-game notation readers: FEN fields and drop moves.

package dropnotation

import (
	"strings"
	"testing"

	"dossier/games"
)

// FuzzFENFields feeds any string through the FEN field readers: none may panic, an error must say
// something, and accepted stones in hand and sides must write back to text that reads the same.
func FuzzFENFields(f *testing.F) {
	for _, s := range []string{"7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1", "3/3/3[5P4p] b",
		"3/3/3[12P] w", "3/3/3[0P] w", "[-]", "[", "3/3/3[PP w KQ e3 -1 0 x", "[99P99p] b - - 1"} {
		f.Add(s, 2, 1)
	}
	f.Fuzz(func(t *testing.T, s string, nFirst, nSecond int) {
		fields := strings.Fields(s)
		if len(fields) == 0 {
			return
		}
		board, hand, hasHand, err := SplitBoardField(fields[0])
		if err != nil {
			if err.Error() == "" || board != "" || hand != "" || hasHand {
				t.Fatalf("SplitBoardField(%q) = %q, %q, %v, %v", fields[0], board, hand, hasHand, err)
			}
		} else if hasHand && board+"["+hand+"]" != fields[0] || !hasHand && board != fields[0] {
			t.Fatalf("SplitBoardField(%q) = %q, %q, %v: does not rebuild the field", fields[0], board, hand, hasHand)
		}
		for _, maxCount := range []int{9, 99} {
			first, second, err := ParseHand(hand, maxCount)
			if err != nil {
				if err.Error() == "" {
					t.Fatalf("ParseHand(%q) failed without a message", hand)
				}
				continue
			}
			written := strings.Repeat("P", first) + strings.Repeat("p", second)
			if f2, s2, err := ParseHand(written, maxCount); err != nil || f2 != first || s2 != second {
				t.Fatalf("ParseHand(%q) = %d, %d, but %q reads as %d, %d, %v", hand, first, second, written, f2, s2, err)
			}
			if err := CheckHand(hand, maxCount, [2]int{0, 0}, [2]int{first, second}); err != nil {
				t.Fatalf("CheckHand(%q) with quotas %d, %d: %v", hand, first, second, err)
			}
		}
		nFirst, nSecond = nFirst&63, nSecond&63
		if side, err := ParseSide(fields, nFirst, nSecond); err == nil {
			if SideLetter(side) != fields[1] || side != games.Side((nFirst+nSecond)&1) {
				t.Fatalf("ParseSide(%q, %d, %d) = %v", fields, nFirst, nSecond, side)
			}
		} else if err.Error() == "" {
			t.Fatalf("ParseSide(%q) failed without a message", fields)
		}
		if err := CheckClocks(fields, "cfour"); err == nil && len(fields) > 6 {
			t.Fatalf("CheckClocks(%q) accepted %d fields", fields, len(fields))
		}
		square, isDrop, err := ParseDrop(s, "cfour")
		switch {
		case err != nil && !strings.HasPrefix(err.Error(), "piece "):
			t.Fatalf("ParseDrop(%q) error %q does not name the piece", s, err)
		case err == nil && isDrop && s[:1]+"@"+square != s:
			t.Fatalf("ParseDrop(%q) = %q, which does not rebuild the move", s, square)
		case !isDrop && square != "":
			t.Fatalf("ParseDrop(%q) is no drop but gave square %q", s, square)
		}
	})
}
