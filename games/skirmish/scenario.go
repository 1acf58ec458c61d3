package skirmish

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
)

// Scenario is a skirmish scenario file (see docs/scenarios.md): an
// encounter, scripted dice and commands, and what must come of them.
type Scenario struct {
	Game string `yaml:"game"`
	Name string `yaml:"name"`
	// Encounter is the encounter file, relative to the scenario file.
	Encounter string `yaml:"encounter"`
	Seed      uint64 `yaml:"seed"`
	// Dice are rolled, in order, before any random die.
	Dice     []int          `yaml:"dice"`
	Commands []ScenarioStep `yaml:"commands"`
	Expect   Expectations   `yaml:"expect"`
}

// ScenarioStep is a command, and optionally the rejection it must meet.
type ScenarioStep struct {
	Command `yaml:",inline"`
	// Reject, if set, is part of the reason the command must be rejected
	// for.
	Reject string `yaml:"reject"`
}

// Expectations are what must hold once the commands have run. Every field
// is optional.
type Expectations struct {
	HP         map[string]int               `yaml:"hp"`
	TempHP     map[string]int               `yaml:"tempHp"`
	Positions  map[string]Cell              `yaml:"positions"`
	Conditions map[string][]string          `yaml:"conditions"`
	Resist     map[string]map[string]string `yaml:"resistances"`
	Values     map[string]map[string]int    `yaml:"values"`
	Economy    map[string]ExpectedEconomy   `yaml:"economy"`
	Turn       string                       `yaml:"turn"`
	Round      int                          `yaml:"round"`
	Winner     string                       `yaml:"winner"`
	DiceLeft   *int                         `yaml:"diceLeft"`
	Trace      []string                     `yaml:"trace"`
	Includes   []string                     `yaml:"traceIncludes"`
}

// ExpectedEconomy is what a combatant must have left; unset fields are not
// checked.
type ExpectedEconomy struct {
	Actions      *int `yaml:"actions"`
	BonusActions *int `yaml:"bonusActions"`
	Reactions    *int `yaml:"reactions"`
	Movement     *int `yaml:"movement"`
}

// RunScenario runs a scenario file and checks its expectations. Each side
// is played under its own name. A reaction the match asks for is answered
// by the next command if it is one ({do: reaction, take: false}); a next
// command that must be rejected is tried while it is still asked; any
// other command, or the end of the commands, answers it first as the
// pack's bot does (it takes it).
func (p *Pack) RunScenario(path string, data []byte) *scenario.Result {
	var sc Scenario
	res, ok := scenario.Open(path, data, &sc)
	if !ok {
		return res
	}
	if sc.Encounter == "" {
		res.Failf("the scenario names no encounter file (encounter: …)")
		return res
	}
	src, err := game.Open(scenario.Resolve(filepath.Dir(path), sc.Encounter), game.Limits{})
	if err != nil {
		res.Failf("the encounter: %v", err)
		return res
	}
	def, diags := p.LoadEncounter(src)
	if def == nil {
		res.Failf("the encounter has errors:\n%s", diags.Errors())
		return res
	}
	m, err := def.NewMatch(game.Setup{Players: def.Sides, Seed: sc.Seed, Dice: sc.Dice})
	if err != nil {
		res.Failf("the encounter does not start: %v", err)
		return res
	}
	from := len(m.Engine.Records())
	for i, step := range sc.Commands {
		if step.Do != "reaction" && step.Reject == "" {
			if err := m.answerReactions(); err != nil {
				res.Failf("before command %d (%s), answering a reaction: %v", i+1, step.Do, err)
				return res
			}
		}
		err := m.play(engine.NoPlayer, step.Command)
		switch {
		case step.Reject != "" && err == nil:
			res.Failf("command %d (%s) was accepted; it should be rejected for %q", i+1, step.Do, step.Reject)
		case step.Reject != "" && !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(step.Reject)):
			res.Failf("command %d (%s): %v; want a rejection for %q", i+1, step.Do, err, step.Reject)
		case step.Reject == "" && err != nil:
			res.Failf("command %d (%s): %v", i+1, step.Do, err)
			if !engine.IsRejected(err) {
				return res
			}
		}
	}
	if err := m.answerReactions(); err != nil {
		res.Failf("after the commands, answering a reaction: %v", err)
		return res
	}
	m.check(res, &sc.Expect, from)
	return res
}

// check compares the match with the expectations.
func (m *Match) check(res *scenario.Result, e *Expectations, from int) {
	g := m.State
	keys := g.Keys()
	scenario.Each(res, "hp", "combatant", e.HP, keys, func(k string, hp int) { res.Expect(k+" HP", g.ByKey(k).HP, hp) })
	scenario.Each(res, "tempHp", "combatant", e.TempHP, keys, func(k string, hp int) { res.Expect(k+" temporary HP", g.ByKey(k).TempHP, hp) })
	scenario.Each(res, "positions", "combatant", e.Positions, keys, func(k string, at Cell) { res.Expect(k+" position", g.ByKey(k).Pos, at) })
	scenario.Each(res, "conditions", "combatant", e.Conditions, keys, func(k string, want []string) {
		got := g.Conditions(g.ByKey(k).ID)
		if !slices.Equal(got, want) {
			res.Failf("%s conditions: got [%s], want [%s]", k, strings.Join(got, ", "), strings.Join(want, ", "))
		}
	})
	scenario.Each(res, "resistances", "combatant", e.Resist, keys, func(k string, want map[string]string) {
		f := g.ByKey(k)
		for _, t := range slices.Sorted(maps.Keys(want)) {
			res.Expect(k+" "+t+" resistance", f.Resistance.Resistance(t).String(), want[t])
		}
	})
	scenario.Each(res, "values", "combatant", e.Values, keys, func(k string, want map[string]int) {
		f := g.ByKey(k)
		var names []string
		for _, v := range f.Values() {
			names = append(names, v.Name)
		}
		scenario.Each(res, "values: "+k, "value", want, names, func(n string, score int) {
			res.Expect(k+" "+n, f.Value(n).Score(), score)
		})
	})
	scenario.Each(res, "economy", "combatant", e.Economy, keys, func(k string, x ExpectedEconomy) {
		f := g.ByKey(k)
		scenario.ExpectSet(res, k+" actions", f.Economy.Actions, x.Actions)
		scenario.ExpectSet(res, k+" bonus actions", f.Economy.BonusActions, x.BonusActions)
		scenario.ExpectSet(res, k+" reactions", f.Economy.Reactions, x.Reactions)
		scenario.ExpectSet(res, k+" movement", f.Economy.Movement, x.Movement)
	})
	if e.Turn != "" {
		cur := "nobody"
		if f := g.Current(); f != nil && !g.Over {
			cur = f.Key
		}
		res.Expect("turn", cur, e.Turn)
	}
	if e.Round != 0 {
		res.Expect("round", g.Round, e.Round)
	}
	if e.Winner != "" {
		got := "nobody yet"
		switch {
		case g.Over && g.Winner == engine.NoPlayer:
			got = "draw"
		case g.Over:
			got = g.Def.Sides[g.Winner]
		}
		res.Expect("winner", got, e.Winner)
	}
	if e.DiceLeft != nil {
		res.Expect("scripted dice left", len(g.Dice), *e.DiceLeft)
	}
	lines := m.trace(from)
	if e.Trace != nil {
		res.ExpectLines("trace", lines, e.Trace)
	}
	res.ExpectInOrder("trace", lines, e.Includes)
}
