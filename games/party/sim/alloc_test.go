package sim

import (
	"context"
	"runtime"
	"testing"
)

// maxAllocsPerGame bounds the allocations of a simulated game of the
// default board, the simulator's own share included (batches, the
// summary): a game that allocates more has lost the reuse of its match,
// or boxes a payload per event.
const maxAllocsPerGame = 4

// TestAllocationsPerGame fails if a simulated game allocates more than
// maxAllocsPerGame objects on average (BenchmarkSimulate reports the
// figure).
func TestAllocationsPerGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 4,096 games")
	}
	def := defaultBoard(t)
	cfg := Config{Games: 4096, Players: []string{"P1", "P2", "P3", "P4"}, Seed: 9, Workers: 1}
	run(t, def, cfg) // loads what loads once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Run(context.Background(), def, cfg); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	perGame := float64(after.Mallocs-before.Mallocs) / float64(cfg.Games)
	t.Logf("%.2f allocations per game", perGame)
	if perGame > maxAllocsPerGame {
		t.Errorf("a simulated game allocates %.2f objects, more than the bound of %d", perGame, maxAllocsPerGame)
	}
}
