package lanes

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/scenario"
	"github.com/tabulagames/tabula/scenario/scenariotest"
)

// examples is the folder of the lanes scenario files, which `tabula test`
// runs too.
const examples = "../../examples/lanes"

// TestScenarios runs every scenario file under examples/lanes, twice: the
// second run must give the same log and state hash.
func TestScenarios(t *testing.T) {
	files := scenariotest.Run(t, examples, 20, testPack.RunScenario)
	for _, f := range files {
		var logs [2][]byte
		var hashes [2]string
		for i := range 2 {
			run, err := testPack.startScenario(readScenario(t, f), filepath.Dir(f))
			if err != nil {
				t.Fatal(err)
			}
			run.play(&scenario.Result{})
			logs[i], _ = json.Marshal(run.m.Log(game.Spectator, 0))
			hashes[i] = run.m.Hash()
		}
		if hashes[0] != hashes[1] || !bytes.Equal(logs[0], logs[1]) {
			t.Errorf("%s: two runs of the scenario differ", f)
		}
	}
}

// readScenario reads a scenario file that must be readable.
func readScenario(tb testing.TB, path string) *Scenario {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var sc Scenario
	if err := scenario.Decode(data, &sc); err != nil {
		tb.Fatal(err)
	}
	return &sc
}

// TestScenarioFailuresAreReported: a wrong expectation fails, with a diff.
func TestScenarioFailuresAreReported(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(examples, "03-chaos-cascade.scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ from, to, want string }{
		{"- Odin←HypoDrone@4", "- Odin←HypoDrone@5", "+ Odin←HypoDrone@4"},
		{"deepest: 6", "deepest: 5", "deepest firing: got 6, want 5"},
		{"Thor: {attack: 2}", "Thor: {attack: 1}", "Thor attack: got 2, want 1"},
		{"A: {drawn: 3", "A: {drawn: 4", "A drawn: got 3, want 4"},
		{"Thor: {attack: 2}", "Thorr: {attack: 2}", `drones: no drone "Thorr" (did you mean Thor?)`},
		{"A: {drawn: 3", "C: {drawn: 3", `players: no player "C"`},
		{"to: 1}", "to: 4}", "command 1: rejected: MovedDrone can move only to an adjacent lane"},
		{"value: 1}]}\n    - name: Loki", "valeu: 1}]}\n    - name: Loki", `/define/drones/0/abilities/0/effects/0/valeu: unknown member "valeu" (did you mean value?)`},
		{"expect:", "expect:\n  bogus: 1", "field bogus not found"},
	}
	for _, tc := range tests {
		bad := strings.Replace(string(data), tc.from, tc.to, 1)
		if bad == string(data) {
			t.Fatalf("%q is not in the scenario", tc.from)
		}
		r := testPack.RunScenario("chaos.scenario.yaml", []byte(bad))
		if r.Passed() || !strings.Contains(r.String(), tc.want) {
			t.Errorf("changing %q: want a failure containing %q, got:\n%s", tc.from, tc.want, r)
		}
	}
}

// A scenario names its game with file: (or data:, its older name),
// relative to its folder; without one it plays the bundled game, from
// whatever folder it is in.
func TestScenarioGameFile(t *testing.T) {
	dir := t.TempDir()
	game := strings.Replace(string(bundledData(t)), `"attack": 3, "hull": 1`, `"attack": 5, "hull": 1`, 1) // Firefly
	if err := os.WriteFile(filepath.Join(dir, "hard.json"), []byte(game), 0o644); err != nil {
		t.Fatal(err)
	}
	body := `
setup: {players: {A: {lanes: {1: [Firefly]}}}}
commands: [{player: A, attack: Firefly, target: Bridge}]
expect: {players: {B: {damage: DAMAGE}}}
`
	tests := []struct{ head, damage, fail string }{
		{"", "0", ""}, // Firefly's 3 go to the Bridge's 3 shields
		{"file: hard.json", "2", ""},
		{"data: hard.json", "2", ""},
		{"file: hard.json\ndata: hard.json", "2", "file and data both name the game file"},
		{"file: missing.json", "0", "file:"},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, "x.scenario.yaml")
		text := "game: lanes\n" + tc.head + strings.Replace(body, "DAMAGE", tc.damage, 1)
		r := testPack.RunScenario(path, []byte(text))
		switch {
		case tc.fail == "" && !r.Passed():
			t.Errorf("%q: %s", tc.head, r)
		case tc.fail != "" && (r.Passed() || !strings.Contains(r.String(), tc.fail)):
			t.Errorf("%q: %s, want a failure saying %q", tc.head, r, tc.fail)
		}
	}
}

// Scenario files of the version before players read names elsewhere, with
// every line of their logs and traces as that version wrote them, still
// pass: lanes always named drones and cards.
func TestScenariosWrittenBeforeNames(t *testing.T) {
	scenariotest.Run(t, "testdata/before-names", 29, testPack.RunScenario)
}
