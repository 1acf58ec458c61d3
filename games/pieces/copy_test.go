package pieces_test

import (
	"testing"

	"github.com/tabulagames/tabula/bot/bottest"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// bundledGames are the games the copies are checked on: the bundled ones,
// which need no fixtures.
var bundledGames = map[string]string{
	"trouble":    "../../examples/pieces/trouble.json",
	"crossroads": "../../examples/pieces/crossroads.json",
}

// A copy plays on to the hashes, views and log of the match, from
// positions all through several games, and apart from it.
func TestClonePlaysOnAlike(t *testing.T) {
	for name, path := range bundledGames {
		t.Run(name, func(t *testing.T) { bottest.CheckClone(t, load(t, path), bottest.Options{Every: 7}) })
	}
}

// diceToCome stands for the dice a match will roll, which no seat can
// know: where a copy gets to when the same commands are chosen for it
// from the same stream (the pack's bot plays the rolls it is given).
func diceToCome(m game.Match, _ int) string {
	c := m.(game.Cloner).Clone()
	r := rng.New(1).Stream("ahead")
	for range 12 {
		w := c.Waiting()
		if len(w) == 0 {
			break
		}
		cmd, _ := game.BotCommand(c, w[0], r)
		if c.Apply(w[0], cmd) != nil {
			break
		}
	}
	return c.Hash()
}

// A determinization keeps everything a seat sees and draws the dice to
// come again.
func TestDeterminizeDrawsTheDiceAgain(t *testing.T) {
	for name, path := range bundledGames {
		t.Run(name, func(t *testing.T) {
			bottest.CheckDeterminize(t, load(t, path), bottest.Options{Every: 7}, diceToCome)
		})
	}
}
