package engine_test

import (
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

type tally struct{ N int }

func tallyRules() (*engine.Rules, engine.Effect[int]) {
	types := engine.NewTypes("ADDED")
	effects := engine.NewEffects()
	add := engine.Register(effects, "ADD", func(c *engine.Ctx, s *tally, n int) error {
		s.N += n
		return nil
	})
	return &engine.Rules{Types: types, Effects: effects}, add
}

// An effect's typed handle builds calls the compiler checks; a call built
// by hand with arguments of another type is an error, never a zero value.
func TestEffectArgumentsAreChecked(t *testing.T) {
	rules, add := tallyRules()
	s := &tally{}
	m := engine.NewMatch(rules, s, 1, []string{"A"})
	if err := m.Run(0, add.Call(5)); err != nil || s.N != 5 {
		t.Fatalf("ADD 5: n=%d, err=%v", s.N, err)
	}
	err := m.Run(0, engine.EffectCall{ID: add.ID, Name: add.Name, Args: "5"})
	if err == nil || !strings.Contains(err.Error(), "effect ADD takes int arguments, not string") {
		t.Fatalf("ADD \"5\": err=%v, want a type error", err)
	}
	if s.N != 5 {
		t.Errorf("a call with the wrong argument type changed the state: n=%d", s.N)
	}
	if _, err := rules.Effects.Call("ADD", "5"); err == nil {
		t.Error("Effects.Call accepted a string for an int effect")
	}
}

// The state hash is cached, and anything that can change the state makes
// it stale: a chain, a change to the index, Touch.
func TestHashCacheFollowsChanges(t *testing.T) {
	rules, add := tallyRules()
	s := &tally{}
	m := engine.NewMatch(rules, s, 1, []string{"A"})
	h0 := m.Hash()
	if m.Hash() != h0 {
		t.Fatal("two hashes of one state differ")
	}
	m.Run(0, add.Call(1))
	h1 := m.Hash()
	if h1 == h0 {
		t.Fatal("a chain left the hash unchanged")
	}
	m.Index.Add(&engine.Trigger{Name: "t"}, 1, 0, 1, 0)
	h2 := m.Hash()
	if h2 == h1 {
		t.Fatal("placing a trigger left the hash unchanged")
	}
	s.N = 40
	if m.Hash() != h2 {
		t.Fatal("the hash changed without Touch: it is not cached")
	}
	m.Touch()
	if m.Hash() == h2 {
		t.Fatal("Touch left the hash unchanged")
	}
}
