// Tests of the table memory: zeroed, writable, the right size, in the heap or mapped by size.

package tablemem

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name       string
		words      int
		hugePages  bool
		wantMapped bool
	}{
		{"small", 1000, false, false},
		{"small with huge pages", 3 << 20 / 8, true, false},
		{"just below the mapped size", mappedBytes/8 - 1, true, false},
		{"mapped", mappedBytes / 8, false, runtime.GOOS != "windows" && runtime.GOOS != "plan9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			table := New(tc.words, tc.hugePages)
			if len(table.Words) != tc.words {
				t.Fatalf("%d words, want %d", len(table.Words), tc.words)
			}
			if table.Mapped != tc.wantMapped {
				t.Errorf("Mapped = %v, want %v", table.Mapped, tc.wantMapped)
			}
			for i := 0; i < len(table.Words); i += 4096 {
				if table.Words[i] != 0 {
					t.Fatalf("word %d is %d, not zero", i, table.Words[i])
				}
				table.Words[i] = uint64(i) + 1
			}
			for i := 0; i < len(table.Words); i += 4096 {
				if table.Words[i] != uint64(i)+1 {
					t.Fatalf("word %d reads %d after writing %d", i, table.Words[i], i+1)
				}
			}
		})
	}
}

// TestReplacedTablesAreFreed builds one mapped table after another, each written through and dropped
// before the next, as repeated Hash changes do: the collector's cleanup must return their memory (the
// resident set must not grow by their sum) without disturbing the table in use.
func TestReplacedTablesAreFreed(t *testing.T) {
	if testing.Short() {
		t.Skip("maps half a gigabyte in all")
	}
	if _, err := os.Stat("/proc/self/statm"); err != nil || runtime.GOOS != "linux" {
		t.Skip("reads the resident set from Linux's /proc/self/statm")
	}
	const tables = 8
	keep := New(mappedBytes/8, false)
	keep.Words[0] = 42
	before := residentBytes(t)
	for range tables {
		table := New(mappedBytes/8, false)
		clear(table.Words) // every page mapped
		runtime.GC()
	}
	// Cleanups run on their own goroutine after a collection: give them a moment.
	for range 100 {
		if residentBytes(t)-before < tables/2*mappedBytes {
			break
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if grown := residentBytes(t) - before; grown >= tables/2*mappedBytes {
		t.Errorf("the resident set grew by %d MB after %d tables of %d MB were dropped", grown>>20, tables, mappedBytes>>20)
	}
	if keep.Words[0] != 42 {
		t.Errorf("the table in use changed: %d", keep.Words[0])
	}
}

// residentBytes returns the process's resident set size.
func residentBytes(t *testing.T) int {
	t.Helper()
	text, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(text))
	pages, err := strconv.Atoi(fields[1])
	if err != nil {
		t.Fatalf("/proc/self/statm: %q", text)
	}
	return pages * os.Getpagesize()
}
