package skirmish

import (
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// The creatures of the engine book's examples.

func scimitar() Weapon {
	return Weapon{Name: "scimitar", Ability: "finesse", Reach: 5, Damage: []DamageDice{{Dice: Dice{1, 6}, Type: "slashing"}}}
}

func goblin() *Creature {
	return &Creature{Name: "Goblin", Abilities: [6]int{8, 14, 10, 10, 8, 8}, Proficiency: 2, HP: 7,
		Armour: Armour{Name: "leather", Base: 11, DexCap: -1, Shield: 2}, Speed: 30,
		Weapons: []Weapon{scimitar(), {Name: "shortbow", Ranged: true, Ability: "dex", Normal: 80, Long: 320,
			Damage: []DamageDice{{Dice: Dice{1, 6}, Type: "piercing"}}}},
		OpportunityAttacks: true}
}

func archer() *Creature {
	c := goblin()
	c.Name = "Goblin archer"
	c.Weapons = []Weapon{{Name: "longbow", Ranged: true, Ability: "dex", Normal: 80, Long: 320,
		Damage: []DamageDice{{Dice: Dice{1, 8}, Type: "piercing"}}}}
	return c
}

func skeleton() *Creature {
	return &Creature{Name: "Skeleton", Abilities: [6]int{10, 14, 15, 6, 8, 5}, Proficiency: 2, HP: 13,
		Armour: Armour{Name: "armour scraps", Base: 11, DexCap: -1}, Speed: 30,
		Weapons:            []Weapon{{Name: "shortsword", Ability: "finesse", Reach: 5, Damage: []DamageDice{{Dice: Dice{1, 6}, Type: "piercing"}}}},
		OpportunityAttacks: true}
}

// target is the engine book's plain target: every ability 10, 40 hit
// points, no armour.
func target(resist ...Resist) *Creature {
	return &Creature{Name: "Target", Abilities: [6]int{10, 10, 10, 10, 10, 10}, Proficiency: 2, HP: 40,
		Armour: Armour{Base: 10, DexCap: -1}, Speed: 30, Resistances: resist, OpportunityAttacks: true,
		Weapons: []Weapon{{Name: "club", Ability: "str", Reach: 5, Damage: []DamageDice{{Dice: Dice{1, 4}, Type: "bludgeoning"}}}}}
}

// at places a creature for side 0 ("heroes") or 1 ("monsters").
func at(key string, c *Creature, side int, x, y int) Placement {
	return Placement{Key: key, Creature: c, Side: side, At: Cell{x, y}}
}

// testPack is the pack the tests play with.
var testPack = NewPack()

// arena is an open map of w×h squares where the combatants act in the
// order listed.
func arena(w, h int, ps ...Placement) *Definition {
	rows := make([]string, h)
	for i := range rows {
		rows[i] = strings.Repeat(".", w)
	}
	grid, err := NewGrid(rows)
	if err != nil {
		panic(err)
	}
	return &Definition{Name: "arena", Grid: grid, Sides: []string{"heroes", "monsters"}, Placements: ps, p: testPack}
}

func start(t *testing.T, def *Definition, dice ...int) *Match {
	t.Helper()
	m, err := def.NewMatch(game.Setup{Players: def.Sides, Seed: 1, Dice: dice})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// do plays commands, each for the side of the combatant it names, and
// fails the test on an error; reactions are answered as the bot does.
func do(t *testing.T, m *Match, cmds ...Command) {
	t.Helper()
	for _, c := range cmds {
		if err := m.do(c); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
	}
}

// do plays a command for the side of the combatant it names, and answers
// the reactions it sets off as the bot does.
func (m *Match) do(c Command) error {
	if err := m.play(engine.NoPlayer, c); err != nil {
		return err
	}
	return m.answerReactions()
}

// force puts a modifier on a combatant's attack value, like the engine
// book's force_attack_hit and force_attack_crit.
func force(m *Match, key string, mod value.Modifier) {
	m.State.ByKey(key).Attack.Add(value.SelfStatic, engine.System, mod, nil)
}

var (
	forceHit  = value.WithAutoHit("forced hit", value.AlwaysHit)
	forceCrit = value.WithCritical("forced crit", value.AutoCrit)
)

// lastAct returns the payload of the last event of an action type and
// phase.
func lastAct(m *Match, typ engine.EventType, ph engine.Phase) (*engine.Event, *Act) {
	for i := len(m.Engine.Events) - 1; i >= 0; i-- {
		if ev := &m.Engine.Events[i]; ev.Type == typ && ev.Phase == ph {
			return ev, ev.Data.(*Act)
		}
	}
	return nil, nil
}

func count(m *Match, typ engine.EventType, ph engine.Phase) int {
	n := 0
	for _, ev := range m.Engine.Events {
		if ev.Type == typ && ev.Phase == ph {
			n++
		}
	}
	return n
}

func bonus(name string, n int) value.Modifier { return value.Bonus(name, n) }

func parseResistance(s string) (value.Resistance, bool) { return value.ParseResistance(s) }

func critOf(n int) value.Critical { return value.Critical(n) }

func hitOf(n int) value.AutoHit { return value.AutoHit(n) }
