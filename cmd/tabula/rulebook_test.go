package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const rulebookExamples = "../../examples/rulebook"

// TestRulebookValidate: the shipped games are valid; a broken one is
// reported line by line, and `tabula validate` tells rule books from boards.
func TestRulebookValidate(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(rulebookExamples, "*.json"))
	args := append([]string{"validate"}, files...)
	if code, out, errOut := tabula(args...); code != 0 || out != "" {
		t.Errorf("examples: exit %d\n%s%s", code, out, errOut)
	}
	bad := writeFile(t, t.TempDir(), "bad.json", `{"game": "rulebook", "board": {"tiles": [{"id": "a"}]},
 "rules": [{"preset": "Turn"}, {"when": {"event": "TILE_LANDD"}, "then": [{"action": "WIN"}]}]}`)
	code, out, _ := tabula("validate", bad)
	want := bad + `:2:51: /rules/1/when/event: unknown event "TILE_LANDD" (did you mean TILE_LANDED?)` + "\n"
	if code != 1 || out != want {
		t.Errorf("exit %d, output\n%s\nwant\n%s", code, out, want)
	}
}

// TestSchemaRulebook: `tabula schema rulebook` prints the published schema.
func TestSchemaRulebook(t *testing.T) {
	code, out, _ := tabula("schema", "rulebook")
	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "schema", "rulebook-1.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || out != string(want) {
		t.Errorf("exit %d; output differs from docs/schema/rulebook-1.schema.json", code)
	}
}

// TestRulebookPlayBots: each preset plays to its end with bots; the same
// seed prints the same game; --log writes the log as JSON lines naming the
// rules that fired.
func TestRulebookPlayBots(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"chutes-and-ladders.json", "candy-land.json", "monopoly.json"} {
		path := filepath.Join(rulebookExamples, name)
		logFile := filepath.Join(dir, name+".jsonl")
		code, out, errOut := tabula("play", path, "--bots", "all", "--players", "Ann,Bob,Cid", "--seed", "3", "--log", logFile)
		if code != 0 || !strings.Contains(out, " won.\n") || !strings.Contains(out, "State hash ") {
			t.Errorf("%s: exit %d\n%s\n%s", name, code, tailOf(out), errOut)
		}
		if _, again, _ := tabula("play", path, "--bots", "all", "--players", "Ann,Bob,Cid", "--seed", "3"); again != out {
			t.Errorf("%s: two plays with the same seed differ", name)
		}
		f, err := os.Open(logFile)
		if err != nil {
			t.Fatal(err)
		}
		rules, n := 0, 0
		s := bufio.NewScanner(f)
		s.Buffer(nil, 1<<20)
		for s.Scan() {
			var rec map[string]any
			if err := json.Unmarshal(s.Bytes(), &rec); err != nil {
				t.Fatalf("%s: line %d is not JSON: %v", name, n+1, err)
			}
			if rec["kind"] == "fired" && rec["rule"] != nil {
				rules++
			}
			n++
		}
		f.Close()
		if n < 50 || rules < 10 {
			t.Errorf("%s: the log has %d lines, %d firings", name, n, rules)
		}
	}
}

func tailOf(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	return strings.Join(lines, "\n")
}

// TestRulebookPlayHuman: a human in the terminal presses Enter to roll,
// picks options by number (a wrong one is asked again), and may quit; a
// scripted roll comes from --rolls.
func TestRulebookPlayHuman(t *testing.T) {
	chutes := filepath.Join(rulebookExamples, "chutes-and-ladders.json")
	code, out, errOut := tabulaIn(strings.Repeat("\n", 400), "play", chutes, "--players", "Ann,Bob", "--bots", "Bob", "--rolls", "4")
	if code != 0 || !strings.Contains(out, "Ann: Roll the die — press Enter (q to quit) ") || !strings.Contains(out, "Ann rolls 4\n") ||
		!strings.Contains(out, "Ann lands on 14\n") || !strings.Contains(out, " won.\n") {
		t.Errorf("exit %d\n%s\n%s", code, tailOf(out), errOut)
	}
	mono := filepath.Join(rulebookExamples, "monopoly.json")
	code, out, _ = tabulaIn("\n9\n1\nq\n", "play", mono, "--players", "Ann,Bob", "--rolls", "1,5")
	for _, want := range []string{"Ann: Buy Angel Street for 100?\n  1) Buy Angel Street for 100\n  2) Pass\nChoose 1-2 (q to quit): ",
		"Please type a number from 1 to 2.", "Ann buys Angel Street for 100\n", "Stopped.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the session lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("quitting: exit %d", code)
	}
	if code, _, errOut := tabulaIn("", "play", chutes); code != 1 || !strings.Contains(errOut, "the input ended before the game did") {
		t.Errorf("no input: exit %d %q", code, errOut)
	}
	if code, _, errOut := tabulaIn("", "play", chutes, "--players", "Solo"); code != 2 || !strings.Contains(errOut, "this game is for 2 to 4 players, not 1") {
		t.Errorf("one player: exit %d %q", code, errOut)
	}
}

// TestRulebookScenarios: `tabula test` runs the rule book scenarios.
func TestRulebookScenarios(t *testing.T) {
	code, out, errOut := tabula("test", rulebookExamples)
	if code != 0 || !strings.Contains(out, "6 passed, 0 failed") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
