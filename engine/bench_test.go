package engine_test

import (
	"fmt"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

// dispatchMatch builds a match with n triggers of which exactly one matches
// the benchmark's event (type T0 at location 7); the others listen to
// other types or other locations.
func dispatchMatch(n int) (*engine.Match, engine.EffectCall, engine.EffectCall) {
	types := engine.NewTypes("T0", "T1", "T2", "T3", "T4", "T5")
	effects := engine.NewEffects()
	type counter struct{ Fired int }
	engine.Register(effects, "EMIT", func(c *engine.Ctx, s *counter, ev engine.Event) error {
		c.Emit(ev)
		return nil
	})
	engine.Register(effects, "COUNT", func(c *engine.Ctx, s *counter, _ struct{}) error {
		s.Fired++
		return nil
	})
	count := effects.MustCall("COUNT", nil)
	rules := &engine.Rules{Types: types, Effects: effects, Policy: engine.DepthFirst, Guard: engine.PerPair}
	m := engine.NewMatch(rules, &counter{}, 1, []string{"A", "B"})
	defs := make([]*engine.Trigger, 6)
	for i := range defs {
		defs[i] = &engine.Trigger{Name: fmt.Sprintf("listen T%d", i), On: []engine.EventType{engine.EventType(i)},
			Scope: engine.Here, Effects: []engine.EffectCall{count}, Priority: engine.Mid}
	}
	m.Index.Add(defs[0], 1, 0, 7, 0) // the one that matches
	for i := 1; i < n; i++ {
		typ := i % 6
		loc := engine.LocationID(100 + i)
		m.Index.Add(defs[typ], engine.EntityID(i+1), engine.PlayerID(i%2), loc, int64(i))
	}
	hit := engine.NewEvent(0)
	hit.Location = 7
	miss := engine.NewEvent(0)
	miss.Location = 8
	return m, effects.MustCall("EMIT", hit), effects.MustCall("EMIT", miss)
}

// BenchmarkDispatch measures one command that emits one event matching
// exactly one of n triggers.
func BenchmarkDispatch(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		b.Run(fmt.Sprintf("triggers=%d", n), func(b *testing.B) {
			m, hit, _ := dispatchMatch(n)
			b.ReportAllocs()
			for b.Loop() {
				if err := m.Run(0, hit); err != nil {
					b.Fatal(err)
				}
				m.ClearLog()
			}
		})
	}
}

// BenchmarkDispatchNoMatch measures an event that no trigger matches.
func BenchmarkDispatchNoMatch(b *testing.B) {
	m, _, miss := dispatchMatch(100000)
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Run(0, miss); err != nil {
			b.Fatal(err)
		}
		m.ClearLog()
	}
}

// TestNoMatchAllocatesNothing holds the dispatch path to zero allocations
// for an event that matches nothing, and one that matches one trigger.
func TestNoMatchAllocatesNothing(t *testing.T) {
	m, hit, miss := dispatchMatch(1000)
	for name, ev := range map[string]engine.EffectCall{"miss": miss, "hit": hit} {
		m.Run(0, ev) // warm up the match's buffers
		m.ClearLog()
		allocs := testing.AllocsPerRun(100, func() {
			m.Run(0, ev)
			m.ClearLog()
		})
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per command, want 0", name, allocs)
		}
	}
}

// BenchmarkChaosCascade runs the four-drone chaos cascade from a freshly built
// match: five drones placed, one moved, twelve reactions resolved.
func BenchmarkChaosCascade(b *testing.B) {
	move := call("MOVE", moveArgs{Drone: 5, Lane: 1})
	b.ReportAllocs()
	for b.Loop() {
		m, _ := chaosMatch()
		if err := m.Run(0, move); err != nil {
			b.Fatal(err)
		}
	}
}
