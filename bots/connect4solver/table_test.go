// Tests of the transposition table: exact keys, bounds kept per key, and clearing by epochs.

package connect4solver

import "testing"

// inverseMixer is keyMixer's multiplicative inverse modulo 2^64 (Newton's iteration doubles the
// number of correct low bits each step), so that tests can pick keys by their mixed value.
func inverseMixer() uint64 {
	inverse := uint64(keyMixer) // correct to 3 bits, as for any odd number
	for range 5 {
		inverse *= 2 - keyMixer*inverse
	}
	return inverse
}

// TestTableKeysAreExact stores keys that share a slot and checks that each sees only its own value.
func TestTableKeysAreExact(t *testing.T) {
	if keyMixer*inverseMixer() != 1 {
		t.Fatal("inverseMixer is not keyMixer's inverse")
	}
	tab := newTable(0) // the smallest table: 1<<minTableBits entries
	if len(tab.entries) != 1<<minTableBits {
		t.Fatalf("smallest table has %d entries, want %d", len(tab.entries), 1<<minTableBits)
	}
	// Mixed keys with the same top bits (the slot) and different low bits.
	base := uint64(0xabcd) << (64 - minTableBits)
	tests := []struct {
		name  string
		mixed uint64
	}{
		{"low bit", base | 1},
		{"highest stored bit", base | 1<<(keyBits-1)},
		{"all stored bits", base | (1<<keyBits - 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			first, second := base*inverseMixer(), tc.mixed*inverseMixer()
			if tab.index(first) != tab.index(second) {
				t.Fatal("the keys do not share a slot")
			}
			tab.put(first, 7)
			if got := tab.get(first); got != 7 {
				t.Errorf("get(first) = %d, want 7", got)
			}
			if got := tab.get(second); got != 0 {
				t.Errorf("get(second) = %d after storing only first, want 0", got)
			}
			tab.put(second, 9)
			if got := tab.get(first); got != 0 {
				t.Errorf("get(first) = %d after second replaced it, want 0", got)
			}
			if got := tab.get(second); got != 9 {
				t.Errorf("get(second) = %d, want 9", got)
			}
		})
	}
}

// TestTableClear checks that clearing hides every entry, through a wrap-around of the epoch too.
func TestTableClear(t *testing.T) {
	tab := newTable(1)
	keys := []uint64{1, 0x1234, 1 << 48, 0xfedcba9876543}
	for clears := range 3 << epochBits {
		for i, key := range keys {
			if got := tab.get(key); got != 0 {
				t.Fatalf("after %d clears, get(%#x) = %d, want 0", clears, key, got)
			}
			tab.put(key, uint8(i+1))
			if got := tab.get(key); got != uint8(i+1) {
				t.Fatalf("after %d clears, get(%#x) = %d, want %d", clears, key, got, i+1)
			}
		}
		tab.clear()
	}
}
