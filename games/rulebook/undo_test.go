package rulebook

import (
	"encoding/json"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// draws counts what a rule book match has drawn: random numbers (dice,
// shuffles), scripted dice and cards.
func draws(m game.Match) uint64 {
	p := m.(*Match)
	return p.eng.RNG.Draws() + uint64(p.state.Scripted+p.state.drawn)
}

// isChance reports whether a command rolls or draws a card.
func isChance(_ game.Match, _ int, cmd json.RawMessage) bool {
	var c Command
	json.Unmarshal(cmd, &c)
	return c.Kind == KindRoll || c.Kind == KindDraw
}

// Through whole games of the presets: a roll or a card drawn is never
// taken back; a choice is, when nothing random and no card followed it and
// the game goes on, and taking it back gives the hash of before it.
func TestUndoOnlyWhatDrewNothing(t *testing.T) {
	for _, name := range []string{"candy-land.json", "chutes-and-ladders.json", "monopoly.json"} {
		def := load(t, name)
		undoable := 0
		for seed := range uint64(3) {
			c := gametest.CheckUndo(t, def, gametest.UndoOptions{
				Setup: game.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: seed, MaxRounds: 40}, MaxCommands: 800,
				Draws: draws, Never: isChance,
			})
			t.Logf("%s, seed %d: %+v", name, seed, c)
			if c.Not == 0 {
				t.Errorf("%s, seed %d: every command may be taken back", name, seed)
			}
			undoable += c.Undoable
		}
		// Candy Land and Chutes and Ladders are all luck: nothing to
		// take back there.
		if name == "monopoly.json" && undoable == 0 {
			t.Errorf("%s: no command may ever be taken back", name)
		}
	}
}

// In an auction, a sealed bid may be taken back until the last bid opens
// them all; that one may not be.
func TestUndoASealedBidUntilTheBidsOpen(t *testing.T) {
	def := load(t, "monopoly.json")
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob", "Cid"}, Seed: 1, Dice: []int{1, 5}})
	play := func(seat int, kind string, value int, undoable bool) {
		t.Helper()
		if err := m.Play(seat, Command{Kind: kind, Value: value}); err != nil {
			t.Fatalf("%s %s %d: %v", m.players[seat], kind, value, err)
		}
		if game.Undoable(m) != undoable {
			t.Errorf("%s %s %d: may be taken back %v, want %v", m.players[seat], kind, value, game.Undoable(m), undoable)
		}
	}
	play(0, KindRoll, 0, false)
	play(0, KindBuy, 1, true) // declines: the auction begins
	play(2, KindBid, 2, true)
	play(1, KindBid, 3, true)
	play(0, KindBid, 0, false) // the last bid opens the others
}
