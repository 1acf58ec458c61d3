package party

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/scenario"
)

// Scenario is a party scenario file: a board, players and scripted dice
// and choices, and what must come out. See docs/scenarios.md.
type Scenario struct {
	Game string `yaml:"game"`
	Name string `yaml:"name"`
	// Board is the board file, relative to the scenario file; ${VAR} and
	// $VAR are expanded from the environment (e.g. ${TABULA_SHARED}).
	Board     string   `yaml:"board"`
	Players   []string `yaml:"players"`
	Seed      uint64   `yaml:"seed"`
	MaxRounds int      `yaml:"maxRounds"`
	// Rolls are the dice results, in order; after them the dice are
	// rolled from the seed (or the scenario stops: see Until).
	Rolls []int `yaml:"rolls"`
	// Choices are fork choices in order, as option numbers (0 = the first
	// connection); Paths are the same as space ids. After them, a bot
	// chooses (from the seed).
	Choices []int    `yaml:"choices"`
	Paths   []string `yaml:"paths"`
	// Until is "end" (play to the end, the default) or "rolls" (stop when
	// the scripted rolls run out).
	Until  string `yaml:"until"`
	Expect Expect `yaml:"expect"`
}

// Expect is what a scenario checks. Every field is optional.
type Expect struct {
	Over    *bool    `yaml:"over"`
	Winners []string `yaml:"winners"`
	Reason  string   `yaml:"reason"`
	// Rounds is the number of rounds played (the last perhaps in part).
	Rounds int `yaml:"rounds"`
	// Positions, States and Stats are per player name.
	Positions map[string]string             `yaml:"positions"`
	States    map[string]string             `yaml:"states"`
	Stats     map[string]map[string]float64 `yaml:"stats"`
	// Firings is the exact ordered list of board events that fired, each
	// "SPACE TRIGGER ACTION"; lines may start with "PLAYER: " and end with
	// " @DEPTH" (the cascade depth: 1 for an event set off by a move, 2 for
	// one set off by an action of those…), and then all must.
	Firings []string `yaml:"firings"`
	// Prompts is the exact ordered list of prompt texts shown.
	Prompts []string `yaml:"prompts"`
	// Log lists lines that must appear in the action log, in this order
	// (other lines may come between them).
	Log []string `yaml:"log"`
}

// RunScenario runs a party scenario file and compares the outcome with its
// expectations.
func RunScenario(path string, data []byte) *scenario.Result {
	var sc Scenario
	r, ok := scenario.Open(path, data, &sc)
	if !ok {
		return r
	}
	g, err := sc.play(path)
	if err != nil {
		r.Failf("%v", err)
		return r
	}
	sc.check(r, g)
	return r
}

// play runs the game of the scenario file at path.
func (sc *Scenario) play(path string) (*Game, error) {
	if sc.Board == "" {
		return nil, fmt.Errorf("the scenario names no board (board: path/to/board.json)")
	}
	b, list := Load(scenario.Resolve(filepath.Dir(path), sc.Board))
	if list.HasErrors() || b == nil {
		return nil, fmt.Errorf("the board does not load:\n%s", list.Errors())
	}
	def, err := Compile(b)
	if err != nil {
		return nil, err
	}
	players := sc.Players
	if len(players) == 0 {
		players = []string{"Player 1"}
	}
	maxRounds := sc.MaxRounds
	if maxRounds == 0 {
		maxRounds = DefaultMaxRounds
	}
	g, err := NewGame(def, players, Options{Seed: sc.Seed, MaxRounds: maxRounds})
	if err != nil {
		return nil, err
	}
	switch sc.Until {
	case "", "end", "rolls":
	default:
		return nil, fmt.Errorf("until: %q; use end or rolls", sc.Until)
	}
	script := Script{Rolls: sc.Rolls, Choices: sc.Choices, Paths: sc.Paths}
	bots := rng.New(sc.Seed).Stream("bots")
	for !g.Over() {
		w := g.Waits()[0]
		if w.Kind == KindRoll && sc.Until == "rolls" && !script.HasRoll() {
			break
		}
		cmd, err := script.Next(g, w, bots)
		if err != nil {
			return nil, err
		}
		if err := g.Apply(cmd); err != nil {
			return nil, fmt.Errorf("command %d (%s by %s): %v", len(g.Commands), cmd.Kind, g.Players[cmd.Player], err)
		}
	}
	return g, nil
}

// Script feeds scripted dice and choices to a match, then lets bots play:
// scenario files and `tabula play --rolls --choices` use it.
type Script struct {
	Rolls   []int
	Choices []int
	Paths   []string
}

// HasRoll reports whether a scripted roll remains.
func (s *Script) HasRoll() bool { return len(s.Rolls) > 0 }

// Next returns the command for a wait: the next scripted roll or choice if
// there is one, else what a bot would do.
func (s *Script) Next(g *Game, w Wait, bots *rng.Stream) (Command, error) {
	switch w.Kind {
	case KindRoll:
		v := 0
		if len(s.Rolls) > 0 {
			v, s.Rolls = s.Rolls[0], s.Rolls[1:]
		}
		return Command{Player: w.Player, Kind: KindRoll, Value: v}, nil
	case KindChoosePath:
		switch {
		case len(s.Choices) > 0:
			c := s.Choices[0]
			s.Choices = s.Choices[1:]
			if c < 0 || c >= len(w.Options) {
				return Command{}, fmt.Errorf("scripted choice %d, but the fork has options 0..%d (%s)", c, len(w.Options)-1, strings.Join(w.Options, ", "))
			}
			return Command{Player: w.Player, Kind: KindChoosePath, Value: c}, nil
		case len(s.Paths) > 0:
			id := s.Paths[0]
			s.Paths = s.Paths[1:]
			c, ok := g.ChoiceFor(id)
			if !ok {
				return Command{}, fmt.Errorf("scripted path %q, but the fork leads to %s", id, strings.Join(w.Options, ", "))
			}
			return Command{Player: w.Player, Kind: KindChoosePath, Value: c}, nil
		}
	}
	cmd, _ := g.BotCommand(w.Player, bots)
	return cmd, nil
}

// check compares a finished scenario with its expectations.
func (sc *Scenario) check(r *scenario.Result, g *Game) {
	e := &sc.Expect
	s := g.State
	player := func(name string) *Player { return &s.Players[slices.Index(g.Players, name)] }
	if e.Over != nil {
		r.Expect("game over", s.Over, *e.Over)
	}
	if e.Winners != nil {
		var got []string
		for _, w := range s.Winners {
			got = append(got, g.Players[w])
		}
		r.Expect("winners", fmt.Sprint(got), fmt.Sprint(e.Winners))
	}
	if e.Reason != "" && !strings.Contains(s.EndReason, e.Reason) {
		r.Failf("end reason: got %q, want it to contain %q", s.EndReason, e.Reason)
	}
	if e.Rounds != 0 {
		r.Expect("rounds played", s.LastRound, e.Rounds)
	}
	scenario.Each(r, "positions", "player", e.Positions, g.Players, func(name, want string) {
		r.Expect(name+"'s space", g.Def.Board.Spaces[player(name).Space].ID, want)
	})
	scenario.Each(r, "states", "player", e.States, g.Players, func(name, want string) {
		r.Expect(name+"'s state", player(name).State, want)
	})
	scenario.Each(r, "stats", "player", e.Stats, g.Players, func(name string, want map[string]float64) {
		for _, stat := range sortedKeys(want) {
			r.Expect(name+"'s "+stat, player(name).StatValue(stat), want[stat])
		}
	})
	if e.Firings != nil {
		prefixed := len(e.Firings) > 0 && strings.Contains(e.Firings[0], ": ")
		depths := len(e.Firings) > 0 && strings.Contains(e.Firings[0], " @")
		var got []string
		for _, f := range g.Firings() {
			line := g.FiringLine(f)
			if prefixed {
				line = g.Players[f.Player] + ": " + line
			}
			if depths {
				line += fmt.Sprintf(" @%d", f.Depth)
			}
			got = append(got, line)
		}
		r.ExpectLines("firings", got, e.Firings)
	}
	if e.Prompts != nil {
		var got []string
		for _, en := range g.Entries(0) {
			if en.Type == "PROMPTED" {
				got = append(got, g.Match.Events[g.Match.Records()[en.Seq].Event].Data.(string))
			}
		}
		r.ExpectLines("prompts", got, e.Prompts)
	}
	if e.Log != nil {
		var lines []string
		for _, en := range g.Entries(0) {
			lines = append(lines, en.Text)
		}
		r.ExpectInOrder("log", lines, e.Log)
	}
}
