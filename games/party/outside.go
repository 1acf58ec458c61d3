package party

import (
	"errors"
	"fmt"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
)

// A simulation's match (Options.Direct) runs the turn's own steps (the
// start of the game, a turn's beginning, the roll, each step, the end of
// a turn) outside the engine when no board event hears what they do: most
// steps walk a player over spaces whose events listen for something else,
// and a chain of the engine, with its agenda and dispatches, costs many
// times the step itself. The engine is told how many events the step
// emitted (engine.Match.RanOutside), so that the match, its state hash
// included, is the one the engine would have made.
//
// A step some board event hears has its events, from the first one heard
// on, emitted again in order by a chain of the engine (replaySteps),
// which counts those before it (engine.Ctx.RanOutside) and dispatches
// them as the step's own chain would have: the step already changed the
// state, drew its dice and counted its tallies, as it would have done
// before its events were dispatched. A choice of way is the bot's, drawn
// from the stream the simulator gave the bot for its command (PlayBot),
// as the simulator would have drawn it once the engine asked; without a
// bot, the step runs in the engine, which asks.
//
// TestOutsideSameMatches plays every bundled board both ways and compares
// the state hashes after every command.

// outside is what a turn's step run outside the engine leaves: how many
// events it emitted before the first a board event hears, and that one
// and those after it, in order.
type outside struct {
	e *engine.Match
	// heard is the board's Definition.heard.
	heard []uint64
	// seat and call are the step's player and effect.
	seat    int
	call    *engine.EffectCall
	unheard int
	events  []engine.Event
	// bot is the stream of the bot playing botSeat while it plays a
	// command (PlayBot): a step reaching a fork of that player's asks it,
	// as the simulator would once the engine asked, rather than the
	// engine; asked counts those choices.
	bot     *rng.Stream
	botSeat int
	asked   int
	// replays and choices count the steps replayed in the engine and the
	// choices of way made outside it, for tests.
	replays, choices int
}

// errAsks is returned by a step run outside the engine that would ask a
// player, before it changes anything: it runs in the engine instead.
var errAsks = errors.New("party: the step asks; run it in the engine")

// emit emits an event of type t about a seat (its player the subject) at
// a space, with an amount and a payload; seat nobody and space nowhere
// for an event about nobody that happens nowhere. It goes through the
// engine, or is kept aside while a step runs outside it. Its fields are
// written where the event is kept, not built aside and copied: a copy of
// a value just written field by field waits for those writes to land.
func (s *State) emit(c *engine.Ctx, t engine.EventType, seat, space, amount int, data any) {
	o := s.outside
	if o == nil {
		s.emitInside(c, t, seat, space, amount, data)
		return
	}
	if len(o.events) == 0 && o.heard[space+1]&(1<<(t&63)) == 0 {
		o.unheard++ // nobody hears it: the engine only counts it
		return
	}
	o.events = append(o.events, engine.Event{})
	ev := &o.events[len(o.events)-1]
	ev.Type, ev.Subject, ev.Player, ev.Location = t, engine.System, engine.NoPlayer, engine.LocationID(space)
	if seat != nobody {
		ev.Subject, ev.Player = playerID(seat), engine.PlayerID(seat)
	}
	ev.Amount, ev.Data, ev.Parent = amount, data, engine.NoEvent
}

// emitInside is emit through the engine.
func (s *State) emitInside(c *engine.Ctx, t engine.EventType, seat, space, amount int, data any) {
	subject, player := engine.System, engine.NoPlayer
	if seat != nobody {
		subject, player = playerID(seat), engine.PlayerID(seat)
	}
	c.EmitFrom(&engine.Event{Type: t, Subject: subject, Player: player, Location: engine.LocationID(space),
		Amount: amount, Data: data, Parent: engine.NoEvent})
}

// nobody and nowhere are the seat and space of an event about nobody that
// happens nowhere.
const (
	nobody  = -1
	nowhere = int(engine.NoLocation)
)

// rand returns the match's random stream of that name.
func (s *State) rand(c *engine.Ctx, stream string) *rng.Stream {
	if o := s.outside; o != nil {
		return o.e.RNG.Stream(stream)
	}
	return c.Rand(stream)
}

// answer returns the answer to the step's decision, if it runs with one:
// outside the engine, the choice of the bot playing the current player,
// if one plays it now, among the n options; else none, and the step
// returns errAsks.
func (s *State) answer(c *engine.Ctx, n int) (engine.Input, bool) {
	o := s.outside
	if o == nil {
		return c.Answer(0)
	}
	if o.bot == nil || o.botSeat != s.Current {
		return engine.Input{}, false
	}
	o.asked++
	return engine.Input{Player: engine.PlayerID(s.Current), Kind: KindChoosePath, Choice: o.bot.IntN(n)}, true
}

// turnStep is one of the turn's own effects.
type turnStep = func(c *engine.Ctx, s *State, _ struct{}) error

// run runs one of the turn's own steps for the seat: as a chain of the
// engine, or, in a simulation's match, outside it when nothing hears it.
func (m *Match) run(seat int, call *engine.EffectCall, fn turnStep) error {
	e, s := m.e, m.s
	actor := engine.PlayerID(seat)
	if !m.direct || e.Err() != nil {
		return e.Run(actor, *call)
	}
	o := &m.outside
	if o.e != e {
		o.e, o.heard = e, m.def.heard
	}
	o.seat, o.call, o.unheard, o.events, o.asked = seat, call, 0, o.events[:0], 0
	s.outside = o
	err := fn(nil, s, struct{}{}) // a panic: see recoverOutside
	s.outside = nil
	if err == nil {
		// Each choice of way is a command and, in the engine, a decision
		// asked and its answer: two records.
		m.commands += o.asked
		o.choices += o.asked
	}
	switch {
	case err == nil && len(o.events) == 0:
		return e.RanOutside(actor, o.unheard, 2*o.asked)
	case err == nil:
		o.replays++
		s.ran = o
		err = e.Run(actor, m.def.pack.calls.replay)
		s.ran = nil
		return err
	case err == errAsks:
		return e.Run(actor, *call)
	case engine.IsRejected(err):
		return err // nothing changed, as the engine's chain would leave it
	}
	return m.failOutside(err)
}

// failOutside breaks the match with the error of the step that ran
// outside the engine, as the engine breaks it with the error of an
// effect: the error says which step.
func (m *Match) failOutside(err error) error {
	o := &m.outside
	return m.e.Run(engine.PlayerID(o.seat), engine.EffectCall{ID: m.def.pack.fx.fail.ID, Name: o.call.Name, Args: err})
}

// recoverOutside, deferred by what runs the turn's steps in a match that
// runs them outside the engine (Play, start), turns a panic of such a step
// into the error the engine makes of a panicking effect; other panics go
// on. A step costs less than a deferred recover of its own.
func (m *Match) recoverOutside(err *error) {
	if m.s.outside == nil {
		return
	}
	p := recover()
	m.s.outside = nil
	*err = m.failOutside(fmt.Errorf("panic: %v", p))
}

// replaySteps emits, in the engine, the events of a step that ran outside it,
// in order, for the board events that hear them.
func replaySteps(c *engine.Ctx, s *State, _ struct{}) error {
	if err := c.RanOutside(s.ran.unheard, 2*s.ran.asked); err != nil {
		return err
	}
	for i := range s.ran.events {
		c.EmitFrom(&s.ran.events[i])
	}
	return nil
}

// failStep breaks the match with the error of a step that ran outside it.
func failStep(_ *engine.Ctx, _ *State, err error) error { return err }

// heardAt returns, for a board's events, which event types some board
// event listens for at each space: bit t of heard[i+1] is set when a
// trigger of type t listens at space i or anywhere, of heard[0] when one
// listens anywhere (events at no space). It is what engine.Match.Hears
// tells of a match of the board, whose triggers are never moved, removed
// or carried by an entity (TestHeardAsTheEngineHears).
func heardAt(d *Definition) []uint64 {
	heard := make([]uint64, len(d.Board.Spaces)+1)
	for _, t := range d.triggers {
		var types uint64
		for _, typ := range t.def.On {
			types |= 1 << typ
		}
		if t.def.Scope == engine.Here {
			heard[t.space+1] |= types
			continue
		}
		for i := range heard {
			heard[i] |= types
		}
	}
	return heard
}
