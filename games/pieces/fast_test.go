package pieces_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// The simulator's fast path (the bot playing without JSON, matches started
// over) reports what the game interface alone does, on every game, with 2
// to 4 players, seats rotated, and with a round limit that ends games.
func TestFastPathSameReport(t *testing.T) {
	for name, path := range games(t) {
		def := load(t, path)
		if _, ok := any(def).(sim.Fast); !ok {
			t.Fatal("the pieces pack offers the simulator no fast path")
		}
		for _, cfg := range []sim.Config{
			{Games: 120, Players: []string{"A", "B"}, Seed: 3, Rotate: true, Workers: 2},
			{Games: 60, Players: []string{"A", "B", "C", "D"}, Seed: 4, Workers: 1},
			{Games: 60, Players: []string{"A", "B", "C"}, Seed: 5, MaxRounds: 8, Workers: 1},
		} {
			fast, err := sim.Run(context.Background(), def, cfg)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := sim.Run(context.Background(), struct{ game.Definition }{def}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			fast.Timing, slow.Timing = nil, nil
			f, _ := json.Marshal(fast)
			s, _ := json.Marshal(slow)
			if !bytes.Equal(f, s) {
				t.Errorf("%s, %d players: the fast path reports\n%s\nwant\n%s", name, len(cfg.Players), f, s)
			}
		}
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
