package server

import (
	"testing"

	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/lanes"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/pieces"
	"github.com/tabulagames/tabula/games/rulebook"
	"github.com/tabulagames/tabula/games/skirmish"
)

// allPacks are the packs the server's tests host besides Nim.
func allPacks() game.Packs {
	return game.Packs{pieces.NewPack(), party.NewPack(), rulebook.NewPack(), lanes.NewPack(), skirmish.NewPack()}
}

// A database written by the first server still serves its matches: those
// in play rebuild (every stored hash checked) and go on, finished ones
// replay, and a seat's old secret still plays it.
func TestOldDatabaseStillServes(t *testing.T) {
	ts := newTestServer(t, Options{DB: copyTestdata(t, "old-v0.db"), Packs: allPacks(), Bundled: BundledGames{FS: examples.Games, Default: "default"}})
	cases := []struct {
		id, status string
		commands   int
		token      string
	}{
		{"0408464786", "playing", 30, "8515b03eade9c1e0cb8ad23cbaa7f835"},
		{"afd4206e68", "lobby", 0, "49307d613c93b025c7c329d6874b9d65"},
	}
	for _, c := range cases {
		s := ts.summary(c.id, "")
		if s.Status != c.status || s.Commands != c.commands {
			t.Errorf("match %s: %s with %d commands (%s), want %s with %d", c.id, s.Status, s.Commands, s.Error, c.status, c.commands)
		}
		if c.status != "playing" {
			continue
		}
		cl := ts.dial(c.id, q("token", c.token))
		cl.waitFor("the rebuilt match", func(st stateIn) bool { return st.View != nil })
		if cl.last.You != 0 {
			t.Errorf("the old secret plays seat %d", cl.last.You)
		}
	}
}
