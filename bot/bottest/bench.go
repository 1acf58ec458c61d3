package bottest

import (
	"context"
	"testing"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Midgame returns a match of def after at least n commands played by the
// pack's own bot (game.BotCommand), at the first position from there on
// where the seat waited for has a choice; with the game's smallest number
// of players and the given seed: a position for benchmarks.
func Midgame(tb testing.TB, def game.Definition, seed uint64, n int) game.Match {
	tb.Helper()
	m, err := def.Start(game.Setup{Players: seats(def.Info()), Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	r := rng.New(seed).Stream("midgame")
	for played := 0; ; played++ {
		w := m.Waiting()
		if len(w) == 0 {
			tb.Fatalf("the game ended after %d commands, before a position with a choice", played)
		}
		if played >= n && len(m.Legal(w[0])) > 1 {
			return m
		}
		cmd, _ := game.BotCommand(m, w[0], r)
		if err := m.Apply(w[0], cmd); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchCopy times the copy a searching bot makes for each playout: a
// determinization for the first seat the match waits for.
func BenchCopy(b *testing.B, m game.Match) {
	d := m.(game.Determinizer)
	seat, r := m.Waiting()[0], rng.New(1).Stream("bench")
	b.ReportAllocs()
	for b.Loop() {
		d.Determinize(seat, r)
	}
}

// BenchPlayout times a copy and a playout to the end of the match at
// random, as MCTS plays without a depth: one playout an operation. It
// reports playouts a second and commands a playout.
func BenchPlayout(b *testing.B, m game.Match) {
	d := m.(game.Determinizer)
	seat, r := m.Waiting()[0], rng.New(1).Stream("bench")
	commands := 0
	b.ReportAllocs()
	for b.Loop() {
		c := d.Determinize(seat, r)
		for n := 0; n < bot.DefaultMaxPlayout && !c.Outcome().Over; n++ {
			if err := playRandom(c, r); err != nil {
				b.Fatal(err)
			}
			commands++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(commands)/float64(b.N), "commands/playout")
}

// BenchDecision times one MCTS decision with the given options for the
// first seat the match waits for, and reports its playouts a second.
func BenchDecision(b *testing.B, m game.Match, o bot.Options) {
	mcts, err := bot.New("mcts", o)
	if err != nil {
		b.Fatal(err)
	}
	seat, r := m.Waiting()[0], rng.New(1).Stream("bench")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mcts.Choose(context.Background(), m, seat, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(o.Advised(m).Playouts)*float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}
