package skirmish

import (
	"fmt"
	"github.com/tabulagames/tabula/game"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game/gametest"
)

// The shapes of a skirmish's ids: combatant keys and condition names in
// kebab-case (goblin-1, adaptive-armour, until-long-rest), squares as
// coordinates ((5,5)), the names of the engine's triggers ("ended by …"),
// and creatures named as objects by their keys ("the goblin").
var skirmishIDs = []*regexp.Regexp{
	regexp.MustCompile(`\b[a-z]+-\d+\b`),
	regexp.MustCompile(`\b(until-long-rest|on-condition)\b`),
	regexp.MustCompile(`\(\s*\d+\s*,\s*\d+\s*\)`),
	regexp.MustCompile(`ended by`),
	regexp.MustCompile(`\b[A-Z]+_[A-Z_]+\b`),
	regexp.MustCompile(`\bthe (fighter|rogue|barbarian|goblin|imp|skeleton|ogre)\b`),
}

// TestPlayersReadNoIDs plays every example encounter to its end with
// bots and checks that players read creatures and conditions by their
// names, and never a square's coordinates.
func TestPlayersReadNoIDs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(examples, "*.encounter.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no encounters: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			def, list := loadFile(path)
			if def == nil {
				t.Fatal(list)
			}
			ids := slices.Clone(skirmishIDs)
			// The encounter's own ids: its combatants' keys and its
			// conditions' names, where they are not words.
			names := testPack.StandardConditions()
			for _, c := range def.Conditions {
				names = append(names, c.Name)
			}
			for _, p := range def.Placements {
				names = append(names, p.Key)
			}
			for _, n := range names {
				if strings.ContainsAny(n, "-_") {
					ids = append(ids, regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\b`))
				}
			}
			gametest.CheckWords(t, def, gametest.Options{Games: 2, PackBot: true}, ids...)
			gametest.CheckWords(t, def, gametest.Options{Games: 1}, ids...)
		})
	}
}

// The end of a fight ranks the sides: the winner first, with the
// creatures each side still has standing, their hit points, the damage
// it dealt and the enemies it downed.
func TestStandings(t *testing.T) {
	m := fight(t, "invisible-rogue.encounter.json", []int{6, 17, 2, 20, 6, 6}, Command{Do: "attack", Who: "rogue", Target: "goblin"},
		Command{Do: "end"}, Command{Do: "attack", Who: "goblin", Target: "rogue"})
	if !m.Outcome().Over {
		t.Fatal("the fight is not over")
	}
	st := m.Standings()
	got := fmt.Sprint(st.Figures)
	for _, s := range st.Seats {
		got += fmt.Sprintf(" | %d. %s %v", s.Place, s.Note, s.Values)
	}
	want := "[creatures standing hit points left damage dealt enemies downed] | 1. goblins [1 of 1 2 of 7 14 1] | 2. heroes [0 of 1 0 of 11 5 0]"
	if got != want {
		t.Errorf("standings\n%s\nwant\n%s", got, want)
	}
}

// A move says how far and which way it goes from where the creature
// stands (north up the map), whom it ends next to and who may strike as
// it leaves their reach, never a square's coordinates.
func TestMoveTexts(t *testing.T) {
	def := load(t, filepath.Join(examples, "walk-away.encounter.json"))
	m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: []int{14, 5}})
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, c := range m.Legal(0) {
		if strings.HasPrefix(c.Text, "Move") {
			moves = append(moves, c.Text)
		}
	}
	for _, want := range []string{
		"Move 5 ft north, next to Goblin",
		"Move 5 ft west, provoking an opportunity attack from Goblin",
		"Move 5 ft south-east, next to Goblin",
		"Move 10 ft north and 5 ft east, provoking an opportunity attack from Goblin",
		"Move 10 ft west and 5 ft south, provoking an opportunity attack from Goblin",
		"Move 10 ft east, next to Goblin",
	} {
		if !slices.Contains(moves, want) {
			t.Errorf("no move %q among\n%s", want, strings.Join(moves, "\n"))
		}
	}
	seen := map[string]bool{}
	for _, mv := range moves {
		if seen[mv] {
			t.Errorf("two moves read %q", mv)
		}
		seen[mv] = true
	}
}
