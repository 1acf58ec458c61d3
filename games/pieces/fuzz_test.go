package pieces_test

import (
	"os"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/pieces"
)

// Whatever a file holds, loading it never panics, and a game that loads
// plays its first commands.
func FuzzLoad(f *testing.F) {
	for _, name := range []string{"trouble.json", "crossroads.json"} {
		data, err := os.ReadFile("../../examples/pieces/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"type": "game", "engine": {"type": "multi-piece"}, "board": {"topology": {"spaces": [{"id": 1}]}}}`))
	f.Add([]byte(`{"type": "game", "engine": {"type": "trouble", "config": {"trackLength": 2, "finishLength": 1, "piecesPerPlayer": 1, "startOffsets": [0, 1]}},
	  "board": {"topology": {"spaces": [{"id": "t0"}, {"id": "t1"}, {"id": "p0-f0"}, {"id": "p1-f0"}, {"id": "p0-home-0"}, {"id": "p1-home-0"}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := game.FromBytes("game.json", data, game.Limits{})
		if err != nil {
			return
		}
		p := pieces.NewPack()
		p.Detect(src)
		def, _ := p.LoadDefinition(src)
		if def == nil {
			return
		}
		players := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"}[:def.MinPlayers]
		m, err := def.NewMatch(game.Setup{Players: players, Seed: 1})
		if err != nil {
			return
		}
		for range 50 {
			w := m.Waiting()
			if len(w) == 0 {
				break
			}
			legal := m.Legal(w[0])
			if err := m.Apply(w[0], legal[0].Data); err != nil && !engine.IsRejected(err) {
				t.Fatal(err)
			}
		}
	})
}
