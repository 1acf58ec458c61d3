package pieces

import (
	"testing"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/bot/bottest"
)

// BenchmarkBots is what the bots pay on the bundled Trouble board, two
// players, from a game 60 commands in (played by the pack's bot): the copy
// of each playout (a determinization: new dice), a determinization and a
// random playout to the end, and one MCTS decision with the settings of
// the duels in docs/bots.md.
func BenchmarkBots(b *testing.B) {
	m := bottest.Midgame(b, troubleDef(b), 3, 60)
	b.Run("copy", func(b *testing.B) { bottest.BenchCopy(b, m) })
	b.Run("playout", func(b *testing.B) { bottest.BenchPlayout(b, m) })
	b.Run("decision", func(b *testing.B) {
		bottest.BenchDecision(b, m, bot.Options{Playouts: 100, Depth: 4, Exploration: 0.2})
	})
	// What `tabula play --bots X=mcts` and the server play: the game's search
	// advice, if any, else 1000 playouts to the end.
	b.Run("advised", func(b *testing.B) { bottest.BenchDecision(b, m, bot.Options{}) })
}
