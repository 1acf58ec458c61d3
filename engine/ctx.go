package engine

import (
	"fmt"
	"slices"

	"github.com/tabulagames/tabula/engine/rng"
)

// Ctx is what an effect sees while it runs: the match, the event it reacts
// to, the trigger that fired, the acting player. It is valid only during
// the effect's call; effects must not keep it.
type Ctx struct {
	m    *Match
	task *task
}

// Match returns the match the effect runs in.
func (c *Ctx) Match() *Match { return c.m }

// Index returns the match's trigger instances, for effects that place,
// move or remove triggers.
func (c *Ctx) Index() *Index { return c.m.Index }

// Actor returns the acting player of the chain.
func (c *Ctx) Actor() PlayerID { return c.m.actor }

// Depth returns the depth of the firing the effect belongs to (0 for the
// effect of a command).
func (c *Ctx) Depth() int { return int(c.task.depth) }

// EventRef returns the index of the event the effect reacts to, or NoEvent.
func (c *Ctx) EventRef() EventRef { return c.task.event }

// Event returns the event the effect reacts to (or the announced event, in
// a continuation of Announce), or nil for the effect of a command. The
// pointer is valid until the effect emits another event.
func (c *Ctx) Event() *Event {
	if c.task.event == NoEvent {
		return nil
	}
	return &c.m.Events[c.task.event]
}

// Trigger returns the trigger instance that fired, or nil for the effect of
// a command or a continuation scheduled by one.
func (c *Ctx) Trigger() *Instance {
	if c.task.trig == NoTrigger {
		return nil
	}
	return &c.m.Index.inst[c.task.trig]
}

// Reactor returns the entity whose trigger fired, or System.
func (c *Ctx) Reactor() EntityID {
	if c.task.trig == NoTrigger {
		return System
	}
	return c.m.Index.inst[c.task.trig].Reactor
}

// NewEvent returns an event of the given type that concerns nobody and
// happens nowhere; set the fields that apply before emitting it.
func NewEvent(t EventType) Event {
	return Event{Type: t, Player: NoPlayer, Location: NoLocation, Parent: NoEvent}
}

// Emit records an event and schedules its dispatch for when the effect
// returns. The engine sets Actor, Parent, Depth and Chain; a zero Source
// becomes the reactor of the firing trigger, since the entity whose effect
// caused an event is its source.
//
// In a match on the priority agenda that keeps no log and has no sink
// (SetLog), whose effects place no trigger (Rules.PlacedBetweenChains), an
// event of a type no trigger listens to is counted, as the state hash
// counts every event, but not kept, since nothing can read it: Emit then
// returns NoEvent. (On the stack, its dispatch would be a step of the
// chain's budget; a trigger placed later in the same effect would hear it.)
func (c *Ctx) Emit(ev Event) EventRef { return c.EmitFrom(&ev) }

// EmitFrom is Emit of *ev, which it copies and leaves as it is. An effect
// that builds an event field by field and emits it at once saves a copy
// of it: a whole copy of a value just written field by field waits for
// those writes to land (a store-forwarding stall).
func (c *Ctx) EmitFrom(ev *Event) EventRef {
	m := c.m
	if m.bare && m.Rules.PlacedBetweenChains && m.Rules.Policy == PriorityAgenda && !m.Index.listens(ev.Type) {
		m.forgotten.events++
		m.forgotten.records++
		return NoEvent
	}
	return c.emit(ev)
}

// emit records an event and schedules its dispatch. The event is written
// into the log field by field, not copied whole: a whole copy of a value
// its caller has just written field by field waits for those writes to
// land (a store-forwarding stall), the costliest step of an event on some
// CPUs.
func (c *Ctx) emit(ev *Event) EventRef {
	m := c.m
	ref := EventRef(len(m.Events))
	m.Events = append(m.Events, Event{})
	e := &m.Events[ref]
	e.Type, e.Phase, e.Source, e.Subject, e.Target, e.Player = ev.Type, ev.Phase, ev.Source, ev.Subject, ev.Target, ev.Player
	e.Location, e.Amount, e.Data, e.Cancelled = ev.Location, ev.Amount, ev.Data, ev.Cancelled
	e.Actor, e.Parent, e.Depth, e.Chain = m.actor, c.task.event, c.task.depth, m.chain
	if e.Source == System {
		e.Source = c.Reactor()
	}
	if m.bare {
		m.forgotten.records++ // what record would do, without making the record
	} else {
		m.record(&Record{Kind: RecEvent, Event: ref, Trigger: c.task.trig, Depth: e.Depth, Reactor: c.Reactor(), Source: e.Source})
	}
	m.emitted = append(m.emitted, ref)
	return ref
}

// Then schedules another effect to run after the cascades of the events
// this effect emits have resolved (on the priority agenda: after the
// reactions of equal priority). It runs in the same firing, seeing the
// same event and trigger.
func (c *Ctx) Then(call EffectCall) {
	c.m.then = append(c.m.then, c.follow(call, c.task.event))
}

// Announce emits ev (usually in the Declaration phase) and schedules then
// to run once the handlers of ev have resolved; in then, Ctx.Event is ev,
// so it can see whether a handler cancelled or modified it. This is how an
// action is intercepted before it happens: then does nothing, and pays no
// cost, if ev was cancelled.
func (c *Ctx) Announce(ev Event, then EffectCall) EventRef {
	ref := c.emit(&ev) // kept: then reads it
	c.m.then = append(c.m.then, c.follow(then, ref))
	return ref
}

func (c *Ctx) follow(call EffectCall, ev EventRef) task {
	t := *c.task
	t.kind, t.effect, t.call, t.event = taskEffect, -1, call, ev
	// On the priority agenda a continuation comes after equal-priority
	// reactions of the events emitted before it.
	t.tier, t.pos = 1<<30, 1<<62
	return t
}

// Cancel marks the event the effect reacts to as cancelled. Declaration
// handlers call it to stop an announced action.
func (c *Ctx) Cancel() {
	if ev := c.Event(); ev != nil && !ev.Cancelled {
		ev.Cancelled = true
		c.m.record(&Record{Kind: RecCancelled, Event: c.task.event, Trigger: c.task.trig, Depth: c.task.depth, Reactor: c.Reactor()})
	}
}

// Ask pauses the chain until the players answer the decisions; the effect
// returns what Ask returns, and runs again, from its start, once every
// decision is answered, when Answers holds the inputs. An effect that asks
// must do so before it changes anything.
func (c *Ctx) Ask(ds ...Decision) error {
	if len(ds) == 0 {
		return fmt.Errorf("Ask without decisions")
	}
	m := c.m
	for _, d := range ds {
		if d.Player < 0 || (len(m.Players) > 0 && int(d.Player) >= len(m.Players)) {
			return fmt.Errorf("Ask: no player %d in this match", d.Player)
		}
	}
	m.asked = append(m.asked[:0], ds...)
	m.answers = append(m.answers[:0], make([]Input, len(ds))...)
	m.answered = append(m.answered[:0], make([]bool, len(ds))...)
	return errAsked
}

// Answers returns the inputs that answered the effect's decisions, in the
// order they were asked, or nil on the effect's first run.
func (c *Ctx) Answers() []Input {
	m := c.m
	if len(m.asked) == 0 || slices.Contains(m.answered, false) {
		return nil
	}
	return slices.Clone(m.answers)
}

// Answer returns the input that answered the effect's i-th decision, and
// whether the effect runs with its answers. Unlike Answers, it copies
// nothing.
func (c *Ctx) Answer(i int) (Input, bool) {
	m := c.m
	if i < 0 || i >= len(m.asked) || slices.Contains(m.answered, false) {
		return Input{}, false
	}
	return m.answers[i], true
}

// Rand returns the match's random stream with the given name.
func (c *Ctx) Rand(stream string) *rng.Stream { return c.m.RNG.Stream(stream) }

// Note adds a line of text to the log, for the readable action log.
func (c *Ctx) Note(format string, args ...any) {
	c.m.record(&Record{Kind: RecNote, Event: c.task.event, Trigger: c.task.trig, Depth: c.task.depth, Reactor: c.Reactor(), Text: fmt.Sprintf(format, args...)})
}
