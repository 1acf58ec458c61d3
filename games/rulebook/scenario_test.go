package rulebook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/scenario/scenariotest"
)

// TestScenarios runs the example scenarios: rent paid to the owner, a
// chute and a ladder, a bankrupt player removed and the last one winning,
// an auction, licorice.
func TestScenarios(t *testing.T) {
	scenariotest.Run(t, examples, 6, pack.RunScenario)
}

// TestScenarioFailures: a scenario whose expectations do not hold fails,
// saying what differs.
func TestScenarioFailures(t *testing.T) {
	dir := t.TempDir()
	game, _ := filepath.Abs(filepath.Join(examples, "chutes-and-ladders.json"))
	for _, c := range []struct{ name, body, want string }{
		{"wrong tile", "rolls: [3]\nturns: 1\nexpect:\n  players:\n    Ann: {tile: \"4\"}\n", "Ann's tile: got 3, want 4"},
		{"wrong trace", "rolls: [3]\nturns: 1\nexpect:\n  trace: [StartGameRule on START_GAME, nothing]\n",
			"the trace differs (- want, + got):\n  StartGameRule on START_GAME\n+ DieMove: roll and move on START_TURN (Ann)"},
		{"missing log line", "rolls: [3]\nturns: 1\nexpect:\n  logIncludes: [Ann lands on 3, Ann lands on 9]\n", `log: no line "Ann lands on 9" after "Ann lands on 3"`},
		{"unknown player", "rolls: [3]\nturns: 1\nexpect:\n  players:\n    Anne: {tile: \"3\"}\n", `players: no player "Anne" (did you mean Ann?)`},
		{"unused command", "rolls: [3]\ncommands:\n  - {player: Ann, kind: buy}\nexpect: {}\n", `1 command(s) were not used: the match never asked Ann for "buy"`},
		{"refused command", "rolls: [3]\ncommands:\n  - {player: Bob, kind: roll}\nexpect: {}\n", "command Bob roll 0 was refused: rejected: Bob is not asked anything; waiting for Ann (the match waits for Ann roll)"},
		{"unknown field", "rolls: [3]\nexpect:\n  winner: Ann\n", "cannot read the scenario"},
		{"no error", "rolls: [3]\nturns: 1\nexpect:\n  error: runaway\n", `the match did not break; want an error with "runaway"`},
	} {
		path := filepath.Join(dir, "s.scenario.yaml")
		body := "game: rulebook\nfile: " + game + "\nplayers: [Ann, Bob]\n" + c.body
		os.WriteFile(path, []byte(body), 0o644)
		r := pack.RunScenario(path, []byte(body))
		if r.Passed() || !strings.Contains(strings.Join(r.Failures, "\n"), c.want) {
			t.Errorf("%s: got\n%s\nwant a failure with %q", c.name, r.String(), c.want)
		}
	}
}

// Scenario files written before players read tiles in words, on the games
// of then, still pass: their logs name numbered tiles "1 (red)" and the
// round limit "(40)".
func TestScenariosWrittenBeforeNames(t *testing.T) {
	scenariotest.RunWrittenBefore(t, "testdata/before-names", 8, pack.RunScenario)
}
