package game

import "testing"

func TestReadable(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"goblin-1", "Goblin 1"},
		{"goblin1", "Goblin 1"},
		{"adaptive-armour", "Adaptive armour"},
		{"adaptive_armour", "Adaptive armour"},
		{"adaptiveArmour", "Adaptive armour"},
		{"until-long-rest", "Until long rest"},
		{"HP", "HP"},
		{"max_HP", "Max HP"},
		{"fighter", "Fighter"},
		{"Ogre", "Ogre"},
		{"  odd--id_ ", "Odd id"},
		{"élan-vital", "Élan vital"},
		{"", ""},
	} {
		if got := Readable(c.id); got != c.want {
			t.Errorf("Readable(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}
