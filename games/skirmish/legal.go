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
				add(Command{Do: "shove", Who: f.Key, Target: t.Key}, fmt.Sprintf("Shove %s 5 ft away (athletics against its athletics or acrobatics)", t.Name))
			}
		}
		add(Command{Do: "dodge", Who: f.Key}, "Dodge: attacks against "+f.Name+" have disadvantage until its next turn")
		add(Command{Do: "disengage", Who: f.Key}, "Disengage: move without provoking opportunity attacks this turn")
		add(Command{Do: "dash", Who: f.Key}, fmt.Sprintf("Dash: %d ft more movement this turn", f.Speed.Score()))
	}
	for _, r := range g.reachable(f) {
		add(Command{Do: "move", Who: f.Key, To: &r.At}, g.moveText(f, r))
	}
	add(Command{Do: "end", Who: f.Key}, "End "+f.Name+"'s turn")
	return out
}

// attackText says what an attack would be: "Attack Goblin 1 with the
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
	return fmt.Sprintf("Attack %s with the %s (%s, %s)", t.Name, w.Name, roll, strings.Join(dmg, " + "))
}

// moveText says where a move goes, from where the combatant stands, in
// feet and compass directions (north is up the map), with the enemies it
// ends next to and what it provokes: "Move 10 ft north and 5 ft east,
// next to Goblin 1, provoking an opportunity attack from Goblin 2". A way
// round walls or creatures longer than the straight line says how long.
func (g *State) moveText(f *Combatant, r Reach) string {
	// Legal lists a move for every square in reach, and searching bots
	// ask for Legal very often: one builder, no slice of names.
	var b strings.Builder
	b.Grow(64)
	b.WriteString("Move ")
	dx, dy := r.At[0]-f.Pos[0], r.At[1]-f.Pos[1]
	writeDirection(&b, dx, dy)
	if straight := max(abs(dx), abs(dy)) * SquareFeet; r.Feet > straight {
		b.WriteString(" (")
		b.WriteString(strconv.Itoa(r.Feet))
		b.WriteString(" ft round the way)")
	}
	near := 0
	for _, e := range g.Fighters {
		if e != f && e.Alive && e.Side != f.Side && Distance(r.At, e.Pos) <= SquareFeet {
			near++
		}
	}
	seen := 0
	for _, e := range g.Fighters {
		if e != f && e.Alive && e.Side != f.Side && Distance(r.At, e.Pos) <= SquareFeet {
			writeListed(&b, ", next to ", seen, near, e.Name)
			seen++
		}
	}
	for i, k := range r.Provokes {
		name := k
		if p := g.ByKey(k); p != nil {
			name = p.Name
		}
		lead := ", provoking an opportunity attack from "
		if len(r.Provokes) > 1 {
			lead = ", provoking opportunity attacks from "
		}
		writeListed(&b, lead, i, len(r.Provokes), name)
	}
	return b.String()
}

// writeListed writes the i-th of n names as a list reads: "a", "a and b",
// "a, b and c"; lead comes before the first.
func writeListed(b *strings.Builder, lead string, i, n int, name string) {
	switch {
	case i == 0:
		b.WriteString(lead)
	case i == n-1:
		b.WriteString(" and ")
	default:
		b.WriteString(", ")
	}
	b.WriteString(name)
}

// writeDirection says a move of dx squares east and dy squares south in
// feet and compass directions: "10 ft north", "5 ft south-west", "10 ft
// north and 5 ft east".
func writeDirection(b *strings.Builder, dx, dy int) {
	ns, ew := "south", "east"
	if dy < 0 {
		ns = "north"
	}
	if dx < 0 {
		ew = "west"
	}
	x, y := abs(dx)*SquareFeet, abs(dy)*SquareFeet
	feet := func(n int, dir string) {
		b.WriteString(strconv.Itoa(n))
		b.WriteString(" ft ")
		b.WriteString(dir)
	}
	switch {
	case x == 0 && y == 0:
		b.WriteString("nowhere")
	case x == 0:
		feet(y, ns)
	case y == 0:
		feet(x, ew)
	case x == y:
		feet(x, ns+"-"+ew)
	case y > x:
		feet(y, ns)
		b.WriteString(" and ")
		feet(x, ew)
	default:
		feet(x, ew)
		b.WriteString(" and ")
		feet(y, ns)
	}
}
