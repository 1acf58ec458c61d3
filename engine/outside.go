package engine

import "errors"

// A game may run a command's effect itself, outside the match, when it
// knows that no trigger hears what the effect does: a simulation's turn
// that only walks a player over empty spaces needs no chain, no agenda and
// no dispatch. Hears tells it whether a trigger would hear an event;
// Match.RanOutside then ends the match's chain as Run would have ended
// it. When a trigger hears one of the events after all, the game runs a
// chain whose command's effect emits that event and those after it, and
// counts those before it with Ctx.RanOutside.
//
// Only the totals of what was forgotten (events, records) tell these
// chains from those Run would have made, in a match that keeps no log and
// has no sink; the state hash counts those totals alone.

// Hears reports whether a dispatch of ev now would look at some trigger
// instance: whether a trigger of the right type is anywhere, at ev's
// location or carried by its subject (whatever its condition says). An
// event nobody hears sets nothing off.
func (m *Match) Hears(ev *Event) bool {
	anywhere, here, self := m.Index.candidates(ev)
	return len(anywhere)+len(here)+len(self) > 0
}

// RanOutside ends a chain whose command's effect the game ran itself,
// outside the match, exactly as Run would have ended it had the effect run
// there: the effect, played by actor, emitted the given number of events,
// none of which a trigger hears (Hears), and made the given number of
// other records (a decision asked and its answer, read from a bot, are
// two); it drew from the match's random streams through RNG, and
// scheduled nothing. The match is then as Run (and Answer) would have
// left it, its state hash included.
//
// It is for matches without a log or a sink (SetLog): a log would keep the
// events and their records. It refuses, as Run does, when the match is
// broken, paused for a decision or inside an effect: the game checks that
// before it runs the effect.
func (m *Match) RanOutside(actor PlayerID, events, records int) error {
	switch {
	case m.err != nil:
		return m.err
	case m.running:
		return errors.New("engine: RanOutside called from inside an effect")
	case m.hasSuspended:
		return &RejectError{Reason: "waiting for " + m.waitingNames()}
	case !m.bare:
		return errors.New("engine: RanOutside needs a match without a log or a sink")
	}
	// What Run, resolve and ClearLog do for a chain of one effect whose
	// events set nothing off.
	m.hashed = false
	m.chain++
	m.actor = actor
	m.steps = 1
	m.budgetFrom = 0
	m.seq++
	m.forgotten.events += events
	m.forgotten.records += events + records
	return nil
}

// RanOutside counts, for the command's effect now running, what the game
// ran of that effect outside the match before it (Match.RanOutside): the
// events it emitted, which no trigger hears, and its other records. The
// effect then emits the events from the first a trigger hears on. It must
// come before the effect emits anything, in a match without a log or a
// sink, where such events leave nothing but their number once the chain
// has ended.
func (c *Ctx) RanOutside(events, records int) error {
	m := c.m
	if !m.bare || len(m.Events) > 0 || c.task.trig != NoTrigger {
		return errors.New("engine: Ctx.RanOutside needs a command's effect in a match without a log or a sink, before its first event")
	}
	m.forgotten.events += events
	m.forgotten.records += events + records
	return nil
}
