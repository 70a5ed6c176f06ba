// The setoption command and the session's own options: UCI_Variant, UCI_Chess960, UCI_Opponent,
// UCI_RatingAdv, UCI_ShowWDL, Ponder, Move Overhead.

package protocol

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"dossier/engine"
	"dossier/games"
	"dossier/games/chess"
	"dossier/play"
)

// maxRatingAdv bounds UCI_RatingAdv, a difference of two ratings.
const maxRatingAdv = 10000

// sessionOptions returns the options the session handles itself; they come before the engine's, and an
// engine option of the same name is hidden by them.
func (s *Session) sessionOptions() []play.Option {
	variant := play.Option{Name: "UCI_Variant", Type: play.ComboType, Default: s.variantOf(s.game), Vars: s.cfg.Variants,
		Apply: s.setVariant, AcceptsOthers: true}
	opponent := play.StringOption("UCI_Opponent", "", func(v string) {
		s.opponent = play.ParseUCIOpponent(v)
		s.safely("SetOpponent", func() { s.engine.SetOpponent(s.opponent) })
	})
	// Some GUIs send the rating difference instead of (or besides) the opponent's rating.
	ratingAdv := play.SpinOption("UCI_RatingAdv", 0, -maxRatingAdv, maxRatingAdv, func(n int) {
		s.opponent.RatingAdv, s.opponent.HasRatingAdv = n, true
		s.safely("SetOpponent", func() { s.engine.SetOpponent(s.opponent) })
	})
	wdl := play.CheckOption("UCI_ShowWDL", false, func(on bool) { s.showWDL = on })
	// Ponder tells a GUI that the engine can ponder; the engine learns of pondering from go ponder itself.
	ponder := play.CheckOption("Ponder", false, func(bool) {})
	overhead := play.SpinOption("Move Overhead", int(engine.DefaultMoveOverhead/time.Millisecond), 0, maxMoveOverheadMS,
		func(ms int) { s.moveOverhead = time.Duration(ms) * time.Millisecond })
	options := []play.Option{variant, opponent, ratingAdv, wdl, ponder, overhead}
	if g, err := s.lookup("chess960"); err == nil { // only a session that can play Chess960 offers it
		s.chess960 = s.chess960 || sameGame(g, s.game) // dossier --game chess960 starts with it on
		chess960 := play.Option{Name: "UCI_Chess960", Type: play.CheckType, Default: strconv.FormatBool(s.chess960), Apply: s.setChess960}
		options = slices.Insert(options, 1, chess960)
	}
	return options
}

// setChess960 is UCI_Chess960: chess, now and when UCI_Variant chooses it later, becomes the lookup's
// chess960 (which writes castling as the king taking its own rook), or back to chess.
func (s *Session) setChess960(value string) error {
	on := value == "true"
	s.chess960 = on
	if !isChess(s.game) {
		return nil
	}
	name := "chess"
	if on {
		name = "chess960"
	}
	g, err := s.lookup(name)
	if err != nil {
		return err
	}
	if !sameGame(g, s.game) {
		s.resetGame(g)
	}
	return nil
}

// isChess reports whether g is chess, standard or Chess960: the game whose two forms UCI_Chess960 switches
// between.
func isChess(g games.Game) bool {
	_, ok := g.(chess.Game)
	return ok
}

// sameGame reports whether a and b are one game, telling variants that share a name (chess and chess960)
// apart by their Variant method.
func sameGame(a, b games.Game) bool {
	type variant interface{ Variant() string }
	va, aok := a.(variant)
	vb, bok := b.(variant)
	return a.Name() == b.Name() && aok == bok && (!aok || va.Variant() == vb.Variant())
}

// maxMoveOverheadMS bounds the Move Overhead option, in milliseconds (Stockfish's bound).
const maxMoveOverheadMS = 5000

// lookup resolves a game name with the configured lookup, or accepts only the default game without one.
func (s *Session) lookup(name string) (games.Game, error) {
	if s.cfg.Lookup != nil {
		return s.cfg.Lookup(name)
	}
	if strings.EqualFold(name, s.game.Name()) {
		return s.game, nil
	}
	return nil, errNoLookup
}

// variantOf returns the UCI_Variant choice that names g, or g's own name when no choice does.
func (s *Session) variantOf(g games.Game) string {
	for _, v := range s.cfg.Variants {
		if found, err := s.lookup(v); err == nil && found.Name() == g.Name() {
			return v
		}
	}
	return g.Name()
}

// setVariant switches to another game; choosing the game being played changes nothing, as cutechess sends
// UCI_Variant before every game. Under UCI_Chess960 chess is chess960.
func (s *Session) setVariant(name string) error {
	g, err := s.lookup(name)
	if err != nil {
		return err
	}
	if s.chess960 && isChess(g) {
		if g, err = s.lookup("chess960"); err != nil {
			return err
		}
	}
	if !sameGame(g, s.game) {
		s.resetGame(g)
	}
	return nil
}

// cmdSetOption reads "setoption name <name> [value <value>]"; the name may contain spaces and is matched
// case-insensitively, the value is everything after the value keyword.
func (s *Session) cmdSetOption(c command) {
	s.finishSearch()
	words := c.words()
	if len(words) == 0 || !strings.EqualFold(words[0], "name") {
		s.errorf("setoption: want setoption name <name> [value <value>]")
		return
	}
	valueAt := len(words)
	for i := 1; i < len(words); i++ {
		if strings.EqualFold(words[i], "value") {
			valueAt = i
			break
		}
	}
	name := strings.Join(words[1:valueAt], " ")
	if name == "" {
		s.errorf("setoption: the option name is missing")
		return
	}
	hasValue := valueAt < len(words)
	value := c.rawFrom(valueAt + 1)
	o, ok := play.FindOption(s.options, name)
	if !ok {
		s.errorf("setoption: no option named %s", quoteToken(name))
		return
	}
	if err := o.Set(value, hasValue); err != nil {
		s.errorf("setoption %s: %v", o.Name, err)
	}
}
