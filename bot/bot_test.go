package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// nimGame loads a Nim game from its JSON.
func nimGame(t testing.TB, file string) game.Definition {
	t.Helper()
	src, err := game.FromBytes("nim.json", []byte(file), game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	def, list := gametest.NewNim().Load(src)
	if def == nil || list.HasErrors() {
		t.Fatalf("nim does not load:\n%s", list.String())
	}
	return def
}

const twentyOne = `{"game": "nim", "name": "Twenty-one", "pile": 21, "take": 3}`

// position is a match of a definition after some moves, given to bots
// with its history (Nim, which cannot Clone, needs it).
func position(t testing.TB, def game.Definition, players int, seed uint64, moves ...string) game.Match {
	t.Helper()
	names := []string{"Ann", "Bob", "Cy", "Di"}[:players]
	setup := game.Setup{Players: names, Seed: seed}
	m, err := def.Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	m = bot.Replayable(m, bot.History{Def: def, Setup: setup})
	for _, mv := range moves {
		if err := m.Apply(m.Waiting()[0], json.RawMessage(mv)); err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
	}
	return m
}

func newBot(t testing.TB, level string, o bot.Options) bot.Bot {
	t.Helper()
	b, err := bot.New(level, o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func stream(seed uint64) *rng.Stream { return rng.New(seed).Stream("bot") }

func choose(t testing.TB, b bot.Bot, m game.Match, seat int, seed uint64) string {
	t.Helper()
	cmd, err := b.Choose(context.Background(), m, seat, stream(seed))
	if err != nil {
		t.Fatal(err)
	}
	return string(cmd)
}

func TestNewNamesTheLevels(t *testing.T) {
	for _, level := range bot.Levels {
		if _, err := bot.New(level, bot.Options{}); err != nil {
			t.Errorf("%s: %v", level, err)
		}
	}
	_, err := bot.New("mtcs", bot.Options{})
	if err == nil || !strings.Contains(err.Error(), "did you mean mcts?") || !strings.Contains(err.Error(), "random, greedy, mcts") {
		t.Errorf("level mtcs: %v, want a suggestion and the levels", err)
	}
	for _, o := range []bot.Options{{Playouts: -1}, {Budget: -time.Second}, {Greedy: 1.5}, {Exploration: -1}, {Depth: -2}} {
		if _, err := bot.New("mcts", o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

// packs are the test packs, each at a position where the first seat has a
// choice.
var packs = []struct {
	name string
	def  func(testing.TB) game.Definition
	// moves reach a position with a choice
	moves []string
}{
	{"nim (replayed)", func(t testing.TB) game.Definition { return nimGame(t, twentyOne) }, []string{`{"take":3}`, `{"take":2}`}},
	{"cards (hidden hands)", func(testing.TB) game.Definition { return cardsGame() }, nil},
	{"pig (dice)", func(testing.TB) game.Definition { return pigGame() }, []string{`{"do":"roll"}`}},
	{"bids (at once, in secret)", func(testing.TB) game.Definition { return bidsGame() }, []string{`{"bid":3}`}},
}

// The same stream and the same position give the same choice, and the
// bot changes nothing in the match it was given.
func TestSameStreamSamePositionSameChoice(t *testing.T) {
	for _, p := range packs {
		for _, level := range bot.Levels {
			t.Run(p.name+"/"+level, func(t *testing.T) {
				def := p.def(t)
				b := newBot(t, level, bot.Options{Playouts: 200})
				for seed := range uint64(4) {
					m := position(t, def, 2, seed+1, p.moves...)
					seat := m.Waiting()[0]
					hash := m.Hash()
					first := choose(t, b, m, seat, seed)
					if m.Hash() != hash {
						t.Fatal("choosing changed the match")
					}
					again := choose(t, b, position(t, def, 2, seed+1, p.moves...), seat, seed)
					if first != again {
						t.Fatalf("seed %d: %s, then %s", seed, first, again)
					}
				}
			})
		}
	}
}

// A seat with one command plays it, and the bots draw nothing for it.
func TestOneCommandDrawsNothing(t *testing.T) {
	def := nimGame(t, `{"game": "nim", "pile": 5, "take": 1}`)
	for _, level := range bot.Levels {
		m := position(t, def, 2, 1)
		r := stream(1)
		cmd, err := newBot(t, level, bot.Options{}).Choose(context.Background(), m, 0, r)
		if err != nil || string(cmd) != `{"take":1}` || r.Draws() != 0 {
			t.Errorf("%s: %s, %v, %d draws", level, cmd, err, r.Draws())
		}
	}
}

func TestNotWaitedForIsAnError(t *testing.T) {
	m := position(t, nimGame(t, twentyOne), 2, 1)
	for _, level := range bot.Levels {
		if _, err := newBot(t, level, bot.Options{}).Choose(context.Background(), m, 1, stream(1)); err == nil {
			t.Errorf("%s played for seat 1, which the match does not wait for", level)
		}
	}
	if cmd, ok := bot.Command(newBot(t, "mcts", bot.Options{}), m, 1, stream(1), 0); ok {
		t.Errorf("Command played %s for a seat not waited for", cmd)
	}
}

// A match that cannot Clone, given without its history, cannot be looked
// into: the bots that look ahead say so, and Command leaves the decision
// to the match's own bot.
func TestNoCopyWithoutHistory(t *testing.T) {
	def := nimGame(t, twentyOne)
	m, err := def.Start(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []string{"greedy", "mcts"} {
		b := newBot(t, level, bot.Options{Playouts: 10})
		if _, err := b.Choose(context.Background(), m, 0, stream(1)); !errors.Is(err, bot.ErrCannotCopy) {
			t.Errorf("%s: %v, want ErrCannotCopy", level, err)
		}
		// Nim's own bot leaves a multiple of four: it takes one of 21.
		if cmd, ok := bot.Command(b, m, 0, stream(1), 0); !ok || string(cmd) != `{"take":1}` {
			t.Errorf("%s through Command: %s, %v, want Nim's own bot's {\"take\":1}", level, cmd, ok)
		}
	}
}

// The bots that look ahead take a win in one, and MCTS finds Nim's
// winning move (leave a multiple of four) from piles up to 13; a Depth,
// or Leaves, is ignored without an Evaluator to score the playouts it cuts
// short.
func TestFindsTheWinningMove(t *testing.T) {
	def := nimGame(t, twentyOne)
	tests := []struct {
		level string
		o     bot.Options
		left  int
		want  string
	}{
		{"greedy", bot.Options{}, 3, `{"take":3}`},
		{"greedy", bot.Options{}, 2, `{"take":2}`},
		{"mcts", bot.Options{}, 5, `{"take":1}`},
		{"mcts", bot.Options{}, 6, `{"take":2}`},
		{"mcts", bot.Options{}, 10, `{"take":2}`},
		{"mcts", bot.Options{}, 13, `{"take":1}`},
		{"mcts", bot.Options{Depth: 1}, 10, `{"take":2}`},
		{"mcts", bot.Options{Leaves: true}, 10, `{"take":2}`},
		{"mcts", bot.Options{Greedy: 0.5, Playouts: 300}, 11, `{"take":3}`},
	}
	for _, tt := range tests {
		var moves []string
		for left := 21; left > tt.left; left -= min(3, left-tt.left) {
			moves = append(moves, fmt.Sprintf(`{"take":%d}`, min(3, left-tt.left)))
		}
		m := position(t, def, 2, 1, moves...)
		seat := m.Waiting()[0]
		for seed := range uint64(3) {
			if got := choose(t, newBot(t, tt.level, tt.o), m, seat, seed); got != tt.want {
				t.Errorf("%s %+v with %d left (seed %d): %s, want %s", tt.level, tt.o, tt.left, seed, got, tt.want)
			}
		}
	}
}

// With Leaves, MCTS scores each node it adds with the match's Evaluator,
// without a playout: in the card game, whose Evaluator knows that leaving
// the pile a multiple of five wins, a few iterations find the card that
// does, where as many random playouts to the end do not tell the cards
// apart.
func TestLeavesAreScoredByTheEvaluator(t *testing.T) {
	c := newCards(game.Setup{Players: []string{"Ann", "Bob"}})
	c.pile, c.hands, c.deck = 29, [][]int{{1, 2, 4}, {1, 3, 3}}, []int{1, 1, 2, 2, 3, 4, 4}
	for seed := range uint64(5) {
		if got := choose(t, newBot(t, "mcts", bot.Options{Playouts: 9, Leaves: true}), c, 0, seed); got != `{"play":4}` {
			t.Errorf("seed %d: %s, want {\"play\":4}, which leaves 25", seed, got)
		}
	}
}

// A bot's choice depends only on what its seat sees: two matches that
// differ only in what is hidden from the seat (the other hand and the
// deck, the dice to come, the other seat's bid) get the same choice from
// the same stream.
func TestChoicesDependOnlyOnWhatTheSeatSees(t *testing.T) {
	deal := func(mine, theirs, deck []int) game.Match {
		c := newCards(game.Setup{Players: []string{"Ann", "Bob"}})
		c.pile, c.hands, c.deck, c.discards = 14, [][]int{mine, theirs}, deck, []int{1, 2, 4}
		return c
	}
	dice := func(seed uint64) game.Match {
		p := newPig(game.Setup{Players: []string{"Ann", "Bob"}, Seed: seed})
		p.scores, p.total = []int{12, 25}, 14
		return p
	}
	bid := func(theirs int) game.Match {
		b := newBids(game.Setup{Players: []string{"Ann", "Bob"}})
		b.bid[0] = theirs
		return b
	}
	tests := []struct {
		name string
		a, b game.Match
		seat int
	}{
		{"cards", deal([]int{1, 2, 4}, []int{3, 3, 4}, []int{1, 1, 2, 2, 3, 3, 4}),
			deal([]int{1, 2, 4}, []int{1, 2, 3}, []int{4, 3, 3, 2, 1, 4, 3}), 0},
		{"pig", dice(8), dice(3), 0}, // a 1 comes next in the first
		{"bids", bid(5), bid(1), 1},
	}
	for _, tt := range tests {
		for _, level := range []string{"greedy", "mcts"} {
			b := newBot(t, level, bot.Options{Playouts: 300})
			for seed := range uint64(5) {
				if x, y := choose(t, b, tt.a, tt.seat, seed), choose(t, b, tt.b, tt.seat, seed); x != y {
					t.Errorf("%s, %s, seed %d: %s in one match, %s in the other", tt.name, level, seed, x, y)
				}
			}
		}
	}
}

// MCTS stops at its budget, or at ctx's deadline, and still chooses.
func TestMCTSHonoursItsBudget(t *testing.T) {
	m := position(t, nimGame(t, twentyOne), 2, 1)
	b := newBot(t, "mcts", bot.Options{Playouts: 1 << 30, Budget: 20 * time.Millisecond})
	done := make(chan string)
	go func() { done <- choose(t, b, m, 0, 1) }()
	select {
	case cmd := <-done:
		if cmd == "" {
			t.Error("no command")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the budget was not kept")
	}
	// A deadline passed already: a random legal command, at once.
	cmd, ok := bot.Command(newBot(t, "mcts", bot.Options{Playouts: 1 << 30}), m, 0, stream(1), time.Nanosecond)
	if !ok || !strings.HasPrefix(string(cmd), `{"take":`) {
		t.Errorf("Command with a spent budget: %s, %v", cmd, ok)
	}
}

// Commands applied through a Replayable match are recorded, so that its
// copies play on from where it is, and the caller's moves are not written
// over.
func TestReplayableRecordsItsMoves(t *testing.T) {
	def := nimGame(t, twentyOne)
	setup := game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1}
	inner, _ := def.Start(setup)
	moves := make([]bot.Move, 0, 10)
	m := bot.Replayable(inner, bot.History{Def: def, Setup: setup, Moves: moves})
	for range 4 {
		if err := m.Apply(m.Waiting()[0], json.RawMessage(`{"take":3}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Apply(0, json.RawMessage(`{"take":9}`)); err == nil {
		t.Fatal("took 9")
	}
	// 9 left: greedy cannot win at once; MCTS, on copies replayed from the
	// recorded moves, leaves eight.
	if got := choose(t, newBot(t, "mcts", bot.Options{}), m, 0, 1); got != `{"take":1}` {
		t.Errorf("MCTS with 9 left: %s, want {\"take\":1}", got)
	}
	if moves = moves[:cap(moves)]; moves[0].Data != nil {
		t.Error("the caller's array was written over")
	}
}

// ByLevel plays the level asked for, and leaves unknown levels to the
// caller.
func TestByLevel(t *testing.T) {
	play, err := bot.ByLevel(bot.Options{Playouts: 300})
	if err != nil {
		t.Fatal(err)
	}
	m := position(t, nimGame(t, twentyOne), 2, 1, `{"take":3}`, `{"take":3}`, `{"take":3}`, `{"take":3}`, `{"take":3}`)
	if cmd, ok := play(m, 1, "mcts", stream(1), 0); !ok || string(cmd) != `{"take":2}` {
		t.Errorf("mcts with 6 left: %s, %v", cmd, ok)
	}
	if cmd, ok := play(m, 1, "expert", stream(1), 0); ok {
		t.Errorf("level expert played %s", cmd)
	}
	if _, err := bot.ByLevel(bot.Options{Greedy: 2}); err == nil {
		t.Error("bad options accepted")
	}
}

// advisedCards is the card game with search advice.
type advisedCards struct {
	*cards
	advice game.SearchAdvice
}

func (c advisedCards) SearchAdvice() game.SearchAdvice { return c.advice }

// A match's search advice fills in the settings a bot's options leave at
// zero, and no other; NoAdvice ignores it.
func TestSearchAdvice(t *testing.T) {
	c := newCards(game.Setup{Players: []string{"Ann", "Bob"}})
	advice := game.SearchAdvice{Iterations: 300, Leaves: true, Exploration: 0.2}
	m := advisedCards{c, advice}
	tests := []struct {
		name  string
		given bot.Options
		m     game.Match
		want  bot.Options
	}{
		{"nothing given", bot.Options{}, m, bot.Options{Playouts: 300, Leaves: true, Exploration: 0.2}},
		{"no advice", bot.Options{}, c, bot.Options{Playouts: bot.DefaultPlayouts, Exploration: bot.DefaultExploration}},
		{"through Replayable", bot.Options{}, bot.Replayable(m, bot.History{}), bot.Options{Playouts: 300, Leaves: true, Exploration: 0.2}},
		{"playouts given", bot.Options{Playouts: 50}, m, bot.Options{Playouts: 50, Leaves: true, Exploration: 0.2}},
		{"a budget instead", bot.Options{Budget: time.Second}, m, bot.Options{Budget: time.Second, Leaves: true, Exploration: 0.2}},
		{"depth given", bot.Options{Depth: 3}, m, bot.Options{Playouts: 300, Depth: 3, Exploration: 0.2}},
		{"exploration given", bot.Options{Exploration: 1}, m, bot.Options{Playouts: 300, Leaves: true, Exploration: 1}},
		{"ignored", bot.Options{NoAdvice: true}, m, bot.Options{Playouts: bot.DefaultPlayouts, Exploration: bot.DefaultExploration, NoAdvice: true}},
	}
	for _, tt := range tests {
		got := tt.given.Advised(tt.m)
		got.Samples, got.MaxPlayout = 0, 0
		if got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// Played: the advice's Leaves find the card that leaves the pile a
	// multiple of five, as TestLeavesAreScoredByTheEvaluator's options do.
	c.pile, c.hands, c.deck = 29, [][]int{{1, 2, 4}, {1, 3, 3}}, []int{1, 1, 2, 2, 3, 4, 4}
	m.advice = game.SearchAdvice{Iterations: 9, Leaves: true}
	for seed := range uint64(5) {
		if got := choose(t, newBot(t, "mcts", bot.Options{}), m, 0, seed); got != `{"play":4}` {
			t.Errorf("seed %d: %s, want {\"play\":4}", seed, got)
		}
	}
}
