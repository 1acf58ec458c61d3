package skirmish

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// FuzzLoad: no encounter file, whatever it holds, makes loading panic or
// hang: a file the loader refuses has errors, and an encounter it accepts
// plays to the end with bots (or stops with an error the rules name,
// never a panic), and a replay of its commands gives the same hashes. The
// encounter is read beside the bundled combatant files.
func FuzzLoad(f *testing.F) {
	encounters, _ := filepath.Glob(filepath.Join(examples, "*.encounter.json"))
	for _, name := range append(encounters, filepath.Join(examples, "goblin.json")) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	dir := f.TempDir()
	combatants, _ := filepath.Glob(filepath.Join(examples, "*.json"))
	for _, name := range combatants {
		data, _ := os.ReadFile(name)
		os.WriteFile(filepath.Join(dir, filepath.Base(name)), data, 0o644)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.encounter.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := game.Open(path, game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		def, list := testPack.Load(src)
		if def == nil {
			if !list.HasErrors() {
				t.Fatalf("refused without an error:\n%s", list)
			}
			return
		}
		info := def.Info()
		players := make([]string, info.MinPlayers)
		for i := range players {
			players[i] = info.Roles[i]
		}
		gametest.PlayOut(t, def, game.Setup{Players: players, Seed: 1, MaxRounds: 10}, 5000)
	})
}
