package party

import (
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
)

// The log tells players a game: no Text holds the engine's words (event
// types, triggers, actions and player states as board files write them,
// "Waiting for", "option"), which stay in Detail, and a finished game is
// over once ("Game over: Ann won").
func TestLogSpeaksThePlayersWords(t *testing.T) {
	engineWords := slices.Concat(eventNames, TriggerTypes, ActionTypes, PlayerStates, EffectTypes, []string{"Waiting for", "option ", "↳", " acknowledges"})
	for _, path := range exampleBoards(t) {
		def := compileFile(t, path)
		for seed := range uint64(4) {
			m := playBots(t, def, []string{"Ann", "Bob", "Cid"}, seed)
			overs := 0
			for _, e := range m.Log(game.Spectator, 0) {
				for _, w := range engineWords {
					if strings.Contains(e.Text, w) {
						t.Errorf("%s, seed %d: %q says %q", path, seed, e.Text, w)
					}
				}
				if strings.HasPrefix(e.Text, "Game over") {
					overs++
				}
			}
			if overs != 1 {
				t.Errorf("%s, seed %d: the game is over %d times in the log", path, seed, overs)
			}
		}
	}
}
