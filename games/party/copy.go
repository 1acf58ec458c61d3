package party

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
// would (the same dice, the same placeholders drawn), and apart from it:
// what bots look ahead on. A turn paused at a fork or a prompt is copied
// paused.
func (m *Match) Clone() game.Match { return m.clone(engine.CloneOptions{}) }

func (m *Match) clone(o engine.CloneOptions) *Match {
	c := *m
	c.outside = outside{} // its own
	c.s = m.s.clone()
	c.e = m.e.Clone(c.s, o)
	return &c
}

// clone copies the state: the players with their stats, effects and
// histories, the lists of winners, finishers and dice, and the prompt.
func (s *State) clone() *State {
	c := *s
	c.Players = slices.Clone(s.Players)
	for i := range c.Players {
		p := &c.Players[i]
		p.Stats = maps.Clone(p.Stats)
		p.Effects, p.History = slices.Clone(p.Effects), slices.Clone(p.History)
	}
	c.Winners, c.Finished = slices.Clone(s.Winners), slices.Clone(s.Finished)
	c.LastRoll, c.Dice = slices.Clone(s.LastRoll), slices.Clone(s.Dice)
	c.tally.counts = slices.Clone(s.tally.counts)
	if s.Prompt != nil {
		p := *s.Prompt
		c.Prompt = &p
	}
	return &c
}

// Determinize returns a copy of the match in which the dice to come,
// scripted or random, and every other random draw to come (a random
// start, the player a swap picks, the words of a prompt's placeholders)
// are drawn again from r: a board hides nothing else, and a bot that
// looked into an exact copy would know its next rolls. The copy is for
// playing on: between turns it leaves the match's log behind.
func (m *Match) Determinize(seat int, r *rng.Stream) game.Match {
	c := m.clone(engine.CloneOptions{WithoutLog: true})
	c.s.Dice = nil
	c.e.RNG = rng.New(r.Uint64())
	c.e.Touch()
	return c
}

// Evaluate says how a seat stands in the race, from -1 to 1, for bots
// that look ahead: its progress against the best progress of the others.
// A player's progress is 1 once finished, else how near its space is to
// the nearest end (a winning space, a space that finishes the game, a
// space with no way on), in steps, against the farthest any space is.
func (m *Match) Evaluate(seat int) float64 {
	s := m.s
	if seat < 0 || seat >= len(s.Players) || len(s.Players) < 2 {
		return 0
	}
	dist, far := m.def.toEnd()
	progress := func(p *Player) float64 {
		if p.State == CompletedGame || far == 0 {
			return 1
		}
		d := dist[p.Space]
		if d < 0 {
			return 0
		}
		return 1 - float64(d)/float64(far+1)
	}
	best := -1.0
	for i := range s.Players {
		if i != seat {
			best = max(best, progress(&s.Players[i]))
		}
	}
	return progress(&s.Players[seat]) - best
}

// toEnd returns every space's distance in steps to the nearest end (-1
// where none can be reached) and the largest of them.
func (d *Definition) toEnd() ([]int, int) {
	dist := make([]int, len(d.Board.Spaces))
	var queue []int
	for i := range dist {
		dist[i] = -1
		if d.isEnd(i) {
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

// isEnd reports whether reaching a space ends a player's race: it wins,
// it finishes the player's game, or it leads nowhere.
func (d *Definition) isEnd(i int) bool {
	if d.win[i] || len(d.next[i]) == 0 {
		return true
	}
	for _, ev := range d.Board.Spaces[i].Events {
		if a, ok := ev.Action.Args.(StateArgs); ok && ev.Action.Type == SetPlayerState && a.State == CompletedGame && !ev.Inactive {
			return true
		}
	}
	return false
}
