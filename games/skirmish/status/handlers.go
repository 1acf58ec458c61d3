package status

import (
	"fmt"

	"github.com/tabulagames/tabula/engine"
)

// Role says how an entity of an event relates to the bearer of the status
// whose trigger looks at the event.
type Role uint8

// The roles.
const (
	// Anyone accepts any entity.
	Anyone Role = iota
	// Bearer accepts only the bearer.
	Bearer
	// Other accepts anything but the bearer.
	Other
)

func (r Role) accepts(id, bearer engine.EntityID) bool {
	switch r {
	case Bearer:
		return id == bearer
	case Other:
		return id != bearer
	}
	return true
}

// Watch is the filter of a status's trigger: which events it handles, by
// how their source, subject and target relate to the status's bearer
// ("when the bearer attacks": Subject Bearer; "when the bearer is hit":
// Target Bearer). The game state must be a Holder.
type Watch struct {
	Source, Subject, Target Role
}

// Match implements engine.Filter.
func (w Watch) Match(state any, ev *engine.Event, t *engine.Instance) bool {
	h, ok := state.(Holder)
	if !ok {
		return false
	}
	s := h.Statuses().Get(t.Reactor)
	if s == nil {
		return false
	}
	return w.Source.accepts(ev.Source, s.Bearer) && w.Subject.accepts(ev.Subject, s.Bearer) && w.Target.accepts(ev.Target, s.Bearer)
}

// EndEffect is the name of the effect RegisterEffects adds: it removes the
// status whose trigger fired, with everything it owns (invisibility that
// ends when its bearer attacks).
const EndEffect = "END_STATUS"

// RegisterEffects adds the book's effects to a game's registry and returns
// the handle of END_STATUS. The game state must be a Holder.
func RegisterEffects(e *engine.Effects) engine.Effect[struct{}] {
	return engine.Register(e, EndEffect, func(c *engine.Ctx, h Holder, _ struct{}) error {
		b := h.Statuses()
		s := b.Get(c.Reactor())
		if s == nil {
			return fmt.Errorf("%s: entity %d is not an active status", EndEffect, c.Reactor())
		}
		b.Remove(c, s.ID, "ended by "+c.Trigger().Def.Name)
		return nil
	})
}
