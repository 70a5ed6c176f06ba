// Chess games read from PGN: players, start and SAN moves replayed on dossier's chess, for review and the
// strategy learner.

package pgntext

import (
	"fmt"
	"io"
	"strings"

	"dossier/games"
	"dossier/games/chess"
)

// ChessGame is one chess game of a PGN file: the players' names, its start and its moves.
type ChessGame struct {
	White, Black string
	Start        *chess.Position
	Moves        []games.Move
}

// ReadChessGames reads the games of a PGN file (Split): tag pairs (White, Black, FEN, Variant), then the
// movetext in SAN. Every move is checked on dossier's chess; a game that does not replay is an error naming
// the game and the ply.
func ReadChessGames(r io.Reader) ([]ChessGame, error) {
	text, err := Read(r)
	if err != nil {
		return nil, err
	}
	texts, err := Split(text)
	if err != nil {
		return nil, err
	}
	list := make([]ChessGame, 0, len(texts))
	for i, pg := range texts {
		g, err := chessGameOf(pg)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i+1, err)
		}
		list = append(list, g)
	}
	return list, nil
}

// chessGameOf replays a game's tokens from its start position.
func chessGameOf(g Game) (ChessGame, error) {
	name := func(k, def string) string {
		if v := strings.TrimSpace(g.Tags[k]); v != "" {
			return v
		}
		return def
	}
	if v := strings.ToLower(g.Tags["Variant"]); v != "" && v != "standard" && v != "chess" {
		return ChessGame{}, fmt.Errorf("variant %q: only standard chess is reviewed", g.Tags["Variant"])
	}
	fen := g.Tags["FEN"]
	if fen == "" {
		fen = chess.Game{}.Start().FEN()
	}
	startPos, err := chess.Game{}.ParsePosition(fen)
	if err != nil {
		return ChessGame{}, fmt.Errorf("FEN: %w", err)
	}
	start := startPos.(*chess.Position)
	cg := ChessGame{White: name("White", "White"), Black: name("Black", "Black"), Start: start}
	p := start.Clone().(*chess.Position)
	for _, tok := range g.Tokens {
		if strings.TrimLeft(tok, "0123456789") == "" {
			continue // a move number without its dot: no SAN move is all digits
		}
		m, err := p.ParseSAN(tok)
		if err != nil {
			return ChessGame{}, fmt.Errorf("ply %d: %w", len(cg.Moves)+1, err)
		}
		p.Play(m)
		cg.Moves = append(cg.Moves, m)
	}
	return cg, nil
}
