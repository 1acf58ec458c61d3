package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// simulated are the games whose reports are golden files: one of each
// pack, small enough to read.
var simulated = []struct {
	name, file, players, games string
}{
	{"party", "examples/party/default.json", "2", "300"},
	{"rulebook", "examples/rulebook/monopoly.json", "2", "40"},
	{"pieces", "examples/pieces/trouble.json", "2", "100"},
	{"lanes", "examples/lanes/drone-lanes.json", "2", "40"},
	{"skirmish", "examples/skirmish/duel.encounter.json", "2", "100"},
}

// timing matches what varies from run to run in a report: its timing line
// (text), member (JSON) and footer sentence (HTML).
var timing = regexp.MustCompile(`(?m)^Timing: .*\n|,\n *"timing": \{[^}]*\}|\n\d+ games in [0-9.]+ s with \d+ workers?\.`)

// goldenFile compares got with testdata/simulate/name, or rewrites it with
// -update.
func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "simulate", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the tests with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from what tabula simulate writes now (run the tests with -update to see how)", path)
	}
}

// simulateAll runs tabula simulate with the arguments and returns its text,
// its JSON and its HTML page, their timings taken out.
func simulateAll(t *testing.T, args ...string) (text, js, page string) {
	t.Helper()
	html := filepath.Join(t.TempDir(), "report.html")
	code, text, errOut := tabula(append(append([]string{"simulate"}, args...), "--html", html)...)
	if code != 0 {
		t.Fatalf("simulate %v: exit %d\n%s", args, code, errOut)
	}
	code, js, errOut = tabula(append(append([]string{"simulate"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("simulate %v --json: exit %d\n%s", args, code, errOut)
	}
	b, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	text = strings.Replace(text, html, "report.html", 1)
	return timing.ReplaceAllString(text, ""), timing.ReplaceAllString(js, ""), timing.ReplaceAllString(string(b), "")
}

// TestSimulateReportsOfEveryPack: the text, JSON and HTML reports of one
// game of each pack, where things happen included (a heat map of the board
// where the game has one), are golden files; the same with one worker as
// with two.
func TestSimulateReportsOfEveryPack(t *testing.T) {
	for _, s := range simulated {
		t.Run(s.name, func(t *testing.T) {
			file := filepath.Join("..", "..", s.file)
			args := []string{file, "--games", s.games, "--players", s.players, "--seed", "3"}
			text, js, page := simulateAll(t, append(args, "--workers", "2")...)
			if !strings.Contains(text, "Where things happen") || !strings.Contains(js, `"places": [`) {
				t.Errorf("the report does not say where things happen:\n%s", text)
			}
			for _, bad := range []string{"://", "src=", "href=", "url(", "@import"} {
				if strings.Contains(strings.ToLower(page), bad) {
					t.Errorf("the page refers to something elsewhere (%q)", bad)
				}
			}
			goldenFile(t, s.name+".txt", text)
			goldenFile(t, s.name+".json", js)
			goldenFile(t, s.name+".html", page)
			_, one, _ := simulateAll(t, append(args, "--workers", "1")...)
			if one != js {
				t.Error("one worker reports other figures than two")
			}
		})
	}
}

// TestSimulateTwoVersions: two versions of a board (the bundled default
// board, and the same without its shortcut) played with the same seeds,
// each figure of both with the difference and whether it is beyond the
// noise, in text, JSON and HTML.
func TestSimulateTwoVersions(t *testing.T) {
	before := filepath.Join("..", "..", "examples", "party", "default.json")
	after := filepath.Join("testdata", "simulate", "default-no-shortcut.json")
	text, js, page := simulateAll(t, before, after, "--games", "300", "--seed", "3", "--workers", "2")
	for _, want := range []string{"rounds (mean)", "SET_PLAYER_SPACE", "*"} {
		if !strings.Contains(text, want) {
			t.Errorf("the comparison lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(page, "landings</b>, before") || !strings.Contains(page, "landings</b>, after") {
		t.Error("the page does not draw both boards")
	}
	goldenFile(t, "compare.txt", text)
	goldenFile(t, "compare.json", js)
	goldenFile(t, "compare.html", page)
}
