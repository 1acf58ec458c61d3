package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

type tickGame struct{ Ticks, Spins int }

// budgetRules: TICK asks player 0 to acknowledge, then emits TICK again,
// so a whole game is one chain that pauses at every tick; SPIN emits SPIN
// until Spins reaches a limit.
func budgetRules(perInput bool) (*engine.Rules, engine.EffectCall) {
	types := engine.NewTypes("TICK", "SPIN")
	tick, _ := types.Lookup("TICK")
	spin, _ := types.Lookup("SPIN")
	effects := engine.NewEffects()
	engine.Register(effects, "TICK", func(c *engine.Ctx, g *tickGame, _ struct{}) error {
		if c.Answers() == nil {
			return c.Ask(engine.Decision{Player: 0, Kind: "ack"})
		}
		g.Ticks++
		c.Emit(engine.NewEvent(tick))
		return nil
	})
	engine.Register(effects, "SPIN", func(c *engine.Ctx, g *tickGame, _ struct{}) error {
		g.Spins++
		c.Emit(engine.NewEvent(spin))
		return nil
	})
	rules := &engine.Rules{Types: types, Effects: effects, Policy: engine.PriorityAgenda, Budget: 50, BudgetPerInput: perInput}
	return rules, effects.MustCall("TICK", nil)
}

// TestBudgetPerInput: with BudgetPerInput, a chain that pauses for input
// gets the whole budget after each answer, so a long game is not taken for
// a loop; a loop between two answers still ends with a RunawayError that
// names only the triggers of that stretch. Without it, the budget counts
// the whole chain.
func TestBudgetPerInput(t *testing.T) {
	for _, perInput := range []bool{true, false} {
		rules, tickCall := budgetRules(perInput)
		tick, _ := rules.Types.Lookup("TICK")
		spin, _ := rules.Types.Lookup("SPIN")
		g := &tickGame{}
		m := engine.NewMatch(rules, g, 1, []string{"A"})
		m.Index.Add(&engine.Trigger{Name: "Again", On: []engine.EventType{tick}, Effects: []engine.EffectCall{tickCall}}, engine.System, engine.NoPlayer, engine.NoLocation, 0)
		if err := m.Run(0, tickCall); err != nil {
			t.Fatal(err)
		}
		var err error
		for i := 0; i < 100 && err == nil; i++ {
			err = m.Answer(engine.Input{Player: 0, Kind: "ack"})
		}
		var re *engine.RunawayError
		switch {
		case perInput && err != nil:
			t.Fatalf("per input: 100 ticks of one chain broke it: %v", err)
		case !perInput && !errors.As(err, &re):
			t.Fatalf("per chain: %v, want a runaway after 50 steps (ticks %d)", err, g.Ticks)
		}
		if !perInput {
			continue
		}
		// Now a loop between two answers.
		m.Index.Add(&engine.Trigger{Name: "Spin", On: []engine.EventType{tick, spin}, Priority: engine.High, Effects: []engine.EffectCall{rules.Effects.MustCall("SPIN", nil)}},
			engine.System, engine.NoPlayer, engine.NoLocation, 0)
		err = m.Answer(engine.Input{Player: 0, Kind: "ack"})
		if !errors.As(err, &re) || g.Spins > 60 {
			t.Fatalf("a loop between answers: %v after %d spins", err, g.Spins)
		}
		if msg := err.Error(); !strings.Contains(msg, "Spin") || strings.Contains(msg, "Again") {
			t.Errorf("the error should name Spin and not the ticks before: %v", err)
		}
	}
}
