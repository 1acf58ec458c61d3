package party

import (
	"encoding/json"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// draws counts what a party match has drawn: random numbers (dice,
// placeholders, swaps) and scripted rolls.
func draws(m game.Match) uint64 {
	p := m.(*Match)
	return p.e.RNG.Draws() + uint64(1000-len(p.s.Dice))
}

func isRoll(_ game.Match, _ int, cmd json.RawMessage) bool {
	c, err := decodeCommand(0, cmd)
	return err == nil && c.Kind == KindRoll
}

// Through whole games on the bundled boards: a roll is never taken back; a
// choice of way or an acknowledgement is, when nothing random followed it
// and the game goes on, and taking it back gives the hash of before it.
func TestUndoOnlyWhatDrewNothing(t *testing.T) {
	ways := 0
	for _, board := range []string{"default", "everything", "grand-tour"} {
		def := compileFile(t, "../../examples/party/"+board+".json")
		for seed := range uint64(3) {
			c := gametest.CheckUndo(t, def, gametest.UndoOptions{
				Setup: game.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: seed, MaxRounds: 30}, MaxCommands: 600,
				Draws: draws, Never: isRoll,
			})
			t.Logf("%s, seed %d: %+v", board, seed, c)
			if c.Not == 0 {
				t.Errorf("%s, seed %d: every command may be taken back", board, seed)
			}
			ways += c.Undoable
		}
	}
	if ways == 0 {
		t.Error("no command may ever be taken back")
	}
}
