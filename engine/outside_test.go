package engine

import (
	"reflect"
	"testing"
	"unsafe"
)

// A walk for the effects run outside a match: WALK emits, at each of the
// spaces of its plan, ON_ENTER (heard at space 5 only) and NOISE (heard
// nowhere), and asks which way first when the plan says so; HALF emits
// only those from the first heard one on, after Ctx.RanOutside counted
// the others.
type walk struct {
	Plan  []LocationID
	Fork  bool
	Heard int // the first of Plan heard
	Cheer int
}

var (
	walkTypes    = NewTypes("ON_ENTER", "NOISE")
	walkEnter, _ = walkTypes.Lookup("ON_ENTER")
	walkNoise, _ = walkTypes.Lookup("NOISE")
	walkEffects  = NewEffects()
	walkWalk     = Register(walkEffects, "WALK", walkRun(false))
	walkHalf     = Register(walkEffects, "HALF", walkRun(true))
	walkCheer    = Register(walkEffects, "CHEER", func(c *Ctx, w *walk, _ struct{}) error { w.Cheer++; return nil })
	walkRules    = &Rules{Types: walkTypes, Effects: walkEffects, Policy: PriorityAgenda, Guard: PerTrigger, PlacedBetweenChains: true}
	walkHeardAt  = LocationID(5)
)

func walkRun(half bool) func(c *Ctx, w *walk, _ struct{}) error {
	return func(c *Ctx, w *walk, _ struct{}) error {
		if w.Fork && !half {
			if _, ok := c.Answer(0); !ok {
				return c.Ask(Decision{Player: 0, Kind: "way", Options: []string{"left", "right"}})
			}
		}
		from := 0
		if half {
			// What ran outside: the events before the heard one (two a
			// space), and the fork's decision and answer.
			records := 0
			if w.Fork {
				records = 2
			}
			if err := c.RanOutside(2*w.Heard, records); err != nil {
				return err
			}
			from = w.Heard
		}
		for _, at := range w.Plan[from:] {
			ev := NewEvent(walkEnter)
			ev.Location = at
			c.Emit(ev)
			noise := NewEvent(walkNoise)
			noise.Location = at
			c.EmitFrom(&noise)
		}
		return nil
	}
}

func newWalk(t *testing.T, w walk) *Match {
	t.Helper()
	m := NewMatch(walkRules, &w, 3, []string{"Ann", "Bob"})
	m.SetLog(false, nil)
	m.Index.Add(&Trigger{Name: "cheer", On: []EventType{walkEnter}, Scope: Here, Effects: []EffectCall{walkCheer.Call(struct{}{})}},
		System, NoPlayer, walkHeardAt, 0)
	return m
}

// TestRanOutsideAsRun: a chain whose command's effect ran outside the
// match, nobody hearing its events, ends with the hash a chain of Run
// ends with, decisions asked and answered included; and a chain that
// counts the events before the first heard one (Ctx.RanOutside) and
// emits the rest ends as the whole chain would, the trigger fired.
func TestRanOutsideAsRun(t *testing.T) {
	for _, fork := range []bool{false, true} {
		unheard := walk{Plan: []LocationID{1, 2, 3}, Fork: fork}
		inside, outside := newWalk(t, unheard), newWalk(t, unheard)
		if err := inside.Run(1, walkWalk.Call(struct{}{})); err != nil {
			t.Fatal(err)
		}
		if fork {
			if err := inside.Answer(Input{Player: 0, Kind: "way", Choice: 1}); err != nil {
				t.Fatal(err)
			}
		}
		for _, at := range unheard.Plan {
			ev := NewEvent(walkEnter)
			ev.Location = at
			if outside.Hears(&ev) {
				t.Fatalf("an event at %d is heard", at)
			}
		}
		records := 0
		if fork {
			records = 2
		}
		if err := outside.RanOutside(1, 2*len(unheard.Plan), records); err != nil {
			t.Fatal(err)
		}
		if inside.Hash() != outside.Hash() || inside.Chain() != outside.Chain() || inside.Actor() != outside.Actor() {
			t.Errorf("fork %v: after RanOutside, hash %s chain %d; after Run, %s chain %d", fork, outside.Hash(), outside.Chain(), inside.Hash(), inside.Chain())
		}
		// The next chain, paused at its decision, hashes its agenda: the
		// same insertion numbers and chain.
		for _, m := range []*Match{inside, outside} {
			m.State.(*walk).Fork = true
			if err := m.Run(0, walkWalk.Call(struct{}{})); err != nil {
				t.Fatal(err)
			}
		}
		if inside.Hash() != outside.Hash() {
			t.Errorf("fork %v: paused in the next chain, hash %s after RanOutside, %s after Run", fork, outside.Hash(), inside.Hash())
		}

		heard := walk{Plan: []LocationID{1, 2, walkHeardAt, 3}, Fork: fork, Heard: 2}
		inside, outside = newWalk(t, heard), newWalk(t, heard)
		if err := inside.Run(0, walkWalk.Call(struct{}{})); err != nil {
			t.Fatal(err)
		}
		if fork {
			if err := inside.Answer(Input{Player: 0, Kind: "way", Choice: 0}); err != nil {
				t.Fatal(err)
			}
		}
		ev := NewEvent(walkEnter)
		ev.Location = walkHeardAt
		if !outside.Hears(&ev) {
			t.Fatal("the event at the cheering space is not heard")
		}
		if err := outside.Run(0, walkHalf.Call(struct{}{})); err != nil {
			t.Fatal(err)
		}
		if inside.Hash() != outside.Hash() || outside.State.(*walk).Cheer != 1 || inside.State.(*walk).Cheer != 1 {
			t.Errorf("fork %v: after Ctx.RanOutside, hash %s, %d cheers; after Run, %s, %d", fork,
				outside.Hash(), outside.State.(*walk).Cheer, inside.Hash(), inside.State.(*walk).Cheer)
		}
	}
}

// TestRanOutsideRefuses: counting what ran outside needs a match that
// keeps no log (a log would keep the events), not paused, and a command's
// effect that has emitted nothing yet.
func TestRanOutsideRefuses(t *testing.T) {
	logged := NewMatch(walkRules, &walk{}, 3, []string{"Ann"})
	if err := logged.RanOutside(0, 1, 0); err == nil {
		t.Error("RanOutside counted events in a match that keeps its log")
	}
	paused := newWalk(t, walk{Plan: []LocationID{1}, Fork: true})
	if err := paused.Run(0, walkWalk.Call(struct{}{})); err != nil {
		t.Fatal(err)
	}
	if err := paused.RanOutside(0, 1, 0); !IsRejected(err) {
		t.Errorf("RanOutside in a paused match: %v", err)
	}
	effects := NewEffects()
	late := Register(effects, "LATE", func(c *Ctx, w *walk, _ struct{}) error {
		c.Emit(NewEvent(walkEnter))
		return c.RanOutside(1, 0)
	})
	m := NewMatch(&Rules{Types: walkTypes, Effects: effects, Policy: PriorityAgenda}, &walk{}, 3, []string{"Ann"})
	m.SetLog(false, nil)
	if err := m.Run(0, late.Call(struct{}{})); err == nil {
		t.Error("Ctx.RanOutside after the effect emitted an event did not fail")
	}
}

// TestCopiesKeepEveryField: the field-by-field copies of events, records
// and tasks (written so to spare a store-forwarding stall) copy every
// field: a field added later and left out fails here.
func TestCopiesKeepEveryField(t *testing.T) {
	var ev Event
	fill(t, &ev)
	ev.Type = walkNoise
	effects := NewEffects()
	emitted := Register(effects, "EMIT_ALL", func(c *Ctx, w *walk, _ struct{}) error {
		c.EmitFrom(&ev)
		return nil
	})
	m := NewMatch(&Rules{Types: walkTypes, Effects: effects, Policy: PriorityAgenda}, &walk{}, 3, []string{"Ann"})
	if err := m.Run(0, emitted.Call(struct{}{})); err != nil {
		t.Fatal(err)
	}
	got, want := m.Events[0], ev
	// What the engine sets.
	want.Actor, want.Parent, want.Depth, want.Chain = 0, NoEvent, 0, 1
	if !reflect.DeepEqual(got, want) {
		t.Errorf("emitted %+v, kept %+v", want, got)
	}

	var r Record
	fill(t, &r)
	m.record(&r)
	r.Chain = m.chain
	if last := m.records[len(m.records)-1]; !reflect.DeepEqual(last, r) {
		t.Errorf("recorded %+v, kept %+v", r, last)
	}

	var src, dst task
	fill(t, &src)
	copyTask(&dst, &src)
	if !reflect.DeepEqual(dst, src) {
		t.Errorf("copyTask copied %+v into %+v", src, dst)
	}
}

// fill sets every field of the struct v points to a value other than its
// zero, unexported fields too.
func fill(t *testing.T, v any) {
	t.Helper()
	var set func(f reflect.Value, n int)
	set = func(f reflect.Value, n int) {
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f.SetInt(int64(n + 2))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			f.SetUint(uint64(n + 2))
		case reflect.String:
			f.SetString("x")
		case reflect.Interface:
			f.Set(reflect.ValueOf("data"))
		case reflect.Struct:
			for i := range f.NumField() {
				set(f.Field(i), n+i)
			}
		default:
			t.Fatalf("fill: a field of kind %s", f.Kind())
		}
	}
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		set(rv.Field(i), i)
	}
}
