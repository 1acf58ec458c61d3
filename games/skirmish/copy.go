package skirmish

import (
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

var (
	_ game.Cloner        = (*Match)(nil)
	_ game.Evaluator     = (*Match)(nil)
	_ game.SearchAdvisor = (*Match)(nil)
	_ game.Determinizer  = (*Match)(nil)
)

// Clone returns a copy of the match that plays on exactly as the match
// would (the same dice), and apart from it: what bots look ahead on. A
// fight paused for a reaction is copied with the move it interrupted.
func (m *Match) Clone() game.Match { return m.clone(engine.CloneOptions{}) }

// clone copies the match, with the payloads of a move paused for a
// reaction.
func (m *Match) clone(o engine.CloneOptions) *Match {
	g := m.State.copy()
	o.Payload = copyPayload
	e := m.Engine.Clone(g, o)
	g.book = m.State.book.Copy(g, e.Index)
	return &Match{Engine: e, State: g, def: m.def, undoable: m.undoable}
}

// copy copies the state but for its book of conditions, which needs the
// copied match's index: the combatants with their values (each importing,
// if it does, the copy of what the original imports), the registry, the
// order and the scripted dice.
func (g *State) copy() *State {
	c := *g
	c.book = nil
	c.Registry.entries = slices.Clone(g.Registry.entries)
	c.Order = slices.Clone(g.Order)
	c.Dice = slices.Clone(g.Dice)
	c.Fighters = make([]*Combatant, len(g.Fighters))
	all := make([]Combatant, len(g.Fighters))
	for i, f := range g.Fighters {
		all[i] = f.copy()
		c.Fighters[i] = &all[i]
	}
	for _, f := range c.Fighters {
		for _, v := range f.all {
			if from := v.Imported(); from != nil {
				v.Import(c.Value(from.Owner, from.Name))
			}
			if ctx := v.Context(); ctx.Data != nil {
				if a, ok := ctx.Data.(AttackContext); ok && a.game != nil {
					a.game = &c
					v.SetContext(ctx.Target, a)
				}
			}
		}
	}
	return &c
}

// copy copies a combatant with its values; the named values are the
// copies of the originals.
func (f *Combatant) copy() Combatant {
	c := *f
	c.all = make([]*value.Value, len(f.all))
	for i, v := range f.all {
		c.all[i] = v.Copy()
	}
	same := func(v *value.Value) *value.Value {
		if i := slices.Index(f.all, v); i >= 0 {
			return c.all[i]
		}
		return v
	}
	for i := range c.Abilities {
		c.Abilities[i], c.Saves[i] = same(f.Abilities[i]), same(f.Saves[i])
	}
	c.Skills = make([]*value.Value, len(f.Skills))
	for i, v := range f.Skills {
		c.Skills[i] = same(v)
	}
	for _, p := range []**value.Value{&c.AC, &c.Attack, &c.Damage, &c.Resistance, &c.DamageReduction, &c.Speed, &c.MaxHP, &c.InitiativeBonus} {
		*p = same(*p)
	}
	return c
}

// copyPayload copies the payloads that a fight paused for a reaction may
// still change: the act and the step it interrupted, the damage dealt.
func copyPayload(v any) any {
	switch p := v.(type) {
	case *Act:
		c := *p
		c.Path, c.Damage = slices.Clone(p.Path), slices.Clone(p.Damage)
		return &c
	case *Step:
		c := *p
		return &c
	case *Damage:
		c := *p
		c.Parts = slices.Clone(p.Parts)
		return &c
	case *Save:
		c := *p
		return &c
	}
	return v
}

// Determinize returns a copy of the match in which the dice to come,
// scripted or random, are drawn again from r: a fight hides nothing else,
// and a bot that looked into an exact copy would know how its attacks
// will roll. The copy is for playing on: unless a reaction is pending, it
// leaves the match's log behind.
func (m *Match) Determinize(seat int, r *rng.Stream) game.Match {
	c := m.clone(engine.CloneOptions{WithoutLog: true})
	c.State.Dice = nil
	c.Engine.RNG = rng.New(r.Uint64())
	c.Engine.Touch()
	return c
}

// SearchAdvice is how bots search a skirmish: a playout to the end is a
// hundred or more random commands (random fighters wander) that say
// little, so each new node is scored by Evaluate at once and the tree
// alone looks ahead (docs/bots.md measures it against greedy play).
func (m *Match) SearchAdvice() game.SearchAdvice {
	return game.SearchAdvice{Iterations: 300, Leaves: true, Exploration: 0.2}
}

// Evaluate says how a side stands, from -1 to 1, for bots that look ahead:
// half its share of hit points left against the other sides' (each as a
// share of their maximum), half its share of creatures standing against
// theirs.
func (m *Match) Evaluate(seat int) float64 {
	g := m.State
	var hp, maxHP, up, n [2]float64 // the seat's side, then the others
	for _, f := range g.Fighters {
		k := 1
		if f.Side == engine.PlayerID(seat) {
			k = 0
		}
		n[k]++
		maxHP[k] += float64(max(1, f.MaxHP.Score()))
		if f.Alive {
			up[k]++
			hp[k] += float64(max(0, f.HP))
		}
	}
	if n[0] == 0 || n[1] == 0 {
		return 0
	}
	return max(-1, min(1, (hp[0]/maxHP[0]-hp[1]/maxHP[1]+up[0]/n[0]-up[1]/n[1])/2))
}
