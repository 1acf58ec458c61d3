package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const ambushFile = "../../examples/skirmish/ambush.encounter.json"

// Bots against bots play a whole fight unattended; the same seed plays the
// same fight, and --log writes it as JSON lines.
func TestSkirmishBotsPlay(t *testing.T) {
	dir := t.TempDir()
	var outs, logs []string
	for i := range 2 {
		log := filepath.Join(dir, "fight"+string(rune('0'+i))+".jsonl")
		code, out, errOut := tabulaIn("", "play", ambushFile, "--bots", "all", "--seed", "11", "--log", log)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.Contains(out, " win in round ") && !strings.Contains(out, "A draw after") {
			t.Fatalf("the fight has no result:\n%s", out)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), `{"seq":0,"kind":"event"`) || !strings.Contains(string(data), `"type":"ATTACK","phase":"COMPLETION"`) {
			t.Fatalf("the log is not the fight's JSON lines:\n%.300s", data)
		}
		outs, logs = append(outs, out), append(logs, string(data))
	}
	if outs[0] != outs[1] || logs[0] != logs[1] {
		t.Error("the same seed played two different fights")
	}
	if _, out, _ := tabulaIn("", "play", ambushFile, "--bots", "all", "--seed", "12"); out == outs[0] {
		t.Error("another seed played the same fight")
	}
}

// The player controls the first side and a bot the other; scripted dice
// make the fight exact.
func TestSkirmishHumanPlay(t *testing.T) {
	// The fighter walks away and takes the goblin's opportunity attack
	// (12 +4 against AC 16, 3 +2 damage), then hits it with a javelin
	// (18 +5, 6 +3 = 9 > 7 HP).
	input := "help\nattack gobln\nmove 1 2\nmap\nattack goblin\n"
	code, out, errOut := tabulaIn(input, "play", "../../examples/skirmish/walk-away.encounter.json", "--rolls", "12,3,18,6")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{
		"heroes: you", "goblins: a bot", "commands:",
		`no combatant "gobln" (did you mean goblin?)`,
		"fired opportunity attack (goblin)",
		"DAMAGE fighter: 5 from goblin [5 slashing], 8 HP left",
		"ATTACK/EFFECT fighter → goblin: 18+5 = 23 vs AC 15: HIT, 1d6+3 [6] = 9 piercing",
		"DEATH goblin",
		"heroes win in round 1.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if code, _, errOut := tabulaIn("end\n", "play", "../../examples/skirmish/walk-away.encounter.json", "--bots", "goblins"); code == 0 || !strings.Contains(errOut, "the input ended before the fight did") {
		t.Errorf("input that ends early: exit %d, %s", code, errOut)
	}
}

func TestSkirmishCommands(t *testing.T) {
	if code, out, _ := tabulaIn("", "test", "../../examples/skirmish"); code != 0 || !strings.Contains(out, " passed, 0 failed") {
		t.Errorf("tabula test examples/skirmish: exit %d\n%s", code, out)
	}
	files, _ := filepath.Glob("../../examples/skirmish/*.json")
	if code, out, _ := tabulaIn("", append([]string{"validate"}, files...)...); code != 0 || out != "" {
		t.Errorf("validating the examples: exit %d\n%s", code, out)
	}
	code, out, _ := tabulaIn("", "validate", "../../games/skirmish/testdata/bad.encounter.json")
	if code != 1 || !strings.Contains(out, `bad.encounter.json:15:49: /combatants/0/side: no side "goblin"`) {
		t.Errorf("validating a bad encounter: exit %d\n%s", code, out)
	}
	code, out, _ = tabulaIn("", "schema", "skirmish")
	if schema, _ := os.ReadFile("../../docs/schema/skirmish-1.schema.json"); code != 0 || out != string(schema) {
		t.Errorf("tabula schema skirmish: exit %d, not the published schema", code)
	}
	if code, _, errOut := tabulaIn("", "play", "../../examples/skirmish/goblin.json", "--bots", "all"); code != 1 || !strings.Contains(errOut, "this is a combatant file") {
		t.Errorf("playing a combatant file: exit %d, %s", code, errOut)
	}
}
