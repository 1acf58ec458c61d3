package rulebook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// FuzzParse: no file, however broken, makes the loader panic or hang: a
// file it refuses has errors, and a file it accepts plays to the end with
// bots (or stops with an error the rules name, never a panic), a replay of
// its commands gives the same hashes, and saving and loading it again
// gives the same file. The seeds are whole games, so minimising a new
// input takes long: go test -fuzz FuzzParse -fuzzminimizetime 5s.
func FuzzParse(f *testing.F) {
	for _, name := range presetFiles {
		data, err := os.ReadFile(filepath.Join(examples, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, name := range []string{"invalid-rules.json", "invalid-types.json"} {
		data, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(data)
	}
	f.Add([]byte(gameJSON(3, `"players": {"start": {"score": 5}},`, `{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "BuyTile", "tileType": ""},
 {"when": {"event": "BUY_DECLINED"}, "then": [{"action": "AUCTION"}]}, {"preset": "FiniteBoardWin"}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		def, list := pack.Parse("f.json", data)
		if def == nil {
			if !list.HasErrors() {
				t.Fatalf("refused without an error:\n%s", list)
			}
			return
		}
		gametest.PlayOut(t, def, game.Setup{Players: defaultPlayers(def), Seed: 1, MaxRounds: 10}, 5000)
		f1, _ := Decode(data)
		once, err := Format(f1)
		if err != nil {
			t.Fatal(err)
		}
		f2, err := Decode(once)
		if err != nil {
			t.Fatal(err)
		}
		twice, _ := Format(f2)
		if string(once) != string(twice) {
			t.Fatalf("saving twice differs:\n%s\n%s", once, twice)
		}
	})
}
