package rulebook

import (
	"testing"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/bot/bottest"
)

// BenchmarkBots is what the bots pay on the Monopoly-like game, from a
// match 20 commands in (played by the pack's bot), where a player has a choice: the copy of each
// playout (a determinization), a determinization and a random playout to
// the end, and one MCTS decision of 100 playouts cut at 4 commands.
func BenchmarkBots(b *testing.B) {
	m := bottest.Midgame(b, load(b, "monopoly.json"), 3, 20)
	b.Run("copy", func(b *testing.B) { bottest.BenchCopy(b, m) })
	b.Run("playout", func(b *testing.B) { bottest.BenchPlayout(b, m) })
	b.Run("decision", func(b *testing.B) { bottest.BenchDecision(b, m, bot.Options{Playouts: 100, Depth: 4}) })
	// What `tabula play --bots X=mcts` and the server play: the game's search
	// advice, if any, else 1000 playouts to the end.
	b.Run("advised", func(b *testing.B) { bottest.BenchDecision(b, m, bot.Options{}) })
}
