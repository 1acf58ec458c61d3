package lanes

import (
	"cmp"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// Tally counts, per drone kind and per card and seat, the firings of its
// abilities (for a card, the times it was played), the damage it dealt
// and what it destroyed, drones and ship sections. Damage an attack deals
// is its attacker's; damage a card's effect deals, the card's; a drone
// that destroys itself (a mine, Firefly) does not count that.
func (m *Match) Tally() []game.Tally {
	type key struct {
		kind, name string
		seat       int
	}
	byKey := map[key]*game.Tally{}
	at := func(k key) *game.Tally {
		t := byKey[k]
		if t == nil {
			t = &game.Tally{Name: k.name, Kind: k.kind, Seat: k.seat}
			byKey[k] = t
		}
		return t
	}
	drone := func(id engine.EntityID) *game.Tally {
		if d := m.s.Drone(id); d != nil {
			return at(key{"drone", d.Kind.Name, int(d.Owner)})
		}
		return nil
	}
	// cards are the card played in each chain, for the damage its effects
	// deal.
	cards := map[int32]*game.Tally{}
	by := func(ev *engine.Event) *game.Tally {
		if t := drone(ev.Source); t != nil {
			return t
		}
		return cards[ev.Chain]
	}
	for _, r := range m.e.Records() {
		switch r.Kind {
		case engine.RecFired:
			if t := drone(r.Reactor); t != nil {
				t.Firings++
			}
		case engine.RecEvent:
			ev := &m.e.Events[r.Event]
			switch ev.Type {
			case evCardPlayed:
				if c, ok := ev.Data.(*CardDef); ok {
					t := at(key{"card", c.Name, int(ev.Player)})
					t.Firings++
					cards[ev.Chain] = t
				}
			case evDamaged:
				if t := by(ev); t != nil {
					if di, ok := ev.Data.(*damageInfo); ok {
						t.Damage += di.Shields + di.Hull
					}
				}
			case evDestroyed:
				if t := by(ev); t != nil && ev.Source != ev.Subject {
					t.Kills++
				}
			}
		}
	}
	out := make([]game.Tally, 0, len(byKey))
	for _, t := range byKey {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b game.Tally) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Seat, b.Seat))
	})
	return out
}
