package skirmish

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
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

// RunScenario runs a scenario file and checks its expectations.
func RunScenario(path string, data []byte) *scenario.Result {
	res := &scenario.Result{File: path, Name: path}
	var sc Scenario
	if err := scenario.Decode(data, &sc); err != nil {
		res.Failf("cannot read the scenario: %v", err)
		return res
	}
	if sc.Name != "" {
		res.Name = sc.Name
	}
	if sc.Encounter == "" {
		res.Failf("the scenario names no encounter file (encounter: …)")
		return res
	}
	encPath := sc.Encounter
	if !filepath.IsAbs(encPath) {
		encPath = filepath.Join(filepath.Dir(path), encPath)
	}
	enc, diags := LoadEncounter(encPath)
	if enc == nil {
		var b strings.Builder
		diags.Errors().Print(&b)
		res.Failf("the encounter has errors:\n%s", b.String())
		return res
	}
	m, err := NewMatch(enc, sc.Seed, sc.Dice)
	if err != nil {
		res.Failf("the encounter does not start: %v", err)
		return res
	}
	from := len(m.Records())
	for i, step := range sc.Commands {
		err := m.Do(step.Command)
		switch {
		case step.Reject != "" && err == nil:
			res.Failf("command %d (%s) was accepted; it should be rejected for %q", i+1, step.Do, step.Reject)
		case step.Reject != "" && !strings.Contains(err.Error(), step.Reject):
			res.Failf("command %d (%s): %v; want a rejection for %q", i+1, step.Do, err, step.Reject)
		case step.Reject == "" && err != nil:
			res.Failf("command %d (%s): %v", i+1, step.Do, err)
			if !engine.IsRejected(err) {
				return res
			}
		}
	}
	m.check(res, &sc.Expect, from)
	return res
}

// check compares the match with the expectations.
func (m *Match) check(res *scenario.Result, e *Expectations, from int) {
	g := m.Game
	each := func(what string, keys []string, fn func(f *Combatant, key string)) {
		for _, k := range keys {
			f := g.ByKey(k)
			if f == nil {
				res.Failf("%s: no combatant %q%s", what, k, diag.DidYouMean(k, g.Keys()))
				continue
			}
			fn(f, k)
		}
	}
	each("hp", keysOf(e.HP), func(f *Combatant, k string) { res.Expect(k+" HP", f.HP, e.HP[k]) })
	each("tempHp", keysOf(e.TempHP), func(f *Combatant, k string) { res.Expect(k+" temporary HP", f.TempHP, e.TempHP[k]) })
	each("positions", keysOf(e.Positions), func(f *Combatant, k string) { res.Expect(k+" position", f.Pos, e.Positions[k]) })
	each("conditions", keysOf(e.Conditions), func(f *Combatant, k string) {
		got := g.Conditions(f.ID)
		if !slices.Equal(got, e.Conditions[k]) {
			res.Failf("%s conditions: got [%s], want [%s]", k, strings.Join(got, ", "), strings.Join(e.Conditions[k], ", "))
		}
	})
	each("resistances", keysOf(e.Resist), func(f *Combatant, k string) {
		for _, t := range keysOf(e.Resist[k]) {
			res.Expect(k+" "+t+" resistance", f.Resistance.Resistance(t).String(), e.Resist[k][t])
		}
	})
	each("values", keysOf(e.Values), func(f *Combatant, k string) {
		for _, n := range keysOf(e.Values[k]) {
			v := f.Value(n)
			if v == nil {
				res.Failf("values: %s has no value %q%s", k, n, diag.DidYouMean(n, ValueNames()))
				continue
			}
			res.Expect(k+" "+n, v.Score(), e.Values[k][n])
		}
	})
	each("economy", keysOf(e.Economy), func(f *Combatant, k string) {
		x := e.Economy[k]
		for _, c := range []struct {
			name string
			want *int
			got  int
		}{{"actions", x.Actions, f.Economy.Actions}, {"bonus actions", x.BonusActions, f.Economy.BonusActions},
			{"reactions", x.Reactions, f.Economy.Reactions}, {"movement", x.Movement, f.Economy.Movement}} {
			if c.want != nil {
				res.Expect(k+" "+c.name, c.got, *c.want)
			}
		}
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
			got = g.Encounter.Sides[g.Winner]
		}
		res.Expect("winner", got, e.Winner)
	}
	if e.DiceLeft != nil {
		res.Expect("scripted dice left", len(g.Dice), *e.DiceLeft)
	}
	lines := m.Lines(from)
	if e.Trace != nil {
		res.ExpectLines("trace", lines, e.Trace)
	}
	if len(e.Includes) > 0 {
		if missing := subsequence(lines, e.Includes); missing >= 0 {
			res.Failf("traceIncludes: line %d is not in the trace after the lines before it: %q\nthe trace is:\n  %s",
				missing+1, e.Includes[missing], strings.Join(lines, "\n  "))
		}
	}
}

// subsequence returns the index of the first line of want that does not
// appear in got in order, or -1 if all do.
func subsequence(got, want []string) int {
	i := 0
	for _, line := range got {
		if i < len(want) && line == want[i] {
			i++
		}
	}
	if i == len(want) {
		return -1
	}
	return i
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
