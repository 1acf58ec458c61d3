package party

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
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
	// Rolls are the results of the match's rolls, in order, whoever rolls
	// (the match's scripted dice, game.Setup.Dice); after them the dice
	// are rolled from the seed (or the scenario stops: see Until).
	Rolls []int `yaml:"rolls"`
	// Choices are fork choices in order, as option numbers (0 = the first
	// connection); Paths are the same as space ids. After them, a bot
	// chooses (from the seed).
	Choices []int    `yaml:"choices"`
	Paths   []string `yaml:"paths"`
	// Until is "end" (play to the end, the default) or "rolls" (stop when
	// the scripted rolls run out).
	Until string `yaml:"until"`
	// Compat plays the scenario in a compatibility mode: "original" plays
	// as the original game did (see Quirks).
	Compat string `yaml:"compat"`
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
	// Error, if set, is text the error that stops the scenario must
	// contain: a match that cannot start (too few players, a scripted
	// roll the dice cannot make) or a command refused. No other
	// expectation is checked then.
	Error string `yaml:"error"`
	// Log lists lines that must appear in the action log, in this order
	// (other lines may come between them): an entry's text, or its detail
	// in the engine's words (see traceLines).
	Log []string `yaml:"log"`
}

// RunScenario runs a party scenario file and compares the outcome with its
// expectations.
func (p *Pack) RunScenario(path string, data []byte) *scenario.Result {
	return p.RunScenarioWith(path, data, scenario.Options{})
}

// RunScenarioWith is RunScenario with a run's options: a scenario that
// names no compatibility mode plays in o.Compat.
func (p *Pack) RunScenarioWith(path string, data []byte, o scenario.Options) *scenario.Result {
	var sc Scenario
	r, ok := scenario.Open(path, data, &sc)
	if !ok {
		return r
	}
	if sc.Compat == "" {
		sc.Compat = o.Compat
	}
	m, err := sc.play(p, path)
	switch want := sc.Expect.Error; {
	case err != nil && want != "" && strings.Contains(err.Error(), want):
	case err != nil:
		r.Failf("%v", err)
	case want != "":
		r.Failf("error: the scenario ran without one, want one saying %q", want)
	default:
		sc.check(r, m)
	}
	return r
}

// play runs the game of the scenario file at path: the scripted rolls are
// the match's dice, the scripted choices answer the forks, prompts are
// acknowledged at once, and a bot chooses where the script has nothing
// more to say.
func (sc *Scenario) play(p *Pack, path string) (*Match, error) {
	if sc.Board == "" {
		return nil, fmt.Errorf("the scenario names no board (board: path/to/board.json)")
	}
	def, list := p.LoadFile(scenario.Resolve(filepath.Dir(path), sc.Board))
	if def == nil {
		return nil, fmt.Errorf("the board does not load:\n%s", list.Errors())
	}
	switch sc.Until {
	case "", "end", "rolls":
	default:
		return nil, fmt.Errorf("until: %q; use end or rolls", sc.Until)
	}
	players := sc.Players
	if len(players) == 0 {
		players = []string{"Player 1"}
	}
	m, err := def.NewMatch(game.Setup{Players: players, Seed: sc.Seed, MaxRounds: sc.MaxRounds, Dice: sc.Rolls, Compat: sc.Compat}, Options{})
	if err != nil {
		return nil, err
	}
	choices, paths := sc.Choices, sc.Paths
	bots := rng.New(sc.Seed).Stream("bots")
	for !m.s.Over {
		w := m.Waits()[0]
		if w.Kind == KindRoll && sc.Until == "rolls" && len(m.s.Dice) == 0 {
			break
		}
		cmd := Command{Kind: w.Kind}
		switch {
		case w.Kind != KindChoosePath:
		case len(choices) > 0:
			cmd.Value, choices = choices[0], choices[1:]
			if cmd.Value < 0 || cmd.Value >= len(w.Options) {
				return nil, fmt.Errorf("scripted choice %d, but the fork has options 0..%d (%s)", cmd.Value, len(w.Options)-1, strings.Join(w.Options, ", "))
			}
		case len(paths) > 0:
			cmd.Space, paths = paths[0], paths[1:]
		default:
			cmd, _ = m.Bot(w.Player, bots)
		}
		if err := m.Play(w.Player, cmd); err != nil {
			return nil, fmt.Errorf("command %d (%s by %s): %v", m.commands+1, cmd.Kind, m.s.Players[w.Player].Name, err)
		}
	}
	return m, nil
}

// check compares a finished scenario with its expectations.
func (sc *Scenario) check(r *scenario.Result, m *Match) {
	e := &sc.Expect
	s := m.s
	names := m.e.Players
	player := func(name string) *Player { return &s.Players[slices.Index(names, name)] }
	if e.Over != nil {
		r.Expect("game over", s.Over, *e.Over)
	}
	if e.Winners != nil {
		var got []string
		for _, w := range s.Winners {
			got = append(got, names[w])
		}
		r.Expect("winners", fmt.Sprint(got), fmt.Sprint(e.Winners))
	}
	if e.Reason != "" && !strings.Contains(s.EndReason, e.Reason) {
		r.Failf("end reason: got %q, want it to contain %q", s.EndReason, e.Reason)
	}
	if e.Rounds != 0 {
		r.Expect("rounds played", s.LastRound, e.Rounds)
	}
	scenario.Each(r, "positions", "player", e.Positions, names, func(name, want string) {
		r.Expect(name+"'s space", m.def.Board.Spaces[player(name).Space].ID, want)
	})
	scenario.Each(r, "states", "player", e.States, names, func(name, want string) {
		r.Expect(name+"'s state", player(name).State, want)
	})
	scenario.Each(r, "stats", "player", e.Stats, names, func(name string, want map[string]float64) {
		for _, stat := range sortedKeys(want) {
			r.Expect(name+"'s "+stat, player(name).StatValue(stat), want[stat])
		}
	})
	if e.Firings != nil {
		prefixed := len(e.Firings) > 0 && strings.Contains(e.Firings[0], ": ")
		depths := len(e.Firings) > 0 && strings.Contains(e.Firings[0], " @")
		var got []string
		for _, f := range m.Firings() {
			line := m.FiringLine(f)
			if prefixed {
				line = names[f.Player] + ": " + line
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
		for _, rec := range m.e.Records() {
			if rec.Kind == engine.RecEvent && m.e.Events[rec.Event].Type == evPrompted {
				got = append(got, fmt.Sprint(m.e.Events[rec.Event].Data))
			}
		}
		r.ExpectLines("prompts", got, e.Prompts)
	}
	if e.Log != nil {
		r.ExpectInOrder("log", m.traceLines(), e.Log)
	}
}

// traceLines are the lines a scenario's log expectations are looked for
// in: each log entry's text, a step's text with the space's id as
// scenarios have long written it ("Bob enters Start (1)"), and, where it
// has one, its detail in the engine's words (without the mark of a fired event), so that a scenario
// may name a board event that fired ("Courtyard (7) · CODE → CHANGE_STAT
// walkers+1") or a state by its name in board files ("Ann is now
// COMPLETED_GAME").
func (m *Match) traceLines() []string {
	var out []string
	for _, e := range m.Log(game.Spectator, 0) {
		if e.Text != "" {
			out = append(out, e.Text)
		}
		if line, ok := m.withID(&e); ok {
			out = append(out, line)
		}
		if e.Detail != "" {
			out = append(out, strings.TrimPrefix(e.Detail, "↳ "))
		}
	}
	return out
}

var _ scenario.OptionsRunner = (*Pack)(nil)
