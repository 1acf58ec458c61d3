package status_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/status"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// World is a minimal game: two creatures with an attack bonus and an
// armour class, a registry of entity names, and the book of statuses.
type world struct {
	names  []string // index id-1; "" once dropped
	values map[engine.EntityID][]*value.Value
	book   *status.Book
	Saves  []bool // scripted saving throws
}

const (
	hero  engine.EntityID = 1
	ghoul engine.EntityID = 2
)

func (w *world) NewEntity(name string) engine.EntityID {
	w.names = append(w.names, name)
	return engine.EntityID(len(w.names))
}

func (w *world) DropEntity(id engine.EntityID) { w.names[id-1] = "" }

func (w *world) Value(id engine.EntityID, name string) *value.Value {
	for _, v := range w.values[id] {
		if v.Name == name {
			return v
		}
	}
	return nil
}

func (w *world) Controller(id engine.EntityID) engine.PlayerID { return engine.PlayerID(id - 1) }

func (w *world) Statuses() *status.Book { return w.book }

func (w *world) EntityName(id engine.EntityID) string {
	if id < 1 || int(id) > len(w.names) {
		return ""
	}
	return w.names[id-1]
}

var (
	types   = engine.NewTypes("ATTACK", "CONDITION_APPLIED", "CONDITION_REMOVED")
	attack  = mustType("ATTACK")
	applied = mustType("CONDITION_APPLIED")
	removed = mustType("CONDITION_REMOVED")
	effects = newEffects()
	rules   = &engine.Rules{Types: types, Effects: effects, Policy: engine.DepthFirst, Guard: engine.NoGuard}
)

func mustType(name string) engine.EventType {
	t, _ := types.Lookup(name)
	return t
}

type applyArgs struct {
	Def    *status.Def
	Bearer engine.EntityID
	Rounds int
}

func newEffects() *engine.Effects {
	e := engine.NewEffects()
	status.RegisterEffects(e)
	engine.Register(e, "APPLY", func(c *engine.Ctx, w *world, a applyArgs) error {
		r := status.Request{Def: a.Def, Bearer: a.Bearer, Source: a.Bearer}
		if a.Rounds > 0 {
			r.Duration = &status.Duration{Kind: status.Rounds, Rounds: a.Rounds}
		}
		_, err := w.book.Apply(c, r)
		return err
	})
	engine.Register(e, "ATTACK", func(c *engine.Ctx, w *world, who engine.EntityID) error {
		ev := engine.NewEvent(attack)
		ev.Phase, ev.Subject, ev.Source = engine.Declaration, who, who
		c.Emit(ev)
		return nil
	})
	engine.Register(e, "ADVANCE", func(c *engine.Ctx, w *world, who engine.EntityID) error {
		return w.book.Advance(c, who, func(*status.Status) (bool, error) {
			if len(w.Saves) == 0 {
				return false, fmt.Errorf("no scripted save left")
			}
			ok := w.Saves[0]
			w.Saves = w.Saves[1:]
			return ok, nil
		})
	})
	return e
}

func newWorld() (*world, *engine.Match) {
	w := &world{values: map[engine.EntityID][]*value.Value{}}
	w.NewEntity("Hero")
	w.NewEntity("Ghoul")
	for _, id := range []engine.EntityID{hero, ghoul} {
		w.values[id] = []*value.Value{value.New("attack", id, 5), value.New("ac", id, 12)}
	}
	m := engine.NewMatch(rules, w, 1, []string{"Hero's player", "Ghoul's player"})
	w.book = status.NewBook(w, m.Index, applied, removed)
	return w, m
}

var (
	invisible = &status.Def{Name: "invisible", Mods: []status.Mod{
		{Value: "attack", Channel: value.SelfStatic, Modifier: value.WithAdvantage("invisible", value.Advantaged)},
		{Value: "ac", Channel: value.ToTargetStatic, Modifier: value.WithAdvantage("invisible", value.Disadvantaged)},
	}}
	// invisibility is a spell of invisibility: a parent that owns the
	// invisible sub-status and a handler that ends it all when the bearer
	// attacks.
	invisibility = &status.Def{Name: "invisibility", Children: []*status.Def{invisible},
		Triggers: []*engine.Trigger{{Name: "invisibility ends on attack", On: []engine.EventType{attack},
			Phase: engine.Declaration, Filter: status.Watch{Subject: status.Bearer},
			Effects: []engine.EffectCall{effects.MustCall(status.EndEffect, nil)}}}}
	shielded = &status.Def{Name: "shielded", Mods: []status.Mod{
		{Value: "ac", Channel: value.SelfStatic, Modifier: value.Bonus("shield", 5)}}}
)

func TestRemovalCleansEverything(t *testing.T) {
	w, m := newWorld()
	if err := m.Run(0, effects.MustCall("APPLY", applyArgs{Def: invisibility, Bearer: hero})); err != nil {
		t.Fatal(err)
	}
	parent := w.book.Find(hero, "invisibility")
	child := w.book.Find(hero, "invisible")
	if parent == nil || child == nil || child.Parent != parent.ID || !slices.Equal(parent.Children, []engine.EntityID{child.ID}) {
		t.Fatalf("statuses after applying invisibility: %v", names(w.book.Of(hero)))
	}
	if got := w.Value(hero, "attack").Advantage(); got != value.Advantaged {
		t.Errorf("invisible hero attacks with %s, want ADVANTAGE", got)
	}
	if m.Index.Len() != 1 || !slices.Equal(m.Index.Of(parent.ID), parent.Triggers()) {
		t.Errorf("the parent's trigger is not in the index: %d instances", m.Index.Len())
	}

	// The ghoul attacking changes nothing; the hero attacking ends it all.
	if err := m.Run(1, effects.MustCall("ATTACK", ghoul)); err != nil {
		t.Fatal(err)
	}
	if len(w.book.Of(hero)) != 2 {
		t.Fatalf("the ghoul's attack ended the hero's invisibility")
	}
	if err := m.Run(0, effects.MustCall("ATTACK", hero)); err != nil {
		t.Fatal(err)
	}
	if n := len(w.book.All()); n != 0 {
		t.Errorf("%d statuses left after the attack: %v", n, names(w.book.All()))
	}
	if m.Index.Len() != 0 {
		t.Errorf("%d trigger instances left", m.Index.Len())
	}
	for _, id := range []engine.EntityID{hero, ghoul} {
		for _, v := range w.values[id] {
			if len(v.Entries()) != 0 {
				t.Errorf("%s of %s keeps %d modifiers", v.Name, w.EntityName(id), len(v.Entries()))
			}
		}
	}
	if w.EntityName(parent.ID) != "" || w.EntityName(child.ID) != "" {
		t.Error("the registry still holds the removed statuses")
	}
	want := []string{
		"CONDITION_APPLIED invisibility", "CONDITION_APPLIED invisible",
		"ATTACK Ghoul", "ATTACK Hero",
		"CONDITION_REMOVED invisible (parent removed)", "CONDITION_REMOVED invisibility (ended by invisibility ends on attack)",
	}
	if got := eventLines(m); !slices.Equal(got, want) {
		t.Errorf("events:\n got %q\nwant %q", got, want)
	}
}

// A status does not stack with one of the same name: the new one
// replaces the old, whose modifiers go.
func TestSameNameReplaces(t *testing.T) {
	w, m := newWorld()
	strong := &status.Def{Name: "shielded", Mods: []status.Mod{{Value: "ac", Modifier: value.Bonus("big shield", 5)}}}
	weak := &status.Def{Name: "shielded", Mods: []status.Mod{{Value: "ac", Modifier: value.Bonus("small shield", 2)}}}
	for _, d := range []*status.Def{strong, weak} {
		if err := m.Run(0, effects.MustCall("APPLY", applyArgs{Def: d, Bearer: hero})); err != nil {
			t.Fatal(err)
		}
	}
	if got := w.Value(hero, "ac").Score(); got != 14 {
		t.Errorf("AC %d, want 12 + 2 = 14", got)
	}
	if s := w.book.Of(hero); len(s) != 1 || s[0].Def != weak {
		t.Errorf("statuses %v, want only the new shielded", names(s))
	}
}

// The durations: what one round of
// Advance does to a status.
func TestDurations(t *testing.T) {
	ended := &status.Def{Name: "until hurt", Duration: status.Duration{Kind: status.OnCondition,
		Until: endsWhen(func(w *world) bool { return w.Value(hero, "ac").Base() < 12 })}}
	for _, tc := range []struct {
		name     string
		def      *status.Def
		save     status.Save
		saves    []bool
		advances int
		hurt     bool
		gone     bool
		left     int
	}{
		{"ROUNDS 1 ends at the first advance", &status.Def{Name: "r1", Duration: status.Duration{Kind: status.Rounds, Rounds: 1}}, status.Save{}, nil, 1, false, true, 0},
		{"ROUNDS 2 lasts one advance", &status.Def{Name: "r2", Duration: status.Duration{Kind: status.Rounds, Rounds: 2}}, status.Save{}, nil, 1, false, false, 1},
		{"ROUNDS 2 ends at the second", &status.Def{Name: "r2", Duration: status.Duration{Kind: status.Rounds, Rounds: 2}}, status.Save{}, nil, 2, false, true, 0},
		{"a successful save ends it before the countdown", &status.Def{Name: "r2", Duration: status.Duration{Kind: status.Rounds, Rounds: 2}}, status.Save{Ability: "con", DC: 5}, []bool{true}, 1, false, true, 2},
		{"a failed save lets the countdown run", &status.Def{Name: "r2", Duration: status.Duration{Kind: status.Rounds, Rounds: 2}}, status.Save{Ability: "con", DC: 5}, []bool{false}, 1, false, false, 1},
		{"PERMANENT stays", &status.Def{Name: "p"}, status.Save{}, nil, 5, false, false, 0},
		{"UNTIL_LONG_REST stays", &status.Def{Name: "l", Duration: status.Duration{Kind: status.UntilLongRest}}, status.Save{}, nil, 5, false, false, 0},
		{"ON_CONDITION stays while it does not hold", ended, status.Save{}, nil, 3, false, false, 0},
		{"ON_CONDITION ends when it holds", ended, status.Save{}, nil, 1, true, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, m := newWorld()
			w.Saves = tc.saves
			def := *tc.def
			def.Save = tc.save
			if err := m.Run(0, effects.MustCall("APPLY", applyArgs{Def: &def, Bearer: hero})); err != nil {
				t.Fatal(err)
			}
			s := w.book.All()[0]
			if tc.hurt {
				w.Value(hero, "ac").SetBase(8)
			}
			for range tc.advances {
				if err := m.Run(0, effects.MustCall("ADVANCE", hero)); err != nil {
					t.Fatal(err)
				}
			}
			if gone := w.book.Get(s.ID) == nil; gone != tc.gone {
				t.Errorf("removed: %v, want %v", gone, tc.gone)
			}
			if s.Duration.Kind == status.Rounds && s.Remaining != tc.left {
				t.Errorf("%d rounds left, want %d", s.Remaining, tc.left)
			}
		})
	}
}

type endsWhen func(*world) bool

func (e endsWhen) Ended(state any, _ *status.Status) bool { return e(state.(*world)) }

func TestLongRestAndBearerRemoval(t *testing.T) {
	w, m := newWorld()
	rest := &status.Def{Name: "blessing", Duration: status.Duration{Kind: status.UntilLongRest}}
	for _, d := range []*status.Def{rest, shielded, invisibility} {
		if _, err := w.book.Apply(nil, status.Request{Def: d, Bearer: hero}); err != nil {
			t.Fatal(err)
		}
	}
	w.book.LongRest(nil, hero)
	if w.book.Has(hero, "blessing") || !w.book.Has(hero, "shielded") {
		t.Errorf("after a long rest: %v, want the blessing gone and the rest kept", names(w.book.Of(hero)))
	}
	w.book.RemoveBearer(nil, hero, "died")
	if len(w.book.All()) != 0 || m.Index.Len() != 0 || len(w.Value(hero, "ac").Entries()) != 0 {
		t.Errorf("after the bearer's removal: %v statuses, %d triggers", names(w.book.All()), m.Index.Len())
	}
}

func TestBadRequests(t *testing.T) {
	w, _ := newWorld()
	for _, tc := range []struct {
		r    status.Request
		want string
	}{
		{status.Request{Def: &status.Def{Name: "r0", Duration: status.Duration{Kind: status.Rounds}}, Bearer: hero}, "needs at least 1 round"},
		{status.Request{Def: &status.Def{Name: "odd", Mods: []status.Mod{{Value: "luck"}}}, Bearer: hero}, `no value "luck"`},
		{status.Request{Def: shielded, Bearer: hero, Parent: 99}, "parent status 99 is not active"},
		{status.Request{Def: &status.Def{Name: "c", Duration: status.Duration{Kind: status.OnCondition}}, Bearer: hero}, "needs its condition"},
	} {
		_, err := w.book.Apply(nil, tc.r)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Apply(%s) = %v, want an error saying %q", tc.r.Def.Name, err, tc.want)
		}
	}
	if len(w.book.All()) != 0 || len(w.Value(hero, "ac").Entries()) != 0 {
		t.Error("a refused request changed something")
	}
}

// The same commands give the same statuses, ids and hash.
func TestDeterministic(t *testing.T) {
	run := func() (string, []string) {
		w, m := newWorld()
		w.Saves = []bool{false, true, false}
		for _, call := range []engine.EffectCall{
			effects.MustCall("APPLY", applyArgs{Def: invisibility, Bearer: hero}),
			effects.MustCall("APPLY", applyArgs{Def: shielded, Bearer: ghoul, Rounds: 2}),
			effects.MustCall("ADVANCE", ghoul),
			effects.MustCall("ATTACK", hero),
			effects.MustCall("APPLY", applyArgs{Def: shielded, Bearer: hero, Rounds: 1}),
		} {
			if err := m.Run(0, call); err != nil {
				t.Fatal(err)
			}
		}
		return m.Hash(), eventLines(m)
	}
	h1, l1 := run()
	h2, l2 := run()
	if h1 != h2 || !slices.Equal(l1, l2) {
		t.Errorf("two runs differ:\n%s %q\n%s %q", h1, l1, h2, l2)
	}
}

func names(ss []*status.Status) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name())
	}
	return out
}

func eventLines(m *engine.Match) []string {
	var out []string
	for _, ev := range m.Events {
		line := types.Name(ev.Type)
		if ch, ok := ev.Data.(status.Change); ok {
			line += " " + ch.Status
			if ch.Reason != "" {
				line += " (" + ch.Reason + ")"
			}
		} else {
			line += " " + m.EntityName(ev.Subject)
		}
		out = append(out, line)
	}
	return out
}
