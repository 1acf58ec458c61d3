package sim

import (
	"context"
	"testing"
)

// BenchmarkRunNim plays 1000 games of Twenty-one between Nim's own bots,
// on every CPU; games/s is the figure to watch, allocs/op those of the
// 1000 games together.
func BenchmarkRunNim(b *testing.B) {
	benchmarkRun(b, Config{Games: 1000, Players: []string{"Ann", "Bob", "Cy"}, Seed: 1, Rotate: true})
}

// BenchmarkRunNimRandom is the same with random bots, which read every
// legal command.
func BenchmarkRunNimRandom(b *testing.B) {
	benchmarkRun(b, Config{Games: 1000, Players: []string{"Ann", "Bob", "Cy"}, Seed: 1, Rotate: true, Bots: random})
}

func benchmarkRun(b *testing.B, cfg Config) {
	def := nim(b)
	b.ReportAllocs()
	games := 0
	for b.Loop() {
		r, err := Run(context.Background(), def, cfg)
		if err != nil {
			b.Fatal(err)
		}
		games += r.Games
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}
