// Package prefetch asks the processor to bring a cache line into its caches ahead of use (Line), so that a
// table probe soon after does not stall on memory: the transposition table prefetches a child's bucket once
// the move is known, and the Connect-Four solver its children's slots before it orders the moves. On amd64
// and arm64 Line is one instruction in assembly; elsewhere it does nothing.
package prefetch
