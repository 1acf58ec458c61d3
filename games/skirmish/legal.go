package skirmish

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/game"
)

// Reach is a square a combatant can move to now, by the path a move there
// takes, and the creatures that would make an opportunity attack on the
// way.
type Reach struct {
	At Cell `json:"at"`
	// Feet is the movement the move costs.
	Feet int `json:"feet"`
	// Provokes are the keys of the creatures whose reach the move leaves
	// while they can still react, in the order the steps leave them.
	Provokes []string `json:"provokes,omitempty"`
}

// reachable returns the squares a combatant can reach with the movement it
// has left, nearest first: the squares a move may go to (each by a
// shortest path around walls and creatures, the one a move there takes).
func (g *State) reachable(f *Combatant) []Reach {
	steps := f.Economy.Movement / SquareFeet
	if !f.Alive || steps == 0 {
		return nil
	}
	t := g.Def.Grid.search(f.Pos, steps, func(c Cell) bool { return g.At(c) == nil }, Cell{-1, -1})
	out := make([]Reach, 0, len(t.order))
	for _, c := range t.order {
		path := t.path(c)
		out = append(out, Reach{At: c, Feet: len(path) * SquareFeet, Provokes: g.provoked(f, path)})
	}
	return out
}

// provoked returns the keys of the creatures that a combatant walking a
// path would let make an opportunity attack, each once (a reaction is
// spent on the first), supposing it walks the whole way.
func (g *State) provoked(f *Combatant, path []Cell) []string {
	var out []string
	from := f.Pos
	for _, to := range path {
		for _, r := range g.Fighters {
			if g.provokes(r, f, from, to) && !slices.Contains(out, r.Key) {
				out = append(out, r.Key)
			}
		}
		from = to
	}
	return out
}

// Legal lists the commands the side in the seat may play now. Asked for a
// reaction: take it, or let it go. On the turn of one of its combatants:
// an attack on each enemy within reach (or range) of each weapon, a shove
// of each creature next to it, dodge, disengage and dash while it has its
// action, a move to each square its movement reaches (by the path a move
// there takes), and the end of the turn.
func (m *Match) Legal(seat int) []game.Command {
	g := m.State
	if g.Over || m.Engine.Err() != nil {
		return nil
	}
	if d, ok := m.reaction(); ok {
		if int(d.Player) != seat {
			return nil
		}
		return []game.Command{
			{Data: commandJSON(Command{Do: "reaction", Take: new(true)}), Text: d.Options[0]},
			{Data: commandJSON(Command{Do: "reaction", Take: new(false)}), Text: d.Options[1]},
		}
	}
	f := g.Current()
	if f == nil || !f.Alive || int(f.Side) != seat {
		return nil
	}
	var out []game.Command
	add := func(c Command, text string) { out = append(out, game.Command{Data: commandJSON(c), Text: text}) }
	if f.Economy.Actions > 0 {
		for i := range f.Creature.Weapons {
			w := &f.Creature.Weapons[i]
			for _, t := range g.Fighters {
				if t.Alive && t.Side != f.Side && outOfRange(f, t, w) == "" {
					add(Command{Do: "attack", Who: f.Key, Target: t.Key, Weapon: w.Name}, g.attackText(f, t, w))
				}
			}
		}
		for _, t := range g.Fighters {
			if t != f && t.Alive && Distance(f.Pos, t.Pos) <= SquareFeet {
				add(Command{Do: "shove", Who: f.Key, Target: t.Key}, fmt.Sprintf("Shove the %s 5 ft away (athletics against its athletics or acrobatics)", t.Key))
			}
		}
		add(Command{Do: "dodge", Who: f.Key}, "Dodge: attacks against the "+f.Key+" have disadvantage until its next turn")
		add(Command{Do: "disengage", Who: f.Key}, "Disengage: move without provoking opportunity attacks this turn")
		add(Command{Do: "dash", Who: f.Key}, fmt.Sprintf("Dash: %d ft more movement this turn", f.Speed.Score()))
	}
	for _, r := range g.reachable(f) {
		add(Command{Do: "move", Who: f.Key, To: &r.At}, moveText(r))
	}
	add(Command{Do: "end", Who: f.Key}, "End the "+f.Key+"'s turn")
	return out
}

// attackText says what an attack would be: "Attack the goblin with the
// shortbow (+5 to hit, 1d6+3 piercing)", with advantage or disadvantage.
func (g *State) attackText(f, t *Combatant, w *Weapon) string {
	x := g.aim(f, t, w, false, false)
	roll := fmt.Sprintf("%+d to hit", x.bonus)
	switch {
	case x.summary.Advantage > 0:
		roll += " with advantage"
	case x.summary.Advantage < 0:
		roll += " with disadvantage"
	}
	var dmg []string
	for i, comp := range w.Damage {
		bonus, _ := g.damageBonus(f, t, w, i, false, false)
		s := comp.Dice.String()
		if bonus != 0 {
			s += fmt.Sprintf("%+d", bonus)
		}
		dmg = append(dmg, s+" "+comp.Type)
	}
	return fmt.Sprintf("Attack the %s with the %s (%s, %s)", t.Key, w.Name, roll, strings.Join(dmg, " + "))
}

// moveText says where a move goes, and what it provokes: "Move to (3,4),
// provoking an opportunity attack from the goblin".
func moveText(r Reach) string {
	s := "Move to " + r.At.String() + " (" + strconv.Itoa(r.Feet) + " ft)"
	if len(r.Provokes) == 0 {
		return s
	}
	names := make([]string, len(r.Provokes))
	for i, k := range r.Provokes {
		names[i] = "the " + k
	}
	if len(names) == 1 {
		return s + ", provoking an opportunity attack from " + names[0]
	}
	return s + ", provoking opportunity attacks from " + joinAnd(names)
}
