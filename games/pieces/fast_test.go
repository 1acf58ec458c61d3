package pieces_test

import (
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
	"github.com/tabulagames/tabula/sim/simtest"
)

// The simulator's fast path (the bot playing without JSON, matches started
// over) reports what the game interface alone does, on every game, with 2
// to 4 players, seats rotated, and with a round limit that ends games.
func TestFastPathSameReport(t *testing.T) {
	for name, path := range games(t) {
		def := load(t, path)
		simtest.SameReports(t, name, def,
			sim.Config{Games: 120, Players: []string{"A", "B"}, Seed: 3, Rotate: true, Workers: 2},
			sim.Config{Games: 60, Players: []string{"A", "B", "C", "D"}, Seed: 4, Workers: 1},
			sim.Config{Games: 60, Players: []string{"A", "B", "C"}, Seed: 5, MaxRounds: 8, Workers: 1})
	}
}

// A match started over plays on to the hashes of a new match of the same
// setup, command for command.
func TestRestartIsANewMatch(t *testing.T) {
	for name, path := range games(t) {
		def := load(t, path)
		four := []string{"A", "B", "C", "D"}[:min(4, def.Info().MaxPlayers)]
		m, err := def.StartFast(game.Setup{Players: four, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		fm := m.(sim.FastMatch)
		bots := rng.New(9).Stream("bots")
		for range 150 {
			if w := fm.AppendWaiting(nil); len(w) > 0 {
				fm.PlayBot(w[0], bots)
			}
		}
		for _, setup := range []game.Setup{{Players: []string{"W", "X", "Y", "Z"}[:len(four)], Seed: 7, MaxRounds: 30}, {Players: four[:2], Seed: 8}} {
			if err := fm.Restart(setup); err != nil {
				t.Fatal(err)
			}
			fresh, err := def.StartFast(setup)
			if err != nil {
				t.Fatal(err)
			}
			ff := fresh.(sim.FastMatch)
			for i := 0; ; i++ {
				if fm.Hash() != ff.Hash() {
					t.Fatalf("%s, %d players: after %d commands the match started over has hash %s, a new one %s", name, len(setup.Players), i, fm.Hash(), ff.Hash())
				}
				w := ff.AppendWaiting(nil)
				if len(w) == 0 {
					break
				}
				fm.PlayBot(w[0], bots)
				ff.PlayBot(w[0], bots)
			}
		}
	}
}
