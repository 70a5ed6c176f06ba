// The in-process players of matches: a dossier bots.Player (or a mix of presets) built from a match spec and
// named after its preset, depth and search.

package contest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"dossier/bots/match"
	"dossier/bots/player"
	"dossier/bots/presets"
	"dossier/bots/searchers"
	"dossier/games"
	"dossier/play"
)

// newMixedPlayer builds a mix= player: a searchers.MixedSearcher (seeded with 1, so a match replays) named after
// its mixture.
func newMixedPlayer(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
	if spec.Preset != "" || spec.Search != "" || spec.Model != "" || spec.Memory != "" || spec.Log != "" || spec.Prepare > 0 || spec.OwnBook != "" {
		return match.InProcess{}, fmt.Errorf("mix= plays presets with alpha-beta: give it without preset=, search=, model=, memory= or ownbook= (book= gives any player a book)")
	}
	cfg := searchers.Config{Depth: spec.Depth, HashMB: spec.HashMB, Threads: spec.Threads, Contempt: spec.Contempt}
	s, err := searchers.NewMixedSearcher(g, cfg, spec.Mix, 1)
	if err != nil {
		return match.InProcess{}, err
	}
	return match.InProcess{Engine: match.SearcherEngine(s), Name: "mix(" + spec.Mix + ")", Depth: spec.Depth}, nil
}

// player.New builds an in-process player with searchers.New (match.Config's searchers.New); its name is the preset's, with the depth
// and, for a model search, the search and its model ("mat-tot25 d4 mstar(mat-tot25@3)").
func NewPlayer(g games.Game, spec match.PlayerSpec) (match.InProcess, error) {
	if spec.Mix != "" {
		return newMixedPlayer(g, spec)
	}
	cfg := searchers.Config{Preset: spec.Preset, Search: spec.Search, Model: spec.Model,
		Depth: spec.Depth, HashMB: spec.HashMB, Threads: spec.Threads, Contempt: spec.Contempt,
		Mode: spec.Mode, LimitStrength: spec.Elo > 0, Elo: spec.Elo, ModelRisk: searchers.ModelRiskOff}
	if spec.Search == "" || strings.EqualFold(spec.Search, searchers.AlphaBetaSearch) {
		cfg.ModelRisk = 0 // the Player's default (alpha-beta plays no model; its game memory reads MemoryRisk)
	}
	if _, err := searchers.New(g, cfg); err != nil {
		return match.InProcess{}, err
	}
	if spec.Log != "" && spec.Memory == "" {
		return match.InProcess{}, fmt.Errorf("log= writes the memory's log: give it with memory=")
	}
	if spec.MemoryRiskSet && spec.Memory == "" {
		return match.InProcess{}, fmt.Errorf("memoryrisk= bounds the memory's replayed moves: give it with memory=")
	}
	if spec.MemoryContempt && spec.Memory == "" {
		return match.InProcess{}, fmt.Errorf("memorycontempt= sets the contempt from the memory's games: give it with memory=")
	}
	if spec.Prepare > 0 && spec.Memory == "" {
		return match.InProcess{}, fmt.Errorf("prepare= prepares from the memory's games: give it with memory=")
	}
	eng := player.New(g, cfg)
	if spec.Guarded {
		eng.SetModelRisk(spec.ModelRisk)
	}
	if spec.Memory != "" {
		log, err := memoryLog(spec.Log)
		if err != nil {
			return match.InProcess{}, err
		}
		if err := eng.UseMemory(player.MemoryConfig{Enabled: true, Dir: spec.Memory, Logger: log}); err != nil {
			return match.InProcess{}, err
		}
		if err := eng.OpenMemory(); err != nil {
			return match.InProcess{}, err
		}
		if spec.MemoryRiskSet {
			if err := setOption(eng.Options(), "MemoryRisk", strconv.Itoa(spec.MemoryRisk)); err != nil {
				return match.InProcess{}, err
			}
		}
		if spec.Prepare > 0 {
			if err := setOption(eng.Options(), "PrepareTime", strconv.Itoa(spec.Prepare)); err != nil {
				return match.InProcess{}, err
			}
		}
		if spec.MemoryContempt {
			if err := setOption(eng.Options(), "MemoryContempt", "true"); err != nil {
				return match.InProcess{}, err
			}
		}
	}
	if err := setOwnBook(eng, spec); err != nil {
		return match.InProcess{}, err
	}
	name, depth := spec.Preset, spec.Depth
	for i, p := range presets.Of(g) {
		if (spec.Preset == "" && i == 0) || strings.EqualFold(p.Name, spec.Preset) {
			name = p.Name
			if depth == 0 {
				depth = p.Depth
			}
			break
		}
	}
	if depth > 0 {
		name += fmt.Sprintf(" d%d", depth)
	}
	switch {
	case spec.Elo > 0:
		name += fmt.Sprintf(" elo%d", spec.Elo)
	case strings.EqualFold(spec.Mode, searchers.EvenMode):
		name += " even"
	}
	if spec.Search != "" && !strings.EqualFold(spec.Search, searchers.AlphaBetaSearch) {
		name += " " + strings.ToLower(spec.Search)
		if model, err := searchers.ParseModelSpec(spec.Model); err == nil && !model.IsZero() {
			name += "(" + model.String() + ")"
		}
	}
	return match.InProcess{Engine: eng, Name: name, Depth: depth}, nil
}

// setOwnBook applies ownbook= (and bookdepth= with it): the OwnBook, BookFile and BookDepth options.
func setOwnBook(eng *player.Engine, spec match.PlayerSpec) error {
	switch strings.ToLower(spec.OwnBook) {
	case "", "off", "false":
		return nil
	case "on", "true":
	default:
		if err := setOption(eng.Options(), "BookFile", spec.OwnBook); err != nil {
			return fmt.Errorf("ownbook=%s: %w", spec.OwnBook, err)
		}
	}
	return setOption(eng.Options(), "OwnBook", "true")
}

// memoryLogs are the log files of in-process players' memories, opened once per path for the whole process (a
// match builds a player per game), their lines whole however many players write them.
var memoryLogs = struct {
	sync.Mutex
	byPath map[string]*zap.Logger
}{byPath: map[string]*zap.Logger{}}

// memoryLog returns the logger of a log= file (nil for ""): JSON lines at info level, appended to the file.
func memoryLog(path string) (*zap.Logger, error) {
	if path == "" {
		return nil, nil
	}
	memoryLogs.Lock()
	defer memoryLogs.Unlock()
	if log, ok := memoryLogs.byPath[path]; ok {
		return log, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("log= %w", err)
	}
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.ISO8601TimeEncoder
	log := zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(enc), zapcore.Lock(f), zapcore.InfoLevel))
	memoryLogs.byPath[path] = log
	return log, nil
}

// setOption sets the option named of an in-process player, as a front end's setoption would.
func setOption(options []play.Option, name, value string) error {
	o, ok := play.FindOption(options, name)
	if !ok {
		return fmt.Errorf("the player has no option %s", name)
	}
	return o.Set(value, true)
}
