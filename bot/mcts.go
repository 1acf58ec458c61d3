package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// mctsBot is Monte Carlo tree search with UCB1 (UCT), determinized when
// the match hides information: each playout is played on a copy of the
// match (for a game.Determinizer, a new determinization for the bot's
// seat), goes down the tree by UCB1 among the commands legal in that copy,
// adds one node, plays on at random (or greedily) and scores the end for
// every seat; each node adds up the score of the seat that chose it.
//
// A node stands for the commands played from the decision on, each with
// its seat, and is found again by their JSON: what every seat sees played.
// Its statistics are therefore those of an information set, shared by
// every determinization in which the same commands were played, and a
// child counts how often it was available (legal) when its parent was
// visited, which UCB1 uses in place of the parent's visits (information
// set MCTS: a command legal in few determinizations is not favoured for
// having been tried rarely).
type mctsBot struct{ o Options } // as given: Advised fills them in per match

// node is an information set: the commands played since the decision.
type node struct {
	mover    int             // the seat that chose the command leading here
	data     json.RawMessage // that command
	visits   int
	avail    int     // visits of the parent in which this command was legal
	total    float64 // the scores of mover, added up over the visits
	children map[string]*node
}

// ucb is the node's UCB1 value for its mover.
func (n *node) ucb(c float64) float64 {
	return n.total/float64(n.visits) + c*math.Sqrt(math.Log(float64(n.avail))/float64(n.visits))
}

// search is one decision's search.
type search struct {
	o      Options
	ctx    context.Context
	copier copier
	seat   int
	r      *rng.Stream
	root   *node
	// legal are the seat's commands at the root: those of the match, the
	// same in every copy, whose hidden part never changes what the seat
	// may do.
	legal   []game.Command
	key     []byte
	path    []*node
	untried []int
	scores  []seatScore
	// noGreedy is set once a playout copy could not be copied for a
	// greedy step: the playouts of this decision are random from then on.
	noGreedy bool
}

// seatScore is a seat's score of a playout's end.
type seatScore struct {
	seat  int
	score float64
}

// Choose searches the tree for the bot's Playouts (or until its Budget or
// ctx runs out), with the match's advice for what its options leave
// unset, and plays the command of the seat's most visited child.
func (b mctsBot) Choose(ctx context.Context, m game.Match, seat int, r *rng.Stream) (json.RawMessage, error) {
	legal, err := legalFor(m, seat)
	if err != nil || len(legal) == 1 {
		return first(legal), err
	}
	o := b.o.Advised(m)
	ctx, cancel := o.bound(ctx)
	defer cancel()
	s := &search{o: o, ctx: ctx, copier: newCopier(m, seat), seat: seat, r: r, root: &node{mover: game.Spectator}, legal: legal}
	for i := 0; o.Playouts == 0 || i < o.Playouts; i++ {
		if ctx.Err() != nil {
			break
		}
		if err := s.iterate(); err != nil {
			return nil, err
		}
	}
	return s.best(legal), nil
}

// keyOf returns the key of a seat's command among a node's children, in a
// buffer reused from call to call.
func (s *search) keyOf(seat int, data json.RawMessage) []byte {
	s.key = strconv.AppendInt(s.key[:0], int64(seat), 10)
	s.key = append(s.key, ':')
	s.key = append(s.key, data...)
	return s.key
}

// iterate plays one playout and adds what it learnt to the tree.
func (s *search) iterate() error {
	m, err := s.copier.copy(s.r)
	if err != nil {
		return err
	}
	s.path = append(s.path[:0], s.root)
	n, mover := s.root, s.seat
	for !m.Outcome().Over {
		if n != s.root {
			if mover = waiting(m); mover < 0 {
				break
			}
		}
		legal := s.legal
		if n != s.root {
			legal = m.Legal(mover)
		}
		if len(legal) == 0 {
			break
		}
		// Every child legal here was available; those never tried are
		// tried first, in a random order.
		var best *node
		bestU := math.Inf(-1)
		s.untried = s.untried[:0]
		for i, c := range legal {
			ch := n.children[string(s.keyOf(mover, c.Data))]
			if ch == nil {
				s.untried = append(s.untried, i)
				continue
			}
			ch.avail++
			if u := ch.ucb(s.o.Exploration); u > bestU {
				best, bestU = ch, u
			}
		}
		expand := len(s.untried) > 0
		if expand {
			c := legal[pick(s.untried, s.r)]
			best = &node{mover: mover, data: c.Data, avail: 1}
			if n.children == nil {
				n.children = map[string]*node{}
			}
			n.children[string(s.keyOf(mover, c.Data))] = best
		}
		if err := apply(m, mover, best.data); err != nil {
			return err
		}
		s.path = append(s.path, best)
		n = best
		if expand {
			break
		}
	}
	if err := s.playout(m); err != nil {
		return err
	}
	s.scores = s.scores[:0]
	s.root.visits++
	for _, n := range s.path[1:] {
		n.visits++
		n.total += s.score(m, n.mover)
	}
	return nil
}

// playout plays on from a new node to the end of the match, or to the
// options' Depth when the match has an Evaluator to score it (not at all
// with Leaves), or to MaxPlayout commands.
func (s *search) playout(m game.Match) error {
	depth := s.o.MaxPlayout
	if _, ok := unwrap(m).(game.Evaluator); ok {
		switch {
		case s.o.Leaves:
			return nil
		case s.o.Depth > 0:
			depth = min(depth, s.o.Depth)
		}
	}
	for step := 0; step < depth && !m.Outcome().Over; step++ {
		mover := waiting(m)
		if mover < 0 {
			return nil
		}
		legal := m.Legal(mover)
		if len(legal) == 0 {
			return nil
		}
		c := -1
		if s.o.Greedy > 0 && !s.noGreedy && len(legal) > 1 && s.r.Float64() < s.o.Greedy {
			i, err := lookahead(s.ctx, copier{m: m, seat: mover}, mover, legal, 1, s.r)
			if err == nil {
				c = i
			} else {
				s.noGreedy = true
			}
		}
		if c < 0 {
			c = pickIndex(len(legal), s.r)
		}
		if err := apply(m, mover, legal[c].Data); err != nil {
			return err
		}
	}
	return nil
}

// score is a seat's score of a playout's end, from 0 to 1: a win 1, a loss
// 0, a match over with no winner 0.5; a match still going is scored by its
// Evaluator (from [-1, 1] to [0, 1]), or 0.5 without one.
func (s *search) score(m game.Match, seat int) float64 {
	for _, sc := range s.scores {
		if sc.seat == seat {
			return sc.score
		}
	}
	v := 0.5
	if o := m.Outcome(); o.Over {
		switch {
		case slices.Contains(o.Winners, seat):
			v = 1
		case len(o.Winners) > 0:
			v = 0
		}
	} else if e, ok := evaluate(m, seat); ok {
		v = (e + 1) / 2
	}
	s.scores = append(s.scores, seatScore{seat, v})
	return v
}

// best is the seat's legal command whose child was visited most (the
// robust child), ties going to the better mean, then to the first; if no
// playout was played, a random one.
func (s *search) best(legal []game.Command) json.RawMessage {
	var best *node
	for _, c := range legal {
		ch := s.root.children[string(s.keyOf(s.seat, c.Data))]
		if ch == nil || ch.visits == 0 {
			continue
		}
		if best == nil || ch.visits > best.visits ||
			ch.visits == best.visits && ch.total/float64(ch.visits) > best.total/float64(best.visits) {
			best = ch
		}
	}
	if best == nil {
		return pick(legal, s.r).Data
	}
	return best.data
}

// waiting is the seat that plays next in a playout: the first the match
// waits for (several seats deciding at once are taken in seat order), or
// -1.
func waiting(m game.Match) int {
	if w := m.Waiting(); len(w) > 0 {
		return w[0]
	}
	return -1
}

// apply plays a legal command on a copy; an error means the pack broke
// its promise that legal commands are accepted, or the copy broke.
func apply(m game.Match, seat int, data json.RawMessage) error {
	if err := m.Apply(seat, data); err != nil {
		return fmt.Errorf("bot: seat %d's legal command %s, played on a copy: %w", seat, data, err)
	}
	return nil
}

// pickIndex is a uniform index below n > 0, drawing only when n > 1.
func pickIndex(n int, r *rng.Stream) int {
	if n == 1 {
		return 0
	}
	return r.IntN(n)
}
