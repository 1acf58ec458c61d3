package skirmish

import (
	"fmt"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// Resource is what an action costs.
type Resource uint8

// The resources of the action economy.
const (
	NoCost Resource = iota
	ActionCost
	BonusActionCost
	ReactionCost
)

// String names the resource ("action", "reaction" …).
func (r Resource) String() string {
	switch r {
	case ActionCost:
		return "action"
	case BonusActionCost:
		return "bonus action"
	case ReactionCost:
		return "reaction"
	}
	return "nothing"
}

// left returns how many of the resource a combatant still has.
func (r Resource) left(e *Economy) int {
	switch r {
	case ActionCost:
		return e.Actions
	case BonusActionCost:
		return e.BonusActions
	case ReactionCost:
		return e.Reactions
	}
	return 1
}

// pay spends one of the resource.
func (r Resource) pay(e *Economy) {
	switch r {
	case ActionCost:
		e.Actions--
	case BonusActionCost:
		e.BonusActions--
	case ReactionCost:
		e.Reactions--
	}
}

// Action is something a combatant does, resolved through the four phases
// of its event:
//
//	DECLARATION  the intent; handlers may cancel it or change it
//	             → the prerequisites are checked (a failure cancels)
//	EXECUTION    handlers may still cancel or change it
//	             → the Execute consequences run (the rolls), each
//	               followed by the prerequisites again if Revalidate
//	EFFECT       the rolls and their outcome; handlers may cancel or
//	             change them → the Effect consequences run (damage,
//	             movement, conditions)
//	COMPLETION   the cost is paid and the result announced
//
// A cancelled action stops where it is and costs nothing.
type Action struct {
	Name  string
	Event engine.EventType
	Cost  Resource
	// Target and Weapon say whether the action needs them.
	Target, Weapon bool
	Prerequisites  []Prerequisite
	Execute        []Consequence
	Effect         []Consequence
	Revalidate     bool
	// Finish records the result before COMPLETION (where a move ended).
	Finish func(g *State, a *Act)
}

// Prerequisite is a condition an action needs; Check returns why it does
// not hold, or "".
type Prerequisite struct {
	Name  string
	Check func(g *State, a *Act) string
}

// Consequence is a step of an action's resolution. It may cancel the
// action by setting Act.Reason.
type Consequence struct {
	Name string
	Run  func(c *engine.Ctx, g *State, a *Act) error
}

// Act is the payload of an action's events: what is being done and, as
// the phases go, what came of it. Each phase's event carries its own copy,
// so the log shows the action as it stood in that phase.
type Act struct {
	Action      string      `json:"action"`
	Weapon      string      `json:"weapon,omitempty"`
	Opportunity bool        `json:"opportunity,omitempty"`
	Path        []Cell      `json:"path,omitempty"`
	Roll        *AttackRoll `json:"roll,omitempty"`
	// Damage are the damage rolls of a hit; Dealt the damage taken.
	Damage  []DamageRoll `json:"damage,omitempty"`
	Dealt   int          `json:"dealt,omitempty"`
	Contest *Contest     `json:"contest,omitempty"`
	// Pushed is where a shove pushed its target.
	Pushed *Cell `json:"pushed,omitempty"`
	// End is where a move ended; Partial says it stopped early.
	End     *Cell `json:"end,omitempty"`
	Partial bool  `json:"partial,omitempty"`
	// Reason says why the action was cancelled.
	Reason string `json:"reason,omitempty"`

	def           *Action
	actor, target engine.EntityID
	weapon        *Weapon
	// hit is the damage as the target took it (the DAMAGE event's).
	hit *Damage
}

// cost returns what this act costs: an opportunity attack takes the
// reaction instead of the action.
func (a *Act) cost() Resource {
	if a.Opportunity {
		return ReactionCost
	}
	return a.def.Cost
}

// The outcomes of an attack roll.
const (
	Hit      = "HIT"
	Crit     = "CRIT"
	Miss     = "MISS"
	CritMiss = "CRIT_MISS"
)

// AttackRoll is an attack's d20 and its outcome.
type AttackRoll struct {
	D20
	Bonus int `json:"bonus"`
	Total int `json:"total"`
	AC    int `json:"ac"`
	// Critical and AutoHit are the statuses that applied, if any.
	Critical string `json:"critical,omitempty"`
	AutoHit  string `json:"autoHit,omitempty"`
	Outcome  string `json:"outcome"`
}

// Hit reports whether the attack hit (critically or not).
func (r *AttackRoll) Hit() bool { return r != nil && (r.Outcome == Hit || r.Outcome == Crit) }

// DamageRoll is one component of a hit's damage.
type DamageRoll struct {
	Dice  string `json:"dice"`
	Rolls []int  `json:"rolls"`
	Bonus int    `json:"bonus"`
	Total int    `json:"total"`
	Type  string `json:"type"`
	// Modifiers are the terms of the bonus.
	Modifiers []Term `json:"modifiers,omitempty"`
}

// Contest is a shove's contest of skills.
type Contest struct {
	Attacker      D20    `json:"attacker"`
	AttackerTotal int    `json:"attackerTotal"`
	Defender      D20    `json:"defender"`
	DefenderTotal int    `json:"defenderTotal"`
	DefenderSkill string `json:"defenderSkill"`
	Won           bool   `json:"won"`
}

// actArgs are the arguments of the ACT effect: a command, or a reaction.
type actArgs struct {
	Action   string
	Actor    engine.EntityID
	Target   engine.EntityID
	Weapon   string
	Path     []Cell
	Reaction bool
}

// act starts an action by declaring it. Commands are checked with prepare
// before their chain starts, so that one that breaks the rules is rejected
// without touching the match; here a failed check is an error.
func (g *State) act(c *engine.Ctx, a actArgs) error {
	d, err := g.prepare(a, c.Actor())
	if err != nil {
		return err
	}
	c.Announce(g.actEvent(&d, engine.Declaration), g.p.fx.actStage[1])
	return nil
}

// prepare checks that an action may be taken now, by the given seat (for a
// command; reactions are anyone's), and paid for, and builds its payload
// (a value: each phase's event carries a copy of its own). It changes
// nothing.
func (g *State) prepare(a actArgs, seat engine.PlayerID) (Act, error) {
	def := g.p.actionNamed(a.Action)
	if def == nil {
		return Act{}, engine.Rejectf("there is no action %q", a.Action)
	}
	f := g.Fighter(a.Actor)
	d := Act{Action: def.Name, def: def, actor: a.Actor, target: a.Target, Opportunity: a.Reaction && def == g.p.actions.attack, Path: a.Path}
	switch {
	case g.Over:
		return Act{}, engine.Rejectf("the encounter is over")
	case f == nil:
		return Act{}, engine.Rejectf("no such combatant")
	case !f.Alive:
		return Act{}, engine.Rejectf("%s is down", f.Name)
	}
	if !a.Reaction {
		if err := g.mayCommand(f, seat); err != nil {
			return Act{}, err
		}
	}
	if r := d.cost(); r.left(&f.Economy) < 1 {
		return Act{}, engine.Rejectf("%s has no %s left this turn", f.Name, r)
	}
	if def.Target && g.Fighter(a.Target) == nil {
		return Act{}, engine.Rejectf("%s needs a target", def.Name)
	}
	if def.Weapon {
		if d.weapon = f.Weapon(a.Weapon); d.weapon == nil {
			return Act{}, engine.Rejectf("%s has no weapon %q", f.Name, a.Weapon)
		}
		d.Weapon = d.weapon.Name
	}
	if def == g.p.actions.move {
		if need := len(a.Path) * SquareFeet; need > f.Economy.Movement {
			return Act{}, engine.Rejectf("%s has %d ft of movement left; that path is %d ft", f.Name, f.Economy.Movement, need)
		}
	}
	return d, nil
}

// mayCommand checks that it is a combatant's turn and that the seat giving
// the command is its side (NoPlayer, the rules or a test, may command
// anyone).
func (g *State) mayCommand(f *Combatant, seat engine.PlayerID) error {
	if cur := g.Current(); cur != f {
		return engine.Rejectf("it is %s's turn, not %s's", cur.Name, f.Name)
	}
	if seat != engine.NoPlayer && seat != f.Side {
		return engine.Rejectf("%s is not on the side of %s", f.Name, g.sideName(seat))
	}
	return nil
}

func (g *State) sideName(p engine.PlayerID) string {
	if p >= 0 && int(p) < len(g.Def.Sides) {
		return g.Def.Sides[p]
	}
	return "nobody"
}

// actEvent builds the event of an action in a phase, with a copy of the
// act as its payload.
func (g *State) actEvent(d *Act, ph engine.Phase) engine.Event {
	cp := *d
	f := g.Fighter(d.actor)
	ev := g.event(d.def.Event, f)
	if t := g.Fighter(d.target); t != nil {
		ev.Target, ev.Location = t.ID, g.Def.location(t.Pos)
	}
	ev.Phase, ev.Data = ph, &cp
	return ev
}

// check runs an action's prerequisites and returns the first failure.
func (g *State) check(d *Act) string {
	for _, p := range d.def.Prerequisites {
		if why := p.Check(g, d); why != "" {
			return why
		}
	}
	return ""
}

// cancel stops an action in the phase of the event the effect looks at;
// the log's cancellation record points at the event, whose payload says
// why.
func cancel(c *engine.Ctx, d *Act, why string) {
	d.Reason = why
	c.Cancel()
}

// stage continues an action once the handlers of its last phase have
// resolved (see Action).
func (g *State) stage(c *engine.Ctx, n uint8) error {
	ev := c.Event()
	d, ok := ev.Data.(*Act)
	if !ok {
		return fmt.Errorf("ACT_STAGE: the event carries %T, not an action", ev.Data)
	}
	if ev.Cancelled {
		return nil
	}
	def := d.def
	switch n {
	case 1: // after DECLARATION
		if why := g.check(d); why != "" {
			cancel(c, d, why)
			return nil
		}
		c.Announce(g.actEvent(d, engine.Execution), g.p.fx.actStage[2])
	case 2: // after EXECUTION
		next := *d
		for _, k := range def.Execute {
			if err := k.Run(c, g, &next); err != nil {
				return fmt.Errorf("%s: %s: %w", def.Name, k.Name, err)
			}
			why := next.Reason
			if why == "" && def.Revalidate {
				why = g.check(&next)
			}
			if why != "" {
				cancel(c, d, why)
				return nil
			}
		}
		c.Announce(g.actEvent(&next, engine.EffectPhase), g.p.fx.actStage[3])
	case 3: // after EFFECT
		next := *d
		for _, k := range def.Effect {
			if err := k.Run(c, g, &next); err != nil {
				return fmt.Errorf("%s: %s: %w", def.Name, k.Name, err)
			}
		}
		// Consequences may start chains of their own (a move's steps);
		// the completion comes after them.
		c.Then(g.p.fx.actDone.Call(&next))
	}
	return nil
}

// done completes an action: it pays the cost and announces the result.
func (g *State) done(c *engine.Ctx, d *Act) error {
	if f := g.Fighter(d.actor); f != nil {
		d.cost().pay(&f.Economy)
		if d.def == g.p.actions.attack {
			f.Attacks++
		}
	}
	if d.def.Finish != nil {
		d.def.Finish(g, d)
	}
	c.Emit(g.actEvent(d, engine.Completion))
	return nil
}

// --- prerequisites ---

var bothStanding = Prerequisite{"both standing", func(g *State, a *Act) string {
	f := g.Fighter(a.actor)
	switch {
	case !f.Alive:
		return f.Name + " is down"
	case a.target == engine.System:
		return ""
	case a.target == a.actor:
		return f.Name + " cannot target itself"
	}
	if t := g.Fighter(a.target); !t.Alive {
		return t.Name + " is already down"
	}
	return ""
}}

var inRange = Prerequisite{"in range", func(g *State, a *Act) string {
	return outOfRange(g.Fighter(a.actor), g.Fighter(a.target), a.weapon)
}}

// outOfRange says why a weapon does not reach a target now (beyond a melee
// weapon's reach, or a ranged weapon's long range), or "".
func outOfRange(f, t *Combatant, w *Weapon) string {
	d := Distance(f.Pos, t.Pos)
	switch {
	case !w.Ranged && d > w.Reach:
		return fmt.Sprintf("%s is out of reach (%d ft away, %s reaches %d ft)", t.Name, d, w.Name, w.Reach)
	case w.Ranged && d > w.Long:
		return fmt.Sprintf("%s is out of range (%d ft away, %s's long range is %d ft)", t.Name, d, w.Name, w.Long)
	}
	return ""
}

var adjacent = Prerequisite{"adjacent", func(g *State, a *Act) string {
	f, t := g.Fighter(a.actor), g.Fighter(a.target)
	if d := Distance(f.Pos, t.Pos); d > SquareFeet {
		return fmt.Sprintf("%s is %d ft away; a shove needs it within 5 ft", t.Name, d)
	}
	return ""
}}

var clearPath = Prerequisite{"clear path", func(g *State, a *Act) string {
	f := g.Fighter(a.actor)
	if len(a.Path) == 0 {
		return "the path is empty"
	}
	from := f.Pos
	for i, to := range a.Path {
		if why := g.blocked(f, from, to); why != "" {
			return fmt.Sprintf("step %d: %s", i+1, why)
		}
		from = to
	}
	return ""
}}

// blocked says why a combatant cannot step from one cell to another, or "".
func (g *State) blocked(f *Combatant, from, to Cell) string {
	switch {
	case Distance(from, to) != SquareFeet:
		return "a step goes to a square next to the last"
	case !g.Def.Grid.In(to):
		return "the map ends there"
	case g.Def.Grid.Wall(to):
		return "a wall is in the way"
	}
	if o := g.At(to); o != nil && o != f {
		return o.Name + " is in the way"
	}
	return ""
}

// --- the actions ---

// actionSet holds the pack's actions.
type actionSet struct {
	attack, move, dash, disengage, dodge, shove *Action
	list                                        []*Action
}

func (p *Pack) buildActions() {
	k := &p.actions
	k.attack = &Action{Name: "attack", Event: p.ev.attack, Cost: ActionCost, Target: true, Weapon: true,
		Prerequisites: []Prerequisite{bothStanding, inRange},
		Execute:       []Consequence{{"roll to hit", rollToHit}, {"roll damage", rollDamage}},
		Effect:        []Consequence{{"deal damage", dealDamage}},
		Revalidate:    true}
	k.move = &Action{Name: "move", Event: p.ev.move, Cost: NoCost,
		Prerequisites: []Prerequisite{bothStanding, clearPath},
		Effect:        []Consequence{{"walk", walk}},
		Finish: func(g *State, a *Act) {
			end := g.Fighter(a.actor).Pos
			a.End, a.Partial = &end, end != a.Path[len(a.Path)-1]
		}}
	k.dash = &Action{Name: "dash", Event: p.ev.dash, Cost: ActionCost,
		Prerequisites: []Prerequisite{bothStanding},
		Effect: []Consequence{{"gain movement", func(c *engine.Ctx, g *State, a *Act) error {
			f := g.Fighter(a.actor)
			f.Economy.Movement += f.Speed.Score()
			return g.applyNamed(c, f, "dashing")
		}}}}
	k.disengage = &Action{Name: "disengage", Event: p.ev.disengage, Cost: ActionCost,
		Prerequisites: []Prerequisite{bothStanding},
		Effect:        []Consequence{{"disengage", applyCondition("disengaging")}}}
	k.dodge = &Action{Name: "dodge", Event: p.ev.dodge, Cost: ActionCost,
		Prerequisites: []Prerequisite{bothStanding},
		Effect:        []Consequence{{"dodge", applyCondition("dodging")}}}
	k.shove = &Action{Name: "shove", Event: p.ev.shove, Cost: ActionCost, Target: true,
		Prerequisites: []Prerequisite{bothStanding, adjacent},
		Execute:       []Consequence{{"contest", contest}},
		Effect:        []Consequence{{"push", push}},
		Revalidate:    true}
	k.list = []*Action{k.attack, k.move, k.dash, k.disengage, k.dodge, k.shove}
}

// ActionNames lists the actions a command may name.
func (p *Pack) ActionNames() []string {
	var out []string
	for _, a := range p.actions.list {
		out = append(out, a.Name)
	}
	return out
}

func (p *Pack) actionNamed(name string) *Action {
	for _, a := range p.actions.list {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func applyCondition(name string) func(c *engine.Ctx, g *State, a *Act) error {
	return func(c *engine.Ctx, g *State, a *Act) error {
		return g.applyNamed(c, g.Fighter(a.actor), name)
	}
}

// --- attack ---

// aim is an attack as its roll will be made: the bonus, how the d20 is
// rolled, the armour class to reach, and, when asked for, the terms the
// bonus and the roll are made of.
type aim struct {
	summary value.Summary
	bonus   int
	ac      int
	terms   []Term
}

// aim works out an attack: the attack value and the armour class each
// import the other's outgoing modifiers for this interaction only, in the
// attack's context, and drop them at once. It leaves the state as it was,
// so Legal and View use it too.
func (g *State) aim(f, t *Combatant, w *Weapon, opportunity, withTerms bool) aim {
	ctx := g.attackContext(f, t, w, opportunity)
	att, ac := f.Attack, t.AC
	att.SetContext(t.ID, ctx)
	ac.SetContext(f.ID, ctx)
	att.Import(ac)
	ac.Import(att)
	x := aim{summary: att.Summary(), ac: ac.Score()}
	ability := f.weaponAbility(w)
	mod := f.AbilityMod(ability)
	x.bonus = mod + f.Creature.Proficiency + w.Bonus + x.summary.Score()
	if withTerms {
		x.terms = append(make([]Term, 0, 4), Term{Source: Abilities[ability], Bonus: mod}, Term{Source: "proficiency", Bonus: f.Creature.Proficiency})
		if w.Bonus != 0 {
			x.terms = append(x.terms, Term{Source: w.Name, Bonus: w.Bonus})
		}
		x.terms = valueTerms(x.terms, att)
	}
	att.ResetImport()
	ac.ResetImport()
	att.ClearContext()
	ac.ClearContext()
	return x
}

// rollToHit rolls the attack (see aim and Outcome).
func rollToHit(c *engine.Ctx, g *State, a *Act) error {
	f, t, w := g.Fighter(a.actor), g.Fighter(a.target), a.weapon
	x := g.aim(f, t, w, a.Opportunity, true)
	d20, err := g.rollD20(c, x.summary.Advantage)
	if err != nil {
		return err
	}
	d20.Modifiers = x.terms
	r := &AttackRoll{D20: d20, Bonus: x.bonus, Total: d20.Natural + x.bonus, AC: x.ac}
	r.Outcome = Outcome(d20.Natural, r.Total, x.ac, x.summary.Critical, x.summary.AutoHit)
	if x.summary.Critical != 0 {
		r.Critical = x.summary.Critical.String()
	}
	if x.summary.AutoHit != 0 {
		r.AutoHit = x.summary.AutoHit.String()
	}
	a.Roll = r
	return nil
}

// attackContext describes an attack for the contextual modifiers.
func (g *State) attackContext(f, t *Combatant, w *Weapon, opportunity bool) AttackContext {
	dist := Distance(f.Pos, t.Pos)
	return AttackContext{Weapon: w.Name, Ranged: w.Ranged, Distance: dist,
		LongRange: w.Ranged && dist > w.Normal, Threatened: w.Ranged && g.threatened(f),
		Opportunity: opportunity, AttackerSees: g.sees(f, t), TargetSees: g.sees(t, f), game: g}
}

// damageBonus is what one component of a weapon's damage adds to its
// dice: its own bonus and, for the first component, the ability modifier
// and the attacker's damage value in the attack's context; with its terms
// when asked for.
func (g *State) damageBonus(f, t *Combatant, w *Weapon, i int, opportunity, withTerms bool) (int, []Term) {
	comp := w.Damage[i]
	bonus := comp.Bonus
	var terms []Term
	if withTerms && comp.Bonus != 0 {
		terms = append(terms, Term{Source: w.Name, Bonus: comp.Bonus})
	}
	if i > 0 {
		return bonus, terms
	}
	ability := f.weaponAbility(w)
	mod := f.AbilityMod(ability)
	f.Damage.SetContext(t.ID, g.attackContext(f, t, w, opportunity))
	bonus += mod + f.Damage.Score()
	if withTerms {
		terms = valueTerms(append(terms, Term{Source: Abilities[ability], Bonus: mod}), f.Damage)
	}
	f.Damage.ClearContext()
	return bonus, terms
}

// rollDamage rolls a hit's damage: each component's dice (twice as many
// on a critical hit), plus its bonus (see damageBonus).
func rollDamage(c *engine.Ctx, g *State, a *Act) error {
	if !a.Roll.Hit() {
		return nil
	}
	f, t, w := g.Fighter(a.actor), g.Fighter(a.target), a.weapon
	for i, comp := range w.Damage {
		n := comp.Dice.N
		if a.Roll.Outcome == Crit {
			n *= 2
		}
		rolls, err := g.rollDice(c, n, comp.Dice.Sides, nil)
		if err != nil {
			return err
		}
		bonus, terms := g.damageBonus(f, t, w, i, a.Opportunity, true)
		total := bonus
		for _, r := range rolls {
			total += r
		}
		a.Damage = append(a.Damage, DamageRoll{Dice: Dice{n, comp.Dice.Sides}.String(), Rolls: rolls, Bonus: bonus,
			Total: max(0, total), Type: comp.Type, Modifiers: terms})
	}
	return nil
}

func dealDamage(c *engine.Ctx, g *State, a *Act) error {
	if len(a.Damage) > 0 {
		a.hit = g.damage(c, g.Fighter(a.target), a.actor, a.Damage)
		a.Dealt = a.hit.Dealt
	}
	return nil
}

// --- movement ---

// stepArgs start one step of a move.
type stepArgs struct {
	Mover engine.EntityID
	Path  []Cell
	Index int
}

// Step is the payload of a STEP_MOVEMENT event.
type Step struct {
	From   Cell   `json:"from"`
	To     Cell   `json:"to"`
	Index  int    `json:"index"`
	Reason string `json:"reason,omitempty"`

	path []Cell
}

func walk(c *engine.Ctx, g *State, a *Act) error {
	return g.step(c, stepArgs{Mover: a.actor, Path: a.Path, Index: 0})
}

// step declares one step of a move: STEP_MOVEMENT goes through
// DECLARATION (a handler may stop the move), EFFECT (reactions such as
// opportunity attacks, before the mover leaves its square) and COMPLETION
// (the mover is on the new square and has paid 5 ft).
func (g *State) step(c *engine.Ctx, a stepArgs) error {
	f := g.Fighter(a.Mover)
	ev := g.event(g.p.ev.step, f)
	ev.Phase, ev.Location = engine.Declaration, g.Def.location(a.Path[a.Index])
	ev.Data = &Step{From: f.Pos, To: a.Path[a.Index], Index: a.Index, path: a.Path}
	c.Announce(ev, g.p.fx.stepStage[1])
	return nil
}

func (g *State) stepStage(c *engine.Ctx, n uint8) error {
	ev := c.Event()
	st := ev.Data.(*Step)
	if ev.Cancelled {
		return nil
	}
	f := g.Fighter(ev.Subject)
	next := *st
	out := *ev
	out.Data = &next
	switch n {
	case 1:
		why := g.blocked(f, f.Pos, st.To)
		switch {
		case !f.Alive:
			why = f.Name + " is down"
		case f.Economy.Movement < SquareFeet:
			why = f.Name + " has no movement left"
		}
		if why != "" {
			st.Reason = why
			c.Cancel()
			return nil
		}
		out.Phase = engine.EffectPhase
		c.Announce(out, g.p.fx.stepStage[2])
	case 2:
		if !f.Alive {
			c.Note("%s falls before it can move on", f.Name)
			return nil
		}
		f.Pos = st.To
		f.Economy.Movement -= SquareFeet
		out.Phase = engine.Completion
		c.Emit(out)
		if st.Index+1 < len(st.path) {
			c.Then(g.p.fx.step.Call(stepArgs{Mover: f.ID, Path: st.path, Index: st.Index + 1}))
		}
	}
	return nil
}

// --- shove ---

// contest rolls the shove: the shover's Athletics against the better of
// the target's Athletics and Acrobatics; the shover must roll higher.
func contest(c *engine.Ctx, g *State, a *Act) error {
	f, t := g.Fighter(a.actor), g.Fighter(a.target)
	atk, atkTotal, err := g.check20(c, f, skillIndex("athletics"))
	if err != nil {
		return err
	}
	skill := "athletics"
	if g.skillBonus(t, skillIndex("acrobatics")) > g.skillBonus(t, skillIndex("athletics")) {
		skill = "acrobatics"
	}
	def, defTotal, err := g.check20(c, t, skillIndex(skill))
	if err != nil {
		return err
	}
	a.Contest = &Contest{Attacker: atk, AttackerTotal: atkTotal, Defender: def, DefenderTotal: defTotal,
		DefenderSkill: skill, Won: atkTotal > defTotal}
	return nil
}

// skillBonus is what a combatant adds to a check of the skill.
func (g *State) skillBonus(f *Combatant, skill int) int {
	return f.AbilityMod(Skills[skill].Ability) + f.Skills[skill].Score()
}

// check20 rolls a skill check.
func (g *State) check20(c *engine.Ctx, f *Combatant, skill int) (D20, int, error) {
	return g.roll20(c, f, Skills[skill].Ability, f.Skills[skill])
}

// roll20 rolls a d20 for a combatant with one of its abilities and one of
// its values (a skill, a saving throw, the initiative): the ability
// modifier and the value are added, and the value's advantage counts. The
// roll carries its terms; a value's base is the proficiency bonus, if any.
func (g *State) roll20(c *engine.Ctx, f *Combatant, ability int, v *value.Value) (D20, int, error) {
	r, err := g.rollD20(c, int(v.Advantage()))
	if err != nil {
		return r, 0, err
	}
	mod := f.AbilityMod(ability)
	r.Modifiers = append(make([]Term, 0, 2), Term{Source: Abilities[ability], Bonus: mod})
	if b := v.Base(); b != 0 {
		r.Modifiers = append(r.Modifiers, Term{Source: "proficiency", Bonus: b})
	}
	r.Modifiers = valueTerms(r.Modifiers, v)
	return r, r.Natural + mod + v.Score(), nil
}

// push moves a shoved target one square straight away from the shover:
// forced movement, which provokes no opportunity attack.
func push(c *engine.Ctx, g *State, a *Act) error {
	if a.Contest == nil || !a.Contest.Won {
		return nil
	}
	f, t := g.Fighter(a.actor), g.Fighter(a.target)
	to := Cell{t.Pos[0] + sign(t.Pos[0]-f.Pos[0]), t.Pos[1] + sign(t.Pos[1]-f.Pos[1])}
	if why := g.blocked(t, t.Pos, to); why != "" {
		c.Note("%s cannot be pushed: %s", t.Name, why)
		return nil
	}
	ev := g.event(g.p.ev.forced, t)
	ev.Source, ev.Location = f.ID, g.Def.location(to)
	ev.Data = &Step{From: t.Pos, To: to}
	t.Pos = to
	a.Pushed = &to
	c.Emit(ev)
	return nil
}
