package gametest

import (
	"testing"

	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Finish plays a match to its end with the pack's bot (game.BotCommand)
// for the first seat it waits for, drawing from r, as tests of the end
// (standings, the last words) need; it fails the test on a command
// refused, or on a match that waits for nobody or is not over after
// 100,000 commands.
func Finish(t testing.TB, m game.Match, r *rng.Stream) {
	t.Helper()
	for i := 0; !m.Outcome().Over; i++ {
		waiting := m.Waiting()
		if len(waiting) == 0 || i == 100000 {
			t.Fatalf("command %d: the match is not over, and waits for %v", i, waiting)
		}
		cmd, _ := game.BotCommand(m, waiting[0], r)
		if err := m.Apply(waiting[0], cmd); err != nil {
			t.Fatalf("command %d: %v", i, err)
		}
	}
}
