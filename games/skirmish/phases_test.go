package skirmish

import (
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/status"
)

// Handlers of the early phases may cancel or change an action. These test
// conditions put one handler on attacks against their bearer, in one phase;
// their effects are registered in a pack of the test's own.
type phasePack struct {
	*Pack
	warded, stoneskin, blinks *status.Def
}

func newPhasePack() *phasePack {
	p := &phasePack{Pack: NewPack()}
	cancel := engine.Register(p.effects, "TEST_CANCEL", func(c *engine.Ctx, g *State, _ struct{}) error {
		c.Cancel()
		return nil
	})
	halve := engine.Register(p.effects, "TEST_HALVE", func(c *engine.Ctx, g *State, _ struct{}) error {
		a := c.Event().Data.(*Act)
		halved := slices.Clone(a.Damage)
		for i := range halved {
			halved[i].Total /= 2
		}
		a.Damage = halved
		return nil
	})
	blink := engine.Register(p.effects, "TEST_BLINK", func(c *engine.Ctx, g *State, _ struct{}) error {
		g.Fighter(g.book.Get(c.Reactor()).Bearer).Pos = Cell{5, 5}
		return nil
	})
	on := func(name string, ph engine.Phase, effect engine.Effect[struct{}]) *status.Def {
		return &status.Def{Name: name, Triggers: []*engine.Trigger{{Name: name, On: []engine.EventType{p.ev.attack}, Phase: ph,
			Filter: status.Watch{Target: status.Bearer}, Effects: []engine.EffectCall{effect.Call(struct{}{})}}}}
	}
	p.warded = on("warded", engine.Declaration, cancel)
	p.blinks = on("blinks", engine.Execution, blink)
	p.stoneskin = on("stoneskin", engine.EffectPhase, halve)
	return p
}

func TestHandlersCancelAndChange(t *testing.T) {
	p := newPhasePack()
	for _, tc := range []struct {
		name      string
		def       *status.Def
		dice      []int
		hp        int
		cancelled engine.Phase
		reason    string
	}{
		// A declaration handler cancels: no roll, no cost.
		{"cancelled at declaration", p.warded, nil, 40, engine.Declaration, ""},
		// An execution handler moves the target away before the roll; the
		// prerequisites are checked again after it and cancel the attack.
		{"revalidated after the roll", p.blinks, []int{15, 4}, 40, engine.Execution, "out of reach"},
		// An effect handler halves the damage rolled (4 +2 = 6) before it
		// is dealt.
		{"changed at effect", p.stoneskin, []int{15, 4}, 40 - 3, engine.NoPhase, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def := arena(6, 6, at("attacker", goblin(), 0, 1, 1), at("target", target(), 1, 2, 1))
			def.p = p.Pack
			m := start(t, def, tc.dice...)
			tg := m.State.ByKey("target")
			if _, err := m.State.book.Apply(nil, status.Request{Def: tc.def, Bearer: tg.ID}); err != nil {
				t.Fatal(err)
			}
			do(t, m, Command{Do: "attack", Target: "target", Weapon: "scimitar"})
			if tg.HP != tc.hp {
				t.Errorf("target HP %d, want %d", tg.HP, tc.hp)
			}
			spent := m.State.ByKey("attacker").Economy.Actions == 0
			if tc.cancelled == engine.NoPhase {
				if !spent || count(m, testPack.ev.attack, engine.Completion) != 1 {
					t.Error("the attack did not go through")
				}
				return
			}
			ev, a := lastAct(m, testPack.ev.attack, tc.cancelled)
			if ev == nil || !ev.Cancelled || !strings.Contains(a.Reason, tc.reason) {
				t.Errorf("the %s event is not cancelled (%+v)", tc.cancelled, ev)
			}
			if spent || count(m, testPack.ev.attack, engine.Completion) != 0 {
				t.Error("a cancelled attack was paid for or completed")
			}
		})
	}
}

// Each phase of an action is a child of the one before, and the events a
// phase causes are its children: an opportunity attack's declaration is a
// child of the step it interrupts, which is a child of the move.
func TestEventsKeepTheirParents(t *testing.T) {
	m := start(t, arena(6, 6, at("mover", target(), 0, 2, 1), at("watcher", goblin(), 1, 3, 1)), 15, 3)
	do(t, m, Command{Do: "move", Path: []Cell{{1, 1}}})
	chain := func(i engine.EventRef) []string {
		var out []string
		for ; i != engine.NoEvent; i = m.Engine.Events[i].Parent {
			ev := &m.Engine.Events[i]
			out = append(out, testPack.types.Name(ev.Type)+"/"+ev.Phase.String())
		}
		return out
	}
	var damage engine.EventRef = engine.NoEvent
	for i := range m.Engine.Events {
		if m.Engine.Events[i].Type == testPack.ev.damage {
			damage = engine.EventRef(i)
		}
	}
	want := []string{"DAMAGE/", "ATTACK/EFFECT", "ATTACK/EXECUTION", "ATTACK/DECLARATION",
		"STEP_MOVEMENT/EFFECT", "STEP_MOVEMENT/DECLARATION", "MOVE/EFFECT", "MOVE/EXECUTION", "MOVE/DECLARATION"}
	if got := chain(damage); !slices.Equal(got, want) {
		t.Errorf("the damage's ancestry:\n got %v\nwant %v", got, want)
	}
}
