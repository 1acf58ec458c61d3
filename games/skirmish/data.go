package skirmish

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/status"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// The JSON forms of the files. The schema checks their shape first; these
// types then only need to carry the values.

type fileHead struct {
	Game string `json:"game"`
	Kind string `json:"kind"`
}

type combatantFile struct {
	Name        string         `json:"name"`
	Abilities   map[string]int `json:"abilities"`
	Proficiency *int           `json:"proficiency"`
	Saves       []string       `json:"saves"`
	Skills      []string       `json:"skills"`
	HP          int            `json:"hp"`
	TempHP      int            `json:"tempHp"`
	Armour      struct {
		Name   string `json:"name"`
		Base   int    `json:"base"`
		DexCap *int   `json:"dexCap"`
		Shield int    `json:"shield"`
	} `json:"armour"`
	Speed              int               `json:"speed"`
	Weapons            []weaponFile      `json:"weapons"`
	Resistances        map[string]string `json:"resistances"`
	DamageReduction    int               `json:"damageReduction"`
	Conditions         []conditionUse    `json:"conditions"`
	OpportunityAttacks *bool             `json:"opportunityAttacks"`
}

type weaponFile struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Ability string `json:"ability"`
	Reach   int    `json:"reach"`
	Range   []int  `json:"range"`
	Bonus   int    `json:"bonus"`
	Damage  []struct {
		Dice  string `json:"dice"`
		Bonus int    `json:"bonus"`
		Type  string `json:"type"`
	} `json:"damage"`
}

type saveFile struct {
	Ability string `json:"ability"`
	DC      int    `json:"dc"`
}

// conditionUse is a condition by name ("blinded") or with options
// ({"name": "blinded", "rounds": 2, "save": {"ability": "con", "dc": 12}}).
type conditionUse struct {
	Name   string    `json:"name"`
	Rounds int       `json:"rounds"`
	Save   *saveFile `json:"save"`
}

// UnmarshalJSON reads a condition as its name or as an object.
func (u *conditionUse) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &u.Name)
	}
	type plain conditionUse
	return json.Unmarshal(b, (*plain)(u))
}

type encounterFile struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Map         []string        `json:"map"`
	Sides       []string        `json:"sides"`
	Combatants  []placementFile `json:"combatants"`
	Initiative  string          `json:"initiative"`
	MaxRounds   int             `json:"maxRounds"`
	Conditions  []conditionDef  `json:"conditions"`
}

type placementFile struct {
	ID         string         `json:"id"`
	File       string         `json:"file"`
	Side       string         `json:"side"`
	At         Cell           `json:"at"`
	Conditions []conditionUse `json:"conditions"`
}

type conditionDef struct {
	Name      string          `json:"name"`
	Duration  json.RawMessage `json:"duration"`
	Save      *saveFile       `json:"save"`
	Modifiers []modifierFile  `json:"modifiers"`
	EndsWhen  []string        `json:"endsWhen"`
}

type modifierFile struct {
	Value      string `json:"value"`
	Channel    string `json:"channel"`
	Name       string `json:"name"`
	Bonus      *int   `json:"bonus"`
	Min        *int   `json:"min"`
	Max        *int   `json:"max"`
	Advantage  string `json:"advantage"`
	Critical   string `json:"critical"`
	AutoHit    string `json:"autoHit"`
	Resistance string `json:"resistance"`
	DamageType string `json:"damageType"`
	When       string `json:"when"`
}

// DefaultMaxRounds is the round limit of an encounter that sets none.
const DefaultMaxRounds = 50

// loader reads the files of one game once each, through its source,
// collecting their diagnostics.
type loader struct {
	p         *Pack
	src       *game.Source
	list      diag.List
	creatures map[string]loaded // by name in the source
}

// loaded is a combatant file as the loader found it: its creature, or why
// there is none.
type loaded struct {
	creature *Creature
	why      string
}

func (p *Pack) newLoader(src *game.Source) *loader {
	return &loader{p: p, src: src, creatures: map[string]loaded{}}
}

// file reads one skirmish file, by its name in the source, and returns
// its *Creature or *Definition, or nil if it has errors.
func (l *loader) file(name string) any {
	path := l.src.Path(name)
	data, err := l.src.ReadFile(name)
	if err != nil {
		l.list = append(l.list, diag.Diagnostic{File: path, Severity: diag.Error, Message: err.Error()})
		return nil
	}
	r := diag.NewReporter(path, data)
	defer func() { l.list = append(l.list, r.List...) }()
	shaped := checkSchema(r, data)
	var head fileHead
	if json.Unmarshal(data, &head) != nil {
		return nil
	}
	// The semantic checks run even when the schema found problems, so
	// that every problem is reported at once, as long as the values have
	// the types the checks need.
	var x any
	switch head.Kind {
	case "combatant":
		var f combatantFile
		if json.Unmarshal(data, &f) != nil {
			return nil
		}
		x = l.p.buildCreature(r, path, &f, nil, shaped)
	case "encounter":
		var f encounterFile
		if json.Unmarshal(data, &f) != nil {
			return nil
		}
		x = l.buildEncounter(r, name, &f)
	}
	if !shaped || r.List.HasErrors() {
		return nil
	}
	return x
}

// creature loads a combatant file used by an encounter, once, and says
// why it cannot when it cannot.
func (l *loader) creature(name string) (*Creature, string) {
	if c, seen := l.creatures[name]; seen {
		return c.creature, c.why
	}
	var c loaded
	if !l.src.Exists(name) {
		c.why = "no combatant file " + l.src.Path(name)
	} else {
		// An encounter named as a combatant (even itself) is read once.
		l.creatures[name] = loaded{why: l.src.Path(name) + " is an encounter, not a combatant file"}
		c.creature, c.why = l.combatant(name)
	}
	l.creatures[name] = c
	return c.creature, c.why
}

// combatant reads a combatant file, or says why it cannot.
func (l *loader) combatant(name string) (*Creature, string) {
	switch x := l.file(name).(type) {
	case *Creature:
		return x, ""
	case *Definition:
		return nil, l.src.Path(name) + " is an encounter, not a combatant file"
	}
	return nil, "the combatant file " + l.src.Path(name) + " has errors (reported with it)"
}

// buildCreature turns a checked combatant file into a Creature. known, if
// not nil, are the condition names that exist; a standalone combatant file
// can only check its conditions against the standard ones.
// shaped says whether the file passed the schema, which then checked its
// dice already.
func (p *Pack) buildCreature(r *diag.Reporter, path string, f *combatantFile, known []string, shaped bool) *Creature {
	cr := &Creature{File: path, Name: f.Name, Proficiency: 2, HP: f.HP, TempHP: f.TempHP, Speed: f.Speed,
		DamageReduction: f.DamageReduction, OpportunityAttacks: true, SkillProficient: make([]bool, len(Skills))}
	for i, a := range Abilities {
		cr.Abilities[i] = f.Abilities[a]
	}
	if f.Proficiency != nil {
		cr.Proficiency = *f.Proficiency
	}
	for _, s := range f.Saves {
		if i := abilityIndex(s); i >= 0 {
			cr.SaveProficient[i] = true
		}
	}
	for _, s := range f.Skills {
		if i := skillIndex(s); i >= 0 {
			cr.SkillProficient[i] = true
		}
	}
	cr.Armour = Armour{Name: f.Armour.Name, Base: f.Armour.Base, DexCap: -1, Shield: f.Armour.Shield}
	if f.Armour.DexCap != nil {
		cr.Armour.DexCap = *f.Armour.DexCap
	}
	if f.OpportunityAttacks != nil {
		cr.OpportunityAttacks = *f.OpportunityAttacks
	}
	for i, w := range f.Weapons {
		ptr := diag.Pointer("weapons", i)
		for j := range i {
			if f.Weapons[j].Name == w.Name {
				r.Errorf(ptr+"/name", "a second weapon named %q; weapon names must differ, commands name them", w.Name)
			}
		}
		cw := Weapon{Name: w.Name, Ranged: w.Kind == "ranged", Ability: w.Ability, Reach: w.Reach, Bonus: w.Bonus}
		if cw.Ability == "" {
			cw.Ability = "str"
			if cw.Ranged {
				cw.Ability = "dex"
			}
		}
		switch {
		case cw.Ranged && w.Reach != 0:
			r.Errorf(ptr+"/reach", "a ranged weapon has a range, not a reach")
		case cw.Ranged && len(w.Range) != 2 && w.Range == nil:
			r.Errorf(ptr, "a ranged weapon needs \"range\": [normal, long] in feet")
		case cw.Ranged && len(w.Range) != 2:
			// the schema reports it
		case cw.Ranged && w.Range[0] > w.Range[1]:
			r.Errorf(ptr+"/range", "the normal range %d ft is beyond the long range %d ft", w.Range[0], w.Range[1])
		case cw.Ranged:
			cw.Normal, cw.Long = w.Range[0], w.Range[1]
		case len(w.Range) > 0:
			r.Errorf(ptr+"/range", "a melee weapon has a reach, not a range (\"reach\": 10)")
		case cw.Reach == 0:
			cw.Reach = SquareFeet
		}
		for j, d := range w.Damage {
			dice, err := ParseDice(d.Dice)
			if err != nil && shaped {
				r.Errorf(diag.Pointer("weapons", i, "damage", j, "dice"), "%v", err)
			}
			cw.Damage = append(cw.Damage, DamageDice{Dice: dice, Bonus: d.Bonus, Type: d.Type})
		}
		cr.Weapons = append(cr.Weapons, cw)
	}
	for _, t := range DamageTypes { // in a fixed order, not the map's
		if s, ok := f.Resistances[t]; ok {
			st, _ := value.ParseResistance(s)
			cr.Resistances = append(cr.Resistances, Resist{Type: t, Status: st})
		}
	}
	cr.Conditions = p.useConditions(r, "/conditions", f.Conditions, known)
	return cr
}

// useConditions checks the conditions a file puts on a creature.
func (p *Pack) useConditions(r *diag.Reporter, at string, uses []conditionUse, known []string) []ConditionUse {
	var out []ConditionUse
	for i, u := range uses {
		ptr := at + diag.Pointer(i)
		switch {
		case known != nil && !slices.Contains(known, u.Name):
			r.Errorf(ptr, "no condition %q%s", u.Name, diag.DidYouMean(u.Name, known))
		case known == nil && !slices.Contains(p.cond.names, u.Name):
			if s := diag.Suggest(u.Name, p.cond.names); s != "" && s != u.Name {
				r.Errorf(ptr, "no condition %q (did you mean %s?)", u.Name, s)
			} else {
				r.Warnf(ptr, "%q is not a standard condition; every encounter using this combatant must define it", u.Name)
			}
		}
		cu := ConditionUse{Name: u.Name, Rounds: u.Rounds}
		if u.Save != nil {
			cu.Save = status.Save{Ability: u.Save.Ability, DC: u.Save.DC}
		}
		out = append(out, cu)
	}
	return out
}

func (l *loader) buildEncounter(r *diag.Reporter, name string, f *encounterFile) *Definition {
	p := l.p
	def := &Definition{File: l.src.Path(name), Name: f.Name, Description: f.Description, Sides: f.Sides,
		RollInitiative: f.Initiative != "listed", MaxRounds: f.MaxRounds, p: p}
	if def.MaxRounds == 0 {
		def.MaxRounds = DefaultMaxRounds
	}
	grid, err := NewGrid(f.Map)
	if err != nil {
		r.Errorf("/map", "%v", err)
		return nil
	}
	def.Grid = grid
	def.Conditions = l.buildConditions(r, f.Conditions)
	names := slices.Clone(p.cond.names)
	for _, d := range def.Conditions {
		names = append(names, d.Name)
	}
	used := make([]bool, len(f.Sides))
	for i, c := range f.Combatants {
		ptr := diag.Pointer("combatants", i)
		for j := range i {
			if f.Combatants[j].ID == c.ID {
				r.Errorf(ptr+"/id", "a second combatant with id %q; ids must differ", c.ID)
			}
		}
		side := slices.Index(f.Sides, c.Side)
		if side < 0 {
			r.Errorf(ptr+"/side", "no side %q; the sides are %s%s", c.Side, strings.Join(f.Sides, ", "), diag.DidYouMean(c.Side, f.Sides))
		} else {
			used[side] = true
		}
		switch {
		case !grid.In(c.At):
			r.Errorf(ptr+"/at", "%s is off the %d×%d map", c.At, grid.Width, grid.Height)
		case grid.Wall(c.At):
			r.Errorf(ptr+"/at", "%s is a wall", c.At)
		}
		for j := range i {
			if f.Combatants[j].At == c.At {
				r.Errorf(ptr+"/at", "%s is already %s's square", c.At, f.Combatants[j].ID)
			}
		}
		conditions := p.useConditions(r, ptr+"/conditions", c.Conditions, names)
		file, err := l.src.Resolve(name, c.File)
		if err != nil {
			r.Errorf(ptr+"/file", "%v", err)
			continue
		}
		cr, why := l.creature(file)
		if cr == nil {
			r.Errorf(ptr+"/file", "%s", why)
			continue
		}
		for j, u := range cr.Conditions {
			if !slices.Contains(names, u.Name) {
				r.Errorf(ptr+"/file", "%s starts with condition %q, which this encounter does not define (%s/conditions/%d)", c.File, u.Name, cr.File, j)
			}
		}
		def.Placements = append(def.Placements, Placement{Key: c.ID, Creature: cr, Side: max(side, 0), At: c.At, Conditions: conditions})
	}
	for i, u := range used {
		if !u {
			r.Errorf(diag.Pointer("sides", i), "side %q has no combatants", f.Sides[i])
		}
	}
	return def
}

// buildConditions turns an encounter's condition definitions into status
// definitions.
func (l *loader) buildConditions(r *diag.Reporter, defs []conditionDef) []*status.Def {
	var out []*status.Def
	for i, c := range defs {
		ptr := diag.Pointer("conditions", i)
		if slices.Contains(l.p.cond.names, c.Name) {
			r.Errorf(ptr+"/name", "%q is a standard condition; give yours another name", c.Name)
		}
		for j := range i {
			if defs[j].Name == c.Name {
				r.Errorf(ptr+"/name", "a second condition named %q", c.Name)
			}
		}
		d := &status.Def{Name: c.Name}
		var dur any
		json.Unmarshal(c.Duration, &dur)
		switch v := dur.(type) {
		case string:
			if v == "until-long-rest" {
				d.Duration.Kind = status.UntilLongRest
			}
		case map[string]any:
			n, _ := v["rounds"].(float64)
			d.Duration = status.Duration{Kind: status.Rounds, Rounds: int(n)}
		}
		if c.Save != nil {
			d.Save = status.Save{Ability: c.Save.Ability, DC: c.Save.DC}
		}
		for j, m := range c.Modifiers {
			if mod, ok := buildModifier(r, diag.Pointer("conditions", i, "modifiers", j), c.Name, m); ok {
				d.Mods = append(d.Mods, mod)
			}
		}
		for _, e := range c.EndsWhen {
			d.Triggers = append(d.Triggers, l.p.endTrigger(c.Name, e))
		}
		out = append(out, d)
	}
	return out
}

// endTrigger is the handler that ends a data-defined condition.
func (p *Pack) endTrigger(name, when string) *engine.Trigger {
	t := &engine.Trigger{Name: name + " ends when its bearer " + strings.ReplaceAll(when, "-", " "),
		Effects: []engine.EffectCall{p.fx.endStatus.Call(struct{}{})}}
	switch when {
	case "attacks":
		t.On, t.Phase, t.Filter = []engine.EventType{p.ev.attack}, engine.Completion, status.Watch{Subject: status.Bearer}
	case "is-attacked":
		t.On, t.Phase, t.Filter = []engine.EventType{p.ev.attack}, engine.Completion, status.Watch{Target: status.Bearer}
	case "takes-damage":
		t.On, t.Filter = []engine.EventType{p.ev.damage}, status.Watch{Subject: status.Bearer}
	case "moves":
		t.On, t.Phase, t.Filter = []engine.EventType{p.ev.move}, engine.Completion, status.Watch{Subject: status.Bearer}
	}
	return t
}

// buildModifier turns a modifier of a data-defined condition into a
// status.Mod.
func buildModifier(r *diag.Reporter, ptr, cond string, m modifierFile) (status.Mod, bool) {
	out := status.Mod{Value: m.Value}
	ok := true
	if !slices.Contains(ValueNames(), m.Value) {
		r.Errorf(ptr+"/value", "no value %q%s", m.Value, diag.DidYouMean(m.Value, ValueNames()))
		ok = false
	}
	if m.Channel != "" {
		out.Channel, _ = value.ParseChannel(m.Channel)
	}
	name := m.Name
	if name == "" {
		name = cond
	}
	var kinds []string
	set := func(k string, mod value.Modifier) {
		kinds = append(kinds, k)
		out.Modifier = mod
	}
	if m.Bonus != nil {
		set("bonus", value.Bonus(name, *m.Bonus))
	}
	if m.Min != nil {
		set("min", value.AtLeast(name, *m.Min))
	}
	if m.Max != nil {
		set("max", value.AtMost(name, *m.Max))
	}
	for _, f := range []struct{ kind, word string }{{"advantage", m.Advantage}, {"critical", m.Critical}, {"autoHit", m.AutoHit}} {
		if mod := statusWords[f.word]; mod != nil {
			set(f.kind, mod(name))
		} else if f.word != "" {
			kinds = append(kinds, f.kind) // a word the schema refuses
		}
	}
	if m.Resistance != "" {
		st, _ := value.ParseResistance(m.Resistance)
		set("resistance", value.WithResistance(name, m.DamageType, st))
		if m.DamageType == "" {
			r.Errorf(ptr, "a resistance modifier needs its \"damageType\"")
			ok = false
		}
	} else if m.DamageType != "" {
		r.Errorf(ptr+"/damageType", "only a resistance modifier has a damage type")
		ok = false
	}
	if len(kinds) != 1 {
		r.Errorf(ptr, "give exactly one of bonus, min, max, advantage, critical, autoHit, resistance (here: %s)", orNone(kinds))
		ok = false
	}
	if m.When != "" {
		if !out.Channel.Contextual() {
			r.Errorf(ptr+"/when", "a condition (\"when\") needs a contextual channel: self_contextual or to_target_contextual")
			ok = false
		}
		w, problems := CompileWhen(m.When)
		for _, p := range problems {
			r.AtString(diag.Error, ptr+"/when", p.Offset, "when: "+p.Message)
			ok = false
		}
		out.When = w
	} else if out.Channel.Contextual() {
		r.Errorf(ptr, "a %s modifier needs a condition (\"when\")", out.Channel)
		ok = false
	}
	return out, ok
}

// statusWords are the words of a modifier's advantage, critical and
// autoHit fields (the schema allows no others).
var statusWords = map[string]func(name string) value.Modifier{
	"advantage":    func(n string) value.Modifier { return value.WithAdvantage(n, value.Advantaged) },
	"disadvantage": func(n string) value.Modifier { return value.WithAdvantage(n, value.Disadvantaged) },
	"autocrit":     func(n string) value.Modifier { return value.WithCritical(n, value.AutoCrit) },
	"nocrit":       func(n string) value.Modifier { return value.WithCritical(n, value.NoCrit) },
	"autohit":      func(n string) value.Modifier { return value.WithAutoHit(n, value.AlwaysHit) },
	"automiss":     func(n string) value.Modifier { return value.WithAutoHit(n, value.AlwaysMiss) },
}

func orNone(kinds []string) string {
	if len(kinds) == 0 {
		return "none"
	}
	return strings.Join(kinds, ", ")
}
