package skirmish

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/status"
)

// start begins the encounter: starting conditions, initiative, round 1 and
// the first turn.
func (g *State) start(c *engine.Ctx) error {
	if g.Round > 0 {
		return engine.Rejectf("the encounter has already started")
	}
	ev := engine.NewEvent(g.p.ev.encounterStart)
	ev.Data = g.Def.Name
	c.Emit(ev)
	for _, f := range g.Fighters {
		for _, u := range slices.Concat(f.Creature.Conditions, g.placement(f).Conditions) {
			if err := g.applyUse(c, f, u); err != nil {
				return err
			}
		}
	}
	g.Order = g.Order[:0]
	for _, f := range g.Fighters {
		// Everyone may react from the start; actions and movement come
		// with their turn.
		f.Economy = Economy{Reactions: 1}
		g.Order = append(g.Order, f.ID)
		if !g.Def.RollInitiative {
			continue
		}
		r, total, err := g.roll20(c, f, 1, f.InitiativeBonus)
		if err != nil {
			return err
		}
		f.Initiative = total
		ev := g.event(g.p.ev.initiative, f)
		ev.Amount, ev.Data = f.Initiative, r
		c.Emit(ev)
	}
	// Highest initiative first; ties to the higher Dexterity, then to the
	// order of the encounter file.
	slices.SortStableFunc(g.Order, func(a, b engine.EntityID) int {
		fa, fb := g.Fighter(a), g.Fighter(b)
		if fa.Initiative != fb.Initiative {
			return fb.Initiative - fa.Initiative
		}
		if !g.Def.RollInitiative {
			return 0
		}
		return fb.Abilities[1].Score() - fa.Abilities[1].Score()
	})
	g.Round = 1
	g.emitRound(c)
	g.Turn = 0
	return g.startTurn(c)
}

func (g *State) placement(f *Combatant) *Placement { return &g.Def.Placements[f.ID-1] }

func (g *State) emitRound(c *engine.Ctx) {
	ev := engine.NewEvent(g.p.ev.roundStart)
	ev.Amount = g.Round
	c.Emit(ev)
}

// startTurn gives the current combatant its action, bonus action,
// reaction and movement, and moves its conditions' durations on: a ROUNDS
// condition counts its bearer's turns, so "1 round" lasts until the start
// of the bearer's next turn.
func (g *State) startTurn(c *engine.Ctx) error {
	f := g.Current()
	f.Economy = Economy{Actions: 1, BonusActions: 1, Reactions: 1, Movement: f.Speed.Score()}
	ev := g.event(g.p.ev.turnStart, f)
	ev.Amount = g.Round
	c.Emit(ev)
	return g.book.Advance(c, f.ID, func(s *status.Status) (bool, error) { return g.save(c, f, s) })
}

// save rolls a saving throw against a condition's save: d20 + the ability
// modifier + the save's value, at least the DC to succeed.
func (g *State) save(c *engine.Ctx, f *Combatant, s *status.Status) (bool, error) {
	i := abilityIndex(s.Save.Ability)
	if i < 0 {
		return false, fmt.Errorf("condition %s: no ability %q to save with", s.Def.Name, s.Save.Ability)
	}
	r, total, err := g.roll20(c, f, i, f.Saves[i])
	if err != nil {
		return false, err
	}
	ok := total >= s.Save.DC
	ev := g.event(g.p.ev.save, f)
	ev.Amount = total
	ev.Data = &Save{D20: r, Ability: s.Save.Ability, DC: s.Save.DC, Total: total, Success: ok, Condition: s.Def.Name}
	c.Emit(ev)
	return ok, nil
}

// Save is the payload of a SAVING_THROW event.
type Save struct {
	D20
	Ability   string `json:"ability"`
	DC        int    `json:"dc"`
	Total     int    `json:"total"`
	Success   bool   `json:"success"`
	Condition string `json:"condition"`
}

// endTurn ends the current combatant's turn and starts the next living
// combatant's, starting a new round after the last. who is the combatant
// ending its turn, or System when the rules end the turn of a combatant
// that went down.
func (g *State) endTurn(c *engine.Ctx, who engine.EntityID) error {
	if err := g.mayEnd(who, c.Actor()); err != nil {
		return err
	}
	cur := g.Current()
	ev := g.event(g.p.ev.turnEnd, cur)
	ev.Amount = g.Round
	c.Emit(ev)
	for {
		g.Turn++
		if g.Turn == len(g.Order) {
			g.Turn = 0
			g.Round++
			c.Match().NewRound()
			if max := g.MaxRounds; max > 0 && g.Round > max {
				g.finish(c, engine.NoPlayer, fmt.Sprintf("no side won in %d rounds", max))
				return nil
			}
			g.emitRound(c)
		}
		if g.Current().Alive {
			return g.startTurn(c)
		}
	}
}

// mayEnd checks that who may end the current turn, for the seat.
func (g *State) mayEnd(who engine.EntityID, seat engine.PlayerID) error {
	cur := g.Current()
	switch {
	case g.Over:
		return engine.Rejectf("the encounter is over")
	case cur == nil:
		return engine.Rejectf("the encounter has not started")
	case who == engine.System && cur.Alive:
		return engine.Rejectf("%s is still standing", cur.Name)
	case who == engine.System:
		return nil
	}
	return g.mayCommand(g.Fighter(who), seat)
}

// longRest restores everyone standing to full health and ends their
// UNTIL_LONG_REST conditions. There is no resting while a fight goes on.
func (g *State) longRest(c *engine.Ctx) error {
	if err := g.mayRest(); err != nil {
		return err
	}
	for _, f := range g.Fighters {
		if !f.Alive {
			continue
		}
		f.HP = f.MaxHP.Score()
		ev := g.event(g.p.ev.rest, f)
		ev.Amount = f.HP
		c.Emit(ev)
		g.book.LongRest(c, f.ID)
	}
	return nil
}

func (g *State) mayRest() error {
	if !g.Over {
		return engine.Rejectf("no one can rest while the fight goes on")
	}
	return nil
}

// Damage is the payload of a DAMAGE event.
type Damage struct {
	Parts []DamagePart `json:"parts"`
	// Dealt is the damage dealt: the parts taken, less the reduction
	// (temporary hit points included).
	Dealt int `json:"dealt"`
	// Reduced is what damage reduction took off; Absorbed what temporary
	// hit points took.
	Reduced  int `json:"reduced,omitempty"`
	Absorbed int `json:"absorbed,omitempty"`
	// HP is what the creature has left.
	HP int `json:"hp"`
}

// DamagePart is one component of damage as the creature took it.
type DamagePart struct {
	Type   string `json:"type"`
	Rolled int    `json:"rolled"`
	Taken  int    `json:"taken"`
	// Status is the creature's resistance to the type, if any.
	Status string `json:"status,omitempty"`
}

// damage deals a hit's damage to a creature: each component is
// multiplied by the creature's resistance to its type (immune ×0, resistant
// ×½ rounded down, vulnerable ×2), the sum loses the damage reduction,
// temporary hit points absorb what they can and the rest comes off the hit
// points. It returns the damage as the creature took it.
func (g *State) damage(c *engine.Ctx, t *Combatant, source engine.EntityID, rolls []DamageRoll) *Damage {
	res := t.Resistance
	src := g.Fighter(source)
	if src != nil {
		res.SetContext(source, AttackContext{Distance: Distance(src.Pos, t.Pos), game: g})
		res.Import(src.Damage)
	}
	hit := &Damage{}
	sum := 0
	for _, r := range rolls {
		st := res.Resistance(r.Type)
		p := DamagePart{Type: r.Type, Rolled: r.Total, Taken: st.Apply(r.Total)}
		if st != 0 {
			p.Status = st.String()
		}
		hit.Parts = append(hit.Parts, p)
		sum += p.Taken
	}
	res.ResetImport()
	res.ClearContext()
	final := max(0, sum-t.DamageReduction.Score())
	hit.Reduced = sum - final
	hit.Absorbed = min(t.TempHP, final)
	t.TempHP -= hit.Absorbed
	t.HP = max(0, t.HP-(final-hit.Absorbed))
	hit.HP, hit.Dealt = t.HP, final
	if src != nil {
		src.Dealt += final
	}
	ev := g.event(g.p.ev.damage, t)
	ev.Source, ev.Amount, ev.Data = source, final, hit
	c.Emit(ev)
	if t.HP == 0 {
		g.kill(c, t, source)
	}
	return hit
}

// kill takes a creature at 0 hit points out of the fight, with everything
// it registered: its conditions and its reactions.
func (g *State) kill(c *engine.Ctx, f *Combatant, source engine.EntityID) {
	f.Alive = false
	if src := g.Fighter(source); src != nil {
		src.KnockOuts++
	}
	ev := g.event(g.p.ev.death, f)
	ev.Source = source
	c.Emit(ev)
	g.book.RemoveBearer(c, f.ID, "died")
	c.Index().RemoveReactor(f.ID)
	g.checkEnd(c)
}

// checkEnd ends the encounter once at most one side has anyone standing.
func (g *State) checkEnd(c *engine.Ctx) {
	if g.Over {
		return
	}
	standing := engine.NoPlayer
	for _, f := range g.Fighters {
		if !f.Alive {
			continue
		}
		if standing != engine.NoPlayer && standing != f.Side {
			return
		}
		standing = f.Side
	}
	reason := "everyone is down"
	if standing != engine.NoPlayer {
		reason = g.Def.Sides[standing] + " are the last standing"
	}
	g.finish(c, standing, reason)
}

// finish ends the encounter; reason says why, naming sides.
func (g *State) finish(c *engine.Ctx, winner engine.PlayerID, reason string) {
	g.Over, g.Winner, g.Reason = true, winner, reason
	ev := engine.NewEvent(g.p.ev.encounterEnd)
	ev.Player, ev.Data = winner, reason
	c.Emit(ev)
}

// event returns an event about a combatant: its subject and source, its
// side's seat, and where it stands.
func (g *State) event(t engine.EventType, f *Combatant) engine.Event {
	ev := engine.NewEvent(t)
	ev.Subject, ev.Source, ev.Player, ev.Location = f.ID, f.ID, f.Side, g.Def.location(f.Pos)
	return ev
}
