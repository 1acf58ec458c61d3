package bot

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// greedyBot looks one command ahead: it plays each legal command on a copy
// and keeps the one whose result scores best for its seat.
type greedyBot struct{ o Options }

// Choose scores every legal command and plays the best, breaking ties with
// r.
func (b greedyBot) Choose(ctx context.Context, m game.Match, seat int, r *rng.Stream) (json.RawMessage, error) {
	legal, err := legalFor(m, seat)
	if err != nil || len(legal) == 1 {
		return first(legal), err
	}
	ctx, cancel := b.o.bound(ctx)
	defer cancel()
	i, err := lookahead(ctx, newCopier(m, seat), seat, legal, b.o.Samples, r)
	if err != nil {
		return nil, err
	}
	return legal[i].Data, nil
}

// first is the first command of a list, if any.
func first(legal []game.Command) json.RawMessage {
	if len(legal) == 0 {
		return nil
	}
	return legal[0].Data
}

// score is what the greedy level knows of a command's result for a seat:
// first how the match ended (a win beats everything, a loss is worst),
// then the Evaluator's score of a match still going. Both are summed over
// the samples (every command gets as many).
type score struct {
	outcome, eval float64
}

func (s score) less(t score) bool {
	return s.outcome < t.outcome || s.outcome == t.outcome && s.eval < t.eval
}

// scoreOf scores a position for a seat.
func scoreOf(m game.Match, seat int) score {
	if o := m.Outcome(); o.Over {
		switch {
		case slices.Contains(o.Winners, seat):
			return score{outcome: 1}
		case len(o.Winners) > 0:
			return score{outcome: -1}
		}
		return score{}
	}
	e, _ := evaluate(m, seat)
	return score{eval: e}
}

// evaluate is the match's own score of the position for a seat, clamped
// to [-1, 1], if it is a game.Evaluator.
func evaluate(m game.Match, seat int) (float64, bool) {
	ev, ok := unwrap(m).(game.Evaluator)
	if !ok {
		return 0, false
	}
	return max(-1, min(1, ev.Evaluate(seat))), true
}

// lookahead returns the index of the best of the seat's legal commands
// after one step of lookahead, ties broken by r. When copies differ (the
// match is a Determinizer), each command is scored over samples copies:
// the k-th copy is the same for every command (its stream is copied), so
// that commands are compared on the same hidden cards and dice. When ctx
// is done, the samples scored so far decide (at least one).
func lookahead(ctx context.Context, c copier, seat int, legal []game.Command, samples int, r *rng.Stream) (int, error) {
	if !c.varies() {
		samples = 1
	}
	scores := make([]score, len(legal))
	for k := range samples {
		if k > 0 && ctx.Err() != nil {
			break
		}
		var sample rng.Stream
		if c.varies() {
			sample = *rng.New(r.Uint64()).Stream("sample")
		}
		for i, cmd := range legal {
			st := sample
			m, err := c.copy(&st)
			if err != nil {
				return 0, err
			}
			if err := apply(m, seat, cmd.Data); err != nil {
				return 0, err
			}
			s := scoreOf(m, seat)
			scores[i].outcome += s.outcome
			scores[i].eval += s.eval
		}
	}
	var best []int
	for i, s := range scores {
		switch {
		case len(best) == 0 || scores[best[0]].less(s):
			best = append(best[:0], i)
		case !s.less(scores[best[0]]):
			best = append(best, i)
		}
	}
	return pick(best, r), nil
}
