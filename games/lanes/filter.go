package lanes

import (
	"fmt"

	"github.com/tabulagames/tabula/engine"
)

// abilityFilter is the static test of an ability against an event: the
// action-phase rule of draws and energy, triggerFilter, scaling that
// rounds down to nothing, and the conditions of a conditional-only
// ability.
type abilityFilter struct {
	actionOnly  bool
	cardType    string
	cardSubType string
	stat        *StatFilter
	divisor     int
	conds       []string
}

func (f *abilityFilter) needed() bool {
	return f.actionOnly || f.cardType != "" || f.cardSubType != "" || f.stat != nil || f.divisor > 1 || len(f.conds) > 0
}

// Match implements engine.Filter.
func (f *abilityFilter) Match(state any, ev *engine.Event, _ *engine.Instance) bool {
	s := state.(*State)
	if f.actionOnly && s.Phase != PhaseAction {
		return false
	}
	if f.cardType != "" || f.cardSubType != "" {
		card, _ := ev.Data.(*CardDef)
		if card == nil || (f.cardType != "" && card.Type != f.cardType) || (f.cardSubType != "" && card.SubType != f.cardSubType) {
			return false
		}
	}
	if f.stat != nil {
		d := s.Drone(ev.Subject)
		if d == nil || !compare(d.stat(f.stat.Stat), f.stat.Comparator, f.stat.Value) {
			return false
		}
	}
	if f.divisor > 1 && ev.Amount/f.divisor < 1 {
		return false // Thor gaining 1 energy: +1 per 2 rounds down to nothing
	}
	if len(f.conds) > 0 {
		for _, c := range f.conds {
			if attackMeets(ev.Data, c) {
				return true
			}
		}
		return false
	}
	return true
}

func compare(a int, op string, b int) bool {
	switch op {
	case ">=":
		return a >= b
	case "<=":
		return a <= b
	case "==":
		return a == b
	}
	return false
}

// describe says what an effect call does, for the log.
func describe(c engine.EffectCall) string {
	switch a := c.Args.(type) {
	case valueScopeArgs:
		if c.Name == "HEAL_HULL" {
			return fmt.Sprintf("repair %d hull of %s", a.Value, scopeText(a.Scope))
		}
		return fmt.Sprintf("%d damage to %s", a.Value, scopeText(a.Scope))
	case scopeArgs:
		if c.Name == "DESTROY" {
			return "destroy " + scopeText(a.Scope)
		}
		return "exhaust " + scopeText(a.Scope)
	case modifyArgs:
		return fmt.Sprintf("%+d %s (%s) to %s", a.Mod.Value, a.Mod.Stat, a.Mod.Type, scopeText(a.Scope))
	case valueArgs:
		switch c.Name {
		case "DRAW":
			return plural(a.Value, "draw %d card", "draw %d cards")
		case "GAIN_ENERGY":
			return fmt.Sprintf("gain %d energy", a.Value)
		}
		return fmt.Sprintf("+%d threat", a.Value)
	case markArgs:
		which := "a random enemy drone"
		if a.Filter == "NOT_MARKED" {
			which = "a random unmarked enemy drone"
		}
		if a.Scope == "SAME_LANE" {
			return "mark " + which + " in the same lane"
		}
		return "mark " + which
	case tokenArgs:
		board := "its own"
		if a.TargetOwner == "OPPONENT" {
			board = "the opponent's"
		}
		return fmt.Sprintf("place a %s in the lane, on %s board", a.TokenName, board)
	case noArgs:
		return "go again"
	case singleMoveArgs:
		return "move the target to an adjacent lane"
	case multiMoveArgs:
		return fmt.Sprintf("move up to %d drones to an adjacent lane, one after the other", a.Count)
	}
	return c.Name
}

func scopeText(scope string) string {
	switch scope {
	case "SELF":
		return "itself"
	case "TRIGGERING_DRONE":
		return "the triggering drone"
	case "TARGET":
		return "the target"
	case "LANE_ENEMIES":
		return "each enemy drone in the lane"
	}
	return scope
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf(one, n)
	}
	return fmt.Sprintf(many, n)
}
