package skirmish

import (
	"testing"

	"github.com/tabulagames/tabula/game"
)

// benchAttacks measures attacks resolved through the whole phase
// pipeline (declaration, execution, effect, completion, with the damage
// and the reactions they set off), one command each; between commands the
// attacker gets its action back and the target its hit points.
func benchAttacks(b *testing.B, attacker, defender *Creature) {
	def := arena(6, 6, at("attacker", attacker, 0, 1, 1), at("target", defender, 1, 2, 1))
	m, err := def.NewMatch(game.Setup{Players: def.Sides, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	f, t := m.State.ByKey("attacker"), m.State.ByKey("target")
	cmd := Command{Do: "attack", Who: "attacker", Target: "target"}
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Play(0, cmd); err != nil {
			b.Fatal(err)
		}
		f.Economy.Actions, t.HP = 1, 1_000_000
		m.Engine.ClearLog()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "attacks/s")
}

func BenchmarkAttack(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		benchAttacks(b, goblin(), target())
	})
	b.Run("conditions", func(b *testing.B) {
		// A battle trance on the attacker and adaptive armour on the
		// target: two condition triggers react to every attack.
		att, def := goblin(), target()
		att.Conditions = []ConditionUse{{Name: "battle-trance"}}
		def.Conditions = []ConditionUse{{Name: "adaptive-armour"}, {Name: "blinded"}}
		benchAttacks(b, att, def)
	})
}

// BenchmarkOpportunityAttack measures a one-step move out of a hostile
// creature's reach: the step's phases, the opportunity attack it provokes
// as a reaction (the watcher's side is asked, and takes it), and the move's
// completion.
func BenchmarkOpportunityAttack(b *testing.B) {
	def := arena(6, 6, at("mover", target(), 0, 2, 1), at("watcher", goblin(), 1, 3, 1))
	m, err := def.NewMatch(game.Setup{Players: def.Sides, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	mover, watcher := m.State.ByKey("mover"), m.State.ByKey("watcher")
	cmd := Command{Do: "move", Who: "mover", Path: []Cell{{1, 1}}}
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Play(0, cmd); err != nil {
			b.Fatal(err)
		}
		if err := m.Play(1, botReaction); err != nil {
			b.Fatal(err)
		}
		mover.Pos, mover.HP, mover.Economy.Movement, watcher.Economy.Reactions = Cell{2, 1}, 1_000_000, 30, 1
		m.Engine.ClearLog()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "attacks/s")
}
