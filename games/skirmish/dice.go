package skirmish

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/games/skirmish/value"
)

// Dice is a number of dice of one size, as in "2d6".
type Dice struct {
	N, Sides int
}

// String renders the dice as NdS.
func (d Dice) String() string { return strconv.Itoa(d.N) + "d" + strconv.Itoa(d.Sides) }

// DiceSides are the dice a data file may name.
var DiceSides = []int{4, 6, 8, 10, 12, 20}

// ParseDice reads "NdS" (N from 1 to 20, S one of DiceSides).
func ParseDice(s string) (Dice, error) {
	n, sides, ok := strings.Cut(s, "d")
	if !ok {
		return Dice{}, fmt.Errorf("%q is not dice like 1d8", s)
	}
	d := Dice{N: 1}
	var err error
	if n != "" {
		if d.N, err = strconv.Atoi(n); err != nil || d.N < 1 || d.N > 20 {
			return Dice{}, fmt.Errorf("%q: the number of dice must be 1 to 20", s)
		}
	}
	if d.Sides, err = strconv.Atoi(sides); err != nil || !validSides(d.Sides) {
		return Dice{}, fmt.Errorf("%q: dice have 4, 6, 8, 10, 12 or 20 sides", s)
	}
	return d, nil
}

func validSides(n int) bool {
	for _, s := range DiceSides {
		if s == n {
			return true
		}
	}
	return false
}

// roll rolls one die: the next scripted die if there is one (it must fit
// the die), otherwise the match's "dice" stream.
func (g *State) roll(c *engine.Ctx, sides int) (int, error) {
	if len(g.Dice) > 0 {
		v := g.Dice[0]
		if v < 1 || v > sides {
			return 0, fmt.Errorf("the scripted die %d cannot be rolled on a d%d", v, sides)
		}
		g.Dice = g.Dice[1:]
		return v, nil
	}
	return c.Rand("dice").IntN(sides) + 1, nil
}

// rollDice rolls n dice of the given size and appends them to into.
func (g *State) rollDice(c *engine.Ctx, n, sides int, into []int) ([]int, error) {
	for range n {
		v, err := g.roll(c, sides)
		if err != nil {
			return into, err
		}
		into = append(into, v)
	}
	return into, nil
}

// D20 is a d20 roll, with advantage or disadvantage.
type D20 struct {
	// Dice are the dice rolled: one, or two with advantage or disadvantage.
	Dice []int `json:"dice"`
	// Natural is the die that counts.
	Natural   int    `json:"natural"`
	Advantage string `json:"advantage,omitempty"`
	// Modifiers are what the roll adds to the die and what changed how it
	// was rolled, term by term.
	Modifiers []Term `json:"modifiers,omitempty"`
}

// Term is one part of what a roll adds to its dice, or of what changes how
// it is rolled: an ability modifier, the proficiency bonus, a weapon's
// bonus, or a modifier of one of the creatures' values.
type Term struct {
	// Source says where it comes from: an ability ("dex"), "proficiency",
	// a weapon, or the name of a value's modifier ("unseen", "battle
	// trance 2", "long range").
	Source string `json:"source"`
	// Channel is the channel of a value's modifier: self_static,
	// self_contextual, to_target_static (the other creature's, imported
	// for the roll) or to_target_contextual; "" for the parts the rules
	// add.
	Channel string `json:"channel,omitempty"`
	// Bonus is what it adds.
	Bonus int `json:"bonus,omitempty"`
	// Effect is what else it does: advantage, disadvantage, autocrit,
	// nocrit, autohit, automiss, "at least N" or "at most N".
	Effect string `json:"effect,omitempty"`
}

// valueTerms appends a term for every modifier that counts toward a value
// now (its own and those it imports, in its context).
func valueTerms(terms []Term, v *value.Value) []Term {
	v.Counting(func(e *value.Entry) {
		m := &e.Modifier
		t := Term{Source: m.Name, Channel: e.Channel.String()}
		switch m.Kind {
		case value.KindBonus:
			t.Bonus = m.N
		case value.KindMin:
			t.Effect = "at least " + strconv.Itoa(m.N)
		case value.KindMax:
			t.Effect = "at most " + strconv.Itoa(m.N)
		case value.KindAdvantage:
			t.Effect = strings.ToLower(value.Advantage(m.N).String())
		case value.KindCritical:
			t.Effect = strings.ToLower(value.Critical(m.N).String())
		case value.KindAutoHit:
			t.Effect = strings.ToLower(value.AutoHit(m.N).String())
		case value.KindResistance:
			t.Effect = value.Resistance(m.N).String() + " to " + m.DamageType
		}
		terms = append(terms, t)
	})
	return terms
}

// rollD20 rolls a d20, twice with advantage (the higher counts) or
// disadvantage (the lower counts). However many sources of disadvantage
// there are, it is one extra die.
func (g *State) rollD20(c *engine.Ctx, adv int) (D20, error) {
	n := 1
	if adv != 0 {
		n = 2
	}
	dice, err := g.rollDice(c, n, 20, make([]int, 0, 2))
	if err != nil {
		return D20{}, err
	}
	r := D20{Dice: dice, Natural: dice[0]}
	switch {
	case adv > 0:
		r.Natural, r.Advantage = max(dice[0], dice[1]), "ADVANTAGE"
	case adv < 0:
		r.Natural, r.Advantage = min(dice[0], dice[1]), "DISADVANTAGE"
	}
	return r, nil
}
