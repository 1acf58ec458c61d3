package skirmish

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// rolled counts what a fight has rolled: random dice and scripted ones.
func rolled(m game.Match) uint64 {
	p := m.(*Match)
	return p.Engine.RNG.Draws() + uint64(1000-len(p.State.Dice))
}

// strikes reports whether a command is a blow: an attack, a shove, an
// opportunity attack taken.
func strikes(_ game.Match, _ int, data json.RawMessage) bool {
	var c Command
	json.Unmarshal(data, &c)
	return c.Do == "attack" || c.Do == "shove" || c.Take != nil && *c.Take
}

// Through whole fights: a blow is never taken back; a move, a dodge or the
// end of a turn is, when nothing it set off rolled a die and the fight
// goes on, and taking it back gives the hash of before it.
func TestUndoOnlyWhatRolledNothing(t *testing.T) {
	var all gametest.UndoCounts
	for _, name := range []string{"ambush", "archery", "duel", "walk-away", "invisible-rogue", "battle-trance"} {
		def, list := loadFile(filepath.Join(examples, name+".encounter.json"))
		if def == nil {
			t.Fatal(list)
		}
		for seed := range uint64(2) {
			c := gametest.CheckUndo(t, def, gametest.UndoOptions{
				Setup: game.Setup{Players: def.Sides, Seed: seed}, MaxCommands: 400, Draws: rolled, Never: strikes,
			})
			t.Logf("%s, seed %d: %+v", name, seed, c)
			all.Undoable += c.Undoable
			all.Not += c.Not
		}
	}
	if all.Undoable == 0 || all.Not == 0 {
		t.Errorf("%d commands may be taken back and %d may not; want some of each", all.Undoable, all.Not)
	}
}

// The fighter steps beside the goblin and may take the step back, which
// gives the fight of before it; its attack, which rolls, it may not.
func TestUndoAStepNotABlow(t *testing.T) {
	def, list := loadFile(filepath.Join(examples, "walk-away.encounter.json"))
	if def == nil {
		t.Fatal(list)
	}
	setup := game.Setup{Players: def.Sides, Seed: 1}
	step := game.Step{Seat: 0, Data: json.RawMessage(`{"do":"move","who":"fighter","to":[2,1]}`)}
	attack := game.Step{Seat: 0, Data: json.RawMessage(`{"do":"attack","who":"fighter","target":"goblin"}`)}
	undo := game.Step{Seat: 0, Undo: true}
	start, err := game.Replay(def, setup, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := game.Replay(def, setup, []game.Step{step, undo}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != start.Hash() {
		t.Errorf("the step taken back gives hash %s, want %s", back.Hash(), start.Hash())
	}
	if _, err := game.Replay(def, setup, []game.Step{step, attack, undo}, nil); err == nil || !strings.Contains(err.Error(), "cannot be taken back") {
		t.Errorf("taking back the attack: %v", err)
	}
}

// In the duel, the cursed fighter saves at the start of each of its
// turns: the goblin's end of turn, which starts the fighter's and so rolls
// the save, may not be taken back; the fighter's, which rolls nothing, may.
func TestUndoNotAnEndThatRolls(t *testing.T) {
	def, list := loadFile(filepath.Join(examples, "duel.encounter.json"))
	if def == nil {
		t.Fatal(list)
	}
	m, err := def.NewMatch(game.Setup{Players: def.Sides, Seed: 1, Dice: []int{5, 15}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seat     int
		undoable bool
	}{{0, true}, {1, false}} {
		if err := m.Apply(c.seat, json.RawMessage(`{"do":"end"}`)); err != nil {
			t.Fatal(err)
		}
		if game.Undoable(m) != c.undoable {
			t.Errorf("%s ends its turn: may be taken back %v, want %v", def.Sides[c.seat], game.Undoable(m), c.undoable)
		}
	}
}
