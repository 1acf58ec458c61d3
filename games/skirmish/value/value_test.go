package value_test

import (
	"testing"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

const (
	attacker engine.EntityID = 1
	defender engine.EntityID = 2
)

// Flag is the situation of the contextual examples: a set of named facts.
type flag map[string]bool

func when(fact string) value.When {
	return func(c value.Context) bool {
		f, _ := c.Data.(flag)
		return f[fact]
	}
}

// Static numerical modifiers sum, then constraints clamp.
func TestStaticBonusesAndConstraints(t *testing.T) {
	v := value.New("Armor Bonus", attacker, 10)
	shield := v.Add(value.SelfStatic, attacker, value.Bonus("Shield", 5), nil)
	if got := v.Score(); got != 15 {
		t.Fatalf("base 10 + Shield 5 = %d, want 15", got)
	}
	maxID := v.Add(value.SelfStatic, attacker, value.AtMost("Maximum", 12), nil)
	if got := v.Score(); got != 12 {
		t.Errorf("with max 12: %d, want 12", got)
	}
	v.Remove(maxID)
	minID := v.Add(value.SelfStatic, attacker, value.AtLeast("Minimum", 18), nil)
	if got := v.Score(); got != 18 {
		t.Errorf("with min 18: %d, want 18", got)
	}
	v.Remove(minID)
	v.Remove(shield)
	if got := v.Score(); got != 10 {
		t.Errorf("all removed: %d, want 10", got)
	}
}

// Advantage sums; NOCRIT beats AUTOCRIT; AUTOMISS beats AUTOHIT.
func TestStatusPrecedence(t *testing.T) {
	adv := value.WithAdvantage("adv", value.Advantaged)
	dis := value.WithAdvantage("dis", value.Disadvantaged)
	for _, tc := range []struct {
		name string
		mods []value.Modifier
		want value.Advantage
	}{
		{"advantage", []value.Modifier{adv}, value.Advantaged},
		{"advantage + disadvantage", []value.Modifier{adv, dis}, value.Straight},
		{"advantage + 2 disadvantages", []value.Modifier{adv, dis, dis}, value.Disadvantaged},
		{"2 advantages + 1 disadvantage", []value.Modifier{adv, adv, dis}, value.Advantaged},
	} {
		v := value.New("attack", attacker, 0)
		for _, m := range tc.mods {
			v.Add(value.SelfStatic, attacker, m, nil)
		}
		if got := v.Advantage(); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	for _, order := range [][]value.Critical{{value.AutoCrit, value.NoCrit}, {value.NoCrit, value.AutoCrit}} {
		v := value.New("attack", attacker, 0)
		for _, c := range order {
			v.Add(value.SelfStatic, attacker, value.WithCritical(c.String(), c), nil)
		}
		if got := v.Critical(); got != value.NoCrit {
			t.Errorf("critical %v: %s, want NOCRIT", order, got)
		}
	}
	for _, order := range [][]value.AutoHit{{value.AlwaysHit, value.AlwaysMiss}, {value.AlwaysMiss, value.AlwaysHit}} {
		v := value.New("attack", attacker, 0)
		for _, h := range order {
			v.Add(value.SelfStatic, attacker, value.WithAutoHit(h.String(), h), nil)
		}
		if got := v.AutoHit(); got != value.AlwaysMiss {
			t.Errorf("auto-hit %v: %s, want AUTOMISS", order, got)
		}
	}
	v := value.New("attack", attacker, 0)
	v.Add(value.SelfStatic, attacker, value.WithCritical("auto", value.AutoCrit), nil)
	if got := v.Critical(); got != value.AutoCrit {
		t.Errorf("AUTOCRIT alone: %s", got)
	}
}

// A contextual +4 on base 1 counts only when its condition holds.
func TestContextualModifier(t *testing.T) {
	v := value.New("attack", attacker, 1)
	v.Add(value.SelfContextual, attacker, value.Bonus("Near Target", 4), when("near_target"))
	v.SetContext(defender, flag{"near_target": true})
	if got := v.Score(); got != 5 {
		t.Errorf("near the target: %d, want 5", got)
	}
	v.SetContext(defender, flag{"near_target": false})
	if got := v.Score(); got != 1 {
		t.Errorf("not near: %d, want 1", got)
	}
}

// The defender's outgoing disadvantage reaches the attacker only
// once imported, and goes away with the reset.
func TestOutgoingNeedsImport(t *testing.T) {
	attack := value.New("Attack Bonus", attacker, 0)
	ac := value.New("Armor Class", defender, 0)
	ac.Add(value.ToTargetStatic, defender, value.WithAdvantage("Hard To Hit", value.Disadvantaged), nil)
	if got := ac.Outgoing().Roll(); got != value.Disadvantaged {
		t.Errorf("outgoing advantage %s, want DISADVANTAGE", got)
	}
	if got := ac.Advantage(); got != value.Straight {
		t.Errorf("an outgoing modifier counted toward its own value: %s", got)
	}
	if got := attack.Advantage(); got != value.Straight {
		t.Errorf("before import: %s, want NONE", got)
	}
	attack.Import(ac)
	if got := attack.Advantage(); got != value.Disadvantaged {
		t.Errorf("after import: %s, want DISADVANTAGE", got)
	}
	attack.ResetImport()
	if attack.Imported() != nil || attack.Advantage() != value.Straight {
		t.Errorf("after reset: %s, want NONE", attack.Advantage())
	}
}

// Resistances sum per damage type; two make an immunity.
func TestResistanceAggregates(t *testing.T) {
	v := value.New("resistance", defender, 0)
	v.Add(value.SelfStatic, defender, value.WithResistance("Fire Ward", "fire", value.Resistant), nil)
	if got := v.Resistance("fire"); got != value.Resistant {
		t.Errorf("one fire resistance: %s", got)
	}
	v.Add(value.SelfStatic, defender, value.WithResistance("Greater Fire Ward", "fire", value.Resistant), nil)
	v.Add(value.SelfStatic, defender, value.WithResistance("Cold Curse", "cold", value.Vulnerable), nil)
	for typ, want := range map[string]value.Resistance{"fire": value.Immune, "cold": value.Vulnerable, "lightning": value.NoResistance} {
		if got := v.Resistance(typ); got != want {
			t.Errorf("%s: %s, want %s", typ, got, want)
		}
	}
	for _, tc := range []struct {
		r          value.Resistance
		in, damage int
	}{{value.Immune, 7, 0}, {value.Resistant, 7, 3}, {value.NoResistance, 7, 7}, {value.Vulnerable, 7, 14}} {
		if got := tc.r.Apply(tc.in); got != tc.damage {
			t.Errorf("%s of %d = %d, want %d", tc.r, tc.in, got, tc.damage)
		}
	}
}

// Attacker 13 (base 10, weapon +1, focused +2); importing the
// defender's cover −5 and its dim-light −2 (true in the defender's
// context) gives 6; the reset gives 13 again.
func TestImportedContextualChannels(t *testing.T) {
	attack := value.New("Attack Bonus", attacker, 10)
	ac := value.New("Armor Class", defender, 0)
	attack.Add(value.SelfStatic, attacker, value.Bonus("Weapon Bonus", 1), nil)
	attack.Add(value.SelfContextual, attacker, value.Bonus("Focused", 2), when("focused"))
	attack.SetContext(defender, flag{"focused": true})
	ac.Add(value.ToTargetStatic, defender, value.Bonus("Cover Penalty", -5), nil)
	ac.Add(value.ToTargetContextual, defender, value.Bonus("Dim Light", -2), when("dim_light"))
	ac.SetContext(attacker, flag{"dim_light": true})

	if got := attack.Score(); got != 13 {
		t.Errorf("before import: %d, want 13", got)
	}
	attack.Import(ac)
	if got := attack.Score(); got != 6 {
		t.Errorf("after import: %d, want 6", got)
	}
	attack.ResetImport()
	if got := attack.Score(); got != 13 {
		t.Errorf("after reset: %d, want 13", got)
	}
}

// Several constraints are permissive: the lowest minimum and the
// highest maximum win.
func TestLoosestConstraintWins(t *testing.T) {
	for _, tc := range []struct {
		name      string
		base      int
		mods      []value.Modifier
		bound     int
		isMin     bool
		wantScore int
	}{
		{"mins 8 and 12", 6, []value.Modifier{value.AtLeast("Minimum 8", 8), value.AtLeast("Minimum 12", 12)}, 8, true, 8},
		{"maxes 14 and 9", 20, []value.Modifier{value.AtMost("Maximum 14", 14), value.AtMost("Maximum 9", 9)}, 14, false, 14},
	} {
		v := value.New("v", attacker, tc.base)
		for _, m := range tc.mods {
			v.Add(value.SelfStatic, attacker, m, nil)
		}
		s := v.Summary()
		bound, has := s.Max, s.HasMax
		if tc.isMin {
			bound, has = s.Min, s.HasMin
		}
		if !has || bound != tc.bound || s.Score() != tc.wantScore {
			t.Errorf("%s on base %d: bound %d (set %v), score %d; want bound %d, score %d",
				tc.name, tc.base, bound, has, s.Score(), tc.bound, tc.wantScore)
		}
	}
}

// The import is live: changing the defender's cover from −2 to
// −5, or adding a penalty, shows at once.
func TestImportIsLive(t *testing.T) {
	attack := value.New("attack", attacker, 10)
	ac := value.New("ac", defender, 0)
	cover := ac.Add(value.ToTargetStatic, defender, value.Bonus("Cover Penalty", -2), nil)
	attack.Import(ac)
	if got := attack.Score(); got != 8 {
		t.Errorf("cover −2: %d, want 8", got)
	}
	ac.Update(cover, value.Bonus("Cover Penalty", -5))
	if got := attack.Score(); got != 5 {
		t.Errorf("cover −5: %d, want 5", got)
	}
	ac.Add(value.ToTargetStatic, defender, value.Bonus("Fresh Penalty", -1), nil)
	if got := attack.Score(); got != 4 {
		t.Errorf("with a fresh −1: %d, want 4", got)
	}
	attack.ResetImport()
	if got := attack.Score(); got != 10 {
		t.Errorf("after reset: %d, want 10", got)
	}
}

// RemoveBy takes off exactly the modifiers one source put there, which is
// how a condition cleans up after itself.
func TestRemoveBy(t *testing.T) {
	const blessing, curse engine.EntityID = 10, 11
	v := value.New("attack", attacker, 0)
	v.Add(value.SelfStatic, blessing, value.Bonus("Bless", 2), nil)
	v.Add(value.SelfStatic, curse, value.Bonus("Curse", -1), nil)
	v.Add(value.SelfContextual, blessing, value.Bonus("Bless (context)", 1), nil)
	if n := v.RemoveBy(blessing); n != 2 {
		t.Errorf("removed %d modifiers, want 2", n)
	}
	if got := v.Score(); got != -1 || len(v.Entries()) != 1 {
		t.Errorf("after removing the blessing: score %d with %d modifiers, want -1 with 1", got, len(v.Entries()))
	}
}

// The canonical encoding changes with any modifier and not otherwise.
func TestCanonicalEncoding(t *testing.T) {
	a, b := value.New("ac", defender, 12), value.New("ac", defender, 12)
	if string(a.AppendCanonical(nil)) != string(b.AppendCanonical(nil)) {
		t.Fatal("equal values encode differently")
	}
	b.Add(value.SelfStatic, 5, value.Bonus("Shield", 2), nil)
	if string(a.AppendCanonical(nil)) == string(b.AppendCanonical(nil)) {
		t.Error("a modifier did not change the encoding")
	}
}
