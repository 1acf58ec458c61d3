package lanes

import (
	"errors"
	"fmt"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
)

// Bot plays a side of a lanes match: it scores every legal action with a
// few rules of thumb (hit the ship, destroy what it can, deploy within the
// budget, play cards) plus a little noise from its own seeded stream, and
// takes the best. The same seed gives the same choices.
type Bot struct {
	rnd *rng.Stream
}

// NewBot returns a bot for a seat whose choices depend only on the seed.
func NewBot(seed uint64, seat engine.PlayerID) *Bot {
	return &Bot{rnd: rng.New(seed).Stream(fmt.Sprintf("bot %d", seat))}
}

// Choose returns the bot's action for the player whose turn it is.
func (b *Bot) Choose(m *Match, p engine.PlayerID) Action {
	best, bestScore := Action{Kind: Pass}, -1.0
	for _, a := range m.Legal(p) {
		if sc := b.score(m, p, a) + b.rnd.Float64(); sc > bestScore {
			best, bestScore = a, sc
		}
	}
	return best
}

func (b *Bot) score(m *Match, p engine.PlayerID, a Action) float64 {
	s := m.S
	pl := &s.Players[p]
	switch a.Kind {
	case Deploy:
		over := a.Drone.Class - pl.Budget
		if over > 0 && pl.Energy-over < 6 {
			return 0 // keep energy for the action phase
		}
		return 2 + float64(a.Drone.Class)/2
	case Move:
		// Move where an enemy section is open to attack.
		for _, id := range s.Players[1-p].Lanes[a.Lane-1] {
			if !s.Drone(id).Kind.Passive {
				return 0.3
			}
		}
		return 1.5
	case Attack:
		d := s.Drone(a.ID)
		if _, _, ok := s.section(a.Target); ok {
			return 8 + float64(d.Attack())
		}
		t := s.Drone(a.Target)
		if d.Attack() >= t.Hull+t.Shields {
			return 5 + float64(t.Kind.Class)
		}
		return 1 + float64(d.Attack())/2
	case Play:
		card := m.Def.Cards[pl.Hand[a.Card]]
		if a.Target != 0 {
			if t := s.Drone(a.Target); t != nil && t.Owner != p && card.Targeting.Affinity == "ENEMY" && hasMove(card) {
				return 1.5
			}
		}
		return 2.5 - float64(card.Cost)/4
	}
	return 0.5
}

// ErrTooLong is returned by PlayBots for a game that has not ended after
// its command limit: a bug, since rounds are limited.
var ErrTooLong = errors.New("the game did not end")

// PlayBots plays a whole match with bots on both sides and returns the
// number of commands played. maxCommands bounds the game (0: 100,000).
func PlayBots(m *Match, bots [2]*Bot, maxCommands int) (int, error) {
	if maxCommands <= 0 {
		maxCommands = 100_000
	}
	n := 0
	for !m.Over() {
		if n >= maxCommands {
			return n, ErrTooLong
		}
		p := m.S.Turn
		if err := m.Do(p, bots[p].Choose(m, p)); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
