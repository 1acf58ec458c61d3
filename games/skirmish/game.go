package skirmish

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/status"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// Abilities are the six ability scores, in this order.
var Abilities = [6]string{"str", "dex", "con", "int", "wis", "cha"}

func abilityIndex(name string) int { return slices.Index(Abilities[:], name) }

// Skill is a skill and the ability it uses.
type Skill struct {
	Name    string
	Ability int
}

// Skills are the skills every combatant has, proficient or not.
var Skills = []Skill{
	{"acrobatics", 1}, {"animal-handling", 4}, {"arcana", 3}, {"athletics", 0}, {"deception", 5},
	{"history", 3}, {"insight", 4}, {"intimidation", 5}, {"investigation", 3}, {"medicine", 4},
	{"nature", 3}, {"perception", 4}, {"performance", 5}, {"persuasion", 5}, {"religion", 3},
	{"sleight-of-hand", 1}, {"stealth", 1}, {"survival", 4},
}

func skillIndex(name string) int {
	return slices.IndexFunc(Skills, func(s Skill) bool { return s.Name == name })
}

// SkillNames lists the skills' names.
func SkillNames() []string {
	out := make([]string, len(Skills))
	for i, s := range Skills {
		out[i] = s.Name
	}
	return out
}

// DamageTypes are the types of damage.
var DamageTypes = []string{"acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic",
	"piercing", "poison", "psychic", "radiant", "slashing", "thunder"}

// Modifier returns an ability score's modifier: (score − 10) / 2, rounded
// down.
func Modifier(score int) int {
	d := score - 10
	if d < 0 {
		return (d - 1) / 2
	}
	return d / 2
}

// Creature is a combatant as its data file defines it. It is immutable and
// shared by every match that uses it.
type Creature struct {
	File        string
	Name        string
	Abilities   [6]int
	Proficiency int
	// SaveProficient marks the saving throws the creature is proficient in.
	SaveProficient [6]bool
	// SkillProficient marks the skills (indices into Skills) it is
	// proficient in.
	SkillProficient []bool
	HP, TempHP      int
	Armour          Armour
	Speed           int
	Weapons         []Weapon
	Resistances     []Resist
	DamageReduction int
	// Conditions are applied when the encounter starts.
	Conditions []ConditionUse
	// OpportunityAttacks says whether the creature makes opportunity
	// attacks (with its first melee weapon).
	OpportunityAttacks bool
}

// Armour gives the armour class: Base plus the Dexterity modifier (at most
// DexCap, unless DexCap is negative), plus Shield.
type Armour struct {
	Name   string
	Base   int
	DexCap int
	Shield int
}

// Weapon is a weapon a creature attacks with.
type Weapon struct {
	Name   string
	Ranged bool
	// Ability is the ability the attack and damage use: "str", "dex" or
	// "finesse" (the better of the two).
	Ability string
	// Reach is a melee weapon's reach in feet; Normal and Long a ranged
	// weapon's ranges (beyond Normal the attack has disadvantage, beyond
	// Long it cannot be made).
	Reach, Normal, Long int
	// Bonus is added to the attack roll (a +1 weapon).
	Bonus  int
	Damage []DamageDice
}

// DamageDice is one component of a weapon's damage.
type DamageDice struct {
	Dice  Dice
	Bonus int
	Type  string
}

// Resist is a creature's innate resistance, immunity or vulnerability.
type Resist struct {
	Type   string
	Status value.Resistance
}

// ConditionUse is a condition put on a creature by data: its name, and
// optionally a duration in rounds and a saving throw that ends it.
type ConditionUse struct {
	Name   string
	Rounds int
	Save   status.Save
}

// Economy is what a combatant may still do this turn.
type Economy struct {
	Actions      int `json:"actions"`
	BonusActions int `json:"bonusActions"`
	Reactions    int `json:"reactions"`
	Movement     int `json:"movement"`
}

// Combatant is a creature in a match: its components (ability scores,
// skills, saving throws, health, equipment, action economy, position and
// senses, conditions through the match's Book).
type Combatant struct {
	ID  engine.EntityID
	Key string
	// Name is what players call it ("Goblin 1"); Key is what commands do.
	Name     string
	Creature *Creature
	Side     engine.PlayerID
	Pos      Cell
	HP       int
	TempHP   int
	Alive    bool
	// Initiative is the rolled initiative (0 when listed).
	Initiative int
	Economy    Economy
	// Attacks counts the attacks it made, Dealt the damage it dealt and
	// KnockOuts the creatures it took out, for the simulator's tally.
	Attacks, Dealt, KnockOuts int

	// leaving are the answers to a reaction against the creature as it
	// leaves someone's reach: attack it, let it go.
	leaving []string

	Abilities [6]*value.Value
	Saves     [6]*value.Value
	Skills    []*value.Value
	AC        *value.Value
	// Attack and Damage hold the modifiers of attack and damage rolls
	// (their base is 0; the weapon, ability and proficiency add to them).
	Attack, Damage *value.Value
	// Resistance holds resistances by damage type; DamageReduction is
	// taken off every hit.
	Resistance, DamageReduction   *value.Value
	Speed, MaxHP, InitiativeBonus *value.Value

	all []*value.Value
}

// Values returns all of the combatant's values in a fixed order.
func (f *Combatant) Values() []*value.Value { return f.all }

// Value returns the combatant's value with the given name, or nil.
func (f *Combatant) Value(name string) *value.Value {
	for _, v := range f.all {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// ValueNames lists the names of a combatant's values, as conditions in
// data files address them.
func ValueNames() []string {
	names := []string{"ac", "attack", "damage", "resistance", "damage_reduction", "speed", "max_hp", "initiative"}
	for _, a := range Abilities {
		names = append(names, a, "save_"+a)
	}
	for _, s := range Skills {
		names = append(names, "skill_"+s.Name)
	}
	return names
}

// AbilityMod returns the modifier of one of the combatant's abilities.
func (f *Combatant) AbilityMod(i int) int { return Modifier(f.Abilities[i].Score()) }

// weaponAbility returns the ability index a weapon uses.
func (f *Combatant) weaponAbility(w *Weapon) int {
	switch w.Ability {
	case "dex":
		return 1
	case "finesse":
		if f.AbilityMod(1) > f.AbilityMod(0) {
			return 1
		}
	}
	return 0
}

// Weapon returns the combatant's weapon with the given name ("" for the
// first), or nil.
func (f *Combatant) Weapon(name string) *Weapon {
	for i := range f.Creature.Weapons {
		if w := &f.Creature.Weapons[i]; name == "" || w.Name == name {
			return w
		}
	}
	return nil
}

// meleeWeapon returns the first melee weapon, or nil.
func (f *Combatant) meleeWeapon() *Weapon {
	for i := range f.Creature.Weapons {
		if w := &f.Creature.Weapons[i]; !w.Ranged {
			return w
		}
	}
	return nil
}

// reach returns how far the combatant threatens: its first melee weapon's
// reach, or 0 without one.
func (f *Combatant) reach() int {
	if w := f.meleeWeapon(); w != nil {
		return w.Reach
	}
	return 0
}

// EntityKind says what an entity of the registry is.
type EntityKind uint8

// The kinds of entities.
const (
	KindCombatant EntityKind = iota + 1
	KindStatus
)

// Registry is the match's table of entities: ids from 1, handed out in
// order, never reused. Combatants come first, in the order the encounter
// lists them; statuses get the next ids as they are applied.
type Registry struct {
	entries []regEntry
}

type regEntry struct {
	name  string
	kind  EntityKind
	alive bool
}

// Add registers an entity and returns its id.
func (r *Registry) Add(name string, kind EntityKind) engine.EntityID {
	r.entries = append(r.entries, regEntry{name, kind, true})
	return engine.EntityID(len(r.entries))
}

// Drop marks an entity gone; its id is not reused.
func (r *Registry) Drop(id engine.EntityID) {
	if id >= 1 && int(id) <= len(r.entries) {
		r.entries[id-1].alive = false
	}
}

// Name returns an entity's name ("" if there is none).
func (r *Registry) Name(id engine.EntityID) string {
	if id < 1 || int(id) > len(r.entries) {
		return ""
	}
	return r.entries[id-1].name
}

// Kind returns an entity's kind and whether it is still registered.
func (r *Registry) Kind(id engine.EntityID) (EntityKind, bool) {
	if id < 1 || int(id) > len(r.entries) {
		return 0, false
	}
	e := r.entries[id-1]
	return e.kind, e.alive
}

// Len returns the number of ids handed out.
func (r *Registry) Len() int { return len(r.entries) }

// State is the state of a skirmish match. Only the pack's effects change
// it.
type State struct {
	// Def is the encounter being fought.
	Def      *Definition
	Registry Registry
	// Fighters are the combatants, in the encounter's order (ID i+1).
	Fighters []*Combatant
	// Order is the initiative order.
	Order []engine.EntityID
	// Turn is the index in Order of the combatant whose turn it is.
	Turn  int
	Round int
	// MaxRounds ends the fight in a draw after that many rounds.
	MaxRounds int
	Over      bool
	// Winner is the side that won, or NoPlayer for a draw (or while the
	// fight goes on); Reason says how the fight ended, naming sides.
	Winner engine.PlayerID
	Reason string
	// Dice are the scripted dice not yet rolled.
	Dice []int

	p    *Pack
	book *status.Book
	defs []*status.Def // the encounter's conditions, then the standard ones
}

// Statuses returns the match's conditions (status.Holder).
func (g *State) Statuses() *status.Book { return g.book }

// NewEntity registers a status (status.Host).
func (g *State) NewEntity(name string) engine.EntityID { return g.Registry.Add(name, KindStatus) }

// DropEntity unregisters a status (status.Host).
func (g *State) DropEntity(id engine.EntityID) { g.Registry.Drop(id) }

// Value returns a combatant's value (status.Host).
func (g *State) Value(id engine.EntityID, name string) *value.Value {
	if f := g.Fighter(id); f != nil {
		return f.Value(name)
	}
	return nil
}

// Controller returns the side of a combatant, or of the bearer of a status
// (status.Host).
func (g *State) Controller(id engine.EntityID) engine.PlayerID {
	if f := g.Fighter(id); f != nil {
		return f.Side
	}
	if s := g.book.Get(id); s != nil {
		return g.Controller(s.Bearer)
	}
	return engine.NoPlayer
}

// EntityName names entities in logs (engine.Namer).
func (g *State) EntityName(id engine.EntityID) string { return g.Registry.Name(id) }

// Object returns the combatant or status with the given id, or nil.
func (g *State) Object(id engine.EntityID) any {
	switch k, alive := g.Registry.Kind(id); {
	case !alive:
		return nil
	case k == KindCombatant:
		return g.Fighter(id)
	case k == KindStatus:
		return g.book.Get(id)
	}
	return nil
}

// Fighter returns the combatant with the given id, or nil.
func (g *State) Fighter(id engine.EntityID) *Combatant {
	if id < 1 || int(id) > len(g.Fighters) {
		return nil
	}
	return g.Fighters[id-1]
}

// ByKey returns the combatant with the given key, or nil.
func (g *State) ByKey(key string) *Combatant {
	for _, f := range g.Fighters {
		if f.Key == key {
			return f
		}
	}
	return nil
}

// Keys lists the combatants' keys.
func (g *State) Keys() []string {
	out := make([]string, len(g.Fighters))
	for i, f := range g.Fighters {
		out[i] = f.Key
	}
	return out
}

// Current returns the combatant whose turn it is, or nil before the first
// turn.
func (g *State) Current() *Combatant {
	if g.Turn < 0 || g.Turn >= len(g.Order) {
		return nil
	}
	return g.Fighter(g.Order[g.Turn])
}

// At returns the living combatant on a cell, or nil.
func (g *State) At(c Cell) *Combatant {
	for _, f := range g.Fighters {
		if f.Alive && f.Pos == c {
			return f
		}
	}
	return nil
}

// Conditions returns the names of the conditions on a combatant, in the
// order they were applied.
func (g *State) Conditions(id engine.EntityID) []string {
	var out []string
	for _, s := range g.book.Of(id) {
		out = append(out, s.Def.Name)
	}
	return out
}

// has reports whether a combatant bears the named condition.
func (g *State) has(id engine.EntityID, name string) bool { return g.book.Has(id, name) }

// sees reports whether one combatant can see another: not while blinded,
// and not an invisible creature.
func (g *State) sees(a, b *Combatant) bool {
	return !g.has(a.ID, "blinded") && !g.has(b.ID, "invisible")
}

// threatened reports whether a hostile creature that can see f stands
// within its reach of f (a ranged attack then has disadvantage).
func (g *State) threatened(f *Combatant) bool {
	for _, e := range g.Fighters {
		if e.Alive && e.Side != f.Side && e.reach() > 0 && Distance(e.Pos, f.Pos) <= e.reach() && g.sees(e, f) {
			return true
		}
	}
	return false
}

// condition returns the definition of a condition by name: the encounter's
// own first, then the standard ones.
func (g *State) condition(name string) *status.Def {
	for _, d := range g.defs {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// AppendCanonical encodes the whole game state for the match's state hash
// (engine.Canonical).
func (g *State) AppendCanonical(b []byte) []byte {
	b = engine.AppendVarints(b, int64(len(g.Registry.entries)))
	for _, e := range g.Registry.entries {
		b = engine.AppendVarints(b, int64(len(e.name)))
		b = append(b, e.name...)
		b = engine.AppendVarints(b, int64(e.kind), engine.Bit(e.alive))
	}
	for _, f := range g.Fighters {
		b = engine.AppendVarints(b, int64(f.ID), int64(f.Side), int64(f.Pos[0]), int64(f.Pos[1]), int64(f.HP), int64(f.TempHP),
			engine.Bit(f.Alive), int64(f.Initiative), int64(f.Economy.Actions), int64(f.Economy.BonusActions),
			int64(f.Economy.Reactions), int64(f.Economy.Movement), int64(f.Attacks), int64(f.Dealt), int64(f.KnockOuts))
		for _, v := range f.all {
			b = v.AppendCanonical(b)
		}
	}
	b = g.book.AppendCanonical(b)
	b = engine.AppendVarints(b, int64(len(g.Order)), int64(g.Turn), int64(g.Round), int64(g.MaxRounds), engine.Bit(g.Over),
		int64(g.Winner), int64(len(g.Reason)))
	b = append(b, g.Reason...)
	b = engine.AppendVarints(b, int64(len(g.Dice)))
	for _, id := range g.Order {
		b = engine.AppendVarints(b, int64(id))
	}
	for _, d := range g.Dice {
		b = engine.AppendVarints(b, int64(d))
	}
	return b
}

// newCombatant builds a combatant's components from its creature.
func newCombatant(id engine.EntityID, p *Placement) *Combatant {
	cr := p.Creature
	name := p.Name
	if name == "" {
		name = game.Readable(p.Key)
	}
	f := &Combatant{ID: id, Key: p.Key, Name: name, Creature: cr, Side: engine.PlayerID(p.Side), Pos: p.At,
		HP: cr.HP, TempHP: cr.TempHP, Alive: true,
		leaving: []string{"Attack " + name + " as it leaves (opportunity attack)", "Let it go"}}
	add := func(name string, base int) *value.Value {
		v := value.New(name, id, base)
		f.all = append(f.all, v)
		return v
	}
	for i, a := range Abilities {
		f.Abilities[i] = add(a, cr.Abilities[i])
	}
	for i, a := range Abilities {
		base := 0
		if cr.SaveProficient[i] {
			base = cr.Proficiency
		}
		f.Saves[i] = add("save_"+a, base)
	}
	for i, s := range Skills {
		base := 0
		if i < len(cr.SkillProficient) && cr.SkillProficient[i] {
			base = cr.Proficiency
		}
		f.Skills = append(f.Skills, add("skill_"+s.Name, base))
	}
	dex := Modifier(cr.Abilities[1])
	if cr.Armour.DexCap >= 0 {
		dex = min(dex, cr.Armour.DexCap)
	}
	f.AC = add("ac", cr.Armour.Base+dex+cr.Armour.Shield)
	f.Attack = add("attack", 0)
	f.Damage = add("damage", 0)
	f.Resistance = add("resistance", 0)
	f.DamageReduction = add("damage_reduction", cr.DamageReduction)
	f.Speed = add("speed", cr.Speed)
	f.MaxHP = add("max_hp", cr.HP)
	f.InitiativeBonus = add("initiative", 0)
	for _, r := range cr.Resistances {
		f.Resistance.Add(value.SelfStatic, id, value.WithResistance(cr.Name+": "+r.Status.String(), r.Type, r.Status), nil)
	}
	// The rules' own contextual modifiers: a ranged attack beyond normal
	// range, or made with a hostile creature within reach, has
	// disadvantage (both together are still one disadvantage die).
	f.Attack.Add(value.SelfContextual, engine.System, value.WithAdvantage("long range", value.Disadvantaged),
		value.When(func(c value.Context) bool { a, _ := c.Data.(AttackContext); return a.LongRange }))
	f.Attack.Add(value.SelfContextual, engine.System, value.WithAdvantage("threatened", value.Disadvantaged),
		value.When(func(c value.Context) bool { a, _ := c.Data.(AttackContext); return a.Ranged && a.Threatened }))
	return f
}

// AttackContext is the situation of an attack, as contextual modifiers of
// the attack bonus and the armour class see it.
type AttackContext struct {
	Weapon      string
	Ranged      bool
	Distance    int
	LongRange   bool
	Threatened  bool
	Opportunity bool
	// AttackerSees and TargetSees say whether each side sees the other.
	AttackerSees, TargetSees bool

	game *State // for conditions written in data, which look at the creatures
}

// describe is used in error messages about combatants.
func (f *Combatant) describe() string { return fmt.Sprintf("%s (%s)", f.Key, f.Creature.Name) }
