package bot_test

import (
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// The levels are as strong as they promise: each beats the one below it
// clearly, on perfect information (Nim), on hidden hands (cards), on dice
// (pig), and with more than two players (Nim for three, a bot against two
// random ones).
func TestStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("the duels take a while")
	}
	random := newBot(t, "random", bot.Options{})
	greedy := newBot(t, "greedy", bot.Options{})
	mcts := newBot(t, "mcts", bot.Options{Playouts: 200})
	shallow := newBot(t, "mcts", bot.Options{Playouts: 200, Depth: 2})
	nim := nimGame(t, twentyOne)
	nim3 := nimGame(t, `{"game": "nim", "pile": 21, "take": 3, "minPlayers": 3}`)
	tests := []struct {
		name  string
		def   game.Definition
		a, b  bot.Bot
		games int
		// low is what the lower end of a's 95% interval must exceed.
		low float64
	}{
		{"nim: mcts beats random", nim, mcts, random, 40, 0.75},
		{"nim: greedy beats random", nim, greedy, random, 200, 0.55},
		{"nim: mcts beats greedy", nim, mcts, greedy, 40, 0.6},
		{"cards: mcts beats random", cardsGame(), mcts, random, 60, 0.6},
		{"cards: greedy beats random", cardsGame(), greedy, random, 200, 0.55},
		{"cards: mcts with short playouts scored by the Evaluator beats random", cardsGame(), shallow, random, 60, 0.55},
		{"pig: mcts beats random", pigGame(), mcts, random, 60, 0.55},
		{"pig: greedy beats random", pigGame(), greedy, random, 100, 0.65},
		{"nim for three: mcts beats two random bots", nim3, mcts, random, 40, 0.45},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := bot.Duel(context.Background(), tt.def, tt.a, tt.b, tt.games, 1, true)
			t.Log(d)
			if d.Failed > 0 || d.Games != tt.games {
				t.Fatalf("%d of %d games played, %d failed: %v", d.Games, tt.games, d.Failed, d.Err)
			}
			if d.A.Low <= tt.low {
				t.Errorf("a won %s; the interval should start above %.0f%%", d.A, 100*tt.low)
			}
		})
	}
}

// A duel gives the same result whatever the number of CPUs.
func TestDuelIsDeterministic(t *testing.T) {
	def := cardsGame()
	a, b := newBot(t, "mcts", bot.Options{Playouts: 20}), newBot(t, "greedy", bot.Options{})
	first := bot.Duel(context.Background(), def, a, b, 16, 7, true)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if again := bot.Duel(context.Background(), def, a, b, 16, 7, true); !reflect.DeepEqual(again, first) {
		t.Fatalf("%v, then on one CPU %v", first, again)
	}
	if other := bot.Duel(context.Background(), def, a, b, 16, 8, true); reflect.DeepEqual(other, first) {
		t.Errorf("another seed, the same duel: %v", other)
	}
}

// With swap, each bot plays the first seat in half the games: in a Nim of
// one counter, the first seat always wins, as the record by seat shows.
func TestDuelSwapsSeats(t *testing.T) {
	def := nimGame(t, `{"game": "nim", "pile": 1, "take": 1}`)
	random := newBot(t, "random", bot.Options{})
	for _, tt := range []struct {
		swap         bool
		aWins, bWins int
		bySeat       []bot.SeatRecord
	}{
		{false, 10, 0, []bot.SeatRecord{{Games: 10, A: 10}, {}}},
		{true, 5, 5, []bot.SeatRecord{{Games: 5, A: 5}, {Games: 5, B: 5}}},
	} {
		d := bot.Duel(context.Background(), def, random, random, 10, 1, tt.swap)
		if d.A.Wins != tt.aWins || d.B.Wins != tt.bWins || d.Games != 10 || !reflect.DeepEqual(d.BySeat, tt.bySeat) {
			t.Errorf("swap %v: %v", tt.swap, d)
		}
	}
	want := "10 games of 2 players: a won 5 (50.0%, 95% interval 23.7–76.3%), b won 5 (50.0%, 95% interval 23.7–76.3%), 0 draws, 1.0 commands a game; a in seat 1 won 5 of 5 (b 0), 2 won 0 of 5 (b 5)"
	if got := bot.Duel(context.Background(), def, random, random, 10, 1, true).String(); got != want {
		t.Errorf("told as\n%s\nwant\n%s", got, want)
	}
}

// illegalBot plays a command no match accepts.
type illegalBot struct{}

func (illegalBot) Choose(context.Context, game.Match, int, *rng.Stream) (json.RawMessage, error) {
	return json.RawMessage(`{"take":99}`), nil
}

// Broken games are counted apart, the first with its seed; a cancelled
// duel says so.
func TestDuelCountsFailures(t *testing.T) {
	def := nimGame(t, twentyOne)
	d := bot.Duel(context.Background(), def, illegalBot{}, newBot(t, "random", bot.Options{}), 4, 1, true)
	if d.Failed != 4 || d.Games != 0 || d.Err == nil || !strings.Contains(d.Err.Error(), "game of seed") {
		t.Errorf("%v", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d := bot.Duel(ctx, def, illegalBot{}, illegalBot{}, 4, 1, true); !d.Interrupted || d.Games+d.Failed != 0 {
		t.Errorf("cancelled: %v", d)
	}
}

// cancelAfter plays as its bot does and cancels the duel at its n-th
// decision.
type cancelAfter struct {
	bot.Bot
	n      atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) Choose(ctx context.Context, m game.Match, seat int, r *rng.Stream) (json.RawMessage, error) {
	if c.n.Add(-1) == 0 {
		c.cancel()
	}
	return c.Bot.Choose(ctx, m, seat, r)
}

// firstGameFirst starts a duel's games as its definition does, but for
// the third game on waits until the first is over (or the duel is
// stopped): the duel's workers play in parallel, and a busy machine may
// leave the worker of the first game waiting while another plays on.
type firstGameFirst struct {
	game.Definition
	ctx  context.Context
	seed uint64        // the duel's
	over chan struct{} // closed once the first game is over
	once sync.Once
}

func (d *firstGameFirst) Start(s game.Setup) (game.Match, error) {
	m, err := d.Definition.Start(s)
	switch {
	case err != nil:
		return nil, err
	case s.Seed == bot.GameSeed(d.seed, 0):
		return &firstGame{Match: m, over: func() { d.once.Do(func() { close(d.over) }) }}, nil
	case s.Seed != bot.GameSeed(d.seed, 1):
		select {
		case <-d.over:
		case <-d.ctx.Done():
		}
	}
	return m, nil
}

// firstGame is the first game of a duel: it calls over when it ends.
type firstGame struct {
	game.Match
	over func()
}

func (m *firstGame) Apply(seat int, data json.RawMessage) error {
	err := m.Match.Apply(seat, data)
	if m.Outcome().Over {
		m.over()
	}
	return err
}

// A duel interrupted part way counts the games before the first it did
// not finish: its result is that of a duel of that many games. The duel is
// stopped at a's 40th decision, in the third game or later (a decides at
// least 3 times a game, at most 11), once the first game is over: it has
// played at least one game, and not all fifty.
func TestInterruptedDuelCountsTheGamesBefore(t *testing.T) {
	def := nimGame(t, twentyOne)
	random := newBot(t, "random", bot.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	a := &cancelAfter{Bot: random, cancel: cancel}
	a.n.Store(40)
	d := bot.Duel(ctx, &firstGameFirst{Definition: def, ctx: ctx, seed: 1, over: make(chan struct{})}, a, random, 50, 1, true)
	if !d.Interrupted || d.Games == 0 || d.Games >= 50 {
		t.Fatalf("interrupted after 40 decisions: %v", d)
	}
	want := bot.Duel(context.Background(), def, random, random, d.Games, 1, true)
	want.Interrupted = true
	if d.String() != want.String() {
		t.Errorf("interrupted: %v\nthe same number of games: %v", d, want)
	}
}
