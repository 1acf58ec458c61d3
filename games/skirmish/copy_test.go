package skirmish

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/bot/bottest"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// A copy plays on exactly as the match would, dice included, from
// positions all through several fights of every bundled encounter
// (conditions with triggers, reactions pending, creatures down), and apart
// from it.
func TestClonePlaysOnAlike(t *testing.T) {
	p := NewPack()
	for _, f := range encounters(t) {
		def := gametest.Load(t, p, f)
		t.Run(filepath.Base(f), func(t *testing.T) { bottest.CheckClone(t, def, bottest.Options{Every: 3}) })
	}
}

// nextDice are the next dice a match would roll: what no side can know.
func nextDice(m game.Match, _ int) string {
	c := m.(*Match).clone(engine.CloneOptions{})
	d := c.Engine.RNG.Stream("dice")
	return fmt.Sprint(c.State.Dice, d.IntN(20), d.IntN(20), d.IntN(20))
}

// A determinization keeps everything a side sees and draws the dice to
// come again.
func TestDeterminizeDrawsTheDiceAgain(t *testing.T) {
	p := NewPack()
	for _, f := range encounters(t) {
		def := gametest.Load(t, p, f)
		t.Run(filepath.Base(f), func(t *testing.T) { bottest.CheckDeterminize(t, def, bottest.Options{Every: 5}, nextDice) })
	}
}

// Scripted dice are dice to come too: a determinization does not know
// them.
func TestDeterminizeForgetsScriptedDice(t *testing.T) {
	def := load(t, filepath.Join(examples, "duel.encounter.json"))
	m, err := def.NewMatch(game.Setup{Players: []string{"A", "B"}, Seed: 1, Dice: []int{20, 20, 20, 20, 20, 20}})
	if err != nil {
		t.Fatal(err)
	}
	c := m.Determinize(0, rng.New(1).Stream("d")).(*Match)
	if len(c.State.Dice) != 0 || len(m.State.Dice) == 0 {
		t.Errorf("scripted dice left: %v in the copy, %v in the match", c.State.Dice, m.State.Dice)
	}
}

// Evaluate tells a side ahead from a side behind.
func TestEvaluate(t *testing.T) {
	def := load(t, filepath.Join(examples, "duel.encounter.json"))
	m, err := def.NewMatch(game.Setup{Players: []string{"A", "B"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := m.Evaluate(0), m.Evaluate(1); a != 0 || b != 0 {
		t.Errorf("at the start: %g and %g, want 0 and 0", a, b)
	}
	f := m.State.Fighters[0]
	f.HP = f.HP / 2
	if a, b := m.Evaluate(int(f.Side)), m.Evaluate(1-int(f.Side)); !(a < 0 && b > 0 && math.Abs(a+b) < 1e-9) {
		t.Errorf("a side at half its hit points: %g, the other %g", a, b)
	}
	f.HP, f.Alive = 0, false
	if a := m.Evaluate(int(f.Side)); a > -0.99 {
		t.Errorf("a side with nobody standing: %g, want -1", a)
	}
}
