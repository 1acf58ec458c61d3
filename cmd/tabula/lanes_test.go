package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const lanesGame = "../../games/lanes/lanes.json"

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestLanesValidate(t *testing.T) {
	if code, out, errOut := runCLI(t, "", "validate", lanesGame); code != 0 || out != "" {
		t.Errorf("the built-in game: exit %d\n%s%s", code, out, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	data, _ := os.ReadFile(lanesGame)
	os.WriteFile(bad, bytes.Replace(data, []byte(`"trigger": "ON_CARD_DRAWN"`), []byte(`"trigger": "ON_CARD_DRAW"`), 1), 0o644)
	code, out, _ := runCLI(t, "", "validate", bad)
	if code != 1 || !strings.Contains(out, bad+":") || !strings.Contains(out, "/drones/5/abilities/0/trigger: unknown trigger ON_CARD_DRAW (did you mean ON_CARD_DRAWN?)") {
		t.Errorf("a misspelt trigger: exit %d\n%s", code, out)
	}
}

func TestLanesSchema(t *testing.T) {
	code, out, _ := runCLI(t, "", "schema", "lanes")
	doc, _ := os.ReadFile("../../docs/schema/lanes-1.schema.json")
	if code != 0 || out != string(doc) {
		t.Errorf("tabula schema lanes: exit %d, and it differs from docs/schema/lanes-1.schema.json", code)
	}
}

func TestLanesScenarios(t *testing.T) {
	code, out, _ := runCLI(t, "", "test", "../../examples/lanes")
	if code != 0 || !strings.Contains(out, " passed, 0 failed") || strings.Contains(out, "FAIL") {
		t.Errorf("tabula test examples/lanes: exit %d\n%s", code, out)
	}
}

// TestLanesBots: bots against bots play to the end; the same seed gives
// the same game and the same JSON log.
func TestLanesBots(t *testing.T) {
	dir := t.TempDir()
	var outs, logs [2]string
	for i := range 2 {
		log := filepath.Join(dir, "game"+string(rune('0'+i))+".jsonl")
		code, out, errOut := runCLI(t, "", "play", lanesGame, "--bots", "all", "--seed", "9", "--log", log)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		outs[i], logs[i] = out, string(data)
	}
	if outs[0] != outs[1] || logs[0] != logs[1] {
		t.Error("two games with seed 9 differ")
	}
	if !strings.Contains(outs[0], " wins in round ") && !strings.Contains(outs[0], "draw after") {
		t.Errorf("no result at the end:\n%s", outs[0][max(0, len(outs[0])-500):])
	}
	fired := 0
	for _, line := range strings.Split(strings.TrimSpace(logs[0]), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if r["kindName"] == "TRIGGER_FIRED" {
			fired++
		}
	}
	if fired == 0 {
		t.Error("no TRIGGER_FIRED record in the log")
	}
}

// TestLanesHuman: a human picks actions by number (or p to pass) against a
// bot; the game ends at the round limit.
func TestLanesHuman(t *testing.T) {
	input := strings.Repeat("x\n1\np\n", 200)
	code, out, errOut := runCLI(t, input, "play", lanesGame, "--bots", "B", "--seed", "4", "--max-rounds", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"A, your action (1-", `"x" is not one of the actions`, "Hand:", " 1) deploy ", "— Round 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output has no %q", want)
		}
	}
	if !strings.Contains(out, " wins in round 2") && !strings.Contains(out, "draw after 2 rounds") {
		t.Errorf("the game did not end at round 2:\n%s", out[max(0, len(out)-400):])
	}
	if code, _, errOut := runCLI(t, "", "play", lanesGame, "--bots", "B"); code == 0 || !strings.Contains(errOut, "input ended") {
		t.Errorf("no input: exit %d, %s", code, errOut)
	}
}
