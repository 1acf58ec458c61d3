package bot_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/game"
)

// BenchmarkPlayout copies a match as MCTS does (a determinization, a
// Clone or a replay of the history) and plays it to the end at random: one
// playout an operation, from the position of packs.
func BenchmarkPlayout(b *testing.B) {
	for _, p := range packs {
		b.Run(p.name, func(b *testing.B) {
			m := position(b, p.def(b), 2, 1, p.moves...)
			seat := m.Waiting()[0]
			r := stream(1)
			b.ReportAllocs()
			commands := 0
			for b.Loop() {
				c, err := bot.LookInto(m, seat, r)
				if err != nil {
					b.Fatal(err)
				}
				for !c.Outcome().Over {
					s := c.Waiting()[0]
					legal := c.Legal(s)
					if err := c.Apply(s, legal[r.IntN(len(legal))].Data); err != nil {
						b.Fatal(err)
					}
					commands++
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			b.ReportMetric(float64(commands)/float64(b.N), "commands/playout")
		})
	}
}

// BenchmarkDecision is one MCTS decision of 1000 playouts, from the
// position of packs.
func BenchmarkDecision(b *testing.B) {
	for _, p := range packs {
		b.Run(p.name, func(b *testing.B) {
			m := position(b, p.def(b), 2, 1, p.moves...)
			seat := m.Waiting()[0]
			mcts := newBot(b, "mcts", bot.Options{Playouts: 1000})
			r := stream(1)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := mcts.Choose(context.Background(), m, seat, r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}

// BenchmarkCopy is the copy a bot makes for each playout: a replay of a
// Nim match's history grows with its length; a Clone or a determinization
// of the test packs does not.
func BenchmarkCopy(b *testing.B) {
	nim := nimGame(b, `{"game": "nim", "pile": 1000, "take": 1}`)
	for _, n := range []int{10, 50, 190} {
		b.Run(fmt.Sprintf("nim replay of %d commands", n), func(b *testing.B) {
			benchmarkCopy(b, position(b, nim, 2, 1, slices.Repeat([]string{`{"take":1}`}, n)...))
		})
	}
	for _, p := range packs[1:] {
		b.Run(p.name, func(b *testing.B) { benchmarkCopy(b, position(b, p.def(b), 2, 1, p.moves...)) })
	}
}

func benchmarkCopy(b *testing.B, m game.Match) {
	seat, r := m.Waiting()[0], stream(1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bot.LookInto(m, seat, r); err != nil {
			b.Fatal(err)
		}
	}
}
