package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

// TestAnEffectThatPanicsBreaksOnlyItsMatch: a panic in an effect, a
// command's or a trigger's, is the error of the chain, naming the effect
// (and the trigger), and breaks the match; the caller goes on.
func TestAnEffectThatPanicsBreaksOnlyItsMatch(t *testing.T) {
	types := engine.NewTypes("BANG")
	bang, _ := types.Lookup("BANG")
	e := engine.NewEffects()
	engine.Register(e, "FIRE", func(c *engine.Ctx, _ *resetGame, _ struct{}) error {
		c.Emit(engine.NewEvent(bang))
		return nil
	})
	engine.Register(e, "BREAK", func(*engine.Ctx, *resetGame, struct{}) error { panic("boom") })
	rules := &engine.Rules{Types: types, Effects: e, Policy: engine.PriorityAgenda, Guard: engine.PerTrigger}
	for _, c := range []struct {
		command, want string
		trigger       bool
	}{
		{"BREAK", "effect BREAK: panic: boom", false},
		{"FIRE", "trigger breaker: effect BREAK: panic: boom", true},
	} {
		m := engine.NewMatch(rules, &resetGame{}, 1, []string{"Ann"})
		if c.trigger {
			m.Index.Add(&engine.Trigger{Name: "breaker", On: []engine.EventType{bang}, Effects: []engine.EffectCall{e.MustCall("BREAK", struct{}{})}},
				engine.System, engine.NoPlayer, engine.NoLocation, 0)
		}
		err := m.Run(0, e.MustCall(c.command, struct{}{}))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: the chain ends with %v, want %q", c.command, err, c.want)
		}
		if m.Err() == nil || !errors.Is(m.Run(0, e.MustCall("FIRE", struct{}{})), m.Err()) {
			t.Errorf("%s: the match is not broken: %v", c.command, m.Err())
		}
	}
}

// TestPlacedBetweenChainsIsHeld: an effect that places a trigger in a game
// whose rules say none does breaks the match, naming the rule.
func TestPlacedBetweenChainsIsHeld(t *testing.T) {
	types := engine.NewTypes("BANG")
	bang, _ := types.Lookup("BANG")
	e := engine.NewEffects()
	engine.Register(e, "PLACE", func(c *engine.Ctx, _ *resetGame, _ struct{}) error {
		c.Index().Add(&engine.Trigger{Name: "late", On: []engine.EventType{bang}}, engine.System, engine.NoPlayer, engine.NoLocation, 0)
		return nil
	})
	for _, fixed := range []bool{false, true} {
		rules := &engine.Rules{Types: types, Effects: e, Policy: engine.PriorityAgenda, PlacedBetweenChains: fixed}
		m := engine.NewMatch(rules, &resetGame{}, 1, []string{"Ann"})
		err := m.Run(0, e.MustCall("PLACE", struct{}{}))
		if broke := err != nil && strings.Contains(err.Error(), "PlacedBetweenChains"); broke != fixed {
			t.Errorf("PlacedBetweenChains %t: the effect that places a trigger ends with %v", fixed, err)
		}
	}
}
