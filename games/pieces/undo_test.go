package pieces

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// draws counts what a match has rolled: random dice and scripted ones.
func draws(m game.Match) uint64 {
	p := m.(*Match)
	return p.e.RNG.Draws() + uint64(1000-len(p.s.Script))
}

// Ann's first piece is out on t3 and she rolls a 6: she chooses between
// moving it and bringing out another: she may take the choice of piece
// back, which gives the match of before it, dice stream and hash alike;
// she may not take the roll back.
func TestUndoTakesBackTheChoiceOfPiece(t *testing.T) {
	def := troubleDef(t)
	setup := game.Setup{Players: []string{"Ann", "Bob"}, Seed: 9, Dice: []int{6, 3, 1, 6}}
	roll := game.Step{Seat: 0, Data: json.RawMessage(`{"roll":true}`)}
	// The only moves of the 6 and the 3 play themselves; Bob's 1 moves
	// nothing.
	first := []game.Step{roll, roll, {Seat: 1, Data: roll.Data}, roll}
	m, err := game.Replay(def, setup, first, nil)
	if err != nil {
		t.Fatal(err)
	}
	if game.Undoable(m) {
		t.Error("the roll may be taken back")
	}
	if _, err := game.Replay(def, setup, append(first, game.Step{Seat: 0, Undo: true}), nil); err == nil || !strings.Contains(err.Error(), "cannot be taken back") {
		t.Errorf("taking back the roll: %v", err)
	}
	before, rolled := m.Hash(), m.(*Match).e.RNG.Draws()
	legal := m.Legal(0)
	if len(legal) < 2 {
		t.Fatalf("after a 6, Ann has %d moves, want a choice", len(legal))
	}
	move := game.Step{Seat: 0, Data: legal[1].Data}
	m, err = game.Replay(def, setup, append(first, move), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !game.Undoable(m) {
		t.Fatalf("%s (%s) may not be taken back", legal[1].Text, legal[1].Data)
	}
	back, err := game.Replay(def, setup, append(first, move, game.Step{Seat: 0, Undo: true}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != before {
		t.Errorf("taken back, the hash is %s; before the move it was %s", back.Hash(), before)
	}
	if n := back.(*Match).e.RNG.Draws(); n != rolled {
		t.Errorf("taken back, the dice stream has drawn %d numbers; before the move, %d", n, rolled)
	}
	if got := len(back.Legal(0)); got != len(legal) {
		t.Errorf("taken back, Ann has %d moves to choose from, want %d", got, len(legal))
	}
}

// Through whole games, a move may be taken back only when it rolled
// nothing and did not end the game, a roll never, and taking it back gives
// the hash of before it.
func TestUndoOnlyWhatRolledNothing(t *testing.T) {
	for name, path := range map[string]string{"trouble": "../../examples/pieces/trouble.json", "crossroads": "../../examples/pieces/crossroads.json"} {
		def, list := NewPack().LoadFile(path)
		if def == nil {
			t.Fatal(list)
		}
		for seed := range uint64(3) {
			c := gametest.CheckUndo(t, def, gametest.UndoOptions{
				Setup: game.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: seed}, MaxCommands: 3000, Draws: draws,
				Never: func(_ game.Match, _ int, cmd json.RawMessage) bool { return strings.Contains(string(cmd), `"roll"`) },
			})
			t.Logf("%s, seed %d: %+v", name, seed, c)
			if c.Undoable == 0 || c.Not == 0 {
				t.Errorf("%s, seed %d: %d commands may be taken back and %d may not; want some of each", name, seed, c.Undoable, c.Not)
			}
		}
	}
}
