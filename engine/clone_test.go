package engine_test

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
)

// cloneLanes copies the tiny lane game's state for a cloned match.
func cloneLanes(g *laneGame) *laneGame {
	c := &laneGame{Hand: g.Hand, Energy: g.Energy, order: g.order}
	c.Drones = make([]*drone, len(g.Drones))
	for i, d := range g.Drones {
		cp := *d
		c.Drones[i] = &cp
	}
	return c
}

// busyLanes is a lane board where every move sets off cascades.
func busyLanes() *engine.Match {
	var specs []spec
	for i := range 12 {
		name := fmt.Sprintf("D%d", i)
		var ab *engine.Trigger
		switch i % 4 {
		case 0:
			ab = ability(name, onDrawn, relation{rel: engine.Controller}, engine.Anywhere, call("POWER", amount{1}))
		case 1:
			ab = ability(name, onPowerGain, laneAny, engine.Here, call("DRAW", amount{1}))
		case 2:
			ab = ability(name, onMove, self, engine.Anywhere, call("DRAW", amount{2}))
		case 3:
			ab = ability(name, onLaneIn, laneEnemy, engine.Here, call("DAMAGE_MOVER", amount{1}), call("DESTROY_OTHERS_IN_LANE", struct{}{}))
		}
		specs = append(specs, spec{name, engine.PlayerID(i % 2), engine.LocationID(i%3 + 1), ab})
	}
	m, _ := newLaneMatch(engine.PerPair, specs...)
	return m
}

// moveRandomly plays a random move drawn from r.
func moveRandomly(t *testing.T, m *engine.Match, r *rng.Stream) {
	t.Helper()
	d := engine.EntityID(r.IntN(12) + 1)
	if err := m.Run(engine.PlayerID(int(d-1)%2), call("MOVE", moveArgs{Drone: d, Lane: engine.LocationID(r.Between(1, 3))})); err != nil {
		t.Fatal(err)
	}
}

// laneState is the tiny lane game's state as text.
func laneState(m *engine.Match) string {
	g := m.State.(*laneGame)
	out := fmt.Sprint(g.Hand, g.Energy, g.order)
	for _, d := range g.Drones {
		out += fmt.Sprintf(" %+v", *d)
	}
	return out
}

func jsonLog(m *engine.Match) string {
	var b bytes.Buffer
	m.WriteJSONL(&b, 0)
	return b.String()
}

// A copy plays on exactly as the match would (same hashes, same log), and
// what one of them plays never shows in the other.
func TestClonePlaysOnAlike(t *testing.T) {
	m := busyLanes()
	r := rng.New(5).Stream("moves")
	for step := range 30 {
		moveRandomly(t, m, r)
		if step%7 != 0 {
			continue
		}
		c := m.Clone(cloneLanes(m.State.(*laneGame)), engine.CloneOptions{})
		if c.Hash() != m.Hash() {
			t.Fatalf("after %d moves: the copy's hash differs before it plays", step+1)
		}
		before := m.Hash()
		// The copy goes its own way first: the match must not notice.
		other := *r
		for range 5 {
			moveRandomly(t, c, &other)
		}
		other = *r
		if m.Hash() != before {
			t.Fatalf("after %d moves: playing the copy changed the match", step+1)
		}
		// A second copy plays the match's own moves alongside it.
		c2 := m.Clone(cloneLanes(m.State.(*laneGame)), engine.CloneOptions{})
		for k := range 5 {
			a, b := other, other
			moveRandomly(t, m, &a)
			moveRandomly(t, c2, &b)
			other = a
			if m.Hash() != c2.Hash() {
				t.Fatalf("after %d moves and %d more: the copy's hash differs", step+1, k+1)
			}
		}
		if jsonLog(m) != jsonLog(c2) {
			t.Fatalf("after %d moves: the copy's log differs", step+1)
		}
		*r = other
	}
}

// A copy without the log plays on to the same game state as the match,
// with only its own records.
func TestCloneWithoutLog(t *testing.T) {
	m := busyLanes()
	r := rng.New(7).Stream("moves")
	for range 10 {
		moveRandomly(t, m, r)
	}
	c := m.Clone(cloneLanes(m.State.(*laneGame)), engine.CloneOptions{WithoutLog: true})
	if len(c.Records()) != 0 || len(c.Events) != 0 {
		t.Fatalf("the copy has %d records and %d events", len(c.Records()), len(c.Events))
	}
	if c.Hash() == m.Hash() {
		t.Error("the copy without a log has the match's hash, which counts the log")
	}
	records := len(m.Records())
	for range 10 {
		a, b := *r, *r
		moveRandomly(t, m, &a)
		moveRandomly(t, c, &b)
		*r = a
	}
	if got, want := laneState(c), laneState(m); got != want {
		t.Errorf("the copy's state\n%s\nthe match's\n%s", got, want)
	}
	if len(c.Records()) != len(m.Records())-records {
		t.Errorf("the copy has %d records; the match added %d", len(c.Records()), len(m.Records())-records)
	}
}

// A match that forgets its log as it goes (ClearLog between chains, as
// long simulations do) is copied with its count of what it forgot: the
// copy has its hash and plays on to the same hashes.
func TestCloneOfAMatchThatForgets(t *testing.T) {
	m := busyLanes()
	r := rng.New(9).Stream("moves")
	for range 6 {
		moveRandomly(t, m, r)
		m.ClearLog()
	}
	c := m.Clone(cloneLanes(m.State.(*laneGame)), engine.CloneOptions{})
	if c.Hash() != m.Hash() {
		t.Fatalf("the copy's hash %s, the match's %s", c.Hash(), m.Hash())
	}
	for k := range 5 {
		a, b := *r, *r
		moveRandomly(t, m, &a)
		moveRandomly(t, c, &b)
		*r = a
		if c.Hash() != m.Hash() {
			t.Fatalf("%d moves on: the copy's hash %s, the match's %s", k+1, c.Hash(), m.Hash())
		}
	}
}

// A chain paused for decisions is copied with its agenda and its answers:
// each copy resumes on its own answers.
func TestCloneOfAPausedChain(t *testing.T) {
	rules, ping := decisionRules()
	g := &pickGame{}
	m := engine.NewMatch(rules, g, 1, []string{"Alice", "Bob", "Carol"})
	m.Index.Add(&engine.Trigger{Name: "Everybody picks", On: []engine.EventType{ping},
		Effects: []engine.EffectCall{rules.Effects.MustCall("PICK", []engine.PlayerID{2, 0})}}, 1, 0, engine.NoLocation, 1)
	m.Index.Add(&engine.Trigger{Name: "Later sibling", On: []engine.EventType{ping},
		Effects: []engine.EffectCall{rules.Effects.MustCall("AFTER", nil)}}, 2, 1, engine.NoLocation, 2)
	if err := m.Run(0, rules.Effects.MustCall("PING", nil)); err != nil {
		t.Fatal(err)
	}
	if err := m.Answer(engine.Input{Player: 2, Kind: "pick-colour", Choice: 1}); err != nil {
		t.Fatal(err)
	}
	copyOf := func(m *engine.Match) (*engine.Match, *pickGame) {
		g := *m.State.(*pickGame)
		g.Picked = slices.Clone(g.Picked)
		return m.Clone(&g, engine.CloneOptions{}), &g
	}
	c, cg := copyOf(m)
	if err := c.Answer(engine.Input{Player: 0, Kind: "pick-colour", Choice: 0}); err != nil {
		t.Fatal(err)
	}
	if !m.IsWaiting() || len(g.Picked) != 0 {
		t.Fatalf("answering the copy resumed the match (picked %v)", g.Picked)
	}
	if err := m.Answer(engine.Input{Player: 0, Kind: "pick-colour", Choice: 1}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(g.Picked, g.After) != "[1 1] 1" || fmt.Sprint(cg.Picked, cg.After) != "[1 0] 1" {
		t.Errorf("the match picked %v (after %d), the copy %v (after %d); want [1 1] and [1 0], each with its sibling run",
			g.Picked, g.After, cg.Picked, cg.After)
	}
}

// Payloads of a paused chain are the copy's own when the game copies them.
func TestCloneCopiesThePayloadsOfAPausedChain(t *testing.T) {
	types := engine.NewTypes("PING")
	ping, _ := types.Lookup("PING")
	effects := engine.NewEffects()
	type note struct{ Text string }
	engine.Register(effects, "PING", func(c *engine.Ctx, _ *pickGame, _ struct{}) error {
		ev := engine.NewEvent(ping)
		ev.Data = &note{"pinged"}
		c.Emit(ev)
		return nil
	})
	engine.Register(effects, "ASK", func(c *engine.Ctx, _ *pickGame, n *note) error {
		if c.Answers() == nil {
			return c.Ask(engine.Decision{Player: 0, Kind: "ok"})
		}
		c.Event().Data.(*note).Text += " and answered"
		n.Text += " and answered"
		return nil
	})
	rules := &engine.Rules{Types: types, Effects: effects, Policy: engine.DepthFirst}
	m := engine.NewMatch(rules, &pickGame{}, 1, []string{"Alice"})
	arg := &note{"argument"}
	m.Index.Add(&engine.Trigger{Name: "Asker", On: []engine.EventType{ping}, Effects: []engine.EffectCall{effects.MustCall("ASK", arg)}},
		1, 0, engine.NoLocation, 1)
	if err := m.Run(0, effects.MustCall("PING", nil)); err != nil {
		t.Fatal(err)
	}
	c := m.Clone(&pickGame{}, engine.CloneOptions{Payload: func(v any) any {
		if n, ok := v.(*note); ok {
			cp := *n
			return &cp
		}
		return v
	}, WithoutLog: true})
	if err := c.Answer(engine.Input{Player: 0, Kind: "ok"}); err != nil {
		t.Fatal(err)
	}
	if got := m.Events[0].Data.(*note).Text; got != "pinged" {
		t.Errorf("the copy changed the match's event payload to %q", got)
	}
	if got := c.Events[0].Data.(*note).Text; got != "pinged and answered" {
		t.Errorf("the copy's payload is %q", got)
	}
	// The trigger's own argument belongs to the definition: it is not a
	// payload of the chain, and the game must not change it (this test
	// does, to show where it lives).
	if arg.Text != "argument and answered" {
		t.Errorf("the trigger's argument is %q", arg.Text)
	}
}

// RedrawSealed changes the others' sealed answers, never the keeper's nor
// the hash.
func TestRedrawSealed(t *testing.T) {
	rules := sealedRules()
	m := engine.NewMatch(rules, &bidGame{}, 1, []string{"Ann", "Bob", "Cid"})
	if err := m.Run(0, rules.Effects.MustCall("BID", bidArgs{Players: []engine.PlayerID{0, 1, 2}, Sealed: true})); err != nil {
		t.Fatal(err)
	}
	for _, p := range []engine.PlayerID{0, 1} {
		if err := m.Answer(engine.Input{Player: p, Kind: "bid", Choice: 2}); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	r := rng.New(3).Stream("redraw")
	for range 40 {
		c := m.Clone(&bidGame{}, engine.CloneOptions{})
		c.RedrawSealed(1, r)
		if c.Hash() != m.Hash() {
			t.Fatal("redrawing sealed answers changed the hash")
		}
		if err := c.Answer(engine.Input{Player: 2, Kind: "bid", Choice: 0}); err != nil {
			t.Fatal(err)
		}
		bids := c.State.(*bidGame).Bids
		if bids[1] != 2 {
			t.Fatalf("the keeper's own bid became %d", bids[1])
		}
		seen[fmt.Sprint(bids)] = true
	}
	if len(seen) != 3 {
		t.Errorf("Ann's sealed bid was redrawn as %v; want each of 0, 1 and 2", seen)
	}
}

// Clone copies every field of a match: one added to Match must be added
// to Clone (and here).
func TestCloneKnowsEveryField(t *testing.T) {
	known := []string{"Rules", "State", "Players", "Index", "RNG", "Events", "records", "noLog", "bare", "sink", "sunk", "forgotten", "chain", "actor", "round", "steps",
		"err", "budgetFrom", "stack", "heap", "reactions", "seq", "guard", "emitted", "then", "suspended", "hasSuspended",
		"asked", "answers", "answered", "hash", "hashed", "hashGen", "rollback", "cur", "running", "ctx", "lastAsk"}
	var fields []string
	for f := range reflect.TypeFor[engine.Match]().Fields() {
		fields = append(fields, f.Name)
	}
	if !slices.Equal(fields, known) {
		t.Errorf("engine.Match has the fields\n%v\nand Clone knows\n%v", fields, known)
	}
	known = []string{"inst", "buckets", "dense", "stride", "types", "entities", "byReactor", "live", "listen", "placed", "changed", "gen"}
	fields = nil
	for f := range reflect.TypeFor[engine.Index]().Fields() {
		fields = append(fields, f.Name)
	}
	if !slices.Equal(fields, known) {
		t.Errorf("engine.Index has the fields\n%v\nand its clone knows\n%v", fields, known)
	}
}
