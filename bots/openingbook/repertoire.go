// The built-in repertoires: a book for each game that has one, made by `dossier book make` (see
// docs/openings.md for the command that rebuilds each) and embedded in the binary.

package openingbook

import (
	"embed"
	"errors"
	"io/fs"
	"sync"
)

//go:embed repertoire/*.bin
var repertoireFiles embed.FS

// defaults holds each game's built-in book, read once.
var defaults sync.Map // game name → func() (*Book, error)

// Default returns the built-in repertoire of the game called game, or nil when the game has none.
func Default(game string) (*Book, error) {
	load, _ := defaults.LoadOrStore(game, sync.OnceValues(func() (*Book, error) {
		data, err := repertoireFiles.ReadFile("repertoire/" + game + ".bin")
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return FromBytes(game+" repertoire", data)
	}))
	return load.(func() (*Book, error))()
}
