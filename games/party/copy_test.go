package party

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/bot/bottest"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
)

// A copy plays on exactly as the match would, dice and placeholders
// included, from positions all through several games of every bundled
// board (forks and prompts pending), and apart from it.
func TestClonePlaysOnAlike(t *testing.T) {
	for _, path := range exampleBoards(t) {
		def := compileFile(t, path)
		t.Run(filepath.Base(path), func(t *testing.T) {
			bottest.CheckClone(t, def, bottest.Options{Every: 5, Setup: func(s *game.Setup) { s.MaxRounds = 30 }})
		})
	}
}

// nextRolls are the next rolls a match would make: what no player can
// know.
func nextRolls(m game.Match, _ int) string {
	c := m.(*Match).clone(engine.CloneOptions{})
	d := c.e.RNG.Stream("dice")
	return fmt.Sprint(c.s.Dice, d.Uint64(), c.e.RNG.Stream("placeholders").Uint64())
}

// A determinization keeps everything a player sees and draws the dice to
// come again.
func TestDeterminizeDrawsTheDiceAgain(t *testing.T) {
	for _, path := range exampleBoards(t) {
		def := compileFile(t, path)
		t.Run(filepath.Base(path), func(t *testing.T) {
			bottest.CheckDeterminize(t, def, bottest.Options{Every: 5, Setup: func(s *game.Setup) { s.MaxRounds = 30 }, Unseen: []string{"log"}}, nextRolls)
		})
	}
}

// Evaluate says who leads the race: the player nearer the end leads by as
// much as the other trails, and a finished player leads everyone.
func TestEvaluate(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := m.Evaluate(0), m.Evaluate(1); a != 0 || b != 0 {
		t.Errorf("at the start: %g and %g, want 0 and 0", a, b)
	}
	dist, far := def.toEnd()
	if far == 0 {
		t.Fatal("the board has no race to run")
	}
	// Ann steps on towards the end.
	for i, d := range dist {
		if d >= 0 && d < dist[m.s.Players[0].Space] {
			m.s.Players[0].Space = i
			break
		}
	}
	if a, b := m.Evaluate(0), m.Evaluate(1); !(a > 0 && b < 0 && a == -b) {
		t.Errorf("Ann ahead: %g, Bob behind: %g", a, b)
	}
	m.s.Players[1].State = CompletedGame
	if b := m.Evaluate(1); b <= m.Evaluate(0) || b <= 0 {
		t.Errorf("Bob finished: %g, Ann: %g", b, m.Evaluate(0))
	}
}
