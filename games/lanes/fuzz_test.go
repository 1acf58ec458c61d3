package lanes

import (
	"os"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// FuzzLoad: no input makes loading panic or hang: a file the loader
// refuses has errors, and a game it accepts plays to the end with bots (or
// stops with an error the rules name, never a panic), and a replay of its
// commands gives the same hashes.
func FuzzLoad(f *testing.F) {
	f.Add(bundledData(f))
	if data, err := os.ReadFile("../../examples/lanes/strike-and-mines.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"game":"lanes","version":1,"rules":{},"drones":[],"cards":[]}`))
	f.Add([]byte(`{"game":"lanes","version":1,"rules":{"sections":[{},{},{}]},"drones":[{"name":"x","abilities":[{"effects":[1]}]}],"cards":[{"effects":[{"type":"MULTI_MOVE"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		def, list := testPack.load("fuzz.json", data)
		if def == nil {
			if !list.HasErrors() {
				t.Fatalf("refused without an error:\n%s", list)
			}
			return
		}
		gametest.PlayOut(t, def, game.Setup{Players: []string{"A", "B"}, Seed: 1, MaxRounds: 10}, 5000)
	})
}
