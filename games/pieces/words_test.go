package pieces_test

import (
	"fmt"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
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

// The end ranks the players by the order they got every piece home, then
// by their pieces home and on their way.
func TestStandings(t *testing.T) {
	def := load(t, "../../examples/pieces/trouble.json")
	m, err := def.Start(game.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	gametest.Finish(t, m, rng.New(5).Stream("bots"))
	st := game.StandingsOf(m, 3)
	got := fmt.Sprint(st.Figures)
	for _, s := range st.Seats {
		got += fmt.Sprintf(" | %d. %d %v %s", s.Place, s.Seat, s.Values, s.Note)
	}
	if want := "[pieces home on the way waiting] | 1. 2 [4 0 0] every piece home, 1st | 2. 1 [1 1 2]  | 3. 0 [0 1 3] "; got != want || m.Outcome().Winners[0] != 2 {
		t.Errorf("standings\n%q\nwant\n%q", got, want)
	}
}
