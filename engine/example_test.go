package engine_test

import (
	"fmt"

	"github.com/tabulagames/tabula/engine"
)

// A board space that makes whoever lands on it drink twice: one event
// type, two effects, one trigger.
func Example() {
	type board struct{ Drinks int }
	types := engine.NewTypes("ON_LAND")
	onLand, _ := types.Lookup("ON_LAND")
	effects := engine.NewEffects()
	engine.Register(effects, "MOVE_TO", func(c *engine.Ctx, b *board, space engine.LocationID) error {
		ev := engine.NewEvent(onLand)
		ev.Location = space
		c.Emit(ev) // only effects change state; they say what they did
		return nil
	})
	engine.Register(effects, "DRINK", func(c *engine.Ctx, b *board, n int) error {
		b.Drinks += n
		return nil
	})
	rules := &engine.Rules{Types: types, Effects: effects, Policy: engine.PriorityAgenda, Guard: engine.PerTrigger}

	b := &board{}
	m := engine.NewMatch(rules, b, 42, []string{"Alice"})
	m.Index.Add(&engine.Trigger{Name: "space 3: drink twice", On: []engine.EventType{onLand}, Scope: engine.Here,
		Effects: []engine.EffectCall{effects.MustCall("DRINK", 2)}}, 3, engine.NoPlayer, 3, 0)
	if err := m.Run(0, effects.MustCall("MOVE_TO", engine.LocationID(3))); err != nil {
		panic(err)
	}
	fmt.Println("drinks:", b.Drinks)
	// Output: drinks: 2
}
