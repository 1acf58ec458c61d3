// Package simtest checks a pack's fast path of the simulator (sim.Fast)
// against the plain game interface.
package simtest

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/sim"
)

// SameReports fails the test unless def offers the simulator a fast path
// and, for each configuration, the simulator reports exactly what it
// reports with the fast path hidden behind the plain game interface
// (timings apart). name says which game in the failure.
func SameReports(t testing.TB, name string, def game.Definition, cfgs ...sim.Config) {
	t.Helper()
	if _, ok := def.(sim.Fast); !ok {
		t.Fatalf("%s: the pack offers the simulator no fast path", name)
	}
	for _, cfg := range cfgs {
		fast, err := sim.Run(context.Background(), def, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var plain game.Definition = struct{ game.Definition }{def}
		if m, ok := def.(game.Mapper); ok {
			// The map is the definition's, not the fast path's.
			plain = struct {
				game.Definition
				game.Mapper
			}{def, m}
		}
		slow, err := sim.Run(context.Background(), plain, cfg)
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
