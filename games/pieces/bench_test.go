package pieces

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// The benchmarks play whole games of the bundled Trouble board with the
// pack's bot in every seat, four players: through the generic simulator
// (BenchmarkSimulate), through the game interface alone (BenchmarkPlay),
// and as plain Go (BenchmarkBaseline). TestBaselinePlaysTheSameGames
// checks that they play the same games, so their ratio is the cost of the
// engine, the log and the game interface. BenchmarkRatio plays the same
// games both ways in turn, in one loop, and reports the ratio of their CPU
// times: on a machine shared with other work, wall-clock times swing far
// more than CPU times do.
//
//	go test ./games/pieces -run '^$' -bench . -benchmem -count 5

// benchGames is the number of games one op plays.
const benchGames = 256

var benchPlayers = []string{"P1", "P2", "P3", "P4"}

func troubleDef(t testing.TB) *Definition {
	t.Helper()
	def, list := NewPack().LoadFile("../../examples/pieces/trouble.json")
	if def == nil {
		t.Fatal(list)
	}
	return def
}

// BenchmarkSimulate runs sim.Run, one worker, benchGames games an op.
func BenchmarkSimulate(b *testing.B) {
	def := troubleDef(b)
	b.ReportAllocs()
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		simulate(b, def, uint64(i))
	}
	report(b, cpu)
}

func simulate(b *testing.B, def *Definition, seed uint64) {
	r, err := sim.Run(context.Background(), def, sim.Config{Games: benchGames, Players: benchPlayers, Seed: seed, Workers: 1})
	if err != nil || r.Failed.Games > 0 {
		b.Fatal(err, r.Failed)
	}
}

// report adds games per second and the CPU time per game (user and
// system, every thread of the process: the garbage collector's too) to a
// benchmark of benchGames games an op.
func report(b *testing.B, cpu time.Duration) {
	games := float64(benchGames) * float64(b.N)
	b.ReportMetric(games/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/games, "cpu-µs/game")
}

// cpuTime is the process's CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRatio plays benchGames games with the simulator, then the same
// games with the baseline, in each op, and reports the ratio of their CPU
// times.
func BenchmarkRatio(b *testing.B) {
	def := troubleDef(b)
	bl := newBaseline(def, len(benchPlayers))
	var pack, base time.Duration
	for i := 0; b.Loop(); i++ {
		t0 := cpuTime()
		simulate(b, def, uint64(i))
		t1 := cpuTime()
		for g := range benchGames {
			bl.play(sim.GameSeed(uint64(i), g))
		}
		pack, base = pack+t1-t0, base+cpuTime()-t1
	}
	b.ReportMetric(float64(pack)/float64(base), "sim/baseline")
	games := float64(benchGames) * float64(b.N)
	b.ReportMetric(float64(pack.Microseconds())/games, "sim-cpu-µs/game")
	b.ReportMetric(float64(base.Microseconds())/games, "baseline-cpu-µs/game")
}

// BenchmarkPlay plays benchGames games an op through the game interface:
// Start, then the pack's bot's JSON command, Apply, Waiting, until the end.
func BenchmarkPlay(b *testing.B) {
	def := troubleDef(b)
	r := rng.New(1).Stream("bots")
	b.ReportAllocs()
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		for g := range benchGames {
			playBotGame(b, def, sim.GameSeed(uint64(i), g), r)
		}
	}
	report(b, cpu)
}

func playBotGame(t testing.TB, def *Definition, seed uint64, r *rng.Stream) game.Match {
	m, err := def.Start(game.Setup{Players: benchPlayers, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	for {
		w := m.Waiting()
		if len(w) == 0 {
			return m
		}
		cmd, _ := game.BotCommand(m, w[0], r)
		if err := m.Apply(w[0], cmd); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkBaseline plays the same games as plain Go.
func BenchmarkBaseline(b *testing.B) {
	def := troubleDef(b)
	bl := newBaseline(def, len(benchPlayers))
	b.ReportAllocs()
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		for g := range benchGames {
			bl.play(sim.GameSeed(uint64(i), g))
		}
	}
	report(b, cpu)
}

// The baseline plays the same games as the pack: the same winner, rolls,
// moves, captures and rounds, for 2, 3 and 4 players.
func TestBaselinePlaysTheSameGames(t *testing.T) {
	def := troubleDef(t)
	r := rng.New(1).Stream("bots")
	for _, n := range []int{2, 3, 4} {
		bl := newBaseline(def, n)
		for g := range 300 {
			seed := sim.GameSeed(7, g)
			want := bl.play(seed)
			m, err := def.NewMatch(game.Setup{Players: benchPlayers[:n], Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			for len(m.Waiting()) > 0 {
				seat := m.Waiting()[0]
				cmd, _ := m.BotCommand(seat, r)
				if err := m.Apply(seat, cmd); err != nil {
					t.Fatal(err)
				}
			}
			got := baselineResult{winner: -1, rounds: m.s.Round}
			if o := m.Outcome(); len(o.Winners) > 0 {
				got.winner = o.Winners[0]
			}
			for i := range m.log.n {
				switch m.log.at(i).kind {
				case recRolled:
					got.rolls++
				case recMoved, recEntered:
					got.moves++
				case recCaptured:
					got.captures++
				}
			}
			if got != want {
				t.Fatalf("%d players, seed %d: the pack played %+v, the baseline %+v", n, seed, got, want)
			}
		}
	}
}

// BenchmarkClone copies a match 200 commands into a game, as a bot that
// looks ahead does for every playout.
func BenchmarkClone(b *testing.B) {
	def := troubleDef(b)
	m := playHalf(b, def)
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		m.Clone()
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
}

// playHalf plays a game to its middle (200 commands).
func playHalf(t testing.TB, def *Definition) *Match {
	m, _ := def.NewMatch(game.Setup{Players: benchPlayers, Seed: 5})
	r := rng.New(1).Stream("bots")
	for range 200 {
		seat := m.Waiting()[0]
		cmd, _ := m.BotCommand(seat, r)
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatal(err)
		}
	}
	return m
}
