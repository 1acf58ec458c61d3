package skirmish

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine"
)

// BotCommand returns what a bot plays next for the combatant whose turn it
// is. The bot is simple and deterministic: it attacks the weakest enemy in
// reach of a melee weapon, else shoots the nearest enemy within normal
// range when nobody threatens it, else closes in on the nearest enemy it
// can reach (dashing if it has nothing better to do with its action), else
// shoots at long range, else ends its turn.
func (m *Match) BotCommand() Command {
	g := m.Game
	f := g.Current()
	end := Command{Do: "end", Who: f.Key}
	if g.Over || !f.Alive {
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
func (g *Game) enemiesOf(f *Combatant) []*Combatant {
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
func (g *Game) nearestPath(f *Combatant, enemies []*Combatant) ([]Cell, bool) {
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
func (g *Game) approach(f *Combatant, enemies []*Combatant) []Cell {
	path, ok := g.nearestPath(f, enemies)
	if !ok || len(path) == 0 {
		return nil
	}
	if n := f.Economy.Movement / SquareFeet; len(path) > n {
		path = path[:n]
	}
	return path
}

// PlayBots plays the match with bots for every side until it ends, at most
// limit commands. A rejected bot command ends the bot's turn.
func (m *Match) PlayBots(limit int) error {
	for n := 0; !m.Game.Over; n++ {
		if n >= limit {
			return fmt.Errorf("the fight did not end within %d commands", limit)
		}
		if err := m.Do(m.BotCommand()); err != nil {
			if !engine.IsRejected(err) {
				return err
			}
			if err := m.Do(Command{Do: "end", Who: m.Game.Current().Key}); err != nil {
				return err
			}
		}
	}
	return nil
}
