package pieces_test

import (
	"regexp"
	"testing"

	"github.com/tabulagames/tabula/game/gametest"
)

// The shapes of a game of pieces' ids: the spaces of Trouble's ring, lanes
// and starts (t9, p0-f2, p0-home-2), the crossroads' spaces (c3, s1a), and
// the names of the engine's states and events.
var pieceIDs = []*regexp.Regexp{
	regexp.MustCompile(`\bt\d+\b`),
	regexp.MustCompile(`\bp\d+-(home-|f)\d+\b`),
	regexp.MustCompile(`\b[a-z]+\d+[a-z]?\b`),
	regexp.MustCompile(`\b[a-z]\d+-\d+\b`),
	regexp.MustCompile(`\b[A-Z]+_[A-Z_]+\b`),
	regexp.MustCompile(`\b(start|board|home)\)`),
}

// TestPlayersReadNoIDs plays whole games with bots and checks that no
// space id, nor any other name of the engine, reaches what players read:
// legal commands, the log, the views and the ranking.
func TestPlayersReadNoIDs(t *testing.T) {
	for name, path := range games(t) {
		t.Run(name, func(t *testing.T) {
			gametest.CheckWords(t, load(t, path), gametest.Options{Games: 2}, pieceIDs...)
		})
	}
}
