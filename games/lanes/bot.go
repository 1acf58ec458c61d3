package lanes

import (
	"encoding/json"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
)

// BotCommand is what the pack's bot plays for a seat now: it scores every
// legal action with a few rules of thumb (hit the ship, destroy what it
// can, deploy within the budget, play cards) plus a little noise drawn
// from r, and takes the best. The same stream gives the same choices.
func (m *Match) BotCommand(seat int, r *rng.Stream) (json.RawMessage, bool) {
	if m.over() || engine.PlayerID(seat) != m.s.Turn {
		return nil, false
	}
	p := engine.PlayerID(seat)
	data, _ := json.Marshal(m.command(p, m.botAction(p, r)))
	return data, true
}

// botAction is the bot's choice among the legal actions.
func (m *Match) botAction(p engine.PlayerID, r *rng.Stream) action {
	best, bestScore := action{kind: actPass}, -1.0
	for _, a := range m.legal(p) {
		if sc := m.botScore(p, a) + r.Float64(); sc > bestScore {
			best, bestScore = a, sc
		}
	}
	return best
}

func (m *Match) botScore(p engine.PlayerID, a action) float64 {
	s := m.s
	pl := &s.Players[p]
	switch a.kind {
	case actDeploy:
		over := a.drone.Class - pl.Budget
		if over > 0 && pl.Energy-over < 6 {
			return 0 // keep energy for the action phase
		}
		return 2 + float64(a.drone.Class)/2
	case actMove:
		// Move where an enemy section is open to attack.
		for _, id := range s.Players[1-p].Lanes[a.lane-1] {
			if !s.Drone(id).Kind.Passive {
				return 0.3
			}
		}
		return 1.5
	case actAttack:
		d := s.Drone(a.id)
		if _, _, ok := s.section(a.target); ok {
			return 8 + float64(d.Attack())
		}
		t := s.Drone(a.target)
		if d.Attack() >= t.Hull+t.Shields {
			return 5 + float64(t.Kind.Class)
		}
		return 1 + float64(d.Attack())/2
	case actPlay:
		card := m.def.Cards[pl.Hand[a.card]]
		if a.target != 0 {
			if t := s.Drone(a.target); t != nil && t.Owner != p && card.Targeting.Affinity == "ENEMY" && hasMove(card) {
				return 1.5
			}
		}
		return 2.5 - float64(card.Cost)/4
	}
	return 0.5
}
