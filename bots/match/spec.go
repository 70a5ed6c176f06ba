// Player specs: the `key=value ...` strings of --player1/--player2 that say who plays and under which limits.

package match

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Limits are the limits of one move, as a match gives them; zero values mean "no such limit".
type Limits struct {
	// Depth is the search depth in plies.
	Depth int
	// Nodes is the node budget of one move.
	Nodes uint64
	// MoveTime is the thinking time of one move.
	MoveTime time.Duration
	// Clock is a time control; its Base is zero when there is none.
	Clock TimeControl
}

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool {
	return l.Depth == 0 && l.Nodes == 0 && l.MoveTime == 0 && l.Clock.IsZero()
}

// Over returns l with every limit that override sets replaced by override's.
func (l Limits) Over(override Limits) Limits {
	if override.Depth > 0 {
		l.Depth = override.Depth
	}
	if override.Nodes > 0 {
		l.Nodes = override.Nodes
	}
	if override.MoveTime > 0 {
		l.MoveTime = override.MoveTime
	}
	if !override.Clock.IsZero() {
		l.Clock = override.Clock
	}
	return l
}

// String writes the limits as the spec keys that set them ("depth=8 tc=40/60+0.6"), or "none".
func (l Limits) String() string {
	var parts []string
	if l.Depth > 0 {
		parts = append(parts, "depth="+strconv.Itoa(l.Depth))
	}
	if l.Nodes > 0 {
		parts = append(parts, "nodes="+strconv.FormatUint(l.Nodes, 10))
	}
	if l.MoveTime > 0 {
		parts = append(parts, "movetime="+strconv.FormatInt(l.MoveTime.Milliseconds(), 10))
	}
	if !l.Clock.IsZero() {
		parts = append(parts, "tc="+l.Clock.String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// UCIOption is one setoption call for an external engine.
type UCIOption struct {
	Name, Value string
}

// PlayerSpec is one side of a match: an in-process dossier player (a preset and its search) or an external
// UCI engine, with an optional display name and limits that override the match's.
type PlayerSpec struct {
	// Name is the display name; empty means "derive one" (the preset and depth, or the engine's id name).
	Name string

	// Preset names an evaluation preset of the game, for in-process players.
	Preset string
	// Search names the search algorithm of an in-process player ("" for the default).
	Search string
	// Model is an in-process model search's opponent model, in bots.ParseModelSpec's grammar ("" for
	// minimax's implicit model); the factory checks it against the game and the search.
	Model string
	// Depth is the in-process player's search depth (also its per-move depth limit); 0 keeps the preset's.
	Depth int
	// HashMB and Threads size an in-process player's search; 0 keeps the defaults.
	HashMB, Threads int
	// Contempt is what an in-process player gives up by drawing.
	Contempt float64
	// Mode is an in-process player's strength mode ("strongest", "even"; "" for the default).
	Mode string
	// Elo, when positive, makes an in-process player play at that rating (UCI_LimitStrength).
	Elo int
	// Memory is the memory directory an in-process player keeps its dossier on the opponent in ("": none).
	Memory string
	// Log is the file an in-process player with a memory writes its memory's log to, at info level, as JSON
	// lines (one a game says what the memory did in it); "": none.
	Log string
	// Prepare is the PrepareTime, in seconds, of an in-process player with a memory: its preparation for the
	// next game against the opponent after each game (0: none, the default).
	Prepare int
	// ModelRisk is the ModelRisk of an in-process model search (see bots.PlayerConfig); Guarded says that
	// the spec gave it (risk=N). Without it a match's model search plays unguarded, as the papers' players.
	ModelRisk int
	Guarded   bool
	// MemoryRisk is the MemoryRisk of an in-process player with a memory (how far below its best our search
	// may value a won game's move it replays); MemoryRiskSet says that the spec gave it (memoryrisk=N),
	// without which the game's default holds.
	MemoryRisk    int
	MemoryRiskSet bool
	// MemoryContempt turns on the MemoryContempt option of an in-process player with a memory: its contempt
	// set at each game from its results against the opponent (memorycontempt=on).
	MemoryContempt bool
	// Mix makes the in-process player a mixture of presets, one drawn at random for every move
	// ("materialist:0.7,attacker:0.3", see bots.NewMixedSearcher); it replaces Preset, Search and Model.
	Mix string

	// Command is the executable of an external engine; empty for an in-process player.
	Command string
	// Protocol is the external engine's protocol: UCI (uci=PATH) or CECP (cecp=PATH).
	Protocol string
	// Args are the engine's command-line arguments.
	Args []string
	// Options are setoption calls sent to the engine after its uciok, in order.
	Options []UCIOption
	// Restart quits the external engine after every game and starts it anew for the next (restart=on), as
	// lichess-bot and cutechess-cli's restart=on run an engine: one process a game.
	Restart bool

	// RandomMoves, when positive, has the player's own first RandomMoves moves of every game drawn at random
	// among the legal moves instead of asked of the player (randommoves=N): an opponent that varies its
	// openings, as one playing from a book of its own does, while the other player chooses every move of its
	// own. The draws are seeded by the match's seed, the game's number and the player.
	RandomMoves int

	// Book is an opening book (polyglot's layout, see bots/openingbook) the match plays this player's moves
	// from while it has them, off the player's clock, as cutechess-cli's book= does: any player. BookDepth
	// bounds how many of the player's own moves it gives (0: as many as the book has).
	Book      string
	BookDepth int
	// OwnBook turns on an in-process player's own book (its OwnBook option): "on" for the game's built-in
	// repertoire, or a book file (BookFile); "" or "off" for none.
	OwnBook string

	// Limits override the match's limits for this player's moves, key by key.
	Limits Limits
}

// The protocols of external engines, as the spec keys that name them.
const (
	UCI  = "uci"
	CECP = "cecp"
)

// External reports whether the player is an engine run as a subprocess (UCI or CECP).
func (s PlayerSpec) External() bool { return s.Command != "" }

// inProcessKeys and limitKeys are the keys ParseSpec reads itself; every other key of an external engine's
// spec is a setoption, every other key of an in-process player's spec an error.
var (
	inProcessKeys = []string{"preset", "search", "model", "depth", "hash", "threads", "contempt", "memory", "log", "prepare", "mix", "mode", "elo", "risk", "memoryrisk", "memorycontempt", "randommoves", "book", "bookdepth", "ownbook"}
	limitKeys     = []string{"depth", "nodes", "movetime", "tc"}
)

// maxModelRisk is the largest risk= (bots.ModelRiskOff, which turns the guard off).
const maxModelRisk = 10000

// ParseSpec reads a player spec: space-separated key=value pairs, where a value (or a whole pair) may be
// quoted with ' or " to hold spaces ("Skill Level=5"). Keys:
//
//	name=N                     display name
//	preset=P search=S model=M  an in-process player (hash=MB threads=T contempt=C too); model is the
//	                           opponent model of a model search, quoted when it holds spaces
//	memory=DIR                 an in-process player keeps its dossier on the opponent in DIR
//	log=FILE                   and writes the memory's log to FILE (info level, JSON lines)
//	prepare=SECONDS            and prepares for the next game after each one (PrepareTime, 1..3600)
//	mix="P1:p1,P2:p2"          an in-process player that plays preset Pi with probability pi at every move
//	mode=even elo=N            an in-process player aims at an even game, or plays at rating N
//	risk=N                     an in-process model search is guarded by its own alpha-beta with ModelRisk N
//	                           (0..10000; 10000 is off, as without risk=)
//	memoryrisk=N               an in-process player with a memory replays a won game's move when our
//	                           search values it at most N below its best (MemoryRisk, 0..10000)
//	memorycontempt=on|off      an in-process player with a memory sets its contempt from its results against
//	                           the opponent (MemoryContempt; off by default)
//	uci=PATH [args="A B"]      an external UCI engine; its other keys are setoption calls
//	cecp=PATH [args="A B"]     an external CECP (xboard) engine; its other keys are option commands
//	restart=on|off             an external engine is quit after every game and started anew (one process a
//	                           game, as lichess-bot runs an engine); off by default
//	randommoves=N              the player's own first N moves of every game are drawn at random among the
//	                           legal moves (an opponent that varies its openings; any player)
//	book=FILE [bookdepth=N]    the match plays the player's moves from the book FILE (polyglot's layout) while
//	                           it has them, at most N of them a game, off the player's clock (any player)
//	ownbook=on|off|FILE        an in-process player plays from its own book: on for the game's built-in
//	                           repertoire, or the book FILE (the OwnBook and BookFile options)
//	depth=N nodes=N movetime=MS tc=TC   this player's limits (depth of an in-process player is also its
//	                           search depth)
//
// A spec with uci= or cecp= is external; any other is in-process (without preset=, the game's default preset).
// Errors name the offending pair and what is wrong with it.
func ParseSpec(text string) (PlayerSpec, error) {
	tokens, err := splitSpec(text)
	if err != nil {
		return PlayerSpec{}, err
	}
	if len(tokens) == 0 {
		return PlayerSpec{}, fmt.Errorf("empty player spec: want preset=NAME or uci=PATH")
	}
	type pair struct{ key, value, token string }
	pairs := make([]pair, 0, len(tokens))
	external := false
	for _, tok := range tokens {
		key, value, ok := strings.Cut(tok, "=")
		if !ok || key == "" {
			return PlayerSpec{}, fmt.Errorf("player spec: %q is not key=value", shownToken(tok))
		}
		if key == UCI || key == CECP {
			if external {
				return PlayerSpec{}, fmt.Errorf("player spec: %q: an engine is uci=PATH or cecp=PATH, not both", shownToken(tok))
			}
			external = true
		}
		pairs = append(pairs, pair{key, value, tok})
	}
	var spec PlayerSpec
	seen := map[string]bool{}
	for _, p := range pairs {
		key := p.key
		reserved := key == "name" || key == UCI || key == CECP || key == "args" || key == "restart" || key == "randommoves" ||
			key == "book" || key == "bookdepth" ||
			slices.Contains(limitKeys, key)
		if !external {
			key = strings.ToLower(key)
			reserved = key == "name" || slices.Contains(inProcessKeys, key) || slices.Contains(limitKeys, key)
			if key == "args" || key == "restart" || key == UCI || key == CECP {
				reserved = false
			}
		}
		if !reserved {
			if !external {
				return PlayerSpec{}, fmt.Errorf("player spec: unknown key %q in %q (an in-process player takes name, %s, %s)",
					p.key, shownToken(p.token), strings.Join(inProcessKeys, ", "), strings.Join(limitKeys[1:], ", "))
			}
			spec.Options = append(spec.Options, UCIOption{Name: p.key, Value: p.value})
			continue
		}
		if seen[key] {
			return PlayerSpec{}, fmt.Errorf("player spec: key %q given twice", key)
		}
		seen[key] = true
		if err := spec.set(key, p.value, external); err != nil {
			return PlayerSpec{}, fmt.Errorf("player spec: %q: %w", shownToken(p.token), err)
		}
	}
	return spec, nil
}

// urlPassword finds the password of a URL's user part (scheme://user:password@), which errors must not show.
var urlPassword = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*):[^@/\s]*@`)

// shownToken is a spec token as an error may show it: with any URL's password left out (a memory=
// postgres://user:password@host/db), since secrets never appear in errors.
func shownToken(tok string) string { return urlPassword.ReplaceAllString(tok, "$1@") }

// set applies one reserved key: a text or a count by the tables below, the others each its own way.
func (s *PlayerSpec) set(key, value string, external bool) error {
	texts := map[string]*string{"name": &s.Name, "preset": &s.Preset, "search": &s.Search, "memory": &s.Memory, "log": &s.Log,
		"model": &s.Model, "mix": &s.Mix, "mode": &s.Mode, "book": &s.Book, "ownbook": &s.OwnBook}
	if field, ok := texts[key]; ok {
		*field = value
		return needValue(key, value)
	}
	counts := map[string]struct {
		field *int
		limit int
	}{"elo": {&s.Elo, 10000}, "hash": {&s.HashMB, 1 << 20}, "threads": {&s.Threads, 1024}, "prepare": {&s.Prepare, 3600},
		"randommoves": {&s.RandomMoves, 1000}, "bookdepth": {&s.BookDepth, 1000}}
	if count, ok := counts[key]; ok {
		n, err := positiveInt(value, count.limit)
		if err != nil {
			return err
		}
		*count.field = n
		return nil
	}
	switch key {
	case UCI, CECP:
		s.Command, s.Protocol = value, key
		return needValue(key, value)
	case "args":
		s.Args = strings.Fields(value)
	case "risk", "memoryrisk":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 || n > maxModelRisk {
			return fmt.Errorf("%s %q is not a whole number in 0..%d", key, value, maxModelRisk)
		}
		if key == "risk" {
			s.ModelRisk, s.Guarded = n, true
		} else {
			s.MemoryRisk, s.MemoryRiskSet = n, true
		}
	case "memorycontempt", "restart":
		field := map[string]*bool{"memorycontempt": &s.MemoryContempt, "restart": &s.Restart}[key]
		switch strings.ToLower(value) {
		case "on", "true":
			*field = true
		case "off", "false":
			*field = false
		default:
			return fmt.Errorf("%s %q is not on or off", key, value)
		}
	case "depth":
		n, err := positiveInt(value, 1000)
		if err != nil {
			return err
		}
		s.Limits.Depth = n
		if !external {
			s.Depth = n
		}
	case "contempt":
		x, err := strconv.ParseFloat(value, 64)
		if err != nil || x != x || x > 1e9 || x < -1e9 {
			return fmt.Errorf("contempt %q is not a number", value)
		}
		s.Contempt = x
	case "nodes":
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil || n == 0 {
			return fmt.Errorf("nodes %q is not a positive whole number", value)
		}
		s.Limits.Nodes = n
	case "movetime":
		n, err := positiveInt(value, 1<<31)
		if err != nil {
			return err
		}
		s.Limits.MoveTime = time.Duration(n) * time.Millisecond
	case "tc":
		tc, err := ParseTimeControl(value)
		if err != nil {
			return err
		}
		s.Limits.Clock = tc
	}
	return nil
}

// needValue returns the error of a key that needs a value and was given none.
func needValue(key, value string) error {
	if value == "" {
		return fmt.Errorf("%s needs a value", key)
	}
	return nil
}

// positiveInt reads a whole number in 1..limit.
func positiveInt(text string, limit int) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > limit {
		return 0, fmt.Errorf("%q is not a whole number in 1..%d", text, limit)
	}
	return n, nil
}

// splitSpec splits a spec at white space outside quotes; quotes (' or ") group and are removed.
func splitSpec(text string) ([]string, error) {
	var tokens []string
	var cur strings.Builder
	inToken := false
	var quote rune
	quoteStart := 0
	for i, r := range text {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, quoteStart, inToken = r, i, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inToken {
				tokens = append(tokens, cur.String())
				cur.Reset()
				inToken = false
			}
		default:
			cur.WriteRune(r)
			inToken = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("player spec: the quote %c at byte %d is never closed", quote, quoteStart)
	}
	if inToken {
		tokens = append(tokens, cur.String())
	}
	return tokens, nil
}
