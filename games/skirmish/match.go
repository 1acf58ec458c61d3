package skirmish

import (
	"slices"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/status"
)

// Match is one fight of an encounter: the engine's match and the game
// state it drives. The sides of the encounter are its players, in order.
type Match struct {
	*engine.Match
	Game *Game
}

// NewMatch starts a fight: the combatants take their places, the
// encounter starts (starting conditions, initiative, the first turn).
// seed seeds the dice; dice are scripted dice, rolled before any random
// one.
func NewMatch(enc *Encounter, seed uint64, dice []int) (*Match, error) {
	g := &Game{Encounter: enc, Turn: -1, Winner: engine.NoPlayer, Dice: slices.Clone(dice)}
	g.defs = slices.Concat(enc.Conditions, standard)
	for i := range enc.Placements {
		p := &enc.Placements[i]
		g.Fighters = append(g.Fighters, newCombatant(g.Registry.Add(p.Key, KindCombatant), p))
	}
	m := &Match{Match: engine.NewMatch(rules, g, seed, slices.Clone(enc.Sides)), Game: g}
	g.book = status.NewBook(g, m.Index, evApplied, evRemoved)
	for _, f := range g.Fighters {
		if f.Creature.OpportunityAttacks && f.meleeWeapon() != nil {
			m.Index.Add(opportunity, f.ID, f.Side, engine.NoLocation, int64(f.ID))
		}
	}
	if err := m.Run(engine.NoPlayer, effects.MustCall("START", nil)); err != nil {
		return nil, err
	}
	return m, nil
}

// Command is what a side does, as scenario files and the terminal write
// it: {do: attack, who: rogue, target: goblin, weapon: shortbow}.
type Command struct {
	// Do is attack, move, dash, disengage, dodge, shove, end (the turn) or
	// rest (a long rest, once the fight is over).
	Do string `json:"do" yaml:"do"`
	// Who acts; by default the combatant whose turn it is.
	Who    string `json:"who,omitempty" yaml:"who"`
	Target string `json:"target,omitempty" yaml:"target"`
	// Weapon names the weapon of an attack; by default the first that
	// reaches the target.
	Weapon string `json:"weapon,omitempty" yaml:"weapon"`
	// To is where a move goes, by a shortest path; Path gives the squares
	// step by step instead.
	To   *Cell  `json:"to,omitempty" yaml:"to"`
	Path []Cell `json:"path,omitempty" yaml:"path"`
}

// Commands are the verbs a Command may use.
var Commands = []string{"attack", "move", "dash", "disengage", "dodge", "shove", "end", "rest"}

// Do plays a command for the side of the combatant it names. A command
// that breaks the rules is rejected (engine.IsRejected) and changes
// nothing. After it, the turn of a combatant that went down ends by
// itself.
func (m *Match) Do(cmd Command) error {
	call, seat, err := m.command(cmd)
	if err != nil {
		return err
	}
	if err := m.Run(seat, call); err != nil {
		return err
	}
	return m.settle()
}

// settle ends the turns of combatants that are down.
func (m *Match) settle() error {
	for g := m.Game; !g.Over && g.Current() != nil && !g.Current().Alive; {
		if err := m.Run(engine.NoPlayer, effects.MustCall("END_TURN", engine.System)); err != nil {
			return err
		}
	}
	return nil
}

func (m *Match) fighter(key, role string) (*Combatant, error) {
	g := m.Game
	if key == "" {
		if role == "who" {
			if f := g.Current(); f != nil {
				return f, nil
			}
		}
		return nil, engine.Rejectf("name the %s", role)
	}
	if f := g.ByKey(key); f != nil {
		return f, nil
	}
	return nil, engine.Rejectf("no combatant %q%s", key, diag.DidYouMean(key, g.Keys()))
}

// command turns a Command into the effect that plays it and the seat that
// plays it.
func (m *Match) command(cmd Command) (engine.EffectCall, engine.PlayerID, error) {
	g := m.Game
	var none engine.EffectCall
	if cmd.Do == "rest" {
		return effects.MustCall("LONG_REST", nil), engine.NoPlayer, g.mayRest()
	}
	if !slices.Contains(Commands, cmd.Do) {
		return none, 0, engine.Rejectf("no command %q%s", cmd.Do, diag.DidYouMean(cmd.Do, Commands))
	}
	f, err := m.fighter(cmd.Who, "who")
	if err != nil {
		return none, 0, err
	}
	if cmd.Do == "end" {
		return effects.MustCall("END_TURN", f.ID), f.Side, g.mayEnd(f.ID, f.Side)
	}
	a := actArgs{Action: cmd.Do, Actor: f.ID, Weapon: cmd.Weapon, Path: cmd.Path}
	def := actionNamed(cmd.Do)
	if def.Target {
		t, err := m.fighter(cmd.Target, "target")
		if err != nil {
			return none, 0, err
		}
		a.Target = t.ID
		if def.Weapon && a.Weapon == "" {
			a.Weapon = bestWeapon(f, t)
		}
	}
	if def == moveAction && a.Path == nil {
		if cmd.To == nil {
			return none, 0, engine.Rejectf("say where to move: to [x, y] or a path")
		}
		a.Path = g.pathFor(f, *cmd.To)
		if a.Path == nil {
			return none, 0, engine.Rejectf("%s finds no way to %s", f.Key, *cmd.To)
		}
	}
	if _, err := g.prepare(a, f.Side); err != nil {
		return none, 0, err
	}
	return effects.MustCall("ACT", a), f.Side, nil
}

// pathFor returns a shortest path for a combatant around walls and other
// creatures, or nil.
func (g *Game) pathFor(f *Combatant, to Cell) []Cell {
	return g.Encounter.Grid.Path(f.Pos, to, func(c Cell) bool { o := g.At(c); return o != nil && o != f })
}

// bestWeapon picks the first weapon that reaches the target without
// disadvantage, else the first that reaches it, else the first.
func bestWeapon(f, t *Combatant) string {
	d := Distance(f.Pos, t.Pos)
	fallback := ""
	for _, w := range f.Creature.Weapons {
		switch {
		case !w.Ranged && d <= w.Reach, w.Ranged && d <= w.Normal:
			return w.Name
		case w.Ranged && d <= w.Long && fallback == "":
			fallback = w.Name
		}
	}
	if fallback == "" && len(f.Creature.Weapons) > 0 {
		fallback = f.Creature.Weapons[0].Name
	}
	return fallback
}
