// Package bot plays any game pack's matches through the game interface
// alone, at three levels: "random" (a uniform legal command), "greedy"
// (one step of lookahead, scored by the pack's game.Evaluator) and "mcts"
// (Monte Carlo tree search, determinized when the match hides
// information).
//
// A bot looks ahead on copies of the match: the match's own game.Cloner,
// or a replay of its History (see Replayable). When the match is a
// game.Determinizer, every copy a bot looks into is a determinization for
// its seat: what the seat cannot see (the other hands, the deck, the dice
// to come) is drawn again at random, so that the bot never uses what its
// player could not know.
//
// A bot is deterministic: the same stream state and the same position give
// the same choice on every machine, as long as its search is bounded by a
// number of playouts (the default) rather than by time. A Bot holds only
// its options: one may serve many matches on many goroutines at once, each
// with its own stream.
//
// docs/bots.md tells how the levels play and how a pack makes them
// stronger.
package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Bot chooses a seat's command. The same stream state and the same
// position give the same choice.
type Bot interface {
	// Choose returns the command the bot plays for the seat, drawing every
	// random choice from r. It fails when the match does not wait for the
	// seat, when the bot needs a copy of a match it cannot copy, or when
	// the match breaks while the bot looks ahead. When ctx is done it
	// stops looking ahead and chooses with what it has learnt so far.
	Choose(ctx context.Context, m game.Match, seat int, r *rng.Stream) (json.RawMessage, error)
}

// Levels are the bots' levels, weakest first.
var Levels = []string{"random", "greedy", "mcts"}

// Options tune a bot. The zero value is a good default for every level.
type Options struct {
	// Playouts is how many playouts MCTS plays per decision (default 1000
	// when Budget is 0 too). With a Budget, 0 plays as many as the Budget
	// allows, which makes the choice depend on the machine's speed: a
	// number of playouts is the deterministic mode.
	Playouts int
	// Budget bounds the time of one decision (0: no bound but ctx's
	// deadline, which a bot honours too).
	Budget time.Duration
	// Exploration is UCB1's constant: how much MCTS tries the commands it
	// knows less about rather than the best so far (default 0.7; rewards
	// are between 0 and 1).
	Exploration float64
	// Depth ends an MCTS playout after that many commands and scores its
	// position with the match's game.Evaluator (0: playouts go to the end
	// of the match; ignored without an Evaluator).
	Depth int
	// Leaves makes MCTS score each node it adds at once with the match's
	// game.Evaluator, without a playout (Depth is then ignored; without an
	// Evaluator, playouts are played as usual). The tree alone then looks
	// ahead, every step of it chosen: in games whose random commands say
	// little (a random pass, a random target), a few hundred such
	// iterations weigh the others' answers better than as many noisy
	// playouts.
	Leaves bool
	// Greedy is the share, from 0 to 1, of MCTS playout commands chosen by
	// one step of lookahead (as the greedy level does) rather than at
	// random: stronger playouts, each far slower (default 0). Such a step
	// copies the playout's match, so a Determinizer's copies must be
	// Cloners for it; otherwise the playouts stay random.
	Greedy float64
	// Samples is how many random copies the greedy level averages a
	// command's result over when the match is a game.Determinizer, whose
	// copies differ in what the seat cannot know: the hidden cards, the
	// dice to come (default 8). Other matches' copies are all alike, so
	// one is enough.
	Samples int
	// MaxPlayout ends a playout that has not ended the match after that
	// many commands, scoring it as it stands (default 1000).
	MaxPlayout int
	// NoAdvice makes MCTS ignore the match's game.SearchAdvice. Without
	// it, a match that gives advice has it fill in the settings these
	// options leave at zero: Playouts (when Budget is zero too),
	// Exploration, and Depth with Leaves (when both are unset).
	NoAdvice bool
}

// Defaults of Options.
const (
	DefaultPlayouts    = 1000
	DefaultExploration = 0.7
	DefaultSamples     = 8
	DefaultMaxPlayout  = 1000
)

// withDefaults checks the options and fills in the defaults.
func (o Options) withDefaults() (Options, error) {
	var bad []string
	for _, f := range []struct {
		name string
		v    int
	}{{"playouts", o.Playouts}, {"depth", o.Depth}, {"samples", o.Samples}, {"max playout", o.MaxPlayout}} {
		if f.v < 0 {
			bad = append(bad, fmt.Sprintf("%s must not be negative, not %d", f.name, f.v))
		}
	}
	if o.Budget < 0 {
		bad = append(bad, fmt.Sprintf("the budget must not be negative, not %v", o.Budget))
	}
	if !(o.Exploration >= 0) {
		bad = append(bad, fmt.Sprintf("exploration must not be negative, not %g", o.Exploration))
	}
	if !(o.Greedy >= 0 && o.Greedy <= 1) {
		bad = append(bad, fmt.Sprintf("greedy is a share from 0 to 1, not %g", o.Greedy))
	}
	if bad != nil {
		return o, errors.New("bot options: " + strings.Join(bad, "; "))
	}
	if o.Playouts == 0 && o.Budget == 0 {
		o.Playouts = DefaultPlayouts
	}
	if o.Exploration == 0 {
		o.Exploration = DefaultExploration
	}
	if o.Samples == 0 {
		o.Samples = DefaultSamples
	}
	if o.MaxPlayout == 0 {
		o.MaxPlayout = DefaultMaxPlayout
	}
	return o, nil
}

// Advised returns the options MCTS searches m with: o, with m's
// game.SearchAdvice filling in the settings o leaves at zero (unless
// NoAdvice), then the defaults. o is assumed valid, as New checks.
func (o Options) Advised(m game.Match) Options {
	if a, ok := unwrap(m).(game.SearchAdvisor); ok && !o.NoAdvice {
		advice := a.SearchAdvice()
		if o.Playouts == 0 && o.Budget == 0 {
			o.Playouts = advice.Iterations
		}
		if o.Exploration == 0 {
			o.Exploration = advice.Exploration
		}
		if o.Depth == 0 && !o.Leaves {
			o.Depth, o.Leaves = max(0, advice.Depth), advice.Leaves
		}
	}
	o, _ = o.withDefaults()
	return o
}

// New returns a bot of a level (one of Levels) with options o.
func New(level string, o Options) (Bot, error) {
	given := o
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	switch level {
	case "random":
		return randomBot{}, nil
	case "greedy":
		return greedyBot{o}, nil
	case "mcts":
		return mctsBot{given}, nil
	}
	return nil, fmt.Errorf("no bot level %q%s: the levels are %s", level, diag.DidYouMean(level, Levels), strings.Join(Levels, ", "))
}

// Command plays a bot as game.BotCommand plays a match's default bot, for
// the server and the simulator: the bot's command for the seat, thinking
// at most budget (0: the bot's own bound), or false if the match does not
// wait for the seat. If the bot fails (it cannot copy the match, or the
// match broke in a copy), the match's default bot plays instead.
func Command(b Bot, m game.Match, seat int, r *rng.Stream, budget time.Duration) (json.RawMessage, bool) {
	if len(m.Legal(seat)) == 0 {
		return nil, false
	}
	ctx := context.Background()
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	if cmd, err := b.Choose(ctx, m, seat, r); err == nil {
		return cmd, true
	}
	return game.BotCommand(unwrap(m), seat, r)
}

// ByLevel returns a function that plays a bot of the level asked for,
// with options o, through Command: what a server or a simulator with bot
// seats of several levels needs. For a level it does not know, the
// function reports false, leaving the decision to the caller's default
// bot.
func ByLevel(o Options) (func(m game.Match, seat int, level string, r *rng.Stream, budget time.Duration) (json.RawMessage, bool), error) {
	bots := make([]Bot, len(Levels))
	for i, level := range Levels {
		b, err := New(level, o)
		if err != nil {
			return nil, err
		}
		bots[i] = b
	}
	return func(m game.Match, seat int, level string, r *rng.Stream, budget time.Duration) (json.RawMessage, bool) {
		i := slices.Index(Levels, level)
		if i < 0 {
			return nil, false
		}
		return Command(bots[i], m, seat, r, budget)
	}, nil
}

// legalFor returns the seat's legal commands, or an error if the match
// does not wait for it.
func legalFor(m game.Match, seat int) ([]game.Command, error) {
	legal := m.Legal(seat)
	if len(legal) == 0 {
		return nil, fmt.Errorf("bot: the match does not wait for seat %d", seat)
	}
	return legal, nil
}

// randomBot plays a uniform legal command.
type randomBot struct{}

// Choose draws from r only when there is a choice.
func (randomBot) Choose(_ context.Context, m game.Match, seat int, r *rng.Stream) (json.RawMessage, error) {
	legal, err := legalFor(m, seat)
	if err != nil {
		return nil, err
	}
	return pick(legal, r).Data, nil
}

// pick returns a uniform element of a non-empty list, drawing from r only
// when there is a choice.
func pick[T any](list []T, r *rng.Stream) T {
	return list[pickIndex(len(list), r)]
}

// bound returns ctx bounded by the options' Budget too.
func (o Options) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if o.Budget > 0 {
		return context.WithTimeout(ctx, o.Budget)
	}
	return ctx, func() {}
}
