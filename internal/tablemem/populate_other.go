// Unix systems other than Linux: a mapped table's pages are mapped as they are first written.
//go:build unix && !linux

package tablemem

// populate does nothing: these systems have no call that maps pages without writing them.
func populate(mapping) {}
