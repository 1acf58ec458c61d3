package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlayPartyWithBots(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "game.jsonl")
	args := []string{"play", "../../examples/party/default.json", "--players", "Ann,Bob,Cid", "--bots", "all", "--seed", "7", "--log", logPath}
	code, out, errOut := tabula(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Tabula Party — 11 spaces; Ann, Bob, Cid", "Turn 1: Ann's turn", "Result: every player finished. Winner: Ann.", "state hash: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The same seed gives the same game.
	if _, again, _ := tabula(args...); again != out {
		t.Error("the same seed gave a different game")
	}
	// The log has every event, and each firing says where and what.
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, firings := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("not JSON: %s", sc.Text())
		}
		switch rec["kind"] {
		case "event":
			events++
		case "fired":
			firings++
			for _, k := range []string{"depth", "trigger", "space", "action", "player", "chain"} {
				if _, ok := rec[k]; !ok {
					t.Errorf("a firing without %q: %s", k, sc.Text())
				}
			}
		}
	}
	if events < 50 || firings < 5 {
		t.Errorf("%d events and %d firings logged", events, firings)
	}
}

func TestPlayPartyInTheTerminal(t *testing.T) {
	// Scripted roll and path; the human acknowledges the four prompts with
	// Enter.
	var stdout, stderr bytes.Buffer
	code := run([]string{"play", "../../examples/party/default.json", "--players", "Solo", "--rolls", "6", "--choices", "0"},
		strings.NewReader("\n\n\n\n"), &stdout, &stderr)
	out := stdout.String()
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr.String(), out)
	}
	if n := strings.Count(out, "(Enter to continue)"); n != 4 {
		t.Errorf("%d prompts shown, want 4:\n%s", n, out)
	}
	if !strings.Contains(out, "[Solo] A shortcut! Straight to the last stretch.") || !strings.Contains(out, "Winner: Solo") {
		t.Errorf("output:\n%s", out)
	}
	if !strings.Contains(stderr.String(), "meant for 2 to 8 players") {
		t.Errorf("no note about the player count: %q", stderr.String())
	}

	// A fork asks for a number; a wrong answer is asked again.
	stdout.Reset()
	code = run([]string{"play", "../../examples/party/default.json", "--players", "Solo", "--rolls", "3,2", "--yes"},
		strings.NewReader("9\n2\n"), &stdout, &stderr)
	out = stdout.String()
	if !strings.Contains(out, "Solo, which way?\n  1) Shortcut (5)\n  2) Crossroads (6)") || !strings.Contains(out, "Type a number from 1 to 2.") {
		t.Errorf("fork dialogue:\n%s", out)
	}
	if code != 1 || !strings.Contains(stderr.String(), "the input ended before the game did") {
		t.Errorf("exit %d, stderr %q: want the end of input reported", code, stderr.String())
	}
}

func TestPlayPartyRejectsABadBoard(t *testing.T) {
	bad := writeFile(t, t.TempDir(), "bad.json", `{"spaces": [{"id": 1, "connections": [{"targetId": 3}]}]}`)
	code, _, errOut := tabula("play", bad, "--bots", "all")
	if code != 1 || !strings.Contains(errOut, `/spaces/0/connections/0/targetId: connection target "3" is not the id of any space`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
