package pieces

import (
	"reflect"
	"testing"

	"github.com/tabulagames/tabula/game"
)

// Changing any field of the state changes the state hash.
func TestHashCoversEveryField(t *testing.T) {
	def := troubleDef(t)
	fresh := func() *Match {
		m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: []int{6, 6, 3, 2}})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := m.Play(0, Command{Roll: true}); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	changes := map[string]func(s *State){
		"Players":   func(s *State) { s.Players = []string{"Ann", "Zed"} },
		"Pieces":    func(s *State) { s.Pieces[0] = s.Pieces[1] },
		"Turn":      func(s *State) { s.Turn = 1 },
		"Phase":     func(s *State) { s.Phase = PhaseMove },
		"Dice":      func(s *State) { s.Dice = []int{5} },
		"Roll":      func(s *State) { s.Roll = 5 },
		"Roller":    func(s *State) { s.Roller = 1 },
		"Placings":  func(s *State) { s.Placings = []int{1} },
		"Round":     func(s *State) { s.Round = 7 },
		"MaxRounds": func(s *State) { s.MaxRounds = 9 },
		"Reason":    func(s *State) { s.Reason = "a reason" },
		"Script":    func(s *State) { s.Script = []int{4, 2} },
		"Moving":    func(s *State) { s.Moving = 3 },
		"Path":      func(s *State) { s.Path = []int{5} },
		"Step":      func(s *State) { s.Step = 1 },
	}
	for f := range reflect.TypeFor[State]().Fields() {
		if _, ok := changes[f.Name]; !ok {
			t.Errorf("State.%s: no change of it is tested", f.Name)
		}
	}
	for name, change := range changes {
		m := fresh()
		h := m.Hash()
		change(m.s)
		m.e.Touch()
		if m.Hash() == h {
			t.Errorf("changing %s leaves the hash %s", name, h)
		}
	}
	// The dice to come are in the hash too.
	a, _ := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1})
	b, _ := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 2})
	if a.Hash() == b.Hash() {
		t.Error("two seeds, one hash")
	}
}
