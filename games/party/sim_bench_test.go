package party

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/sim"
	"github.com/tabulagames/tabula/sim/simtest"
)

// The benchmarks of `tabula simulate` on party boards: the generic
// simulator (sim.Run, one worker, the pack's fast path), exactly as the
// command line runs it, against the hand-written baseline
// (baseline_test.go), which plays the very same games as plain Go
// (TestBaselinePlaysTheSameGames). Two boards: the original game's default
// board with two players (the command line's default number), from the
// shared fixtures, and the bundled default board with four.
//
//	go test ./games/party -run '^$' -bench 'Simulate|Baseline|Ratio' -benchmem

// simBoard is a board the benchmarks play, with its players.
type simBoard struct {
	name    string
	file    string
	players []string
}

var simBoards = []simBoard{
	{"original", "", []string{"P1", "P2"}},
	{"bundled", "../../examples/party/default.json", []string{"P1", "P2", "P3", "P4"}},
}

// benchGames is the number of games one op plays.
const benchGames = 1024

// load loads a board; the original's, from the shared fixtures
// ($TABULA_SHARED, else ../shared beside the repository), is skipped
// without them, or fails in CI.
func (b simBoard) load(tb testing.TB) *Definition {
	tb.Helper()
	file := b.file
	if file == "" {
		dir := os.Getenv("TABULA_SHARED")
		if dir == "" {
			dir = filepath.Join("..", "..", "..", "shared")
		}
		file = filepath.Join(dir, "fixtures", "customjack", "v1", "defaultBoard.json")
		if _, err := os.Stat(file); err != nil {
			if os.Getenv("CI") == "true" {
				tb.Fatalf("the shared fixtures are missing (%v); CI must provide them through TABULA_SHARED", err)
			}
			tb.Skipf("skipping: the shared fixtures are not at %s (set TABULA_SHARED): %v", dir, err)
		}
	}
	d, list := testPack.LoadFile(file)
	if d == nil {
		tb.Fatal(list)
	}
	return d
}

func simulate(tb testing.TB, def *Definition, players []string, seed uint64) *sim.Report {
	r, err := sim.Run(context.Background(), def, sim.Config{Games: benchGames, Players: players, Seed: seed, Workers: 1})
	if err != nil || r.Failed.Games > 0 {
		tb.Fatal(err, r.Failed.First)
	}
	return r
}

// BenchmarkSimulate runs sim.Run as `tabula simulate` does, one worker,
// benchGames games an op.
func BenchmarkSimulate(b *testing.B) {
	for _, board := range simBoards {
		b.Run(board.name, func(b *testing.B) {
			def := board.load(b)
			measure(b, func(op int) { simulate(b, def, board.players, uint64(op)) })
		})
	}
}

// BenchmarkBaseline plays the same games as plain Go.
func BenchmarkBaseline(b *testing.B) {
	for _, board := range simBoards {
		b.Run(board.name, func(b *testing.B) {
			def := board.load(b)
			bl := newBaseline(b, def, len(board.players), DefaultMaxRounds)
			measure(b, func(op int) {
				for g := range benchGames {
					bl.play(sim.GameSeed(uint64(op), g))
				}
			})
		})
	}
}

// BenchmarkRatio plays benchGames games with the simulator, then the same
// games with the baseline, in each op, and reports the ratio of their CPU
// times: both share the machine's state, which on a shared machine swings
// wall-clock times far more than their ratio.
func BenchmarkRatio(b *testing.B) {
	for _, board := range simBoards {
		b.Run(board.name, func(b *testing.B) {
			def := board.load(b)
			bl := newBaseline(b, def, len(board.players), DefaultMaxRounds)
			var simCPU, baseCPU time.Duration
			for op := 0; b.Loop(); op++ {
				t0 := cpuTime()
				simulate(b, def, board.players, uint64(op))
				t1 := cpuTime()
				for g := range benchGames {
					bl.play(sim.GameSeed(uint64(op), g))
				}
				simCPU, baseCPU = simCPU+t1-t0, baseCPU+cpuTime()-t1
			}
			games := float64(benchGames) * float64(b.N)
			b.ReportMetric(float64(simCPU)/float64(baseCPU), "sim/baseline")
			b.ReportMetric(float64(simCPU.Nanoseconds())/games, "sim-cpu-ns/game")
			b.ReportMetric(float64(baseCPU.Nanoseconds())/games, "baseline-cpu-ns/game")
		})
	}
}

// measure runs the benchmark's loop, each op playing benchGames games,
// and reports games per second, allocations per game and the process's
// CPU time per game (user and system, the garbage collector's included).
func measure(b *testing.B, op func(op int)) {
	b.ReportAllocs()
	cpu := cpuTime()
	ops := 0
	for b.Loop() {
		op(ops)
		ops++
	}
	games := float64(ops * benchGames)
	b.ReportMetric(games/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/games, "cpu-ns/game")
}

// cpuTime is the CPU time the process has used so far.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// TestBaselinePlaysTheSameGames: the baseline plays the games `tabula
// simulate` plays, game for game: the same winners and rounds, the same
// landings, entries and firings on every space, the same prompts and
// effects for every seat.
func TestBaselinePlaysTheSameGames(t *testing.T) {
	for _, board := range simBoards {
		t.Run(board.name, func(t *testing.T) {
			def := board.load(t)
			bl := newBaseline(t, def, len(board.players), DefaultMaxRounds)
			bots := rng.New(0)
			var m *Match
			for i := range 2000 {
				m = simGame(t, def, m, board.players, 7, i, bots)
				bl.play(sim.GameSeed(7, i))
				got := m.Places()
				if !slices.Equal(bl.winners, m.s.Winners) || bl.rounds != m.s.LastRound || !slices.Equal(bl.counts, got.Counts) {
					t.Fatalf("game %d: the baseline's winners %v, rounds %d, counts\n%v\nthe simulator's %v, %d,\n%v",
						i, bl.winners, bl.rounds, bl.counts, m.s.Winners, m.s.LastRound, got.Counts)
				}
			}
		})
	}
}

// TestAllocationsPerGame: a simulated game of each board, as `tabula
// simulate` plays it, allocates at most maxAllocs objects on average over
// a run of benchGames games, the simulator's share included. What is left
// is the run's own (its first match, its report: about 600 objects), none
// per game: a game that allocates one object again fails it.
func TestAllocationsPerGame(t *testing.T) {
	const maxAllocs = 0.75
	for _, board := range simBoards {
		t.Run(board.name, func(t *testing.T) {
			def := board.load(t)
			simulate(t, def, board.players, 1) // the board's layouts, made once
			allocs := testing.AllocsPerRun(3, func() { simulate(t, def, board.players, 2) })
			perGame := allocs / benchGames
			t.Logf("%.2f allocations per game", perGame)
			if perGame > maxAllocs {
				t.Errorf("a simulated game allocates %.2f objects on average, more than %.2f", perGame, maxAllocs)
			}
		})
	}
}

// TestFastPathSameReport: the simulator plays party boards through the
// pack's fast path (sim.Fast: no log, no text, bots without JSON, matches
// started over); hidden behind the plain game interface, the boards give
// the same reports, places included.
func TestFastPathSameReport(t *testing.T) {
	boards, _ := filepath.Glob("../../examples/party/*.json")
	if len(boards) < 3 {
		t.Fatalf("found %d boards: %v", len(boards), boards)
	}
	for _, file := range boards {
		def, _ := testPack.LoadFile(file)
		if def == nil {
			continue // not a board on its own
		}
		simtest.SameReports(t, file, def,
			sim.Config{Games: 200, Players: []string{"A", "B", "C"}, Seed: 3, Rotate: true, Workers: 2},
			sim.Config{Games: 100, Players: []string{"A", "B"}, Seed: 4, MaxRounds: 3, Workers: 1})
	}
}
