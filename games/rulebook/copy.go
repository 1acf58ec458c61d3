package rulebook

import (
	"maps"
	"slices"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

var (
	_ game.Cloner       = (*Match)(nil)
	_ game.Evaluator    = (*Match)(nil)
	_ game.Determinizer = (*Match)(nil)
)

// Clone returns a copy of the match that plays on exactly as the match
// would (the same dice, the same cards drawn), and apart from it: what
// bots look ahead on. The rules' chain, paused for a decision, is copied
// paused.
func (m *Match) Clone() game.Match { return m.clone(engine.CloneOptions{}) }

func (m *Match) clone(o engine.CloneOptions) *Match {
	c := *m
	c.state = m.state.clone()
	c.eng = m.eng.Clone(c.state, o)
	c.words, c.said = maps.Clone(m.words), maps.Clone(m.said)
	return &c
}

// clone copies the state.
func (s *State) clone() *State {
	c := *s
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		c.Players[i].Props = slices.Clone(s.Players[i].Props)
	}
	c.Owners, c.Dice, c.Winners, c.Script = slices.Clone(s.Owners), slices.Clone(s.Dice), slices.Clone(s.Winners), slices.Clone(s.Script)
	c.Decks = slices.Clone(s.Decks)
	for i := range c.Decks {
		c.Decks[i].Draw, c.Decks[i].Discard = slices.Clone(s.Decks[i].Draw), slices.Clone(s.Decks[i].Discard)
	}
	return &c
}

// Determinize returns a copy of the match in which what the seat has not
// seen is drawn again from r: the order of every deck's draw pile (its
// cards stay the same: those not drawn since it was shuffled), the dice
// to come (scripted or random) and every other random draw to come, and
// the other players' sealed bids given but not yet shown. A draw pile is
// sorted before it is shuffled, so the copy depends only on what the seat
// has seen.
func (m *Match) Determinize(seat int, r *rng.Stream) game.Match {
	c := m.clone(engine.CloneOptions{WithoutLog: true})
	s := c.state
	for i := range s.Decks {
		pile := s.Decks[i].Draw
		slices.Sort(pile)
		r.Shuffle(len(pile), func(a, b int) { pile[a], pile[b] = pile[b], pile[a] })
	}
	s.Script = s.Script[:min(s.Scripted, len(s.Script))]
	c.eng.RNG = rng.New(r.Uint64())
	c.eng.RedrawSealed(engine.PlayerID(seat), r)
	c.eng.Touch()
	return c
}

// Evaluate says how a seat stands, from -1 to 1, for bots that look
// ahead, in the terms of the game: its worth (its score, with what its
// tiles cost) against the richest other player's, when the game keeps
// scores or sells tiles; and its progress along the track (how near the
// last tile it stands, against the farthest any tile is) against the
// most advanced other player's, when the track has an end. A player out
// of the game is worth nothing and goes nowhere.
func (m *Match) Evaluate(seat int) float64 {
	s := m.state
	if seat < 0 || seat >= len(s.Players) || len(s.Players) < 2 {
		return 0
	}
	d := s.def
	dist, far := d.toEnd()
	var terms, sum float64
	if far > 0 {
		progress := func(p *Player) float64 {
			if !p.Active || dist[p.Tile] < 0 {
				return 0
			}
			return 1 - float64(dist[p.Tile])/float64(far+1)
		}
		best := -1.0
		for i := range s.Players {
			if i != seat {
				best = max(best, progress(&s.Players[i]))
			}
		}
		sum += progress(&s.Players[seat]) - best
		terms++
	}
	worth := make([]float64, len(s.Players))
	keeps := false
	for i := range s.Players {
		p := &s.Players[i]
		keeps = keeps || p.Score != 0
		if p.Active {
			worth[i] = float64(max(0, p.Score))
		}
	}
	for t, o := range s.Owners {
		if price := d.File.Board.Tiles[t].Price; price != 0 {
			keeps = true
			if o >= 0 && s.Players[o].Active {
				worth[o] += float64(price)
			}
		}
	}
	if keeps {
		best := 0.0
		for i, w := range worth {
			if i != seat {
				best = max(best, w)
			}
		}
		sum += (worth[seat] - best) / (worth[seat] + best + 1)
		terms++
	}
	if terms == 0 {
		return 0
	}
	return max(-1, min(1, sum/terms))
}

// toEnd returns every tile's distance in steps to the nearest last tile
// (one with no next; -1 where none can be reached) and the largest of
// them: 0 on a track without an end.
func (d *Definition) toEnd() ([]int, int) {
	dist := make([]int, len(d.next))
	var queue []int
	for i := range dist {
		dist[i] = -1
		if len(d.next[i]) == 0 {
			dist[i] = 0
			queue = append(queue, i)
		}
	}
	far := 0
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range d.prev[i] {
			if dist[j] < 0 {
				dist[j] = dist[i] + 1
				far = max(far, dist[j])
				queue = append(queue, j)
			}
		}
	}
	return dist, far
}
