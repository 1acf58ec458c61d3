package skirmish

import (
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/status"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// The event types of the pack. Actions (ATTACK, MOVE, STEP_MOVEMENT, DASH,
// DISENGAGE, DODGE, SHOVE) go through the phases; the others are plain
// facts.
var (
	types *engine.Types

	evEncounterStart, evInitiative, evRoundStart, evTurnStart, evTurnEnd      engine.EventType
	evAttack, evMove, evStep, evForced, evDash, evDisengage, evDodge, evShove engine.EventType
	evDamage, evDeath, evSave, evApplied, evRemoved, evEncounterEnd, evRest   engine.EventType
)

// effects is the pack's effect registry and rules its engine rules; both
// are built once and shared by every match.
var (
	effects *engine.Effects
	rules   *engine.Rules
)

// The continuations of actions and steps, built once: they run for every
// phase of every action.
var (
	actStage, stepStage [4]engine.EffectCall
	actDone, stepID     engine.EffectID
)

// opportunity is the opportunity-attack reaction every combatant that
// makes them carries.
var opportunity *engine.Trigger

func init() {
	types = engine.NewTypes()
	for _, t := range []struct {
		p    *engine.EventType
		name string
	}{
		{&evEncounterStart, "ENCOUNTER_START"}, {&evInitiative, "INITIATIVE"}, {&evRoundStart, "ROUND_START"},
		{&evTurnStart, "TURN_START"}, {&evTurnEnd, "TURN_END"},
		{&evAttack, "ATTACK"}, {&evMove, "MOVE"}, {&evStep, "STEP_MOVEMENT"}, {&evForced, "FORCED_MOVEMENT"},
		{&evDash, "DASH"}, {&evDisengage, "DISENGAGE"}, {&evDodge, "DODGE"}, {&evShove, "SHOVE"},
		{&evDamage, "DAMAGE"}, {&evDeath, "DEATH"}, {&evSave, "SAVING_THROW"},
		{&evApplied, "CONDITION_APPLIED"}, {&evRemoved, "CONDITION_REMOVED"},
		{&evEncounterEnd, "ENCOUNTER_END"}, {&evRest, "LONG_REST"},
	} {
		*t.p = types.Intern(t.name)
	}

	effects = engine.NewEffects()
	status.RegisterEffects(effects)
	engine.Register(effects, "START", func(c *engine.Ctx, g *Game, _ struct{}) error { return g.start(c) })
	engine.Register(effects, "ACT", func(c *engine.Ctx, g *Game, a actArgs) error { return g.act(c, a) })
	engine.Register(effects, "ACT_STAGE", func(c *engine.Ctx, g *Game, n uint8) error { return g.stage(c, n) })
	actDone = engine.Register(effects, "ACT_DONE", func(c *engine.Ctx, g *Game, a *Act) error { return g.done(c, a) }).ID
	stepID = engine.Register(effects, "STEP", func(c *engine.Ctx, g *Game, a stepArgs) error { return g.step(c, a) }).ID
	engine.Register(effects, "STEP_STAGE", func(c *engine.Ctx, g *Game, n uint8) error { return g.stepStage(c, n) })
	for n := range uint8(4) {
		actStage[n] = effects.MustCall("ACT_STAGE", n)
		stepStage[n] = effects.MustCall("STEP_STAGE", n)
	}
	engine.Register(effects, "END_TURN", func(c *engine.Ctx, g *Game, who engine.EntityID) error { return g.endTurn(c, who) })
	engine.Register(effects, "LONG_REST", func(c *engine.Ctx, g *Game, _ struct{}) error { return g.longRest(c) })
	engine.Register(effects, "OPPORTUNITY_ATTACK", func(c *engine.Ctx, g *Game, _ struct{}) error { return g.opportunityAttack(c) })
	engine.Register(effects, "ADAPT", func(c *engine.Ctx, g *Game, _ struct{}) error { return g.adapt(c) })
	engine.Register(effects, "TRANCE", func(c *engine.Ctx, g *Game, _ struct{}) error { return g.trance(c) })

	buildActions()
	buildConditions()
	opportunity = &engine.Trigger{Name: "opportunity attack", On: []engine.EventType{evStep}, Phase: engine.EffectPhase,
		Filter: leavesReach{}, Effects: []engine.EffectCall{effects.MustCall("OPPORTUNITY_ATTACK", nil)}}

	// Reactions resolve depth first: an opportunity attack, the damage it
	// deals and whatever that sets off all finish before the step it
	// interrupts goes on. No loop guard: every reaction of the pack costs
	// a resource or follows a single event, and a (reactor, source) guard
	// would wrongly stop, say, adaptive armour from reacting to the second
	// hit of one attacker within a chain; the step budget still ends any
	// runaway.
	rules = &engine.Rules{Types: types, Effects: effects, Policy: engine.DepthFirst, Guard: engine.NoGuard}
}

// Rules returns the engine rules of the pack.
func Rules() *engine.Rules { return rules }

// EventNames lists the pack's event types.
func EventNames() []string { return types.Names() }

// Outcome decides an attack roll, checking in this order: AUTOMISS misses;
// AUTOHIT hits (critically on a natural 20 or with AUTOCRIT); a natural 1
// misses critically; a natural 20 hits critically whatever the armour
// class (the newer engine book, EB-10-010); a total of at least the armour
// class hits (critically with AUTOCRIT); anything else misses. NOCRIT
// turns every critical hit into a plain hit.
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
