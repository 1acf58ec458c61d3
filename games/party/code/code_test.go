package code

import (
	"strings"
	"testing"
)

func TestHistoricalConditions(t *testing.T) {
	p := &Player{Nickname: "Ann", Stats: map[string]float64{"drinks": 3, "moves": 1}}
	v := &Vars{Player: p, Space: &Space{ID: "4"}, Game: &Game{RemainingMoves: 2, TurnNumber: 3}}
	for src, want := range map[string]bool{
		"player.getStat('drinks') < 5":     true,
		"player.getStat('moves') >= 1":     true,
		"player.getStat('moves') >= 3":     false,
		"player.getStat('unset') == 0":     true,
		"space.id == '4' && movesLeft > 1": true,
		"game.turnNumber === 3":            true,
		"player.nickname !== 'Ann'":        false,
	} {
		c, probs := Compile(src)
		if c == nil {
			t.Errorf("%s: %v", src, probs)
			continue
		}
		got, err := c.Eval(v)
		if err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v", src, got, err, want)
		}
	}
}

func TestRejected(t *testing.T) {
	for src, want := range map[string]string{
		"player.drinks < 5":       "undefined field 'drinks'",
		"updateStat('drinks', 1)": "undeclared reference to 'updateStat'",
		"x = 1":                   "Syntax error",
		"player.turnsTaken + 1":   "must be true or false",
		"":                        "empty CODE condition",
	} {
		c, probs := Compile(src)
		if c != nil {
			t.Errorf("%q compiled", src)
			continue
		}
		var msgs []string
		for _, p := range probs {
			msgs = append(msgs, p.Message)
		}
		if !strings.Contains(strings.Join(msgs, "; "), want) {
			t.Errorf("%q: problems %q, want one containing %q", src, msgs, want)
		}
	}
	// Problems after a === are still at their place in the source.
	_, probs := Compile("turnNumber === 1 && foo(1)")
	if len(probs) != 2 || probs[1].Offset != 23 {
		t.Errorf("problems after ===: %+v", probs)
	}
	_, probs = Compile("player.turnsTaken === 1")
	if len(probs) != 1 || !probs[0].Warning || probs[0].Offset != 18 {
		t.Errorf("=== warning: %+v", probs)
	}
}
