package skirmish

import (
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/status"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// eventTypes are the event types of the pack. Actions (ATTACK, MOVE,
// STEP_MOVEMENT, DASH, DISENGAGE, DODGE, SHOVE) go through the phases; the
// others are plain facts.
type eventTypes struct {
	encounterStart, initiative, roundStart, turnStart, turnEnd engine.EventType
	attack, move, step, forced, dash, disengage, dodge, shove  engine.EventType
	damage, death, save, applied, removed, encounterEnd, rest  engine.EventType
}

// effectSet holds the typed handles of the pack's effects, and the
// continuations of actions and steps, built once since they run for every
// phase of every action.
type effectSet struct {
	start, longRest, opportunity, adapt, trance, endStatus engine.Effect[struct{}]

	act     engine.Effect[actArgs]
	actDone engine.Effect[*Act]
	step    engine.Effect[stepArgs]
	endTurn engine.Effect[engine.EntityID]

	actStage, stepStage [4]engine.EffectCall
}

// buildRules builds the pack's event types, effects, actions, standard
// conditions and the opportunity-attack reaction, once per pack.
func (p *Pack) buildRules() {
	p.types = engine.NewTypes()
	for _, t := range []struct {
		p    *engine.EventType
		name string
	}{
		{&p.ev.encounterStart, "ENCOUNTER_START"}, {&p.ev.initiative, "INITIATIVE"}, {&p.ev.roundStart, "ROUND_START"},
		{&p.ev.turnStart, "TURN_START"}, {&p.ev.turnEnd, "TURN_END"},
		{&p.ev.attack, "ATTACK"}, {&p.ev.move, "MOVE"}, {&p.ev.step, "STEP_MOVEMENT"}, {&p.ev.forced, "FORCED_MOVEMENT"},
		{&p.ev.dash, "DASH"}, {&p.ev.disengage, "DISENGAGE"}, {&p.ev.dodge, "DODGE"}, {&p.ev.shove, "SHOVE"},
		{&p.ev.damage, "DAMAGE"}, {&p.ev.death, "DEATH"}, {&p.ev.save, "SAVING_THROW"},
		{&p.ev.applied, "CONDITION_APPLIED"}, {&p.ev.removed, "CONDITION_REMOVED"},
		{&p.ev.encounterEnd, "ENCOUNTER_END"}, {&p.ev.rest, "LONG_REST"},
	} {
		*t.p = p.types.Intern(t.name)
	}

	e := engine.NewEffects()
	p.effects = e
	fx := &p.fx
	fx.endStatus = status.RegisterEffects(e)
	fx.start = engine.Register(e, "START", func(c *engine.Ctx, g *State, _ struct{}) error { return g.start(c) })
	fx.act = engine.Register(e, "ACT", func(c *engine.Ctx, g *State, a actArgs) error { return g.act(c, a) })
	actStage := engine.Register(e, "ACT_STAGE", func(c *engine.Ctx, g *State, n uint8) error { return g.stage(c, n) })
	fx.actDone = engine.Register(e, "ACT_DONE", func(c *engine.Ctx, g *State, a *Act) error { return g.done(c, a) })
	fx.step = engine.Register(e, "STEP", func(c *engine.Ctx, g *State, a stepArgs) error { return g.step(c, a) })
	stepStage := engine.Register(e, "STEP_STAGE", func(c *engine.Ctx, g *State, n uint8) error { return g.stepStage(c, n) })
	for n := range uint8(4) {
		fx.actStage[n] = actStage.Call(n)
		fx.stepStage[n] = stepStage.Call(n)
	}
	fx.endTurn = engine.Register(e, "END_TURN", func(c *engine.Ctx, g *State, who engine.EntityID) error { return g.endTurn(c, who) })
	fx.longRest = engine.Register(e, "LONG_REST", func(c *engine.Ctx, g *State, _ struct{}) error { return g.longRest(c) })
	fx.opportunity = engine.Register(e, "OPPORTUNITY_ATTACK", func(c *engine.Ctx, g *State, _ struct{}) error { return g.opportunityAttack(c) })
	fx.adapt = engine.Register(e, "ADAPT", func(c *engine.Ctx, g *State, _ struct{}) error { return g.adapt(c) })
	fx.trance = engine.Register(e, "TRANCE", func(c *engine.Ctx, g *State, _ struct{}) error { return g.trance(c) })

	p.buildActions()
	p.buildConditions()
	p.opportunity = &engine.Trigger{Name: "opportunity attack", On: []engine.EventType{p.ev.step}, Phase: engine.EffectPhase,
		Filter: leavesReach{}, Effects: []engine.EffectCall{fx.opportunity.Call(struct{}{})}}

	// Reactions resolve depth first: an opportunity attack, the damage it
	// deals and whatever that sets off all finish before the step it
	// interrupts goes on. No loop guard: every reaction of the pack costs
	// a resource or follows a single event, and a (reactor, source) guard
	// would wrongly stop, say, adaptive armour from reacting to the second
	// hit of one attacker within a chain; the step budget still ends any
	// runaway.
	p.rules = &engine.Rules{Types: p.types, Effects: e, Policy: engine.DepthFirst, Guard: engine.NoGuard}
}

// Rules returns the engine rules of the pack, shared by all its matches.
func (p *Pack) Rules() *engine.Rules { return p.rules }

// EventNames lists the pack's event types.
func (p *Pack) EventNames() []string { return p.types.Names() }

// Outcome decides an attack roll, checking in this order: AUTOMISS misses;
// AUTOHIT hits (critically on a natural 20 or with AUTOCRIT); a natural 1
// misses critically; a natural 20 hits critically whatever the armour
// class (the newer engine book); a total of at least the armour class hits
// (critically with AUTOCRIT); anything else misses. NOCRIT turns every
// critical hit into a plain hit.
func Outcome(natural, total, ac int, crit value.Critical, auto value.AutoHit) string {
	critical := func(yes bool) string {
		if yes && crit != value.NoCrit {
			return Crit
		}
		return Hit
	}
	switch {
	case auto == value.AlwaysMiss:
		return Miss
	case auto == value.AlwaysHit:
		return critical(natural == 20 || crit == value.AutoCrit)
	case natural == 1:
		return CritMiss
	case natural == 20:
		return critical(true)
	case total >= ac:
		return critical(crit == value.AutoCrit)
	}
	return Miss
}
