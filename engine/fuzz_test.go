package engine_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

// FuzzChains builds a game from the fuzz input: entities owned by players
// at locations, triggers of every kind (event types and phases, owner
// relations with and without Others, scopes, filters, conditions,
// priorities, Once, UsesPerRound) under either policy and any loop guard,
// and a list of commands; it plays the commands twice and fails
//
//   - on a panic;
//   - if the two plays differ in their log (JSON lines), errors or state
//     hashes;
//   - if a chain runs past the step budget without ending in a
//     *engine.RunawayError that names the triggers of the loop;
//   - if a third play with the log off (Match.SetLog) gives other errors,
//     hashes or records (as its sink sees them) than the first;
//   - if a fourth, with the log off and no sink (events nobody listens to
//     are then not even kept), gives other errors or hashes.
func FuzzChains(f *testing.F) {
	for _, seed := range [][]byte{
		// Nothing: one trigger on E0 that emits E0 again, set off by a
		// command: a loop.
		{},
		{0, 1},    // the same under a per-trigger guard: it ends
		{1, 2, 7}, // and on the priority agenda with a per-pair guard
		{1, 0, 5, 2, 1, 2, 3, 1, 0, 1, 0, 3, 2, 1, 1, 0, 4, 2, 2, 9, 9, 1, 3, 0, 2, 1},
		[]byte("a long and varied input that sets off chains of triggers"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		first := play(t, data, true, true)
		second := play(t, data, true, true)
		if first.log != second.log {
			t.Fatalf("two plays of the same game differ:\n%s\n---\n%s", first.log, second.log)
		}
		if !slices.Equal(first.hashes, second.hashes) {
			t.Fatalf("two plays of the same game hash differently: %v, %v", first.hashes, second.hashes)
		}
		off := play(t, data, false, true)
		if off.errors != first.errors || off.sunk != first.sunk {
			t.Fatalf("the log off, the game plays differently:\n%s%s\n---\n%s%s", off.errors, off.sunk, first.errors, first.sunk)
		}
		if !slices.Equal(off.hashes, first.hashes) {
			t.Fatalf("the log off, the game hashes differently: %v, %v", off.hashes, first.hashes)
		}
		bare := play(t, data, false, false)
		if bare.errors != first.errors || !slices.Equal(bare.hashes, first.hashes) {
			t.Fatalf("the log off without a sink, the game plays differently:\n%s%v\n---\n%s%v", bare.errors, bare.hashes, first.errors, first.hashes)
		}
	})
}

// textSink writes each record it receives as a line of text that does not
// depend on how the match numbers its events.
type textSink struct{ strings.Builder }

func (s *textSink) Record(r *engine.Record, ev *engine.Event) {
	fmt.Fprintf(s, "%v chain %d depth %d trigger %d reactor %d source %d player %d choice %d %q",
		r.Kind, r.Chain, r.Depth, r.Trigger, r.Reactor, r.Source, r.Player, r.Choice, r.Text)
	if ev != nil {
		fmt.Fprintf(s, " event %d/%d %d→%d %d actor %d at %d amount %d depth %d chain %d",
			ev.Type, ev.Phase, ev.Subject, ev.Target, ev.Player, ev.Actor, ev.Location, ev.Amount, ev.Depth, ev.Chain)
	}
	s.WriteByte('\n')
}

// fuzzGame is the state of a fuzzed game.
type fuzzGame struct {
	Location []engine.LocationID // of each entity; entity i+1 is at Location[i]
	Owner    []engine.PlayerID
	Count    []int // effects run for each entity
	Rolls    int
	Steps    int // effects run in the current chain
	Budget   int
}

const fuzzTypes = 4

// fuzzBudget is the least step budget of a fuzzed game: more than a chain
// of its at most ten triggers takes if none fires twice, so that every
// runaway is a loop.
const fuzzBudget = 500

// fuzzArgs are the arguments of the fuzzed effects.
type fuzzArgs struct {
	Type, Phase, Subject, Player, Location, Amount int
	Trigger                                        engine.TriggerID
}

// reader reads small numbers from the fuzz input, and zeros once it is
// used up.
type reader struct{ data []byte }

func (r *reader) n(max int) int {
	if len(r.data) == 0 || max <= 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return int(b) % max
}

func (r *reader) yes() bool { return r.n(2) == 1 }

// played is what one play of a fuzzed game gives.
type played struct {
	log    string
	hashes []string
	// errors are the commands' errors; sunk the records as a sink saw
	// them.
	errors, sunk string
}

var errUnbounded = errors.New("a chain ran past its step budget")

// evenAmount is a filter: the event's amount is even.
type evenAmount struct{}

func (evenAmount) Match(_ any, ev *engine.Event, _ *engine.Instance) bool { return ev.Amount%2 == 0 }

// condition holds while the reactor has run fewer effects than a limit,
// and fails with an error when the limit is 0.
type condition struct{ limit int }

func (c condition) Holds(state any, _ *engine.Event, t *engine.Instance) (bool, error) {
	if c.limit == 0 {
		return false, errors.New("the condition fails on purpose")
	}
	g := state.(*fuzzGame)
	return t.Reactor == engine.System || g.Count[t.Reactor-1] < c.limit, nil
}

func play(t *testing.T, data []byte, keepLog, withSink bool) played {
	in := &reader{data: data}
	types := engine.NewTypes()
	for i := range fuzzTypes {
		types.Intern(fmt.Sprintf("E%d", i))
	}
	effects := engine.NewEffects()
	count := func(c *engine.Ctx, g *fuzzGame) error {
		g.Steps++
		if g.Steps > g.Budget {
			return errUnbounded
		}
		if r := c.Reactor(); r != engine.System {
			g.Count[r-1]++
		}
		return nil
	}
	event := func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) engine.Event {
		ev := engine.NewEvent(engine.EventType(a.Type % fuzzTypes))
		ev.Phase = engine.Phase(a.Phase % 2) // NoPhase or Declaration
		if a.Subject > 0 && a.Subject <= len(g.Location) {
			ev.Subject = engine.EntityID(a.Subject)
			ev.Location = g.Location[a.Subject-1]
			ev.Player = g.Owner[a.Subject-1]
		} else if r := c.Reactor(); r != engine.System {
			ev.Subject = r
			ev.Location = g.Location[r-1]
			ev.Player = g.Owner[r-1]
		}
		if a.Player >= 0 && a.Player < 3 {
			ev.Player = engine.PlayerID(a.Player)
		}
		if a.Location > 0 {
			ev.Location = engine.LocationID(a.Location - 1)
		}
		ev.Amount = a.Amount
		return ev
	}
	emit := engine.Register(effects, "EMIT", func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) error {
		if err := count(c, g); err != nil {
			return err
		}
		c.Emit(event(c, g, a))
		return nil
	})
	roll := engine.Register(effects, "ROLL", func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) error {
		if err := count(c, g); err != nil {
			return err
		}
		a.Amount = c.Rand("dice").IntN(6) + 1
		g.Rolls++
		c.Emit(event(c, g, a))
		return nil
	})
	cancel := engine.Register(effects, "CANCEL", func(c *engine.Ctx, g *fuzzGame, _ fuzzArgs) error {
		if err := count(c, g); err != nil {
			return err
		}
		c.Cancel()
		return nil
	})
	done := engine.Register(effects, "DONE", func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) error {
		if err := count(c, g); err != nil {
			return err
		}
		if ev := c.Event(); ev != nil && !ev.Cancelled {
			a.Phase = 0
			c.Emit(event(c, g, a))
		}
		return nil
	})
	announce := engine.Register(effects, "ANNOUNCE", func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) error {
		if err := count(c, g); err != nil {
			return err
		}
		a.Phase = 1
		c.Announce(event(c, g, a), done.Call(a))
		return nil
	})
	move := engine.Register(effects, "MOVE", func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) error {
		if err := count(c, g); err != nil {
			return err
		}
		if r := c.Reactor(); r != engine.System {
			g.Location[r-1] = engine.LocationID(a.Location % 4)
			c.Index().MoveReactor(r, g.Location[r-1], int64(a.Amount))
		}
		c.Emit(event(c, g, a))
		return nil
	})
	remove := engine.Register(effects, "REMOVE", func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) error {
		if err := count(c, g); err != nil {
			return err
		}
		c.Index().Remove(a.Trigger)
		return nil
	})
	ask := engine.Register(effects, "ASK", func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) error {
		in, ok := c.Answer(0)
		if !ok {
			return c.Ask(engine.Decision{Player: engine.PlayerID((a.Player + 3) % 3), Kind: "pick", Options: []string{"a", "b", "c"}})
		}
		if err := count(c, g); err != nil {
			return err
		}
		a.Amount = in.Choice
		c.Emit(event(c, g, a))
		return nil
	})
	then := engine.Register(effects, "THEN", func(c *engine.Ctx, g *fuzzGame, a fuzzArgs) error {
		if err := count(c, g); err != nil {
			return err
		}
		c.Then(emit.Call(a))
		return nil
	})

	rules := &engine.Rules{Types: types, Effects: effects, PlacedBetweenChains: true,
		Policy: engine.Policy(in.n(2)), Guard: engine.Guard(in.n(3)), Budget: fuzzBudget + in.n(fuzzBudget)}
	g := &fuzzGame{Budget: rules.Budget}
	for range 1 + in.n(6) {
		g.Location = append(g.Location, engine.LocationID(in.n(4)))
		g.Owner = append(g.Owner, engine.PlayerID(in.n(4)-1))
		g.Count = append(g.Count, 0)
	}
	m := engine.NewMatch(rules, g, uint64(in.n(256)), []string{"A", "B", "C"})

	args := func() fuzzArgs {
		return fuzzArgs{Type: in.n(fuzzTypes), Phase: in.n(4) / 3, Subject: in.n(len(g.Location) + 2),
			Player: in.n(5) - 1, Location: in.n(6), Amount: in.n(7), Trigger: engine.TriggerID(in.n(12))}
	}
	call := func() engine.EffectCall {
		a := args()
		switch in.n(9) {
		case 1:
			return roll.Call(a)
		case 2:
			return cancel.Call(a)
		case 3:
			return announce.Call(a)
		case 4:
			return move.Call(a)
		case 5:
			return remove.Call(a)
		case 6:
			return ask.Call(a)
		case 7:
			return then.Call(a)
		case 8:
			return emit.Call(a).At(engine.Priority(in.n(7)))
		}
		return emit.Call(a)
	}
	var names []string
	for i := range 1 + in.n(10) {
		def := &engine.Trigger{
			Name:     fmt.Sprintf("T%d", i),
			On:       []engine.EventType{engine.EventType(in.n(fuzzTypes))},
			Phase:    engine.Phase(in.n(4) / 3),
			Owner:    engine.Relation(in.n(4)),
			Others:   in.yes(),
			Scope:    engine.Scope(in.n(2)),
			Priority: engine.Priority(in.n(7)),
			Once:     in.n(4) == 3,
		}
		if in.yes() {
			def.On = append(def.On, engine.EventType(in.n(fuzzTypes)))
		}
		if in.n(4) == 3 {
			def.UsesPerRound = 1 + in.n(2)
		}
		if in.n(4) == 3 {
			def.Filter = evenAmount{}
		}
		if in.n(4) == 3 {
			def.Condition = condition{limit: in.n(4)}
		}
		for range 1 + in.n(3) {
			def.Effects = append(def.Effects, call())
		}
		reactor := engine.EntityID(in.n(len(g.Location) + 1)) // System or an entity
		controller, loc := engine.NoPlayer, engine.NoLocation
		if reactor != engine.System {
			controller, loc = g.Owner[reactor-1], g.Location[reactor-1]
		}
		m.Index.Add(def, reactor, controller, loc, int64(in.n(8)))
		names = append(names, def.Name)
	}

	var out played
	var log bytes.Buffer
	sink := &textSink{}
	if withSink {
		m.SetLog(keepLog, sink)
	} else {
		m.SetLog(keepLog, nil)
	}
	var errs strings.Builder
	for range 1 + in.n(12) {
		if m.Err() != nil {
			break
		}
		g.Steps = 0
		var err error
		switch {
		case len(m.Waiting()) > 0:
			d := m.Waiting()[0]
			err = m.Answer(engine.Input{Player: d.Player, Kind: d.Kind, Choice: in.n(len(d.Options) + 1)})
		case in.n(6) == 5:
			m.NewRound()
		default:
			err = m.Run(engine.PlayerID(in.n(4)-1), call())
		}
		fmt.Fprintf(&log, "error: %v\n", err)
		fmt.Fprintf(&errs, "error: %v\n", err)
		out.hashes = append(out.hashes, m.Hash())
		if !keepLog && !m.IsWaiting() && (len(m.Records()) > 0 || len(m.Events) > 0) {
			t.Fatalf("the log off, the match keeps %d records and %d events between chains", len(m.Records()), len(m.Events))
		}
		checkError(t, err, names)
	}
	if err := m.WriteJSONL(&log, 0); err != nil {
		t.Fatal(err)
	}
	out.log = log.String()
	out.errors, out.sunk = errs.String(), sink.String()
	return out
}

// checkError fails the test for an error that a fuzzed game must not give:
// a chain past its budget that is not a RunawayError naming triggers of
// the game, or an effect that panicked.
func checkError(t *testing.T, err error, names []string) {
	t.Helper()
	var runaway *engine.RunawayError
	switch {
	case err == nil || engine.IsRejected(err):
	case errors.Is(err, errUnbounded):
		t.Fatalf("a chain ran past its budget without a RunawayError: %v", err)
	case errors.As(err, &runaway):
		if len(runaway.Counts) == 0 {
			t.Fatalf("a runaway names no trigger: %v", err)
		}
		for _, c := range runaway.Counts {
			if !slices.Contains(names, c.Trigger) || c.Fired < 2 {
				t.Fatalf("a runaway names %q (%d×), not a trigger of the loop: %v", c.Trigger, c.Fired, err)
			}
		}
	case strings.Contains(err.Error(), "the condition fails on purpose"):
	default:
		t.Fatalf("unexpected error: %v", err)
	}
}
