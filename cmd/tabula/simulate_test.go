package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const defaultBoardFile = "../../examples/party/default.json"

func TestSimulateText(t *testing.T) {
	code, out, errOut := tabula("simulate", defaultBoardFile, "--games", "64", "--players", "Ann,Bob,Cy", "--seed", "3", "--workers", "2")
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Tabula Party (" + defaultBoardFile + "): 11 spaces, 17 events",
		"64 games of 3 players (Ann, Bob, Cy), seed 3, round cap 100",
		"Game length (finished games)",
		"Wins by seat",
		"95% Wilson interval",
		"Spaces (per game)",
		"4 Nap time",
		"Board actions applied",
		"Timing: 64 games in",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if errOut != "" {
		t.Errorf("stderr is not a terminal, yet it got %q", errOut)
	}
}

// TestSimulateJSONWhateverTheWorkers: the JSON document is the same with
// one worker and with three, but for its timing.
func TestSimulateJSONWhateverTheWorkers(t *testing.T) {
	var docs []map[string]any
	for _, w := range []int{1, 3} {
		code, out, errOut := tabula("simulate", defaultBoardFile, "--games", "100", "--players", "4", "--json", "--workers", strconv.Itoa(w))
		if code != 0 {
			t.Fatalf("exit status %d: %s", code, errOut)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		timing, ok := doc["timing"].(map[string]any)
		if !ok || timing["workers"] != float64(w) || timing["seconds"] == nil {
			t.Errorf("timing %v, want workers %d and seconds", doc["timing"], w)
		}
		delete(doc, "timing")
		docs = append(docs, doc)
	}
	a, _ := json.Marshal(docs[0])
	b, _ := json.Marshal(docs[1])
	if string(a) != string(b) {
		t.Errorf("the documents differ:\n%s\n%s", a, b)
	}
	if docs[0]["games"] != float64(100) || docs[0]["players"].([]any)[3] != "P4" {
		t.Errorf("games %v, players %v", docs[0]["games"], docs[0]["players"])
	}
}

func TestSimulateHTML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.html")
	code, out, errOut := tabula("simulate", defaultBoardFile, "--games", "40", "--html", path)
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, errOut)
	}
	if !strings.Contains(out, "Report written to "+path) {
		t.Errorf("the report does not say where the page is:\n%s", out)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(page), "<!DOCTYPE html>") || !strings.Contains(string(page), "<svg") {
		t.Errorf("not an HTML page with a drawing: %.200s", page)
	}
}

func TestSimulateErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.json", `{"spaces": [{"id": 1, "connections": [{"targetId": 3}]}]}`)
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no file", []string{"simulate"}, 2, "give one board file"},
		{"no games", []string{"simulate", defaultBoardFile, "--games", "0"}, 2, "--games must be at least 1"},
		{"no cap", []string{"simulate", defaultBoardFile, "--max-rounds", "0"}, 2, "--max-rounds must be at least 1"},
		{"empty name", []string{"simulate", defaultBoardFile, "--players", "Ann,,Bob"}, 2, "empty name"},
		{"same name", []string{"simulate", defaultBoardFile, "--players", "Ann,Ann"}, 2, `two players are called "Ann"`},
		{"too many", []string{"simulate", defaultBoardFile, "--players", "9"}, 2, "is for 2 to 8 players, not 9"},
		{"invalid board", []string{"simulate", bad}, 1, `bad.json:1:52: /spaces/0/connections/0/targetId: connection target "3" is not the id of any space`},
		{"missing", []string{"simulate", filepath.Join(dir, "nope.json")}, 2, "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := tabula(c.args...)
			if code != c.code || !strings.Contains(errOut, c.want) {
				t.Errorf("exit status %d, stderr %q; want %d and %q", code, errOut, c.code, c.want)
			}
		})
	}
}
