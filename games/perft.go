// Perft and divide over the games interface, shared by every game and by `dossier perft`.

package games

import "sync"

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
	Move  string `json:"move"`
	Nodes uint64 `json:"nodes"`
}

// Divide returns the perft count below each legal root move, in move generation order.
func Divide(p Position, depth int) []DivideEntry {
	return ParallelDivide(p, depth, 1)
}

// ParallelDivide is Divide with the root moves shared out among workers goroutines, each on its own Clone; the
// entries keep move generation order.
func ParallelDivide(p Position, depth, workers int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var buf [MaxMoves]Move
	moves := p.AppendMoves(buf[:0])
	out := make([]DivideEntry, len(moves))
	for i, m := range moves {
		out[i].Move = p.FormatMove(m)
	}
	if workers < 2 {
		for i, m := range moves {
			p.Play(m)
			out[i].Nodes = Perft(p, depth-1)
			p.Undo()
		}
		return out
	}
	next := make(chan int, len(moves))
	for i := range moves {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(workers, len(moves)) {
		q := p.Clone()
		wg.Go(func() {
			// Each worker writes only the entries of the moves it took, so the slice needs no lock.
			for i := range next {
				q.Play(moves[i])
				out[i].Nodes = Perft(q, depth-1)
				q.Undo()
			}
		})
	}
	wg.Wait()
	return out
}

// ParallelPerft is Perft with the root moves shared out among workers goroutines, each on its own Clone.
func ParallelPerft(p Position, depth, workers int) uint64 {
	if depth < 2 || workers < 2 {
		return Perft(p, depth)
	}
	var total uint64
	for _, e := range ParallelDivide(p, depth, workers) {
		total += e.Nodes
	}
	return total
}
