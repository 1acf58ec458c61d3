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
