package skirmish

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/internal/celcost"
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
	HowToPlay   string          `json:"howToPlay"`
	Map         []string        `json:"map"`
	Sides       []string        `json:"sides"`
	Combatants  []placementFile `json:"combatants"`
	Initiative  string          `json:"initiative"`
	MaxRounds   int             `json:"maxRounds"`
	Conditions  []conditionDef  `json:"conditions"`
}

type placementFile struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	File       string         `json:"file"`
	Side       string         `json:"side"`
	At         Cell           `json:"at"`
	Conditions []conditionUse `json:"conditions"`
}

type conditionDef struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Duration    json.RawMessage `json:"duration"`
	Save        *saveFile       `json:"save"`
	Modifiers   []modifierFile  `json:"modifiers"`
	EndsWhen    []string        `json:"endsWhen"`
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

// The longest strings a skirmish file may hold, in characters: names (of
// creatures, weapons, sides, conditions, combatants; map rows), which is
// what conditions see, and text (descriptions, conditions, file names).
const (
	maxName = 100
	maxText = 2000
)

// stringLimits bound every string of a skirmish file, as the schema does
// too.
var stringLimits = diag.StringLimits{Key: maxName, Default: maxName, Members: map[string]int{
	"description": maxText, "howToPlay": maxText, "notes": maxText, "$schema": maxText, "when": maxText, "file": maxText,
}}

// The most weapons a creature, and combatants, condition definitions and
// modifiers an encounter may have: each costs memory however briefly it
// is written, and a creature may bear every condition at once.
const (
	maxWeapons    = 100
	maxCombatants = 1000
	maxConditions = 1000
	maxModifiers  = 10_000
)

// counts refuses, before a file is decoded into the game's own values,
// more weapons, combatants, conditions and modifiers than a game may have.
// It reports whether the counts are within bounds.
func counts(r *diag.Reporter, doc any) bool {
	ok := true
	within := func(ptr string, n, most int, what string) {
		if n > most {
			r.Errorf(ptr, "a file has at most %d %s, not %d", most, what, n)
			ok = false
		}
	}
	list := func(v any) []any { l, _ := v.([]any); return l }
	member := func(v any, name string) any { m, _ := v.(map[string]any); return m[name] }
	within("/weapons", len(list(member(doc, "weapons"))), maxWeapons, "weapons")
	within("/combatants", len(list(member(doc, "combatants"))), maxCombatants, "combatants")
	within("/conditions", len(list(member(doc, "conditions"))), maxConditions, "conditions")
	mods := 0
	for _, c := range list(member(doc, "conditions")) {
		mods += len(list(member(c, "modifiers")))
	}
	within("/conditions", mods, maxModifiers, "modifiers in its conditions")
	return ok
}

// afterSchema passes the loader's diagnostics on, except at the places the
// schema already reported (a string too long for both).
type afterSchema struct {
	*diag.Reporter
	at map[string]bool
}

func newAfterSchema(r *diag.Reporter) *afterSchema {
	a := &afterSchema{Reporter: r, at: map[string]bool{}}
	for _, d := range r.List {
		a.at[d.Pointer] = true
	}
	return a
}

// Errorf reports an error unless the schema reported one at its place.
func (a *afterSchema) Errorf(ptr, format string, args ...any) {
	if !a.at[ptr] || ptr == "" && format == "" {
		a.Reporter.Errorf(ptr, format, args...)
	}
}

// loader reads the files of one game once each, through its source,
// collecting their diagnostics.
type loader struct {
	p         *Pack
	src       *game.Source
	list      diag.List
	creatures map[string]loaded // by name in the source
	// whens are the conditions of modifiers compiled so far, by their
	// text, in all the files: each is compiled once, and at most
	// celcost.MaxConditions different ones.
	whens map[string]compiledWhen
}

type compiledWhen struct {
	w        *When
	problems []WhenProblem
}

// when compiles a modifier's condition, once however often it is written.
func (l *loader) when(src string) (*When, []WhenProblem) {
	if c, ok := l.whens[src]; ok {
		return c.w, c.problems
	}
	if len(l.whens) == celcost.MaxConditions {
		return nil, []WhenProblem{{Message: fmt.Sprintf("a game holds at most %d different conditions", celcost.MaxConditions)}}
	}
	w, problems := CompileWhen(src)
	l.whens[src] = compiledWhen{w, problems}
	return w, problems
}

// loaded is a combatant file as the loader found it: its creature, or why
// there is none.
type loaded struct {
	creature *Creature
	why      string
}

func (p *Pack) newLoader(src *game.Source) *loader {
	return &loader{p: p, src: src, creatures: map[string]loaded{}, whens: map[string]compiledWhen{}}
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
	r := diag.NewReporter(path, data).WithContext(l.src.Context())
	// The files of a game share one budget of diagnostics.
	r.Limit = max(1, diag.MaxDiagnostics-len(l.list))
	defer func() { l.list = append(l.list, r.List...) }()
	doc, ok := r.DecodeJSON(data)
	if !ok {
		return nil
	}
	shaped := compiled.Check(r, doc)
	diag.CheckStrings(newAfterSchema(r), doc, stringLimits)
	if !counts(r, doc) {
		return nil
	}
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
		x = l.buildCreature(r, path, &f, nil, shaped)
	case "encounter":
		var f encounterFile
		if json.Unmarshal(data, &f) != nil {
			return nil
		}
		x = l.buildEncounter(r, name, &f)
	}
	if !shaped || r.ErrorCount() > 0 || r.Stopped() {
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
func (l *loader) buildCreature(r *diag.Reporter, path string, f *combatantFile, known *names, shaped bool) *Creature {
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
	weapons := map[string]bool{}
	for i, w := range f.Weapons {
		ptr := diag.Pointer("weapons", i)
		if weapons[w.Name] {
			r.Errorf(ptr+"/name", "a second weapon named %q; weapon names must differ, commands name them", w.Name)
		}
		weapons[w.Name] = true
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
	cr.Conditions = l.useConditions(r, "/conditions", f.Conditions, known)
	return cr
}

// names are distinct names in order, with a set to look them up.
type names struct {
	list []string
	set  map[string]bool
}

func newNames(list []string) *names {
	n := &names{set: map[string]bool{}}
	for _, s := range list {
		n.add(s)
	}
	return n
}

func (n *names) add(s string) {
	if !n.set[s] {
		n.set[s] = true
		n.list = append(n.list, s)
	}
}

// useConditions checks the conditions a file puts on a creature.
func (l *loader) useConditions(r *diag.Reporter, at string, uses []conditionUse, known *names) []ConditionUse {
	p := l.p
	var out []ConditionUse
	for i, u := range uses {
		ptr := at + diag.Pointer(i)
		switch {
		case known != nil && !known.set[u.Name]:
			r.Errorf(ptr, "no condition %q%s", u.Name, r.DidYouMean(u.Name, known.list))
		case known == nil && !slices.Contains(p.cond.names, u.Name):
			if s := r.Suggest(u.Name, p.cond.names); s != "" && s != u.Name {
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
	def := &Definition{File: l.src.Path(name), Name: f.Name, Description: f.Description, HowToPlay: f.HowToPlay, Sides: f.Sides,
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
	known := newNames(p.cond.names)
	for _, d := range def.Conditions {
		known.add(d.Name)
	}
	used := make([]bool, len(f.Sides))
	sides := map[string]int{}
	for i, s := range f.Sides {
		if _, dup := sides[s]; !dup {
			sides[s] = i
		}
	}
	ids := map[string]bool{}
	squares := map[Cell]string{}
	for i, c := range f.Combatants {
		if r.Stopped() {
			return nil
		}
		ptr := diag.Pointer("combatants", i)
		if ids[c.ID] {
			r.Errorf(ptr+"/id", "a second combatant with id %q; ids must differ", c.ID)
		}
		ids[c.ID] = true
		side, ok := sides[c.Side]
		if !ok {
			side = -1
			if !r.Full() {
				r.Errorf(ptr+"/side", "no side %q; the sides are %s%s", c.Side, diag.JoinNames(f.Sides), r.DidYouMean(c.Side, f.Sides))
			} else {
				r.Errorf(ptr+"/side", "")
			}
		} else {
			used[side] = true
		}
		switch {
		case !grid.In(c.At):
			r.Errorf(ptr+"/at", "%s is off the %d×%d map", c.At, grid.Width, grid.Height)
		case grid.Wall(c.At):
			r.Errorf(ptr+"/at", "%s is a wall", c.At)
		}
		if first, taken := squares[c.At]; taken {
			r.Errorf(ptr+"/at", "%s is already %s's square", c.At, first)
		} else {
			squares[c.At] = c.ID
		}
		conditions := l.useConditions(r, ptr+"/conditions", c.Conditions, known)
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
			if !known.set[u.Name] {
				r.Errorf(ptr+"/file", "%s starts with condition %q, which this encounter does not define (%s/conditions/%d)", c.File, u.Name, cr.File, j)
			}
		}
		name := c.Name
		if name == "" {
			name = game.Readable(c.ID)
		}
		def.Placements = append(def.Placements, Placement{Key: c.ID, Name: name, Creature: cr, Side: max(side, 0), At: c.At, Conditions: conditions})
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
	seen := map[string]bool{}
	for i, c := range defs {
		ptr := diag.Pointer("conditions", i)
		if slices.Contains(l.p.cond.names, c.Name) {
			r.Errorf(ptr+"/name", "%q is a standard condition; give yours another name", c.Name)
		}
		if seen[c.Name] {
			r.Errorf(ptr+"/name", "a second condition named %q", c.Name)
		}
		seen[c.Name] = true
		d := &status.Def{Name: c.Name, Title: c.Title, Description: c.Description}
		if d.Title == "" {
			d.Title = game.Readable(c.Name)
		}
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
			if mod, ok := l.buildModifier(r, diag.Pointer("conditions", i, "modifiers", j), c.Name, m); ok {
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

// valueNames are the values a modifier may change (ValueNames).
var valueNames = ValueNames()

// buildModifier turns a modifier of a data-defined condition into a
// status.Mod.
func (l *loader) buildModifier(r *diag.Reporter, ptr, cond string, m modifierFile) (status.Mod, bool) {
	out := status.Mod{Value: m.Value}
	ok := true
	if !slices.Contains(valueNames, m.Value) {
		r.Errorf(ptr+"/value", "no value %q%s", m.Value, r.DidYouMean(m.Value, valueNames))
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
		w, problems := l.when(m.When)
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
