package skirmish

import (
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/bot/bottest"
)

// BenchmarkBots is what the bots pay on the two encounters of the duels in
// docs/bots.md, from a fight 4 commands in (played by the pack's bot):
// the copy of each playout (a determinization), a determinization and a
// random playout to the end, and one MCTS decision with the duels'
// settings.
func BenchmarkBots(b *testing.B) {
	for _, f := range []string{"ambush.encounter.json", "archery.encounter.json"} {
		m := bottest.Midgame(b, load(b, filepath.Join(examples, f)), 3, 4)
		b.Run(f+"/copy", func(b *testing.B) { bottest.BenchCopy(b, m) })
		b.Run(f+"/playout", func(b *testing.B) { bottest.BenchPlayout(b, m) })
		b.Run(f+"/decision", func(b *testing.B) {
			bottest.BenchDecision(b, m, bot.Options{Playouts: 100, Depth: 4, Exploration: 0.2})
		})
		// What `tabula play --bots X=mcts` and the server play: the
		// game's search advice.
		b.Run(f+"/advised", func(b *testing.B) { bottest.BenchDecision(b, m, bot.Options{}) })
	}
}
