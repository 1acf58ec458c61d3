package rulebook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// BenchmarkGame plays one whole match of each preset with three bots
// (seed 7): loading excluded, every rule, condition and action included.
func BenchmarkGame(b *testing.B) {
	for _, name := range presetFiles {
		def := load(b, name)
		b.Run(strings.TrimSuffix(name, ".json"), func(b *testing.B) {
			turns := 0
			for b.Loop() {
				g := start(b, def, game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: 7})
				if err := g.PlayBots(rng.New(7).Stream("bots"), 1_000_000); err != nil || !g.Over() {
					b.Fatal(err)
				}
				turns = g.state.Turn
			}
			b.ReportMetric(float64(turns), "turns/game")
		})
	}
}

// BenchmarkParse checks and compiles the Monopoly-like game: JSON, the
// schema, the rules, every CEL expression, the static checks.
func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(examples, "monopoly.json"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if def, list := pack.Parse("monopoly.json", data); def == nil {
			b.Fatal(list)
		}
	}
}
