package skirmish

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine/rng"
)

// botReaction is the bot's answer to a reaction: it always takes it.
var botReaction = Command{Do: "reaction", Take: new(true)}

// Bot returns what the pack's bot plays now for the side in the seat, or
// false if the match does not wait for it. The bot is simple and
// deterministic. It takes every reaction. On its turn it attacks the
// weakest enemy in reach of a melee weapon, else shoots the nearest enemy
// within normal range when nobody threatens it, else closes in on the
// nearest enemy it can reach (dashing if it has nothing better to do with
// its action), else shoots at long range, else ends its turn; a command
// the rules would refuse becomes the end of its turn.
func (m *Match) Bot(seat int) (Command, bool) {
	g := m.State
	if d, ok := m.reaction(); ok {
		return botReaction, int(d.Player) == seat
	}
	f := g.Current()
	if g.Over || f == nil || int(f.Side) != seat {
		return Command{}, false
	}
	cmd := g.botTurn(f)
	if _, _, err := m.command(cmd, f.Side); err != nil {
		cmd = Command{Do: "end", Who: f.Key}
	}
	return cmd, true
}

// BotCommand is Bot as JSON (game.Botter). The bot draws no randomness.
func (m *Match) BotCommand(seat int, _ *rng.Stream) (json.RawMessage, bool) {
	cmd, ok := m.Bot(seat)
	if !ok {
		return nil, false
	}
	return commandJSON(cmd), true
}

// botTurn is the bot's command for the combatant whose turn it is.
func (g *State) botTurn(f *Combatant) Command {
	end := Command{Do: "end", Who: f.Key}
	if !f.Alive {
		return end
	}
	enemies := g.enemiesOf(f)
	if len(enemies) == 0 {
		return end
	}
	if f.Economy.Actions > 0 {
		if w := f.meleeWeapon(); w != nil {
			var best *Combatant
			for _, e := range enemies {
				if Distance(f.Pos, e.Pos) <= w.Reach && (best == nil || e.HP < best.HP) {
					best = e
				}
			}
			if best != nil {
				return Command{Do: "attack", Who: f.Key, Target: best.Key, Weapon: w.Name}
			}
		}
		if w, e := f.rangedShot(enemies, false); w != nil && !g.threatened(f) {
			return Command{Do: "attack", Who: f.Key, Target: e.Key, Weapon: w.Name}
		}
	}
	if f.Economy.Movement >= SquareFeet {
		if path := g.approach(f, enemies); len(path) > 0 {
			return Command{Do: "move", Who: f.Key, Path: path}
		}
	}
	if f.Economy.Actions > 0 {
		if w, e := f.rangedShot(enemies, true); w != nil {
			return Command{Do: "attack", Who: f.Key, Target: e.Key, Weapon: w.Name}
		}
		if f.meleeWeapon() != nil && g.approach(f, enemies) == nil && f.Economy.Movement < SquareFeet && !g.has(f.ID, "dashing") {
			if _, reachable := g.nearestPath(f, enemies); reachable {
				return Command{Do: "dash", Who: f.Key}
			}
		}
	}
	return end
}

// enemiesOf returns the living enemies of a combatant, nearest first (ties
// in the encounter's order).
func (g *State) enemiesOf(f *Combatant) []*Combatant {
	var out []*Combatant
	for _, e := range g.Fighters {
		if e.Alive && e.Side != f.Side {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b *Combatant) int { return Distance(f.Pos, a.Pos) - Distance(f.Pos, b.Pos) })
	return out
}

// rangedShot returns a ranged weapon and the nearest enemy it reaches,
// within normal range (or long range if long is set).
func (f *Combatant) rangedShot(enemies []*Combatant, long bool) (*Weapon, *Combatant) {
	for i := range f.Creature.Weapons {
		w := &f.Creature.Weapons[i]
		if !w.Ranged {
			continue
		}
		limit := w.Normal
		if long {
			limit = w.Long
		}
		for _, e := range enemies {
			if Distance(f.Pos, e.Pos) <= limit {
				return w, e
			}
		}
	}
	return nil, nil
}

// nearestPath returns the shortest path to a square next to an enemy, and
// whether there is one.
func (g *State) nearestPath(f *Combatant, enemies []*Combatant) ([]Cell, bool) {
	var best []Cell
	found := false
	for _, e := range enemies {
		p := g.pathFor(f, e.Pos)
		if p == nil {
			continue
		}
		p = p[:len(p)-1] // stop next to the enemy
		if !found || len(p) < len(best) {
			best, found = p, true
		}
	}
	return best, found
}

// approach returns the steps toward the nearest reachable enemy that the
// combatant's movement allows, or nil if it is already next to one or
// cannot move closer.
func (g *State) approach(f *Combatant, enemies []*Combatant) []Cell {
	path, ok := g.nearestPath(f, enemies)
	if !ok || len(path) == 0 {
		return nil
	}
	if n := f.Economy.Movement / SquareFeet; len(path) > n {
		path = path[:n]
	}
	return path
}

// PlayBots plays the match with the pack's bot for every side until it
// ends, at most limit commands.
func (m *Match) PlayBots(limit int) error {
	for n := 0; !m.State.Over; n++ {
		if n >= limit {
			return fmt.Errorf("the fight did not end within %d commands", limit)
		}
		seats := m.Waiting()
		if len(seats) == 0 {
			return fmt.Errorf("the fight waits for nobody: %v", m.Engine.Err())
		}
		cmd, _ := m.Bot(seats[0])
		if err := m.Play(seats[0], cmd); err != nil {
			return err
		}
	}
	return nil
}
