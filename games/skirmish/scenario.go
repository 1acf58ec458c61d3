package skirmish

import (
	"maps"
	"path/filepath"
	"slices"
	"strconv"
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
		case step.Reject != "" && !m.rejectedFor(err, step.Command, step.Reject):
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
	lines := m.traceLines(from)
	if e.Trace != nil {
		res.ExpectLinesOf("trace", lines, e.Trace)
	}
	res.ExpectInOrderOf("trace", lines, e.Includes)
}

// Before players read creatures and conditions by name, the notes and
// reasons of the trace, and the reasons a command was rejected for, named
// creatures by their keys and squares by their coordinates ("goblin lets
// fighter go", "(3,0) is a wall", "fighter finds no way to (9,9)").
// Scenarios written then still name them so: a trace line, or a
// rejection, may be written in either wording. Rejections match
// whatever the case of their letters.

// rejectedFor says whether a command's rejection err says want, in the
// words of now or of then.
func (m *Match) rejectedFor(err error, cmd Command, want string) bool {
	want = strings.ToLower(want)
	why := err.Error()
	if strings.Contains(strings.ToLower(why), want) {
		return true
	}
	to := cmd.To
	if to == nil && len(cmd.Path) > 0 {
		to = &cmd.Path[len(cmd.Path)-1]
	}
	if to != nil {
		why = strings.Replace(why, " finds no way there", " finds no way to "+to.String(), 1)
	}
	if f := m.State.ByKey(cmd.Who); f != nil && len(cmd.Path) > 0 {
		why = m.reasonBefore(why, f.Pos, cmd.Path)
	} else if f := m.State.Current(); f != nil && len(cmd.Path) > 0 {
		why = m.reasonBefore(why, f.Pos, cmd.Path)
	}
	return strings.Contains(strings.ToLower(m.keysFor()(why)), want) ||
		strings.Contains(strings.ToLower(m.wordsFor("the ")(why)), want)
}

// reasonBefore is why an action was cancelled or rejected as it was
// worded before: a move's "step N: …" with the squares of its step N,
// from start along path.
func (m *Match) reasonBefore(why string, start Cell, path []Cell) string {
	if k, rest, ok := strings.Cut(why, ": "); ok && strings.HasPrefix(k, "step ") {
		if n, err := strconv.Atoi(k[len("step "):]); err == nil && n >= 1 && n <= len(path) {
			from := start
			if n > 1 {
				from = path[n-2]
			}
			return k + ": " + m.blockedBefore(rest, from, path[n-1])
		}
	}
	return m.keysFor()(why)
}

// keysFor rewords a line with creatures by their keys and conditions by
// their ids, as the trace named them before.
func (m *Match) keysFor() func(string) string { return m.wordsFor("") }

// wordsFor is keysFor with the keys of creatures after a word ("the
// goblin", as a reaction's rejection named it).
func (m *Match) wordsFor(the string) func(string) string {
	names := map[string]string{}
	for _, f := range m.State.Fighters {
		names[f.Name] = the + f.Key
	}
	for _, d := range m.State.defs {
		if d.Title != "" {
			names[d.Title] = d.Name
		}
	}
	return scenario.Reword(names)
}

// traceLines are the lines of the trace from record from on, each with its
// wording from before players read names, where it differs.
func (m *Match) traceLines(from int) scenario.Lines {
	keys := m.keysFor()
	var out scenario.Lines
	engine.Transcribe(m.Engine, from, func(i int, r engine.Record) (struct{}, bool) {
		if line := m.line(&r); line != "" {
			out.Add(line, m.lineBefore(i, &r, line, keys))
		}
		return struct{}{}, false
	})
	return out
}

// lineBefore is the trace's line of record i as it was worded before
// players read names: notes and reasons that now name no square named it.
func (m *Match) lineBefore(i int, r *engine.Record, line string, keys func(string) string) string {
	g := m.State
	if r.Event == engine.NoEvent {
		return keys(line)
	}
	ev := &m.Engine.Events[r.Event]
	st, step := ev.Data.(*Step)
	f := g.Fighter(ev.Subject)
	act, _ := ev.Data.(*Act)
	switch {
	case r.Kind == engine.RecCancelled && step:
		return keys(strings.TrimSuffix(line, st.Reason)) + m.blockedBefore(st.Reason, st.From, st.To)
	case r.Kind == engine.RecCancelled && act != nil && len(act.Path) > 0 && ev.Location != engine.NoLocation:
		at, _ := m.def.cell(ev.Location)
		return keys(strings.TrimSuffix(line, act.Reason)) + m.reasonBefore(act.Reason, at, act.Path)
	case r.Kind == engine.RecNote && step && f != nil && r.Text == f.Name+" falls before it can move on":
		return "note: " + f.Key + " falls before leaving " + st.From.String()
	case r.Kind == engine.RecNote && ev.Type == m.def.p.ev.shove && ev.Location != engine.NoLocation:
		t := g.Fighter(ev.Target)
		if t == nil || !strings.HasPrefix(r.Text, t.Name+" cannot be pushed: ") {
			break
		}
		at, _ := m.def.cell(ev.Location)
		by := m.cellAt(i, ev.Subject)
		to := Cell{at[0] + sign(at[0]-by[0]), at[1] + sign(at[1]-by[1])}
		return "note: " + t.Key + " cannot be pushed: " + m.blockedBefore(strings.TrimPrefix(r.Text, t.Name+" cannot be pushed: "), at, to)
	}
	return keys(line)
}

// blockedBefore is why a step from one square to the next is blocked (see
// blocked), as it was worded before.
func (m *Match) blockedBefore(why string, from, to Cell) string {
	switch why {
	case "a step goes to a square next to the last":
		return to.String() + " is not next to " + from.String()
	case "the map ends there":
		return to.String() + " is off the map"
	case "a wall is in the way":
		return to.String() + " is a wall"
	}
	for _, o := range m.State.Fighters {
		if why == o.Name+" is in the way" {
			return o.Key + " stands on " + to.String()
		}
	}
	return m.keysFor()(why)
}

// cellAt is where a creature stood when record i was made: where its last
// step or push before it took it, else where the encounter placed it.
func (m *Match) cellAt(i int, who engine.EntityID) Cell {
	recs := m.Engine.Records()
	for j := i - 1; j >= 0; j-- {
		if recs[j].Kind != engine.RecEvent {
			continue
		}
		ev := &m.Engine.Events[recs[j].Event]
		st, ok := ev.Data.(*Step)
		if ok && ev.Subject == who && (ev.Phase == engine.Completion || ev.Type == m.def.p.ev.forced) {
			return st.To
		}
	}
	return m.def.Placements[who-1].At
}
