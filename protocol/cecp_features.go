// CECP's feature handshake, the variants and options it offers, and the opponent's name and ratings.

package protocol

import (
	"fmt"
	"strconv"
	"strings"

	"dossier/games"
	"dossier/games/catalog"
	"dossier/play"
)

// cmdProtover answers the feature handshake: what dossier supports, its options, and done=1.
func (c *cecp) cmdProtover(command) {
	s := c.s
	s.refreshOptions()
	s.send("feature done=0")
	s.send("feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 reuse=1 " +
		"analyze=1 colors=0 name=1 ics=1 nps=1 debug=1 pause=0")
	s.send(fmt.Sprintf("feature myname=%q", s.cfg.Name))
	s.send(fmt.Sprintf("feature variants=%q", strings.Join(c.variants(), ",")))
	var resources []string
	if c.option("Hash") != nil {
		resources = append(resources, "memory=1")
	}
	if c.option("Threads") != nil {
		resources = append(resources, "smp=1")
	}
	if len(resources) > 0 {
		s.send("feature " + strings.Join(resources, " "))
	}
	for _, o := range c.options() {
		s.send("feature option=\"" + cecpOptionLine(o) + "\"")
	}
	s.send("feature done=1")
}

// variants returns the CECP names of the games the session can play, or of the game being played when its
// lookup knows none of the catalog's.
func (c *cecp) variants() []string {
	playable := c.playableGames()
	if len(playable) == 0 {
		playable = []games.Game{c.s.game}
	}
	names := make([]string, len(playable))
	for i, g := range playable {
		names[i] = games.VariantsOf(g).CECP
	}
	return names
}

// playableGames returns the catalog's games that the session's lookup resolves, in the catalog's order and
// one for each CECP variant name.
func (c *cecp) playableGames() []games.Game {
	var playable []games.Game
	offered := map[string]bool{}
	for _, name := range catalog.Names() {
		g, err := c.s.lookup(name)
		if err != nil || offered[games.VariantsOf(g).CECP] {
			continue
		}
		offered[games.VariantsOf(g).CECP] = true
		playable = append(playable, g)
	}
	return playable
}

// cecpOptionName is an option's name as CECP announces it: without spaces, since python-chess reads the
// name of a feature option up to its first space ("Move Overhead -spin ..." became an option "Move" of no
// known type, which no configure call could set). The option command takes either name.
func cecpOptionName(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, " ", ""), `"`, "'")
}

// cecpOptionLine writes an option as the value of feature option="...".
func cecpOptionLine(o play.Option) string {
	name := cecpOptionName(o.Name)
	switch o.Type {
	case play.CheckType:
		if o.Default == "true" {
			return name + " -check 1"
		}
		return name + " -check 0"
	case play.SpinType:
		return fmt.Sprintf("%s -spin %s %d %d", name, o.Default, o.Min, o.Max)
	case play.ComboType:
		choices := make([]string, len(o.Vars))
		for i, v := range o.Vars {
			if v == o.Default {
				v = "*" + v
			}
			choices[i] = v
		}
		return name + " -combo " + strings.Join(choices, " /// ")
	case play.ButtonType:
		return name + " -button"
	}
	return name + " -string " + o.Default
}

// option returns the announced option called name (case-insensitively, by its own name or the one CECP
// announces), or nil.
func (c *cecp) option(name string) *play.Option {
	options := c.options()
	for i := range options {
		if strings.EqualFold(options[i].Name, name) || strings.EqualFold(cecpOptionName(options[i].Name), name) {
			return &options[i]
		}
	}
	return nil
}

// cmdName names the opponent for the memory.
func (c *cecp) cmdName(cmd command) {
	name := cmd.rawFrom(0)
	if name == "" {
		c.s.errorf("name needs a name")
		return
	}
	// The title python-chess puts before the name is the opponent's title, not its name: without it the
	// player's key is the one UCI_Opponent gives.
	title, bare := play.SplitTitle(name)
	c.setOpponent(func(o *play.Opponent) {
		o.Name, o.Title = bare, title
		if title == "BOT" && o.Kind == play.UnknownKind {
			o.Kind = play.Computer // lichess gives BOT only to programs
		}
	})
}

// cmdRating reads "rating OURS THEIRS", the two players' ratings (0 for unknown).
func (c *cecp) cmdRating(cmd command) {
	w := cmd.words()
	var ours, theirs int
	var err1, err2 error
	if len(w) == 2 {
		ours, err1 = strconv.Atoi(w[0])
		theirs, err2 = strconv.Atoi(w[1])
	}
	if len(w) != 2 || err1 != nil || err2 != nil || ours < 0 || theirs < 0 || ours > 9999 || theirs > 9999 {
		c.s.errorf("rating wants two ratings in 0..9999: ours, the opponent's")
		return
	}
	c.setOpponent(func(o *play.Opponent) { o.OurElo, o.Elo = ours, theirs })
}

// cmdComputer says the opponent is a program.
func (c *cecp) cmdComputer(command) {
	c.setOpponent(func(o *play.Opponent) { o.Kind = play.Computer })
}

// setOpponent changes the opponent's description and tells the engine.
func (c *cecp) setOpponent(change func(*play.Opponent)) {
	s := c.s
	change(&s.opponent)
	s.opponent.Source = "cecp"
	s.safely("SetOpponent", func() { s.engine.SetOpponent(s.opponent) })
}

// cmdOption reads "option NAME=VALUE" (or "option NAME" for a button) for an announced option; a check
// takes 1 or 0.
func (c *cecp) cmdOption(cmd command) {
	s := c.s
	text := cmd.rawFrom(0)
	name, value, hasValue := strings.Cut(text, "=")
	name = strings.TrimSpace(name)
	o := c.option(name)
	if o == nil {
		s.errorf("no option named %s", quoteToken(name))
		return
	}
	if o.Type == play.CheckType {
		switch strings.TrimSpace(value) {
		case "1":
			value = "true"
		case "0":
			value = "false"
		}
	}
	s.finishSearch()
	if err := o.Set(value, hasValue); err != nil {
		s.errorf("option %s: %v", o.Name, err)
	}
}

// cmdResource reads memory (megabytes) or cores into the option that sizes them.
func (c *cecp) cmdResource(cmd command, option string) {
	s := c.s
	w := cmd.words()
	o := c.option(option)
	if len(w) != 1 || o == nil {
		s.errorf("want one number (for the %s option)", option)
		return
	}
	s.finishSearch()
	n, err := strconv.ParseInt(w[0], 10, 64)
	if err == nil && o.Type == play.SpinType {
		n = max(min(n, o.Max), o.Min) // a GUI offers what the machine has, not what the engine takes
	}
	if err := o.Set(strconv.FormatInt(n, 10), err == nil); err != nil {
		s.errorf("%s: %v", option, err)
	}
}
