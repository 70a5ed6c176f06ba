// Perft and divide over the games interface, shared by every game and by `dossier perft`.
package games

// Perft counts the leaf nodes of the legal move tree of p to depth, counting the moves at depth 1 without
// playing them (bulk counting, as Stockfish's "go perft" does). It uses the position's own Perft when it has
// one, and the interface otherwise; p is left as it was.
func Perft(p Position, depth int) uint64 {
	if f, ok := p.(Perfter); ok {
		return f.Perft(depth)
	}
	return interfacePerft(p, depth, make([][MaxMoves]Move, depth+1))
}

// InterfacePerft is Perft through the Position interface only; tests use it to cross-check a game's own Perft.
func InterfacePerft(p Position, depth int) uint64 {
	return interfacePerft(p, depth, make([][MaxMoves]Move, depth+1))
}

func interfacePerft(p Position, depth int, bufs [][MaxMoves]Move) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.AppendMoves(bufs[depth][:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		p.Play(m)
		n += interfacePerft(p, depth-1, bufs)
		p.Undo()
	}
	return n
}

// DivideEntry is the perft count below one root move.
type DivideEntry struct {
	Move  string
	Nodes uint64
}

// Divide returns the perft count below each legal root move, in move generation order.
func Divide(p Position, depth int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var buf [MaxMoves]Move
	moves := p.AppendMoves(buf[:0])
	out := make([]DivideEntry, 0, len(moves))
	for _, m := range moves {
		name := p.FormatMove(m)
		p.Play(m)
		out = append(out, DivideEntry{Move: name, Nodes: Perft(p, depth-1)})
		p.Undo()
	}
	return out
}

// ParallelPerft is Perft with the root moves shared out among workers goroutines, each on its own Clone.
func ParallelPerft(p Position, depth, workers int) uint64 {
	if depth < 2 || workers < 2 {
		return Perft(p, depth)
	}
	var buf [MaxMoves]Move
	moves := p.AppendMoves(buf[:0])
	next := make(chan Move, len(moves))
	for _, m := range moves {
		next <- m
	}
	close(next)
	counts := make(chan uint64, workers)
	for w := 0; w < workers; w++ {
		q := p.Clone()
		go func() {
			var n uint64
			for m := range next {
				q.Play(m)
				n += Perft(q, depth-1)
				q.Undo()
			}
			counts <- n
		}()
	}
	var total uint64
	for w := 0; w < workers; w++ {
		total += <-counts
	}
	return total
}
