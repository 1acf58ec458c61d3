package pieces

import (
	"context"
	"fmt"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// The benchmarks play whole games of the bundled Trouble board with the
// pack's bot in every seat: through the generic simulator (BenchmarkSimulate),
// through the game interface alone (BenchmarkPlay), and as plain Go
// (BenchmarkBaseline). TestBaselinePlaysTheSameGames checks that all three
// play the same games, so their ratio is the cost of the engine, the log
// and the game interface.
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
	for i := 0; b.Loop(); i++ {
		r, err := sim.Run(context.Background(), def, sim.Config{Games: benchGames, Players: benchPlayers, Seed: uint64(i), Workers: 1})
		if err != nil || r.Failed.Games > 0 {
			b.Fatal(err, r.Failed)
		}
	}
	b.ReportMetric(float64(benchGames)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkPlay plays benchGames games an op through the game interface:
// Start, then the pack's bot's JSON command, Apply, Waiting, until the end.
func BenchmarkPlay(b *testing.B) {
	def := troubleDef(b)
	r := rng.New(1).Stream("bots")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for g := range benchGames {
			playBotGame(b, def, sim.GameSeed(uint64(i), g), r)
		}
	}
	b.ReportMetric(float64(benchGames)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
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
	for i := 0; b.Loop(); i++ {
		for g := range benchGames {
			bl.play(sim.GameSeed(uint64(i), g))
		}
	}
	b.ReportMetric(float64(benchGames)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
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

func BenchmarkClone(b *testing.B) {
	def := troubleDef(b)
	m := playHalf(b, def)
	b.ReportAllocs()
	for b.Loop() {
		m.Clone()
	}
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

var _ = fmt.Sprint
