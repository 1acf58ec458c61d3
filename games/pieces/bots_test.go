package pieces_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tabulagames/tabula/bot"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// packBot plays the pack's own bot in a duel.
type packBot struct{}

func (packBot) Choose(_ context.Context, m game.Match, seat int, r *rng.Stream) (json.RawMessage, error) {
	c, _ := game.BotCommand(m, seat, r)
	return c, nil
}

// The bots that look ahead play through the pack's Clone, Evaluate and
// Determinize, and play better than chance: greedy and the pack's bot
// beat random play at Trouble, and MCTS plays whole games.
func TestBotsPlayWell(t *testing.T) {
	if testing.Short() {
		t.Skip("duels take a while")
	}
	def := load(t, "../../examples/pieces/trouble.json")
	random, _ := bot.New("random", bot.Options{})
	greedy, _ := bot.New("greedy", bot.Options{})
	mcts, _ := bot.New("mcts", bot.Options{Playouts: 30})
	for _, c := range []struct {
		name  string
		a     bot.Bot
		games int
		beats bool
	}{
		{"greedy", greedy, 100, true},
		{"the pack's bot", packBot{}, 200, true},
		{"mcts", mcts, 6, false},
	} {
		d := bot.Duel(context.Background(), def, c.a, random, c.games, 1, true)
		t.Logf("%s against random: %s", c.name, d)
		if d.Failed > 0 || d.Games != c.games {
			t.Fatalf("%s: %d games failed: %v", c.name, d.Failed, d.Err)
		}
		if c.beats && d.A.Low <= 0.5 {
			t.Errorf("%s does not beat random play: %s", c.name, d)
		}
	}
}
