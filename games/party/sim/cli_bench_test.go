package sim

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/games/party"
	gsim "github.com/tabulagames/tabula/sim"
	"github.com/tabulagames/tabula/sim/simtest"
)

// originalBoard loads the original game's default board (the board
// `tabula simulate` is timed on in docs/performance.md) from the shared
// fixtures: $TABULA_SHARED, else ../shared beside the repository. Without
// them the benchmark is skipped, or fails in CI.
func originalBoard(tb testing.TB) *party.Definition {
	tb.Helper()
	dir := os.Getenv("TABULA_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared")
	}
	path := filepath.Join(dir, "fixtures", "customjack", "v1", "defaultBoard.json")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("the shared fixtures are missing (%v); CI must provide them through TABULA_SHARED", err)
		}
		tb.Skipf("skipping: the shared fixtures are not at %s (set TABULA_SHARED): %v", dir, err)
	}
	d, list := testPack.LoadFile(path)
	if d == nil {
		tb.Fatal(list)
	}
	return d
}

// cliPlayers are the players `tabula simulate` gives a party board by
// default: the board's minimum, two.
var cliPlayers = []string{"P1", "P2"}

// BenchmarkCommandLine plays the original default board with two bots, one
// worker, as `tabula simulate` does (through the game interface and the
// generic simulator, sim.Run) and as this package's simulator does. One op
// is benchGames games.
func BenchmarkCommandLine(b *testing.B) {
	def := originalBoard(b)
	b.Run("generic", func(b *testing.B) {
		measure(b, func(op int) {
			r, err := gsim.Run(context.Background(), def, gsim.Config{Games: benchGames, Players: cliPlayers, Seed: uint64(op), Workers: 1})
			if err != nil || r.Failed.Games > 0 {
				b.Fatal(err, r.Failed.First)
			}
		})
	})
	b.Run("party", func(b *testing.B) {
		measure(b, func(op int) {
			s, err := Run(context.Background(), def, Config{Games: benchGames, Players: cliPlayers, Seed: uint64(op), Workers: 1})
			if err != nil || s.Failed > 0 {
				b.Fatal(err, s.FirstFailure)
			}
		})
	})
}

// TestFastPathSameReport: the generic simulator plays party boards through
// the pack's fast path (sim.Fast: no log, no text, bots without JSON,
// matches started over); hidden behind the plain game interface, the
// boards give the same reports.
func TestFastPathSameReport(t *testing.T) {
	boards, _ := filepath.Glob("../../../examples/party/*.json")
	if len(boards) < 3 {
		t.Fatalf("found %d boards: %v", len(boards), boards)
	}
	for _, file := range boards {
		def, _ := testPack.LoadFile(file)
		if def == nil {
			continue // not a board on its own
		}
		simtest.SameReports(t, file, def,
			gsim.Config{Games: 200, Players: []string{"A", "B", "C"}, Seed: 3, Rotate: true, Workers: 2},
			gsim.Config{Games: 100, Players: []string{"A", "B"}, Seed: 4, MaxRounds: 3, Workers: 1})
	}
}
