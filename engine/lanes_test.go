package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

// A tiny drone lane game, just enough to state the trigger rules of the
// drone game's plan: drones in lanes, drawing cards, gaining energy and
// power.

type drone struct {
	ID     engine.EntityID
	Name   string
	Owner  engine.PlayerID
	Lane   engine.LocationID
	Power  int
	Hull   int
	Shield int
	Drew   int
	Energy int
	Dead   bool
}

type laneGame struct {
	Drones []*drone // index = ID-1
	Hand   [2]int
	Energy [2]int
	order  int64
}

func (g *laneGame) EntityName(id engine.EntityID) string {
	if id < 1 || int(id) > len(g.Drones) {
		return ""
	}
	return g.Drones[id-1].Name
}

var (
	laneTypes   = engine.NewTypes("ON_MOVE", "ON_LANE_MOVEMENT_IN", "ON_CARD_DRAWN", "ON_ENERGY_GAINED", "ON_POWER_GAIN", "ON_PING")
	onMove      = mustType("ON_MOVE")
	onLaneIn    = mustType("ON_LANE_MOVEMENT_IN")
	onDrawn     = mustType("ON_CARD_DRAWN")
	onEnergy    = mustType("ON_ENERGY_GAINED")
	onPowerGain = mustType("ON_POWER_GAIN")
	onPing      = mustType("ON_PING")
)

func mustType(name string) engine.EventType {
	t, ok := laneTypes.Lookup(name)
	if !ok {
		panic(name)
	}
	return t
}

type moveArgs struct {
	Drone engine.EntityID
	Lane  engine.LocationID
}

type amount struct{ N int }

var laneEffects = func() *engine.Effects {
	e := engine.NewEffects()
	engine.Register(e, "MOVE", func(c *engine.Ctx, g *laneGame, a moveArgs) error {
		d := g.Drones[a.Drone-1]
		d.Lane = a.Lane
		g.order++
		c.Index().MoveReactor(d.ID, a.Lane, g.order)
		ev := engine.NewEvent(onMove)
		ev.Subject, ev.Player, ev.Location = d.ID, d.Owner, a.Lane
		c.Emit(ev)
		ev.Type = onLaneIn
		c.Emit(ev)
		return nil
	})
	engine.Register(e, "DRAW", func(c *engine.Ctx, g *laneGame, a amount) error {
		d := g.Drones[c.Reactor()-1]
		for range a.N {
			d.Drew++
			g.Hand[d.Owner]++
			ev := engine.NewEvent(onDrawn)
			ev.Subject, ev.Player, ev.Location, ev.Amount = d.ID, d.Owner, d.Lane, 1
			c.Emit(ev)
		}
		return nil
	})
	engine.Register(e, "GAIN_ENERGY", func(c *engine.Ctx, g *laneGame, a amount) error {
		d := g.Drones[c.Reactor()-1]
		d.Energy += a.N
		g.Energy[d.Owner] += a.N
		ev := engine.NewEvent(onEnergy)
		ev.Subject, ev.Player, ev.Location, ev.Amount = d.ID, d.Owner, d.Lane, a.N
		c.Emit(ev)
		return nil
	})
	engine.Register(e, "POWER", func(c *engine.Ctx, g *laneGame, a amount) error {
		d := g.Drones[c.Reactor()-1]
		d.Power += a.N
		ev := engine.NewEvent(onPowerGain)
		ev.Subject, ev.Player, ev.Location, ev.Amount = d.ID, d.Owner, d.Lane, a.N
		c.Emit(ev)
		return nil
	})
	engine.Register(e, "HEAL", func(c *engine.Ctx, g *laneGame, a amount) error {
		g.Drones[c.Reactor()-1].Hull += a.N
		return nil
	})
	engine.Register(e, "SHIELD_MOVER", func(c *engine.Ctx, g *laneGame, a amount) error {
		g.Drones[c.Event().Subject-1].Shield += a.N
		return nil
	})
	engine.Register(e, "DAMAGE_MOVER", func(c *engine.Ctx, g *laneGame, a amount) error {
		d := g.Drones[c.Event().Subject-1]
		d.Hull -= a.N
		c.Note("%s takes %d", d.Name, a.N)
		return nil
	})
	engine.Register(e, "DESTROY_OTHERS_IN_LANE", func(c *engine.Ctx, g *laneGame, _ struct{}) error {
		for _, d := range g.Drones {
			if d.Lane == c.Event().Location && d.ID != c.Reactor() && d.ID != c.Event().Subject && !d.Dead {
				d.Dead = true
				c.Index().RemoveReactor(d.ID)
			}
		}
		return nil
	})
	engine.Register(e, "PING", func(c *engine.Ctx, g *laneGame, _ struct{}) error {
		c.Emit(engine.NewEvent(onPing))
		return nil
	})
	return e
}()

func call(name string, args any) engine.EffectCall { return laneEffects.MustCall(name, args) }

// ability builds a trigger the way the drone data declares one.
func ability(name string, on engine.EventType, owner relation, scope engine.Scope, effects ...engine.EffectCall) *engine.Trigger {
	return &engine.Trigger{Name: name, On: []engine.EventType{on}, Owner: owner.rel, Others: owner.others, Scope: scope, Effects: effects, Priority: engine.Mid}
}

// relation is an owner relation, possibly narrowed to other entities than
// the reactor (the lane game's "another drone in my lane").
type relation struct {
	rel    engine.Relation
	others bool
}

var (
	self      = relation{rel: engine.Self}
	laneOwner = relation{rel: engine.Controller, others: true}
	laneEnemy = relation{rel: engine.Opponent, others: true}
	laneAny   = relation{rel: engine.Any, others: true}
)

var (
	players   = []string{"A", "B"}
	laneRules = map[engine.Guard]*engine.Rules{}
)

func init() {
	for _, g := range []engine.Guard{engine.NoGuard, engine.PerTrigger, engine.PerPair} {
		laneRules[g] = &engine.Rules{Types: laneTypes, Effects: laneEffects, Policy: engine.DepthFirst, Guard: g}
	}
}

type spec struct {
	name    string
	owner   engine.PlayerID
	lane    engine.LocationID
	ability *engine.Trigger
}

// newLaneMatch deploys the drones left to right in the order given.
func newLaneMatch(guard engine.Guard, drones ...spec) (*engine.Match, *laneGame) {
	g := &laneGame{Drones: make([]*drone, 0, len(drones))}
	m := engine.NewMatch(laneRules[guard], g, 1, players)
	all := make([]drone, len(drones))
	for i, s := range drones {
		d := &all[i]
		*d = drone{ID: engine.EntityID(i + 1), Name: s.name, Owner: s.owner, Lane: s.lane}
		g.Drones = append(g.Drones, d)
		g.order++
		if s.ability != nil {
			m.Index.Add(s.ability, d.ID, s.owner, s.lane, g.order)
		}
	}
	return m, g
}

// trace renders the firing records of the last chain as
// "reactor←source@depth" (or "BLOCKED reactor←source", "SKIPPED reactor").
func trace(m *engine.Match) []string {
	var out []string
	for _, r := range m.Records() {
		if r.Chain != m.Chain() {
			continue
		}
		switch r.Kind {
		case engine.RecFired:
			out = append(out, fmt.Sprintf("%s←%s@%d", m.EntityName(r.Reactor), m.EntityName(r.Source), r.Depth))
		case engine.RecBlocked:
			out = append(out, fmt.Sprintf("BLOCKED %s←%s", m.EntityName(r.Reactor), m.EntityName(r.Source)))
		case engine.RecSkipped:
			out = append(out, fmt.Sprintf("SKIPPED %s (%s)", m.EntityName(r.Reactor), r.Text))
		}
	}
	return out
}

// chaosDrones are the setup of the "four-drone chaos cascade": one lane, left to right HypoDrone,
// Odin, Loki, Thor; MovedDrone arrives last. Like all game data they are
// built once and shared by every match.
var chaosDrones = []spec{
	{"HypoDrone", 0, 1, ability("HypoDrone", onPowerGain, relation{rel: engine.Controller}, engine.Anywhere, call("DRAW", amount{1}))},
	{"Odin", 0, 1, ability("Odin: All-Seeing Eye", onDrawn, relation{rel: engine.Controller}, engine.Anywhere, call("POWER", amount{1}))},
	{"Loki", 0, 1, ability("Loki", onDrawn, relation{rel: engine.Controller}, engine.Anywhere, call("GAIN_ENERGY", amount{1}))},
	{"Thor", 0, 1, ability("Thor: Storm Surge", onEnergy, relation{rel: engine.Controller}, engine.Anywhere, call("POWER", amount{1}))},
	{"MovedDrone", 0, 0, ability("MovedDrone", onMove, self, engine.Anywhere, call("DRAW", amount{1}))},
}

func chaosMatch() (*engine.Match, *laneGame) {
	return newLaneMatch(engine.PerPair, chaosDrones...)
}

// TestChaosCascade is the four-drone chaos cascade of the drone lane game.
func TestChaosCascade(t *testing.T) {
	m, g := chaosMatch()
	if err := m.Run(0, call("MOVE", moveArgs{Drone: 5, Lane: 1})); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"MovedDrone←system@1",
		"Odin←MovedDrone@2",
		"HypoDrone←Odin@3",
		"Odin←HypoDrone@4",
		"BLOCKED HypoDrone←Odin",
		"Loki←HypoDrone@4",
		"Thor←Loki@5",
		"HypoDrone←Thor@6",
		"BLOCKED Odin←HypoDrone",
		"BLOCKED Loki←HypoDrone",
		"Loki←MovedDrone@2",
		"BLOCKED Thor←Loki",
	}
	if got := trace(m); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("firing order:\n got %q\nwant %q", got, want)
	}
	deepest := int32(0)
	for _, r := range m.Records() {
		if r.Kind == engine.RecFired {
			deepest = max(deepest, r.Depth)
		}
	}
	by := map[string]*drone{}
	for _, d := range g.Drones {
		by[d.Name] = d
	}
	tally := []struct {
		what      string
		got, want int
	}{
		{"Odin power", by["Odin"].Power, 2},
		{"HypoDrone drew", by["HypoDrone"].Drew, 2},
		{"Loki energy gains", by["Loki"].Energy, 2},
		{"Thor power", by["Thor"].Power, 1},
		{"cards drawn", g.Hand[0], 3},
		{"deepest level", int(deepest), 6},
	}
	for _, c := range tally {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.what, c.got, c.want)
		}
	}
}

// TestDepthFirst: Odin and Loki both react to a draw; Odin's
// whole cascade resolves before Loki starts.
func TestDepthFirst(t *testing.T) {
	m, _ := newLaneMatch(engine.PerPair,
		spec{"Odin", 0, 1, ability("Odin", onDrawn, relation{rel: engine.Controller}, engine.Anywhere, call("POWER", amount{1}))},
		spec{"Loki", 0, 1, ability("Loki", onDrawn, relation{rel: engine.Controller}, engine.Anywhere, call("GAIN_ENERGY", amount{1}))},
		spec{"Watcher", 0, 1, ability("Watcher", onPowerGain, relation{rel: engine.Controller}, engine.Anywhere, call("HEAL", amount{1}))},
		spec{"Scout", 0, 0, ability("Scout", onMove, self, engine.Anywhere, call("DRAW", amount{1}))},
	)
	if err := m.Run(0, call("MOVE", moveArgs{Drone: 4, Lane: 1})); err != nil {
		t.Fatal(err)
	}
	want := "Scout←system@1 Odin←Scout@2 Watcher←Odin@3 Loki←Scout@2"
	if got := strings.Join(trace(m), " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSelfActorReactor: A moves Osiris into a lane holding A's
// BuffBot and a Proximity Mine on A's board; Osiris heals itself first,
// then BuffBot shields it, then the mine hits it; B's drone in the lane
// (LANE_ENEMY) reacts last, in the opponent's tier.
func TestSelfActorReactor(t *testing.T) {
	m, g := newLaneMatch(engine.PerPair,
		spec{"Sentinel", 1, 2, ability("Sentinel", onLaneIn, laneEnemy, engine.Here, call("HEAL", amount{1}))},
		spec{"BuffBot", 0, 2, ability("BuffBot", onLaneIn, laneOwner, engine.Here, call("SHIELD_MOVER", amount{1}))},
		spec{"Proximity Mine", 0, 2, ability("Proximity Mine", onLaneIn, laneOwner, engine.Here, call("DAMAGE_MOVER", amount{4}))},
		spec{"Osiris", 0, 1, ability("Osiris", onMove, self, engine.Anywhere, call("HEAL", amount{4}))},
		spec{"Far BuffBot", 0, 3, ability("Far BuffBot", onLaneIn, laneOwner, engine.Here, call("SHIELD_MOVER", amount{1}))},
	)
	if err := m.Run(0, call("MOVE", moveArgs{Drone: 4, Lane: 2})); err != nil {
		t.Fatal(err)
	}
	want := "Osiris←system@1 BuffBot←system@1 Proximity Mine←system@1 Sentinel←system@1"
	if got := strings.Join(trace(m), " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	osiris := g.Drones[3]
	if osiris.Hull != 0 || osiris.Shield != 1 {
		t.Errorf("Osiris hull %d shield %d, want 0 (healed 4, hit 4) and 1", osiris.Hull, osiris.Shield)
	}
	if g.Drones[4].Shield != 0 {
		t.Error("a BuffBot in another lane reacted")
	}
}

// TestRemovedReactorSkipped: a reaction whose reactor was destroyed by an
// earlier sibling is skipped.
func TestRemovedReactorSkipped(t *testing.T) {
	m, g := newLaneMatch(engine.PerPair,
		spec{"Bomb", 0, 1, ability("Bomb", onLaneIn, laneAny, engine.Here, call("DESTROY_OTHERS_IN_LANE", nil))},
		spec{"Victim", 0, 1, ability("Victim", onLaneIn, laneAny, engine.Here, call("HEAL", amount{1}))},
		spec{"Mover", 0, 2, nil},
	)
	if err := m.Run(0, call("MOVE", moveArgs{Drone: 3, Lane: 1})); err != nil {
		t.Fatal(err)
	}
	want := "Bomb←system@1 SKIPPED Victim (removed)"
	if got := strings.Join(trace(m), " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if g.Drones[1].Hull != 0 {
		t.Error("the destroyed Victim still healed")
	}
}

// TestPairGuardEndsPingPong: two drones that each gain power when a
// friendly drone gains power would loop forever; the (reactor, source)
// guard ends it.
func TestPairGuardEndsPingPong(t *testing.T) {
	m, g := newLaneMatch(engine.PerPair,
		spec{"Ping", 0, 1, ability("Ping", onPowerGain, laneOwner, engine.Here, call("POWER", amount{1}))},
		spec{"Pong", 0, 1, ability("Pong", onPowerGain, laneOwner, engine.Here, call("POWER", amount{1}))},
		spec{"Spark", 0, 0, ability("Spark", onMove, self, engine.Anywhere, call("POWER", amount{1}))},
	)
	if err := m.Run(0, call("MOVE", moveArgs{Drone: 3, Lane: 1})); err != nil {
		t.Fatal(err)
	}
	want := "Spark←system@1 Ping←Spark@2 Pong←Ping@3 Ping←Pong@4 BLOCKED Pong←Ping Pong←Spark@2 BLOCKED Ping←Pong"
	if got := strings.Join(trace(m), " "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if g.Drones[0].Power != 2 || g.Drones[1].Power != 2 {
		t.Errorf("powers %d %d, want 2 2", g.Drones[0].Power, g.Drones[1].Power)
	}
}

// TestStepBudgetEndsRunaway: a trigger that feeds itself, with no loop
// guard, is stopped by the step budget with an error naming it.
func TestStepBudgetEndsRunaway(t *testing.T) {
	g := &laneGame{Drones: []*drone{{ID: 1, Name: "Echo"}}}
	rules := *laneRules[engine.NoGuard]
	rules.Budget = 1000
	m := engine.NewMatch(&rules, g, 1, []string{"A"})
	m.Index.Add(ability("Echo: repeat", onPing, relation{}, engine.Anywhere, call("PING", nil)), 1, 0, 1, 1)
	err := m.Run(0, call("PING", nil))
	var runaway *engine.RunawayError
	if !asRunaway(err, &runaway) {
		t.Fatalf("got %v, want a RunawayError", err)
	}
	if !strings.Contains(err.Error(), "Echo: repeat") || !strings.Contains(err.Error(), "more than 1000 steps") {
		t.Errorf("error does not name the loop: %v", err)
	}
	if m.Err() == nil {
		t.Error("the match is not marked broken")
	}
	if err := m.Run(0, call("PING", nil)); err == nil {
		t.Error("a broken match accepted another command")
	}
}

func asRunaway(err error, target **engine.RunawayError) bool {
	r, ok := err.(*engine.RunawayError)
	if ok {
		*target = r
	}
	return ok
}

// TestDispatchIgnoresUnrelated: triggers on other types, locations and
// subjects never fire.
func TestDispatchIgnoresUnrelated(t *testing.T) {
	m, g := newLaneMatch(engine.PerPair,
		spec{"Other lane", 0, 3, ability("Other lane", onLaneIn, laneAny, engine.Here, call("HEAL", amount{1}))},
		spec{"Other type", 0, 1, ability("Other type", onEnergy, relation{}, engine.Anywhere, call("HEAL", amount{1}))},
		spec{"Not me", 0, 1, ability("Not me", onMove, self, engine.Anywhere, call("HEAL", amount{1}))},
		spec{"Opponent's", 0, 1, ability("Opponent's", onLaneIn, laneEnemy, engine.Here, call("HEAL", amount{1}))},
		spec{"Mover", 0, 2, nil},
	)
	if err := m.Run(0, call("MOVE", moveArgs{Drone: 5, Lane: 1})); err != nil {
		t.Fatal(err)
	}
	if got := trace(m); len(got) != 0 {
		t.Errorf("unrelated triggers fired: %v", got)
	}
	for _, d := range g.Drones {
		if d.Hull != 0 {
			t.Errorf("%s changed", d.Name)
		}
	}
}
