package skirmish

import (
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/engine"
)

// The engine book's cross-checks of combat (the newer book of the original
// engine), with the same numbers. Those of modifiable values are in
// package value.

// A critical hit rolls the weapon's damage dice twice.
func TestCriticalDoublesDice(t *testing.T) {
	m := start(t, arena(20, 20, at("attacker", goblin(), 0, 5, 5), at("target", skeleton(), 1, 6, 5)), 10, 3, 4)
	force(m, "attacker", forceHit)
	force(m, "attacker", forceCrit)
	do(t, m, Command{Do: "attack", Target: "target", Weapon: "scimitar"})
	_, a := lastAct(m, testPack.ev.attack, engine.Completion)
	if a.Roll.Outcome != Crit || !slices.Equal(a.Damage[0].Rolls, []int{3, 4}) {
		t.Fatalf("outcome %s, damage dice %v; want CRIT with [3 4]", a.Roll.Outcome, a.Damage[0].Rolls)
	}
	if hp := m.State.ByKey("target").HP; hp != 13-(3+4+2) {
		t.Errorf("skeleton HP %d, want 13 - 9 = 4 (the +2 is added once)", hp)
	}
}

// A move of 3 squares walks step by step: 3 completed
// STEP_MOVEMENT events and 15 ft of movement spent.
func TestMoveStepByStep(t *testing.T) {
	m := start(t, arena(20, 20, at("mover", goblin(), 0, 5, 5), at("far", skeleton(), 1, 15, 15)))
	do(t, m, Command{Do: "move", To: &Cell{5, 8}})
	f := m.State.ByKey("mover")
	if f.Pos != (Cell{5, 8}) || f.Economy.Movement != 30-15 {
		t.Errorf("mover on %s with %d ft left, want (5,8) with 15", f.Pos, f.Economy.Movement)
	}
	if n := count(m, testPack.ev.step, engine.Completion); n != 3 {
		t.Errorf("%d completed steps, want 3", n)
	}
	if _, a := lastAct(m, testPack.ev.move, engine.Completion); a == nil || *a.End != (Cell{5, 8}) || a.Partial {
		t.Errorf("the move did not complete on (5,8): %+v", a)
	}
}

// A natural 20 is a critical hit even against AC+100, and a
// natural 1 a critical miss even against AC−100.
func TestNaturalRolls(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ac, d20 int
		want    string
		damaged bool
	}{
		{"natural 20 against AC+100", 100, 20, Crit, true},
		{"natural 1 against AC-100", -100, 1, CritMiss, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := start(t, arena(20, 20, at("attacker", goblin(), 0, 5, 5), at("target", skeleton(), 1, 6, 5)), tc.d20)
			m.State.ByKey("target").AC.Add(0, m.State.ByKey("target").ID, bonus("armour", tc.ac), nil)
			do(t, m, Command{Do: "attack", Target: "target"})
			_, a := lastAct(m, testPack.ev.attack, engine.Completion)
			if a.Roll.Outcome != tc.want || !slices.Equal(a.Roll.Dice, []int{tc.d20}) {
				t.Errorf("dice %v, outcome %s; want [%d] and %s", a.Roll.Dice, a.Roll.Outcome, tc.d20, tc.want)
			}
			if got := count(m, testPack.ev.damage, engine.NoPhase) > 0; got != tc.damaged {
				t.Errorf("damage dealt: %v, want %v", got, tc.damaged)
			}
		})
	}
}

// A longbow (80/320 ft) cannot shoot beyond long
// range (the attack is cancelled and costs nothing); beyond normal range,
// or with a hostile creature within reach, it shoots with disadvantage,
// and both together are still one disadvantage die.
func TestRangedAttacks(t *testing.T) {
	for _, tc := range []struct {
		name       string
		archer     Cell
		target     Cell
		enemyNear  bool
		dice       []int
		cancelled  string
		long       bool
		wantDice   []int
		wantAdv    string
		wantResult string
	}{
		{"normal range (80 ft)", Cell{0, 0}, Cell{16, 0}, false, []int{19}, "", false, []int{19}, "", Hit},
		{"long range (85 ft)", Cell{0, 0}, Cell{17, 0}, false, []int{19, 2}, "", true, []int{19, 2}, "DISADVANTAGE", Miss},
		{"beyond long range (325 ft)", Cell{0, 0}, Cell{65, 0}, false, nil, "out of range", false, nil, "", ""},
		{"threatened", Cell{5, 2}, Cell{15, 2}, true, []int{18, 3}, "", false, []int{18, 3}, "DISADVANTAGE", Miss},
		{"threatened at long range", Cell{5, 2}, Cell{22, 2}, true, []int{18, 3}, "", true, []int{18, 3}, "DISADVANTAGE", Miss},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := []Placement{at("archer", archer(), 0, tc.archer[0], tc.archer[1]), at("target", skeleton(), 1, tc.target[0], tc.target[1])}
			if tc.enemyNear {
				ps = append(ps, at("adjacent", goblin(), 1, tc.archer[0], tc.archer[1]+1))
			}
			m := start(t, arena(80, 5, ps...), tc.dice...)
			do(t, m, Command{Do: "attack", Target: "target"})
			ev, a := lastAct(m, testPack.ev.attack, engine.Declaration)
			archer := m.State.ByKey("archer")
			if tc.cancelled != "" {
				if !ev.Cancelled || !strings.Contains(a.Reason, tc.cancelled) || archer.Economy.Actions != 1 {
					t.Errorf("cancelled %v (%q), actions left %d; want cancelled for %q with the action kept", ev.Cancelled, a.Reason, archer.Economy.Actions, tc.cancelled)
				}
				return
			}
			_, a = lastAct(m, testPack.ev.attack, engine.Completion)
			if a == nil {
				t.Fatal("the attack did not complete")
			}
			if !slices.Equal(a.Roll.Dice, tc.wantDice) || a.Roll.Advantage != tc.wantAdv || a.Roll.Outcome != tc.wantResult {
				t.Errorf("dice %v %s → %s; want %v %s → %s", a.Roll.Dice, a.Roll.Advantage, a.Roll.Outcome, tc.wantDice, tc.wantAdv, tc.wantResult)
			}
			if archer.Economy.Actions != 0 {
				t.Error("the attack did not spend the action")
			}
		})
	}
}

// A 6 slashing + 6 fire hit applies resistance
// per component: 9 against slashing resistance, 18 against slashing
// vulnerability, 6 against slashing immunity.
func TestMixedDamage(t *testing.T) {
	for _, tc := range []struct {
		status string
		want   int
	}{{"resistance", 9}, {"vulnerability", 18}, {"immunity", 6}, {"none", 12}} {
		t.Run(tc.status, func(t *testing.T) {
			flaming := goblin()
			flaming.Weapons[0].Damage = append(flaming.Weapons[0].Damage, DamageDice{Dice: Dice{1, 6}, Type: "fire"})
			st, _ := parseResistance(tc.status)
			m := start(t, arena(20, 20, at("attacker", flaming, 0, 5, 5), at("target", target(Resist{"slashing", st}), 1, 6, 5)), 10, 4, 6)
			force(m, "attacker", forceHit)
			do(t, m, Command{Do: "attack", Target: "target"})
			_, a := lastAct(m, testPack.ev.attack, engine.Completion)
			if len(a.Damage) != 2 || a.Damage[0].Total != 6 || a.Damage[1].Total != 6 {
				t.Fatalf("damage rolls %+v, want 6 slashing and 6 fire", a.Damage)
			}
			if lost := 40 - m.State.ByKey("target").HP; lost != tc.want || a.Dealt != tc.want {
				t.Errorf("HP lost %d (dealt %d), want %d", lost, a.Dealt, tc.want)
			}
		})
	}
}

// An attack on a target out of reach is cancelled before any
// cost is paid.
func TestOutOfReachCostsNothing(t *testing.T) {
	m := start(t, arena(20, 20, at("attacker", goblin(), 0, 2, 2), at("far", skeleton(), 1, 12, 2)))
	do(t, m, Command{Do: "attack", Target: "far", Weapon: "scimitar"})
	ev, a := lastAct(m, testPack.ev.attack, engine.Declaration)
	if !ev.Cancelled || !strings.Contains(a.Reason, "reach") || m.State.ByKey("attacker").Economy.Actions != 1 {
		t.Errorf("cancelled %v (%q), actions %d", ev.Cancelled, a.Reason, m.State.ByKey("attacker").Economy.Actions)
	}
	if n := count(m, testPack.ev.attack, engine.Execution); n != 0 {
		t.Errorf("a cancelled attack reached EXECUTION %d times", n)
	}
}

// Leaving a hostile creature's reach provokes
// an opportunity attack that costs its reaction; not when disengaging, not
// a second time without a reaction, and never for forced movement.
func TestOpportunityAttacks(t *testing.T) {
	t.Run("leaving reach provokes", func(t *testing.T) {
		m := start(t, arena(20, 20, at("mover", goblin(), 0, 5, 6), at("watcher", skeleton(), 1, 5, 5)), 10, 4)
		force(m, "watcher", forceHit)
		do(t, m, Command{Do: "move", To: &Cell{5, 10}})
		_, a := lastAct(m, testPack.ev.attack, engine.Completion)
		if a == nil || !a.Opportunity || m.State.ByKey("mover").HP != 7-(4+2) || m.State.ByKey("watcher").Economy.Reactions != 0 {
			t.Errorf("opportunity attack %+v; mover HP %d, watcher reactions %d", a, m.State.ByKey("mover").HP, m.State.ByKey("watcher").Economy.Reactions)
		}
		if m.State.ByKey("mover").Pos != (Cell{5, 10}) {
			t.Errorf("the mover stopped on %s", m.State.ByKey("mover").Pos)
		}
	})
	t.Run("disengaging does not", func(t *testing.T) {
		m := start(t, arena(20, 20, at("mover", goblin(), 0, 5, 6), at("watcher", skeleton(), 1, 5, 5)), 10, 4)
		force(m, "watcher", forceHit)
		do(t, m, Command{Do: "disengage"}, Command{Do: "move", To: &Cell{5, 10}})
		if m.State.ByKey("mover").HP != 7 || m.State.ByKey("watcher").Economy.Reactions != 1 || !m.State.has(m.State.ByKey("mover").ID, "disengaging") {
			t.Errorf("mover HP %d, watcher reactions %d", m.State.ByKey("mover").HP, m.State.ByKey("watcher").Economy.Reactions)
		}
	})
	t.Run("one reaction, one opportunity attack", func(t *testing.T) {
		m := start(t, arena(20, 20, at("first", goblin(), 0, 5, 6), at("second", goblin(), 0, 6, 5), at("watcher", skeleton(), 1, 5, 5)), 10, 4, 10, 4)
		force(m, "watcher", forceHit)
		do(t, m, Command{Do: "move", To: &Cell{5, 10}}, Command{Do: "end"}, Command{Do: "move", To: &Cell{10, 5}})
		if m.State.ByKey("first").HP >= 7 || m.State.ByKey("second").HP != 7 || count(m, testPack.ev.attack, engine.Completion) != 1 {
			t.Errorf("first HP %d, second HP %d, %d attacks", m.State.ByKey("first").HP, m.State.ByKey("second").HP, count(m, testPack.ev.attack, engine.Completion))
		}
	})
	for _, forced := range []bool{true, false} {
		name := "walking out of reach provokes"
		if forced {
			name = "being shoved out of reach does not"
		}
		t.Run(name, func(t *testing.T) {
			dice := []int{10, 1} // the opportunity attack: a hit for 1+2
			if forced {
				dice = []int{15, 5} // the contest: 15 against 5
			}
			m := start(t, arena(20, 20, at("pushed", goblin(), 0, 3, 2), at("shover", target(), 0, 2, 2), at("watcher", skeleton(), 1, 2, 3)), dice...)
			force(m, "watcher", forceHit)
			if forced {
				do(t, m, Command{Do: "end"}, Command{Do: "shove", Target: "pushed"})
			} else {
				do(t, m, Command{Do: "move", To: &Cell{4, 2}})
			}
			pushed := m.State.ByKey("pushed")
			if pushed.Pos != (Cell{4, 2}) {
				t.Fatalf("pushed is on %s, want (4,2)", pushed.Pos)
			}
			provoked := m.State.ByKey("watcher").Economy.Reactions == 0
			if provoked == forced || (pushed.HP < 7) != provoked {
				t.Errorf("provoked %v, HP %d", provoked, pushed.HP)
			}
			if forced && count(m, testPack.ev.forced, engine.NoPhase) != 1 {
				t.Error("no FORCED_MOVEMENT event")
			}
		})
	}
}

// A lethal opportunity attack stops the move before the mover
// leaves its square; the move completes as partial.
func TestLethalOpportunityAttack(t *testing.T) {
	m := start(t, arena(20, 20, at("mover", goblin(), 0, 5, 6), at("ally", goblin(), 0, 15, 15), at("watcher", skeleton(), 1, 5, 5)), 10, 6, 6)
	force(m, "watcher", forceHit)
	force(m, "watcher", forceCrit)
	do(t, m, Command{Do: "move", To: &Cell{5, 10}})
	mover := m.State.ByKey("mover")
	if mover.Alive || mover.Pos != (Cell{5, 6}) {
		t.Errorf("mover alive %v on %s, want dead on (5,6)", mover.Alive, mover.Pos)
	}
	if _, a := lastAct(m, testPack.ev.move, engine.Completion); a == nil || !a.Partial || *a.End != (Cell{5, 6}) {
		t.Errorf("move completion %+v, want partial on (5,6)", a)
	}
	if count(m, testPack.ev.step, engine.EffectPhase) != 1 || count(m, testPack.ev.step, engine.Completion) != 0 {
		t.Errorf("steps: %d effect, %d completed; want 1 and 0", count(m, testPack.ev.step, engine.EffectPhase), count(m, testPack.ev.step, engine.Completion))
	}
	if cur := m.State.Current(); cur.Key != "ally" {
		t.Errorf("the dead mover's turn did not end: it is %s's", cur.Key)
	}
}

// Dash spends the action, gives the speed again as movement and
// the dashing condition.
func TestDash(t *testing.T) {
	m := start(t, arena(20, 20, at("hero", goblin(), 0, 5, 5), at("enemy", skeleton(), 1, 15, 15)))
	do(t, m, Command{Do: "dash"})
	f := m.State.ByKey("hero")
	if f.Economy.Actions != 0 || f.Economy.Movement != 60 || !m.State.has(f.ID, "dashing") {
		t.Errorf("after dashing: %+v, conditions %v", f.Economy, m.State.Conditions(f.ID))
	}
}
