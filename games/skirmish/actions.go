package skirmish

import (
	"fmt"

	"github.com/tabulagames/tabula/engine"
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
	Finish func(g *Game, a *Act)
}

// Prerequisite is a condition an action needs; Check returns why it does
// not hold, or "".
type Prerequisite struct {
	Name  string
	Check func(g *Game, a *Act) string
}

// Consequence is a step of an action's resolution. It may cancel the
// action by setting Act.Reason.
type Consequence struct {
	Name string
	Run  func(c *engine.Ctx, g *Game, a *Act) error
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
func (g *Game) act(c *engine.Ctx, a actArgs) error {
	d, err := g.prepare(a, c.Actor())
	if err != nil {
		return err
	}
	c.Announce(g.actEvent(d, engine.Declaration), actStage[1])
	return nil
}

// prepare checks that an action may be taken now, by the given seat (for a
// command; reactions are anyone's), and paid for, and builds its payload.
// It changes nothing.
func (g *Game) prepare(a actArgs, seat engine.PlayerID) (*Act, error) {
	def := actionNamed(a.Action)
	if def == nil {
		return nil, engine.Rejectf("there is no action %q", a.Action)
	}
	f := g.Fighter(a.Actor)
	d := &Act{Action: def.Name, def: def, actor: a.Actor, target: a.Target, Opportunity: a.Reaction && def == attackAction, Path: a.Path}
	switch {
	case g.Over:
		return nil, engine.Rejectf("the encounter is over")
	case f == nil:
		return nil, engine.Rejectf("no such combatant")
	case !f.Alive:
		return nil, engine.Rejectf("%s is down", f.Key)
	}
	if !a.Reaction {
		if err := g.mayCommand(f, seat); err != nil {
			return nil, err
		}
	}
	if r := d.cost(); r.left(&f.Economy) < 1 {
		return nil, engine.Rejectf("%s has no %s left this turn", f.Key, r)
	}
	if def.Target && g.Fighter(a.Target) == nil {
		return nil, engine.Rejectf("%s needs a target", def.Name)
	}
	if def.Weapon {
		if d.weapon = f.Weapon(a.Weapon); d.weapon == nil {
			return nil, engine.Rejectf("%s has no weapon %q", f.Key, a.Weapon)
		}
		d.Weapon = d.weapon.Name
	}
	if def == moveAction {
		if need := len(a.Path) * SquareFeet; need > f.Economy.Movement {
			return nil, engine.Rejectf("%s has %d ft of movement left; that path is %d ft", f.Key, f.Economy.Movement, need)
		}
	}
	return d, nil
}

// mayCommand checks that it is a combatant's turn and that the seat giving
// the command is its side (NoPlayer, the rules or a test, may command
// anyone).
func (g *Game) mayCommand(f *Combatant, seat engine.PlayerID) error {
	if cur := g.Current(); cur != f {
		return engine.Rejectf("it is %s's turn, not %s's", cur.Key, f.Key)
	}
	if seat != engine.NoPlayer && seat != f.Side {
		return engine.Rejectf("%s is not on the side of %s", f.Key, g.sideName(seat))
	}
	return nil
}

func (g *Game) sideName(p engine.PlayerID) string {
	if p >= 0 && int(p) < len(g.Encounter.Sides) {
		return g.Encounter.Sides[p]
	}
	return "nobody"
}

// actEvent builds the event of an action in a phase, with a copy of the
// act as its payload.
func (g *Game) actEvent(d *Act, ph engine.Phase) engine.Event {
	cp := *d
	ev := engine.NewEvent(d.def.Event)
	ev.Phase, ev.Subject, ev.Source, ev.Target = ph, d.actor, d.actor, d.target
	ev.Player = g.Controller(d.actor)
	ev.Data = &cp
	return ev
}

// check runs an action's prerequisites and returns the first failure.
func (g *Game) check(d *Act) string {
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
func (g *Game) stage(c *engine.Ctx, n uint8) error {
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
		c.Announce(g.actEvent(d, engine.Execution), actStage[2])
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
		c.Announce(g.actEvent(&next, engine.EffectPhase), actStage[3])
	case 3: // after EFFECT
		next := *d
		for _, k := range def.Effect {
			if err := k.Run(c, g, &next); err != nil {
				return fmt.Errorf("%s: %s: %w", def.Name, k.Name, err)
			}
		}
		// Consequences may start chains of their own (a move's steps);
		// the completion comes after them.
		c.Then(engine.EffectCall{ID: actDone, Name: "ACT_DONE", Args: &next})
	}
	return nil
}

// done completes an action: it pays the cost and announces the result.
func (g *Game) done(c *engine.Ctx, d *Act) error {
	if f := g.Fighter(d.actor); f != nil {
		d.cost().pay(&f.Economy)
	}
	if d.def.Finish != nil {
		d.def.Finish(g, d)
	}
	c.Emit(g.actEvent(d, engine.Completion))
	return nil
}

// --- prerequisites ---

var bothStanding = Prerequisite{"both standing", func(g *Game, a *Act) string {
	f := g.Fighter(a.actor)
	switch {
	case !f.Alive:
		return f.Key + " is down"
	case a.target == engine.System:
		return ""
	case a.target == a.actor:
		return f.Key + " cannot target itself"
	}
	if t := g.Fighter(a.target); !t.Alive {
		return t.Key + " is already down"
	}
	return ""
}}

var inRange = Prerequisite{"in range", func(g *Game, a *Act) string {
	f, t, w := g.Fighter(a.actor), g.Fighter(a.target), a.weapon
	d := Distance(f.Pos, t.Pos)
	switch {
	case !w.Ranged && d > w.Reach:
		return fmt.Sprintf("%s is out of reach (%d ft away, %s reaches %d ft)", t.Key, d, w.Name, w.Reach)
	case w.Ranged && d > w.Long:
		return fmt.Sprintf("%s is out of range (%d ft away, %s's long range is %d ft)", t.Key, d, w.Name, w.Long)
	}
	return ""
}}

var adjacent = Prerequisite{"adjacent", func(g *Game, a *Act) string {
	f, t := g.Fighter(a.actor), g.Fighter(a.target)
	if d := Distance(f.Pos, t.Pos); d > SquareFeet {
		return fmt.Sprintf("%s is %d ft away; a shove needs it within 5 ft", t.Key, d)
	}
	return ""
}}

var clearPath = Prerequisite{"clear path", func(g *Game, a *Act) string {
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
func (g *Game) blocked(f *Combatant, from, to Cell) string {
	switch {
	case Distance(from, to) != SquareFeet:
		return fmt.Sprintf("%s is not next to %s", to, from)
	case !g.Encounter.Grid.In(to):
		return fmt.Sprintf("%s is off the map", to)
	case g.Encounter.Grid.Wall(to):
		return fmt.Sprintf("%s is a wall", to)
	}
	if o := g.At(to); o != nil && o != f {
		return fmt.Sprintf("%s stands on %s", o.Key, to)
	}
	return ""
}

// --- the actions ---

var (
	attackAction, moveAction, dashAction, disengageAction, dodgeAction, shoveAction *Action
	actionList                                                                      []*Action
)

func buildActions() {
	attackAction = &Action{Name: "attack", Event: evAttack, Cost: ActionCost, Target: true, Weapon: true,
		Prerequisites: []Prerequisite{bothStanding, inRange},
		Execute:       []Consequence{{"roll to hit", rollToHit}, {"roll damage", rollDamage}},
		Effect:        []Consequence{{"deal damage", dealDamage}},
		Revalidate:    true}
	moveAction = &Action{Name: "move", Event: evMove, Cost: NoCost,
		Prerequisites: []Prerequisite{bothStanding, clearPath},
		Effect:        []Consequence{{"walk", walk}},
		Finish: func(g *Game, a *Act) {
			end := g.Fighter(a.actor).Pos
			a.End, a.Partial = &end, end != a.Path[len(a.Path)-1]
		}}
	dashAction = &Action{Name: "dash", Event: evDash, Cost: ActionCost,
		Prerequisites: []Prerequisite{bothStanding},
		Effect: []Consequence{{"gain movement", func(c *engine.Ctx, g *Game, a *Act) error {
			f := g.Fighter(a.actor)
			f.Economy.Movement += f.Speed.Score()
			return g.applyNamed(c, f, "dashing")
		}}}}
	disengageAction = &Action{Name: "disengage", Event: evDisengage, Cost: ActionCost,
		Prerequisites: []Prerequisite{bothStanding},
		Effect:        []Consequence{{"disengage", applyCondition("disengaging")}}}
	dodgeAction = &Action{Name: "dodge", Event: evDodge, Cost: ActionCost,
		Prerequisites: []Prerequisite{bothStanding},
		Effect:        []Consequence{{"dodge", applyCondition("dodging")}}}
	shoveAction = &Action{Name: "shove", Event: evShove, Cost: ActionCost, Target: true,
		Prerequisites: []Prerequisite{bothStanding, adjacent},
		Execute:       []Consequence{{"contest", contest}},
		Effect:        []Consequence{{"push", push}},
		Revalidate:    true}
	actionList = []*Action{attackAction, moveAction, dashAction, disengageAction, dodgeAction, shoveAction}
}

// ActionNames lists the actions a command may name.
func ActionNames() []string {
	var out []string
	for _, a := range actionList {
		out = append(out, a.Name)
	}
	return out
}

func actionNamed(name string) *Action {
	for _, a := range actionList {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func applyCondition(name string) func(c *engine.Ctx, g *Game, a *Act) error {
	return func(c *engine.Ctx, g *Game, a *Act) error {
		return g.applyNamed(c, g.Fighter(a.actor), name)
	}
}

// --- attack ---

// rollToHit rolls the attack: the attack bonus and the armour class each
// import the other's outgoing modifiers for this interaction only, in the
// attack's context.
func rollToHit(c *engine.Ctx, g *Game, a *Act) error {
	f, t, w := g.Fighter(a.actor), g.Fighter(a.target), a.weapon
	ctx := g.attackContext(f, t, w, a.Opportunity)
	att, ac := f.Attack, t.AC
	att.SetContext(t.ID, ctx)
	ac.SetContext(f.ID, ctx)
	att.Import(ac)
	ac.Import(att)
	s := att.Summary()
	armour := ac.Score()
	att.ResetImport()
	ac.ResetImport()
	att.ClearContext()
	ac.ClearContext()

	d20, err := g.rollD20(c, s.Advantage)
	if err != nil {
		return err
	}
	bonus := f.AbilityMod(f.weaponAbility(w)) + f.Creature.Proficiency + w.Bonus + s.Score()
	r := &AttackRoll{D20: d20, Bonus: bonus, Total: d20.Natural + bonus, AC: armour}
	r.Outcome = Outcome(d20.Natural, r.Total, armour, s.Critical, s.AutoHit)
	if s.Critical != 0 {
		r.Critical = s.Critical.String()
	}
	if s.AutoHit != 0 {
		r.AutoHit = s.AutoHit.String()
	}
	a.Roll = r
	return nil
}

// attackContext describes an attack for the contextual modifiers.
func (g *Game) attackContext(f, t *Combatant, w *Weapon, opportunity bool) AttackContext {
	dist := Distance(f.Pos, t.Pos)
	return AttackContext{Weapon: w.Name, Ranged: w.Ranged, Distance: dist,
		LongRange: w.Ranged && dist > w.Normal, Threatened: w.Ranged && g.threatened(f),
		Opportunity: opportunity, AttackerSees: g.sees(f, t), TargetSees: g.sees(t, f), game: g}
}

// rollDamage rolls a hit's damage: each component's dice (twice as many
// on a critical hit), plus its bonus; the first component adds the
// ability modifier and the damage value.
func rollDamage(c *engine.Ctx, g *Game, a *Act) error {
	if !a.Roll.Hit() {
		return nil
	}
	f, w := g.Fighter(a.actor), a.weapon
	for i, comp := range w.Damage {
		n := comp.Dice.N
		if a.Roll.Outcome == Crit {
			n *= 2
		}
		rolls, err := g.rollDice(c, n, comp.Dice.Sides, nil)
		if err != nil {
			return err
		}
		bonus := comp.Bonus
		if i == 0 {
			f.Damage.SetContext(a.target, g.attackContext(f, g.Fighter(a.target), w, a.Opportunity))
			bonus += f.AbilityMod(f.weaponAbility(w)) + f.Damage.Score()
			f.Damage.ClearContext()
		}
		total := bonus
		for _, r := range rolls {
			total += r
		}
		a.Damage = append(a.Damage, DamageRoll{Dice: Dice{n, comp.Dice.Sides}.String(), Rolls: rolls, Bonus: bonus, Total: max(0, total), Type: comp.Type})
	}
	return nil
}

func dealDamage(c *engine.Ctx, g *Game, a *Act) error {
	if len(a.Damage) > 0 {
		a.Dealt = g.damage(c, g.Fighter(a.target), a.actor, a.Damage)
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

func walk(c *engine.Ctx, g *Game, a *Act) error {
	return g.step(c, stepArgs{Mover: a.actor, Path: a.Path, Index: 0})
}

// step declares one step of a move: STEP_MOVEMENT goes through
// DECLARATION (a handler may stop the move), EFFECT (reactions such as
// opportunity attacks, before the mover leaves its square) and COMPLETION
// (the mover is on the new square and has paid 5 ft).
func (g *Game) step(c *engine.Ctx, a stepArgs) error {
	f := g.Fighter(a.Mover)
	ev := engine.NewEvent(evStep)
	ev.Phase, ev.Subject, ev.Source, ev.Player = engine.Declaration, f.ID, f.ID, f.Side
	ev.Data = &Step{From: f.Pos, To: a.Path[a.Index], Index: a.Index, path: a.Path}
	c.Announce(ev, stepStage[1])
	return nil
}

func (g *Game) stepStage(c *engine.Ctx, n uint8) error {
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
			why = f.Key + " is down"
		case f.Economy.Movement < SquareFeet:
			why = f.Key + " has no movement left"
		}
		if why != "" {
			st.Reason = why
			c.Cancel()
			return nil
		}
		out.Phase = engine.EffectPhase
		c.Announce(out, stepStage[2])
	case 2:
		if !f.Alive {
			c.Note("%s falls before leaving %s", f.Key, st.From)
			return nil
		}
		f.Pos = st.To
		f.Economy.Movement -= SquareFeet
		out.Phase = engine.Completion
		c.Emit(out)
		if st.Index+1 < len(st.path) {
			c.Then(engine.EffectCall{ID: stepID, Name: "STEP", Args: stepArgs{Mover: f.ID, Path: st.path, Index: st.Index + 1}})
		}
	}
	return nil
}

// --- shove ---

// contest rolls the shove: the shover's Athletics against the better of
// the target's Athletics and Acrobatics; the shover must roll higher.
func contest(c *engine.Ctx, g *Game, a *Act) error {
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
func (g *Game) skillBonus(f *Combatant, skill int) int {
	return f.AbilityMod(Skills[skill].Ability) + f.Skills[skill].Score()
}

// check20 rolls a skill check.
func (g *Game) check20(c *engine.Ctx, f *Combatant, skill int) (D20, int, error) {
	r, err := g.rollD20(c, int(f.Skills[skill].Advantage()))
	return r, r.Natural + g.skillBonus(f, skill), err
}

// push moves a shoved target one square straight away from the shover:
// forced movement, which provokes no opportunity attack.
func push(c *engine.Ctx, g *Game, a *Act) error {
	if a.Contest == nil || !a.Contest.Won {
		return nil
	}
	f, t := g.Fighter(a.actor), g.Fighter(a.target)
	to := Cell{t.Pos[0] + sign(t.Pos[0]-f.Pos[0]), t.Pos[1] + sign(t.Pos[1]-f.Pos[1])}
	if why := g.blocked(t, t.Pos, to); why != "" {
		c.Note("%s cannot be pushed: %s", t.Key, why)
		return nil
	}
	ev := engine.NewEvent(evForced)
	ev.Subject, ev.Source, ev.Player = t.ID, f.ID, t.Side
	ev.Data = &Step{From: t.Pos, To: to}
	t.Pos = to
	a.Pushed = &to
	c.Emit(ev)
	return nil
}
