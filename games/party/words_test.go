package party

import (
	"fmt"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/tabulagames/tabula/game/gametest"
)

// The shapes of a party board's ids and engine names: a space's id beside
// its name ("Start (1)"), a space named by its id alone ("go to 12"), the
// board files' player states and effect kinds (COMPLETED_GAME, SkipTurns)
// and triggers and actions (ON_LAND, PROMPT_ALL_PLAYERS).
var partyIDs = []*regexp.Regexp{
	regexp.MustCompile(`\(\d+\)`),
	regexp.MustCompile(`\b(to|on|from|enters|leaves) \d+\b`),
	regexp.MustCompile(`\b(PLAYING|COMPLETED_GAME|SKIPPING_TURN|SPECTATING|DISCONNECTED|WAITING|ELIMINATED|READY|TRIGGERED|PROCESSING_ACTION|COMPLETED_ACTION|INACTIVE)\b`),
	regexp.MustCompile(`\b(ON_ENTER|ON_LAND|ON_EXIT|CODE|PROMPT_ALL_PLAYERS|PROMPT_CURRENT_PLAYER|SET_PLAYER_STATE|SET_PLAYER_SPACE|DISPLACE_PLAYER|APPLY_EFFECT|CHANGE_STAT|SET_STAT)\b`),
	regexp.MustCompile(`\b(SkipTurns|RepeatTurns|DoubleTurn|ChangeDirection)\b`),
	regexp.MustCompile(`(?i)\bskipturns\b`),
}

// TestPlayersReadNoIDs plays whole bot games on the bundled boards and the
// original game's, and checks that what players read names spaces,
// states, effects and stats in words.
func TestPlayersReadNoIDs(t *testing.T) {
	paths, _ := filepath.Glob("../../examples/party/*.json")
	if dir, ok := fixturesIfAny(t); ok {
		more, _ := filepath.Glob(filepath.Join(dir, "v1", "*.json"))
		paths = append(paths, more...)
		paths = append(paths, filepath.Join(dir, "v2", "defaultBoard.json"), filepath.Join(dir, "v3", "placeholder-showcase.json"))
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			def := compileFile(t, path)
			gametest.CheckWords(t, def, gametest.Options{Games: 2, MaxRounds: 30, PackBot: true}, partyIDs...)
		})
	}
}

// The end ranks the players: the winner, then the others in the order they
// finished, with where they stand and the board's stats.
func TestStandings(t *testing.T) {
	def := compileFile(t, "../../examples/party/default.json")
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: 3, MaxRounds: 40})
	gametest.Finish(t, m, rng.New(3).Stream("bots"))
	st := m.Standings()
	got := fmt.Sprint(st.Figures)
	for _, s := range st.Seats {
		got += fmt.Sprintf(" | %d. %s %v %s", s.Place, m.s.Players[s.Seat].Name, s.Values, s.Note)
	}
	if want := "[space drinks] | 1. Ann [Finish 2] finished | 2. Bob [Finish 2] finished | 3. Cy [Finish 5] finished"; got != want {
		t.Errorf("standings\n%s\nwant\n%s", got, want)
	}
}
