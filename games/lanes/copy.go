package lanes

import (
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

var (
	_ game.Cloner        = (*Match)(nil)
	_ game.Evaluator     = (*Match)(nil)
	_ game.SearchAdvisor = (*Match)(nil)
	_ game.Determinizer  = (*Match)(nil)
)

// Clone returns a copy of the match that plays on exactly as the match
// would (the same shuffles, the same drones marked at random), and apart
// from it: what bots look ahead on.
func (m *Match) Clone() game.Match { return m.clone(engine.CloneOptions{}) }

func (m *Match) clone(o engine.CloneOptions) *Match {
	s := m.s.clone()
	return &Match{def: m.def, e: m.e.Clone(s, o), s: s, undoable: m.undoable}
}

// clone copies the state: everything but the definition's own data.
func (s *State) clone() *State {
	c := *s
	c.scratch = make([]engine.EntityID, 0, cap(s.scratch))
	c.Play.Drones = slices.Clone(s.Play.Drones)
	for p := range c.Players {
		pl := &c.Players[p]
		pl.Deck, pl.Hand, pl.Discard = slices.Clone(pl.Deck), slices.Clone(pl.Hand), slices.Clone(pl.Discard)
		for i := range pl.Lanes {
			pl.Lanes[i] = slices.Clone(pl.Lanes[i])
		}
	}
	c.Drones = slices.Clone(s.Drones)
	for i := range c.Drones {
		c.Drones[i].Mods = slices.Clone(c.Drones[i].Mods)
	}
	return &c
}

// Determinize returns a copy of the match in which what the seat has not
// seen is drawn again from r: the other player's hand (which holds as
// many cards as before, drawn from the cards that player has not played:
// their hand and deck together), the order of both decks, and the random
// numbers to come (reshuffles, drones marked at random). The cards played
// and every count stay as they are. What is redrawn is sorted first, so
// the copy depends only on what the seat has seen, never on how the hidden
// cards lay. The copy is for playing on: it leaves the match's log behind.
func (m *Match) Determinize(seat int, r *rng.Stream) game.Match {
	c := m.clone(engine.CloneOptions{WithoutLog: true})
	for p := range c.s.Players {
		pl := &c.s.Players[p]
		if p == seat {
			redraw(pl.Deck, r)
			continue
		}
		// The hand and the deck are one pool of unseen cards; the hand is
		// the pool's first cards.
		pool := append(slices.Clone(pl.Hand), pl.Deck...)
		redraw(pool, r)
		n := copy(pl.Hand, pool)
		copy(pl.Deck, pool[n:])
	}
	c.e.RNG = rng.New(r.Uint64())
	c.e.Touch()
	return c
}

// redraw puts cards in an order drawn from r that depends only on which
// cards they are.
func redraw(cards []int, r *rng.Stream) {
	slices.Sort(cards)
	r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
}
