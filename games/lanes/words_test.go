package lanes

import (
	"fmt"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/tabulagames/tabula/game/gametest"
)

// The shapes of a lane game's ids: card and drone ids in the file's
// snake case (Laser_Blast, Deploy_Jitter_Mine), the engine's constants
// (NONE, DRONES, FRIENDLY, ON_DEPLOY) and section keys.
var laneIDs = []*regexp.Regexp{
	regexp.MustCompile(`\b[A-Z][a-z]+(_[A-Z][a-z]+)+\b`),
	regexp.MustCompile(`\b[A-Z]{3,}(_[A-Z]+)*\b`),
}

// TestPlayersReadNoIDs plays whole bot games of the bundled lane games
// and checks that players read cards, drones and sections by name.
func TestPlayersReadNoIDs(t *testing.T) {
	paths, _ := filepath.Glob("../../examples/lanes/*.json")
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			gametest.CheckWords(t, gametest.Load(t, NewPack(), path), gametest.Options{Games: 1, PackBot: true}, laneIDs...)
		})
	}
}

// The end ranks the two players: the winner first, with each ship's
// damage, its healthy sections and its drones on the board.
func TestStandings(t *testing.T) {
	def := gametest.Load(t, NewPack(), "../../examples/lanes/drone-lanes.json")
	m, err := def.Start(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	gametest.Finish(t, m, rng.New(4).Stream("bots"))
	st := game.StandingsOf(m, 2)
	got := fmt.Sprint(st.Figures)
	for _, s := range st.Seats {
		got += fmt.Sprintf(" | %d. %d %v", s.Place, s.Seat, s.Values)
	}
	if want := "[ship damage healthy sections drones on the board] | 1. 1 [10 of 18 2 8] | 2. 0 [18 of 18 1 7]"; got != want || m.Outcome().Reason != "Bob wrecked Ann's ship" {
		t.Errorf("standings\n%s\nwant\n%s", got, want)
	}
}
