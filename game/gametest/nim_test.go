package gametest_test

import (
	"encoding/json"
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

func TestNimPassesTheChecks(t *testing.T) {
	def := gametest.Load(t, gametest.NewNim(), "testdata/twenty-one.json")
	gametest.Check(t, def, gametest.Options{})
	gametest.Check(t, def, gametest.Options{PackBot: true, Players: []int{2}})
}

// The first player of Twenty-one loses against the pack's bot, which
// always leaves a multiple of four.
func TestNimBotPlaysTheWinningStrategy(t *testing.T) {
	def := gametest.Load(t, gametest.NewNim(), "testdata/twenty-one.json")
	m, err := def.Start(game.Setup{Players: []string{"Ann", "Bot"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := rng.New(1).Stream("bots")
	for !m.Outcome().Over {
		seat := m.Waiting()[0]
		cmd := m.Legal(seat)[0].Data // Ann takes one counter
		if seat == 1 {
			cmd, _ = game.BotCommand(m, seat, r)
		}
		if err := m.Apply(seat, cmd); err != nil {
			t.Fatal(err)
		}
	}
	if o := m.Outcome(); len(o.Winners) != 1 || o.Winners[0] != 1 {
		t.Fatalf("outcome %+v, want the bot to win", o)
	}
	var v struct {
		Pile int `json:"pile"`
	}
	b, _ := json.Marshal(m.View(game.Spectator))
	json.Unmarshal(b, &v)
	if v.Pile != 0 {
		t.Fatalf("pile %d at the end", v.Pile)
	}
}
