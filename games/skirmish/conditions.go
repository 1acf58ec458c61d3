package skirmish

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/status"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// conditionSet holds the standard conditions: data files name them, and an
// encounter may define more of its own. The pack's effects use some of
// them by name (adaptive armour swaps its resistance, a trance its level).
type conditionSet struct {
	blinded, invisible, unseen, dodging, disengaging, dashing *status.Def
	adaptiveArmour, adaptivePlating, adaptiveResistance       *status.Def
	battleTrance, tranceLevel                                 *status.Def
	standard                                                  []*status.Def
	names                                                     []string
}

// MaxTrance is the highest level of a battle trance.
const MaxTrance = 3

func (p *Pack) buildConditions() {
	end := p.fx.endStatus.Call(struct{}{})
	oneRound := status.Duration{Kind: status.Rounds, Rounds: 1}
	attackerSees := value.When(func(c value.Context) bool { a, _ := c.Data.(AttackContext); return a.AttackerSees })
	k := &p.cond

	// Blinded: its attacks have disadvantage, attacks against it advantage,
	// and it sees nobody (so it makes no opportunity attacks).
	k.blinded = &status.Def{Name: "blinded", Title: "Blinded",
		Description: "It sees nothing: its attacks have disadvantage, attacks against it have advantage, and it makes no opportunity attacks.", Mods: []status.Mod{
			{Value: "attack", Channel: value.SelfStatic, Modifier: value.WithAdvantage("blinded", value.Disadvantaged)},
			{Value: "ac", Channel: value.ToTargetStatic, Modifier: value.WithAdvantage("blinded", value.Advantaged)},
		}}
	// Invisible: the parent owns the "unseen" sub-condition (the
	// modifiers) and a handler that ends it all once its bearer has
	// attacked; the attack that reveals it still has advantage.
	k.unseen = &status.Def{Name: "unseen", Title: "Unseen",
		Description: "Nobody sees it: its attacks have advantage, and attacks against it have disadvantage.", Mods: []status.Mod{
			{Value: "attack", Channel: value.SelfStatic, Modifier: value.WithAdvantage("unseen", value.Advantaged)},
			{Value: "ac", Channel: value.ToTargetStatic, Modifier: value.WithAdvantage("unseen", value.Disadvantaged)},
		}}
	k.invisible = &status.Def{Name: "invisible", Title: "Invisible",
		Description: "Nobody sees it until it attacks: its attacks have advantage, and attacks against it have disadvantage.", Children: []*status.Def{k.unseen}, Triggers: []*engine.Trigger{{
			Name: "invisibility ends after an attack", On: []engine.EventType{p.ev.attack}, Phase: engine.Completion,
			Filter: status.Watch{Subject: status.Bearer}, Effects: []engine.EffectCall{end}}}}
	// Dodging, until the bearer's next turn: attacks against it have
	// disadvantage if the attacker can see it; Dexterity saves advantage.
	k.dodging = &status.Def{Name: "dodging", Title: "Dodging",
		Description: "Until its next turn, attacks against it have disadvantage if the attacker can see it, and its Dexterity saves have advantage.", Duration: oneRound, Mods: []status.Mod{
			{Value: "ac", Channel: value.ToTargetContextual, Modifier: value.WithAdvantage("dodging", value.Disadvantaged), When: attackerSees},
			{Value: "save_dex", Channel: value.SelfStatic, Modifier: value.WithAdvantage("dodging", value.Advantaged)},
		}}
	// Disengaging, until the bearer's next turn: its steps provoke no
	// opportunity attacks.
	k.disengaging = &status.Def{Name: "disengaging", Title: "Disengaging",
		Description: "Until its next turn, it can walk away without provoking opportunity attacks.", Duration: oneRound}
	// Dashing marks the turn the bearer doubled its movement.
	k.dashing = &status.Def{Name: "dashing", Title: "Dashing",
		Description: "It doubled its movement this turn.", Duration: oneRound}
	// Adaptive armour: +1 AC from its plating, and resistance to the type
	// of the last damage the bearer took, swapped as it takes damage.
	k.adaptivePlating = &status.Def{Name: "adaptive-plating", Title: "Adaptive plating",
		Description: "+1 to its armour class.", Mods: []status.Mod{
			{Value: "ac", Channel: value.SelfStatic, Modifier: value.Bonus("adaptive plating", 1)}}}
	k.adaptiveResistance = &status.Def{Name: "adaptive-resistance", Title: "Adaptive resistance",
		Description: "Resistance to the kind of damage that last hurt it."}
	k.adaptiveArmour = &status.Def{Name: "adaptive-armour", Title: "Adaptive armour",
		Description: "+1 to its armour class, and resistance to the kind of damage that last hurt it, which changes as it is hurt.", Children: []*status.Def{k.adaptivePlating}, Triggers: []*engine.Trigger{{
			Name: "adaptive armour adapts", On: []engine.EventType{p.ev.damage},
			Filter: status.Watch{Subject: status.Bearer}, Effects: []engine.EffectCall{p.fx.adapt.Call(struct{}{})}}}}
	// Battle trance: each hit raises the trance a level (+1 to attack rolls
	// per level, at most MaxTrance); a miss breaks it back to nothing.
	k.tranceLevel = &status.Def{Name: "trance-level", Title: "Trance level",
		Description: "+1 to its attack rolls for each level."}
	k.battleTrance = &status.Def{Name: "battle-trance", Title: "Battle trance",
		Description: "Each hit deepens the trance, +1 to attack rolls a level (at most 3); a miss breaks it.", Triggers: []*engine.Trigger{{
			Name: "battle trance deepens", On: []engine.EventType{p.ev.attack}, Phase: engine.Completion,
			Filter: status.Watch{Subject: status.Bearer}, Effects: []engine.EffectCall{p.fx.trance.Call(struct{}{})}}}}

	k.standard = []*status.Def{k.blinded, k.invisible, k.unseen, k.dodging, k.disengaging, k.dashing,
		k.adaptiveArmour, k.adaptivePlating, k.adaptiveResistance, k.battleTrance, k.tranceLevel}
	for _, d := range k.standard {
		k.names = append(k.names, d.Name)
	}
}

// StandardConditions lists the names of the conditions every encounter
// knows.
func (p *Pack) StandardConditions() []string { return slices.Clone(p.cond.names) }

// applyNamed puts a condition on a combatant, caused by itself.
func (g *State) applyNamed(c *engine.Ctx, f *Combatant, name string) error {
	def := g.condition(name)
	if def == nil {
		return fmt.Errorf("no condition %q", name)
	}
	_, err := g.book.Apply(c, status.Request{Def: def, Bearer: f.ID, Source: f.ID})
	return err
}

// applyUse puts a condition from a data file on a combatant.
func (g *State) applyUse(c *engine.Ctx, f *Combatant, u ConditionUse) error {
	def := g.condition(u.Name)
	if def == nil {
		return fmt.Errorf("%s: no condition %q", f.Key, u.Name)
	}
	r := status.Request{Def: def, Bearer: f.ID, Source: f.ID}
	if u.Rounds > 0 {
		r.Duration = &status.Duration{Kind: status.Rounds, Rounds: u.Rounds}
	}
	if u.Save.DC > 0 {
		r.Save = &u.Save
	}
	_, err := g.book.Apply(c, r)
	return err
}

// reacting returns the status whose trigger fired.
func (g *State) reacting(c *engine.Ctx) (*status.Status, error) {
	s := g.book.Get(c.Reactor())
	if s == nil {
		return nil, fmt.Errorf("entity %d is not an active condition", c.Reactor())
	}
	return s, nil
}

// adapt swaps the adaptive armour's resistance for one to the type of the
// damage just taken (the last component of the hit that did damage).
func (g *State) adapt(c *engine.Ctx) error {
	s, err := g.reacting(c)
	if err != nil {
		return err
	}
	hit, ok := c.Event().Data.(*Damage)
	if !ok {
		return fmt.Errorf("ADAPT: the event carries %T, not damage", c.Event().Data)
	}
	typ := ""
	for _, p := range hit.Parts {
		if p.Rolled > 0 {
			typ = p.Type
		}
	}
	if typ == "" {
		return nil
	}
	if old := g.book.Child(s.ID, g.p.cond.adaptiveResistance.Name); old != nil {
		f := g.Fighter(s.Bearer)
		if slices.ContainsFunc(f.Resistance.Entries(), func(e value.Entry) bool { return e.By == old.ID && e.Modifier.DamageType == typ }) {
			return nil // already adapted to this type
		}
		g.book.Remove(c, old.ID, "adapting to "+typ)
	}
	_, err = g.book.Apply(c, status.Request{Def: g.p.cond.adaptiveResistance, Bearer: s.Bearer, Source: s.Source, Parent: s.ID,
		Mods: []status.Mod{{Value: "resistance", Channel: value.SelfStatic, Modifier: value.WithResistance("adaptive armour", typ, value.Resistant)}}})
	return err
}

// trance moves a battle trance on after its bearer's attack: a hit
// replaces the level with the next one, a miss removes it.
func (g *State) trance(c *engine.Ctx) error {
	s, err := g.reacting(c)
	if err != nil {
		return err
	}
	a, ok := c.Event().Data.(*Act)
	if !ok || a.Roll == nil {
		return nil
	}
	old := g.book.Child(s.ID, g.p.cond.tranceLevel.Name)
	level := 0
	if old != nil {
		level = old.Stacks
	}
	if !a.Roll.Hit() {
		if old != nil {
			g.book.Remove(c, old.ID, "the trance breaks on a miss")
		}
		return nil
	}
	if level >= MaxTrance {
		return nil
	}
	if old != nil {
		g.book.Remove(c, old.ID, "deepened")
	}
	level++
	_, err = g.book.Apply(c, status.Request{Def: g.p.cond.tranceLevel, Bearer: s.Bearer, Source: s.Source, Parent: s.ID, Stacks: level,
		Mods: []status.Mod{{Value: "attack", Channel: value.SelfStatic, Modifier: value.Bonus(fmt.Sprintf("battle trance %d", level), level)}}})
	return err
}

// leavesReach is the filter of the opportunity attack: the step lets the
// trigger's reactor make one (see provokes).
type leavesReach struct{}

// Match implements engine.Filter.
func (leavesReach) Match(state any, ev *engine.Event, t *engine.Instance) bool {
	g := state.(*State)
	r, mover := g.Fighter(t.Reactor), g.Fighter(ev.Subject)
	st, ok := ev.Data.(*Step)
	return r != nil && mover != nil && ok && g.provokes(r, mover, st.From, st.To)
}

// provokes reports whether a step of mover from one square to another lets
// r make an opportunity attack: r is a living hostile creature that makes
// them and can see the mover, the step (of the mover's own will: forced
// movement is not a step) leaves r's reach, the mover is not disengaging,
// and r still has its reaction. The reaction's filter and the moves that
// Legal and View announce as provoking both ask it.
func (g *State) provokes(r, mover *Combatant, from, to Cell) bool {
	if r == mover || !r.Alive || !mover.Alive || r.Side == mover.Side || !r.Creature.OpportunityAttacks {
		return false
	}
	reach := r.reach()
	return reach > 0 && r.Economy.Reactions > 0 && !g.has(mover.ID, "disengaging") && g.sees(r, mover) &&
		Distance(r.Pos, from) <= reach && Distance(r.Pos, to) > reach
}

// ReactionKind is the kind of the decision an opportunity attack asks of
// the side whose creature may make it.
const ReactionKind = "reaction"

// opportunityAttack offers the reactor's side an attack on the creature
// leaving its reach, as a reaction: taken, it is a child of the step,
// resolved before the step goes on. The decision is asked before anything
// changes; the effect runs again with the answer.
func (g *State) opportunityAttack(c *engine.Ctx) error {
	r, mover := g.Fighter(c.Reactor()), g.Fighter(c.Event().Subject)
	if !mover.Alive {
		c.Note("%s has no one to attack: %s is down", r.Name, mover.Name)
		return nil
	}
	a := actArgs{Action: g.p.actions.attack.Name, Actor: r.ID, Target: mover.ID, Weapon: r.meleeWeapon().Name, Reaction: true}
	if _, err := g.prepare(a, engine.NoPlayer); err != nil {
		c.Note("%s makes no opportunity attack: %v", r.Name, err)
		return nil
	}
	in, answered := c.Answer(0)
	if !answered {
		return c.Ask(engine.Decision{Player: r.Side, Kind: ReactionKind,
			Prompt: mover.Name + " leaves the reach of " + r.Name, Options: mover.leaving})
	}
	if in.Choice != 0 {
		c.Note("%s lets %s go", r.Name, mover.Name)
		return nil
	}
	return g.act(c, a)
}
