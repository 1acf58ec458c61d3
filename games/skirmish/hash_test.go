package skirmish

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// Changing any field of the state, or of a combatant, changes the state
// hash: each change below is made to a fresh match, which then tells the
// engine its state changed. Every field is either changed here or named
// as part of the definition, which a match never changes.
func TestHashCoversTheState(t *testing.T) {
	def := load(t, filepath.Join(examples, "ambush.encounter.json"))
	fresh := func() *Match {
		m, err := def.NewMatch(game.Setup{Players: def.Sides, Seed: 1, Dice: slices.Repeat([]int{10}, 20)})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	first := func(m *Match) *Combatant { return m.State.Fighters[0] }
	bump := func(v *value.Value) { v.Add(value.SelfStatic, engine.System, value.Bonus("test", 1), nil) }
	state := []struct {
		field  string
		change func(m *Match)
	}{
		{"Registry", func(m *Match) { m.State.Registry.Add("ghost", KindStatus) }},
		{"Fighters", func(m *Match) { m.State.Fighters = m.State.Fighters[1:] }},
		{"Order", func(m *Match) { o := m.State.Order; o[0], o[1] = o[1], o[0] }},
		{"Turn", func(m *Match) { m.State.Turn++ }},
		{"Round", func(m *Match) { m.State.Round++ }},
		{"MaxRounds", func(m *Match) { m.State.MaxRounds++ }},
		{"Over", func(m *Match) { m.State.Over = true }},
		{"Winner", func(m *Match) { m.State.Winner = 1 }},
		{"Reason", func(m *Match) { m.State.Reason = "a test" }},
		{"Dice", func(m *Match) { m.State.Dice[0] = 4 }},
		{"book", func(m *Match) { m.State.book.All()[0].Stacks++ }},
	}
	combatant := []struct {
		field  string
		change func(f *Combatant)
	}{
		{"ID", func(f *Combatant) { f.ID += 10 }},
		{"Side", func(f *Combatant) { f.Side = 1 - f.Side }},
		{"Pos", func(f *Combatant) { f.Pos[1]++ }},
		{"HP", func(f *Combatant) { f.HP-- }},
		{"TempHP", func(f *Combatant) { f.TempHP++ }},
		{"Alive", func(f *Combatant) { f.Alive = false }},
		{"Initiative", func(f *Combatant) { f.Initiative++ }},
		{"Economy.Actions", func(f *Combatant) { f.Economy.Actions++ }},
		{"Economy.BonusActions", func(f *Combatant) { f.Economy.BonusActions++ }},
		{"Economy.Reactions", func(f *Combatant) { f.Economy.Reactions++ }},
		{"Economy.Movement", func(f *Combatant) { f.Economy.Movement += 5 }},
		{"Attacks", func(f *Combatant) { f.Attacks++ }},
		{"Dealt", func(f *Combatant) { f.Dealt++ }},
		{"KnockOuts", func(f *Combatant) { f.KnockOuts++ }},
		{"Abilities", func(f *Combatant) { bump(f.Abilities[2]) }},
		{"Saves", func(f *Combatant) { bump(f.Saves[4]) }},
		{"Skills", func(f *Combatant) { bump(f.Skills[7]) }},
		{"AC", func(f *Combatant) { bump(f.AC) }},
		{"Attack", func(f *Combatant) { bump(f.Attack) }},
		{"Damage", func(f *Combatant) { bump(f.Damage) }},
		{"Resistance", func(f *Combatant) { bump(f.Resistance) }},
		{"DamageReduction", func(f *Combatant) { bump(f.DamageReduction) }},
		{"Speed", func(f *Combatant) { bump(f.Speed) }},
		{"MaxHP", func(f *Combatant) { bump(f.MaxHP) }},
		{"InitiativeBonus", func(f *Combatant) { bump(f.InitiativeBonus) }},
		{"all", func(f *Combatant) { f.all[len(f.all)-1].SetBase(99) }},
	}
	// Fields that come from the definition, the same in every match of it.
	fixed := map[string]bool{"State.Def": true, "State.p": true, "State.defs": true,
		"Combatant.Key": true, "Combatant.Name": true, "Combatant.Creature": true, "Combatant.leaving": true}

	base := fresh().Hash()
	covered := map[string]bool{}
	for _, c := range state {
		m := fresh()
		c.change(m)
		m.Engine.Touch()
		if m.Hash() == base {
			t.Errorf("changing State.%s leaves the hash as it was", c.field)
		}
		covered["State."+c.field] = true
	}
	for _, c := range combatant {
		m := fresh()
		c.change(first(m))
		m.Engine.Touch()
		if m.Hash() == base {
			t.Errorf("changing Combatant.%s leaves the hash as it was", c.field)
		}
		covered["Combatant."+c.field] = true
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[State](), reflect.TypeFor[Combatant](), reflect.TypeFor[Economy]()} {
		for f := range typ.Fields() {
			name := typ.Name() + "." + f.Name
			if typ == reflect.TypeFor[Economy]() {
				name = "Combatant.Economy." + f.Name
			}
			if typ == reflect.TypeFor[Combatant]() && f.Name == "Economy" {
				continue
			}
			if !covered[name] && !fixed[name] {
				t.Errorf("%s: no test changes it; add one (and encode it in AppendCanonical)", name)
			}
		}
	}
	// The engine caches the hash: asking twice computes it once, and a
	// command makes it new.
	m := fresh()
	h := m.Hash()
	if m.Hash() != h {
		t.Fatal("two hashes of one state differ")
	}
	if err := m.Play(m.Waiting()[0], Command{Do: "end"}); err != nil {
		t.Fatal(err)
	}
	if m.Hash() == h {
		t.Error("a command left the hash as it was")
	}
}
