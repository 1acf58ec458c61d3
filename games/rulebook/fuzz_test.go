package rulebook

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// FuzzParse: no file, however broken, makes the loader panic or hang; a
// file it accepts plays a few bot commands without a panic, and saving
// and loading it again gives the same file. The seeds are whole games, so
// minimising a new input takes long: go test -fuzz FuzzParse
// -fuzzminimizetime 5s.
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
		def, _ := pack.Parse("f.json", data)
		if def == nil {
			return
		}
		if g, err := def.NewMatch(game.Setup{Players: defaultPlayers(def), Seed: 1, MaxRounds: 20}, nil); err == nil {
			g.PlayBots(rng.New(1).Stream("bots"), 200)
		}
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
