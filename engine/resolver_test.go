package engine_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

// --- Seed 004: the turn structure as rules on the priority agenda ---

type turnGame struct {
	Current int
	Turns   int
	Trace   []string
}

type fewerTurns struct{ limit int }

func (f fewerTurns) Holds(state any, _ *engine.Event, _ *engine.Instance) (bool, error) {
	return state.(*turnGame).Turns < f.limit, nil
}

// TestTurnRules runs a rule-based turn loop: StartTurnRule enqueues END_TURN at
// the lowest priority (10); EndTurnRule enqueues "set current player" and
// then START_TURN, both at priority 1, which run in the order they were
// added. A third rule plays the current player's move at priority 5. Lower
// numbers run first, so the game's numbers are negated.
func TestTurnRules(t *testing.T) {
	types := engine.NewTypes("START_TURN", "END_TURN")
	start, _ := types.Lookup("START_TURN")
	end, _ := types.Lookup("END_TURN")
	effects := engine.NewEffects()
	engine.Register(effects, "EVENT", func(c *engine.Ctx, g *turnGame, typ engine.EventType) error {
		g.Trace = append(g.Trace, types.Name(typ))
		c.Emit(engine.NewEvent(typ))
		return nil
	})
	engine.Register(effects, "SET_CURRENT_PLAYER", func(c *engine.Ctx, g *turnGame, _ struct{}) error {
		g.Current = (g.Current + 1) % 3
		g.Trace = append(g.Trace, fmt.Sprintf("current=P%d", g.Current))
		return nil
	})
	engine.Register(effects, "PLAY", func(c *engine.Ctx, g *turnGame, _ struct{}) error {
		g.Turns++
		g.Trace = append(g.Trace, fmt.Sprintf("P%d plays", g.Current))
		return nil
	})
	at := func(n int, name string, args any) engine.EffectCall {
		return effects.MustCall(name, args).At(engine.Priority(-n))
	}
	rules := &engine.Rules{Types: types, Effects: effects, Policy: engine.PriorityAgenda, Guard: engine.NoGuard}
	g := &turnGame{}
	m := engine.NewMatch(rules, g, 1, []string{"P0", "P1", "P2"})
	for _, r := range []*engine.Trigger{
		{Name: "StartTurnRule", On: []engine.EventType{start}, Effects: []engine.EffectCall{at(10, "EVENT", end)}},
		{Name: "EndTurnRule", On: []engine.EventType{end}, Condition: fewerTurns{3},
			Effects: []engine.EffectCall{at(1, "SET_CURRENT_PLAYER", nil), at(1, "EVENT", start)}},
		{Name: "PlayRule", On: []engine.EventType{start}, Effects: []engine.EffectCall{at(5, "PLAY", nil)}},
	} {
		m.Index.Add(r, engine.System, engine.NoPlayer, engine.NoLocation, 0)
	}
	if err := m.Run(engine.NoPlayer, effects.MustCall("EVENT", start)); err != nil {
		t.Fatal(err)
	}
	want := "START_TURN, P0 plays, END_TURN, current=P1, START_TURN, P1 plays, END_TURN, current=P2, START_TURN, P2 plays, END_TURN"
	if got := strings.Join(g.Trace, ", "); got != want {
		t.Errorf("turns:\n got %s\nwant %s", got, want)
	}
}

// TestPriorityAgendaReexamined: on the priority agenda, an event emitted by
// an effect puts its higher-priority reactions ahead of lower ones already
// waiting; equal priorities go in position (board) order; with the
// PerTrigger guard a trigger fires once per chain.
func TestPriorityAgendaReexamined(t *testing.T) {
	types := engine.NewTypes("LAND")
	land, _ := types.Lookup("LAND")
	effects := engine.NewEffects()
	type board struct{ Trace []string }
	engine.Register(effects, "LAND_ON", func(c *engine.Ctx, b *board, space engine.LocationID) error {
		ev := engine.NewEvent(land)
		ev.Location = space
		c.Emit(ev)
		return nil
	})
	engine.Register(effects, "SAY", func(c *engine.Ctx, b *board, s string) error {
		b.Trace = append(b.Trace, s)
		return nil
	})
	rules := &engine.Rules{Types: types, Effects: effects, Policy: engine.PriorityAgenda, Guard: engine.PerTrigger}
	b := &board{}
	m := engine.NewMatch(rules, b, 1, []string{"A"})
	space := func(loc engine.LocationID, name string, p engine.Priority, effs ...engine.EffectCall) {
		m.Index.Add(&engine.Trigger{Name: name, On: []engine.EventType{land}, Scope: engine.Here, Priority: p, Effects: effs},
			engine.EntityID(100+loc), engine.NoPlayer, loc, int64(loc))
	}
	space(1, "1a", engine.Mid, effects.MustCall("SAY", "1a: teleport to 2"), effects.MustCall("LAND_ON", engine.LocationID(2)))
	space(1, "1b", engine.Low, effects.MustCall("SAY", "1b low"))
	space(2, "2 high", engine.High, effects.MustCall("SAY", "2 high"), effects.MustCall("LAND_ON", engine.LocationID(1)))
	space(2, "2 mid", engine.Mid, effects.MustCall("SAY", "2 mid"))
	if err := m.Run(0, effects.MustCall("LAND_ON", engine.LocationID(1))); err != nil {
		t.Fatal(err)
	}
	want := "1a: teleport to 2, 2 high, 2 mid, 1b low"
	if got := strings.Join(b.Trace, ", "); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// --- Seed 003: a declaration-phase handler cancels an attack ---

type fighter struct {
	ID        engine.EntityID
	Name      string
	HP        int
	HasAction bool
}

type arena struct{ F []*fighter }

func (a *arena) EntityName(id engine.EntityID) string { return a.F[id-1].Name }

type attackArgs struct{ Attacker, Target engine.EntityID }

type targetIsReactor struct{}

func (targetIsReactor) Match(_ any, ev *engine.Event, t *engine.Instance) bool {
	return ev.Target == t.Reactor
}

func TestDeclarationCancelsAttack(t *testing.T) {
	types := engine.NewTypes("ATTACK")
	attack, _ := types.Lookup("ATTACK")
	effects := engine.NewEffects()
	resolve := engine.Register(effects, "RESOLVE_ATTACK", func(c *engine.Ctx, a *arena, _ struct{}) error {
		ev := c.Event()
		if ev.Cancelled {
			c.Note("the attack was cancelled")
			return nil
		}
		a.F[ev.Subject-1].HasAction = false // the cost, paid only now
		a.F[ev.Target-1].HP -= 5
		return nil
	})
	engine.Register(effects, "ATTACK", func(c *engine.Ctx, a *arena, args attackArgs) error {
		if !a.F[args.Attacker-1].HasAction {
			return engine.Rejectf("no action left")
		}
		ev := engine.NewEvent(attack)
		ev.Phase, ev.Subject, ev.Target = engine.Declaration, args.Attacker, args.Target
		c.Announce(ev, resolve.Call(struct{}{}))
		return nil
	})
	engine.Register(effects, "CANCEL", func(c *engine.Ctx, a *arena, _ struct{}) error {
		c.Cancel()
		return nil
	})
	rules := &engine.Rules{Types: types, Effects: effects, Policy: engine.DepthFirst, Guard: engine.PerPair}
	sanctuary := &engine.Trigger{Name: "Sanctuary", On: []engine.EventType{attack}, Phase: engine.Declaration,
		Filter: targetIsReactor{}, Effects: []engine.EffectCall{effects.MustCall("CANCEL", nil)}}

	for _, protected := range []bool{true, false} {
		t.Run(fmt.Sprintf("sanctuary=%v", protected), func(t *testing.T) {
			a := &arena{F: []*fighter{{1, "Orc", 10, true}, {2, "Cleric", 10, true}}}
			m := engine.NewMatch(rules, a, 1, []string{"A", "B"})
			if protected {
				m.Index.Add(sanctuary, 2, 1, engine.NoLocation, 0)
			}
			if err := m.Run(0, effects.MustCall("ATTACK", attackArgs{1, 2})); err != nil {
				t.Fatal(err)
			}
			orc, cleric := a.F[0], a.F[1]
			// A second attack is rejected (no action left, or the same
			// sanctuary) and, when rejected, leaves no trace.
			if !protected {
				before, chain, records := m.Hash(), m.Chain(), len(m.Records())
				err := m.Run(0, effects.MustCall("ATTACK", attackArgs{1, 2}))
				if !engine.IsRejected(err) || err.Error() != "rejected: no action left" {
					t.Fatalf("second attack: %v, want a rejection", err)
				}
				if m.Hash() != before || m.Chain() != chain || len(m.Records()) != records || m.Err() != nil {
					t.Error("a rejected command changed the match")
				}
			}
			if protected {
				if cleric.HP != 10 || !orc.HasAction {
					t.Errorf("cancelled attack changed something: cleric HP %d, orc has action %v", cleric.HP, orc.HasAction)
				}
				if !m.Events[0].Cancelled {
					t.Error("the declared event is not marked cancelled")
				}
			} else if cleric.HP != 5 || orc.HasAction {
				t.Errorf("attack did not happen: cleric HP %d, orc has action %v", cleric.HP, orc.HasAction)
			}
		})
	}
}

// --- Decisions ---

type pickGame struct {
	Picked []int
	After  int
}

func decisionRules() (*engine.Rules, engine.EventType) {
	types := engine.NewTypes("PING")
	ping, _ := types.Lookup("PING")
	effects := engine.NewEffects()
	engine.Register(effects, "PING", func(c *engine.Ctx, g *pickGame, _ struct{}) error {
		c.Emit(engine.NewEvent(ping))
		return nil
	})
	engine.Register(effects, "PICK", func(c *engine.Ctx, g *pickGame, players []engine.PlayerID) error {
		answers := c.Answers()
		if answers == nil {
			var ds []engine.Decision
			for _, p := range players {
				ds = append(ds, engine.Decision{Player: p, Kind: "pick-colour", Prompt: "Which colour?", Options: []string{"red", "green"}})
			}
			return c.Ask(ds...)
		}
		for _, a := range answers {
			g.Picked = append(g.Picked, a.Choice)
		}
		return nil
	})
	engine.Register(effects, "AFTER", func(c *engine.Ctx, g *pickGame, _ struct{}) error {
		g.After++
		return nil
	})
	return &engine.Rules{Types: types, Effects: effects, Policy: engine.DepthFirst, Guard: engine.PerPair}, ping
}

func TestDecisionPausesAndResumes(t *testing.T) {
	rules, ping := decisionRules()
	g := &pickGame{}
	m := engine.NewMatch(rules, g, 1, []string{"Alice", "Bob"})
	m.Index.Add(&engine.Trigger{Name: "Chooser", On: []engine.EventType{ping},
		Effects: []engine.EffectCall{rules.Effects.MustCall("PICK", []engine.PlayerID{1})}}, 1, 1, engine.NoLocation, 1)
	m.Index.Add(&engine.Trigger{Name: "Later sibling", On: []engine.EventType{ping},
		Effects: []engine.EffectCall{rules.Effects.MustCall("AFTER", nil)}}, 2, 1, engine.NoLocation, 2)

	if err := m.Run(0, rules.Effects.MustCall("PING", nil)); err != nil {
		t.Fatal(err)
	}
	if !m.IsWaiting() || g.After != 0 {
		t.Fatalf("chain did not pause before the later sibling (waiting %v, after %d)", m.IsWaiting(), g.After)
	}
	paused := m.Hash()
	for _, bad := range []struct {
		in   engine.Input
		want string
	}{
		{engine.Input{Player: 0, Kind: "pick-colour", Choice: 0}, "Alice is not asked anything; waiting for Bob"},
		{engine.Input{Player: 1, Kind: "ack", Choice: 0}, `Bob is asked for "pick-colour", not "ack"`},
		{engine.Input{Player: 1, Kind: "pick-colour", Choice: 2}, "choice 2 is out of range"},
	} {
		err := m.Answer(bad.in)
		if !engine.IsRejected(err) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Answer(%+v) = %v, want a rejection saying %q", bad.in, err, bad.want)
		}
		if m.Hash() != paused {
			t.Errorf("rejected input %+v changed the match", bad.in)
		}
	}
	if err := m.Run(0, rules.Effects.MustCall("PING", nil)); !engine.IsRejected(err) {
		t.Errorf("a command while waiting was not rejected: %v", err)
	}
	if err := m.Answer(engine.Input{Player: 1, Kind: "pick-colour", Choice: 1}); err != nil {
		t.Fatal(err)
	}
	if m.IsWaiting() || len(g.Picked) != 1 || g.Picked[0] != 1 || g.After != 1 {
		t.Errorf("after the answer: waiting %v, picked %v, after %d; want resumed with [1] and the sibling run", m.IsWaiting(), g.Picked, g.After)
	}
	if err := m.Answer(engine.Input{Player: 1, Kind: "pick-colour"}); !engine.IsRejected(err) {
		t.Errorf("an answer with nothing pending was not rejected: %v", err)
	}
}

func TestSeveralPlayersOweInput(t *testing.T) {
	rules, ping := decisionRules()
	g := &pickGame{}
	m := engine.NewMatch(rules, g, 1, []string{"Alice", "Bob", "Carol"})
	m.Index.Add(&engine.Trigger{Name: "Everybody picks", On: []engine.EventType{ping},
		Effects: []engine.EffectCall{rules.Effects.MustCall("PICK", []engine.PlayerID{2, 0, 2})}}, 1, 0, engine.NoLocation, 1)
	if err := m.Run(0, rules.Effects.MustCall("PING", nil)); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Waiting()); n != 3 {
		t.Fatalf("%d decisions pending, want 3", n)
	}
	steps := []engine.Input{{Player: 2, Kind: "pick-colour", Choice: 1}, {Player: 2, Kind: "pick-colour", Choice: 0}}
	for _, in := range steps {
		if err := m.Answer(in); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Answer(engine.Input{Player: 2, Kind: "pick-colour"}); !engine.IsRejected(err) {
		t.Errorf("Carol answered a third time: %v", err)
	}
	if !m.IsWaiting() {
		t.Fatal("resumed before Alice answered")
	}
	if err := m.Answer(engine.Input{Player: 0, Kind: "pick-colour", Choice: 1}); err != nil {
		t.Fatal(err)
	}
	// Answers come back in the order the decisions were asked: Carol, Alice, Carol.
	if fmt.Sprint(g.Picked) != "[1 1 0]" || m.IsWaiting() {
		t.Errorf("picked %v (waiting %v), want [1 1 0] and resumed", g.Picked, m.IsWaiting())
	}
}

// --- Determinism ---

type randomMoveArgs struct{ Seed int }

// playRandom plays n random commands on a busy lane board and returns the
// JSON-lines log and the hash after every command.
func playRandom(n int) (string, []string) {
	var specs []spec
	names := []string{"Odin", "Loki", "Thor", "Hypo", "Mover", "Scout", "Osiris", "Mine"}
	for i := 0; i < 24; i++ {
		var ab *engine.Trigger
		switch i % 6 {
		case 0:
			ab = ability(fmt.Sprintf("%s-%d", names[i%8], i), onDrawn, relation{rel: engine.Controller}, engine.Anywhere, call("POWER", amount{1}))
		case 1:
			ab = ability(fmt.Sprintf("%s-%d", names[i%8], i), onDrawn, relation{rel: engine.Opponent}, engine.Anywhere, call("GAIN_ENERGY", amount{1}))
		case 2:
			ab = ability(fmt.Sprintf("%s-%d", names[i%8], i), onEnergy, relation{rel: engine.Controller}, engine.Anywhere, call("POWER", amount{1}))
		case 3:
			ab = ability(fmt.Sprintf("%s-%d", names[i%8], i), onPowerGain, laneAny, engine.Here, call("DRAW", amount{1}))
		case 4:
			ab = ability(fmt.Sprintf("%s-%d", names[i%8], i), onMove, self, engine.Anywhere, call("DRAW", amount{2}))
		case 5:
			ab = ability(fmt.Sprintf("%s-%d", names[i%8], i), onLaneIn, laneEnemy, engine.Here, call("DAMAGE_MOVER", amount{1}))
		}
		specs = append(specs, spec{fmt.Sprintf("%s-%d", names[i%8], i), engine.PlayerID(i % 2), engine.LocationID(i%3 + 1), ab})
	}
	m, _ := newLaneMatch(engine.PerPair, specs...)
	dice := m.RNG.Stream("commands")
	var hashes []string
	for range n {
		d := engine.EntityID(dice.IntN(len(specs)) + 1)
		lane := engine.LocationID(dice.Between(1, 3))
		if err := m.Run(engine.PlayerID(int(d-1)%2), call("MOVE", moveArgs{Drone: d, Lane: lane})); err != nil {
			panic(err)
		}
		hashes = append(hashes, m.Hash())
	}
	var buf bytes.Buffer
	m.WriteJSONL(&buf, 0)
	return buf.String(), hashes
}

func TestDeterminism(t *testing.T) {
	wantLog, wantHashes := playRandom(200)
	if len(wantLog) < 10_000 {
		t.Fatalf("log suspiciously short (%d bytes)", len(wantLog))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				log, hashes := playRandom(200)
				if log != wantLog {
					t.Errorf("GOMAXPROCS=%d: the log differs", procs)
				}
				if strings.Join(hashes, ",") != strings.Join(wantHashes, ",") {
					t.Errorf("GOMAXPROCS=%d: the hashes differ", procs)
				}
			})
		}
		wg.Wait()
	}
	// A different seed of commands gives a different game.
	m, _ := chaosMatch()
	h0 := m.Hash()
	m.Run(0, call("MOVE", moveArgs{Drone: 5, Lane: 1}))
	if m.Hash() == h0 {
		t.Error("the hash did not change with the state")
	}
}
