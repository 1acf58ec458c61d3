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

// TestReadmeCommandsNameFilesThatExist: the README's example commands
// name game files of the repository (those they write, after -o, --html
// or --log, aside), so that a newcomer can run them as they are.
func TestReadmeCommandsNameFilesThatExist(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(string(readme), "\n") {
		if !strings.HasPrefix(line, "go run ./cmd/tabula ") {
			continue
		}
		words := strings.Fields(strings.SplitN(line, "#", 2)[0])
		for i, w := range words {
			if !strings.HasSuffix(w, ".json") && !strings.HasSuffix(w, ".yaml") {
				continue
			}
			if prev := words[i-1]; prev == "-o" || prev == "--html" || prev == "--log" {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join("..", "..", w)); err != nil {
				t.Errorf("the README's %q names %s, which is not in the repository", line, w)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked %d files: the README's examples were not found", checked)
	}
}

// TestValidateEndsWithOneLine: validate sums every file up in one line,
// so that a newcomer sees that it ran and what it found.
func TestValidateEndsWithOneLine(t *testing.T) {
	dir := t.TempDir()
	warned := filepath.Join(dir, "warned.json")
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(warned, []byte(`{"spaces":[{"id":1}]}`), 0o644)
	os.WriteFile(broken, []byte(`{"spaces":[{"id":1,"connections":[{"targetId":9}]}]}`), 0o644)
	for _, c := range []struct{ file, last string }{
		{filepath.Join("..", "..", "examples", "party", "default.json"), "default.json: a party board, 11 spaces, no problems"},
		{filepath.Join("..", "..", "examples", "rulebook", "monopoly.json"), "monopoly.json: a rulebook game, 40 tiles, no problems"},
		{warned, "warned.json: a party board, 1 space, valid with 1 warning"},
		{broken, "broken.json: not valid: "},
	} {
		_, out, _ := tabula("validate", c.file)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, c.last) {
			t.Errorf("validate %s ends with %q, want %q", c.file, last, c.last)
		}
	}
}

// TestOriginalMultiPieceExample: the original game's own multi-piece
// example (whose start and home zones name spaces its board does not have)
// loads as the original loaded it, with warnings naming what is ignored,
// and plays turn by turn, one token each.
func TestOriginalMultiPieceExample(t *testing.T) {
	file := filepath.Join(fixtureRoot(t), "v3", "example-multi-piece-game.json")
	code, out, errOut := tabula("validate", file)
	if code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{`the "multi-piece" engine is not supported for this file`, "turn by turn with one token each",
		`starting mode "multiple"`, `"all-pieces-home" is ignored`, "a party board, 7 spaces, valid with"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate does not say %q:\n%s", want, out)
		}
	}
	code, out, errOut = tabula("play", file, "--players", "Ann,Bob", "--bots", "all", "--seed", "2", "--max-rounds", "4")
	if code != 0 {
		t.Fatalf("play: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"Turn 1: Ann's turn", "Turn 2: Bob's turn", "Ann rolls", "Bob rolls"} {
		if !strings.Contains(out, want) {
			t.Errorf("the game does not go turn by turn (%q):\n%.2000s", want, out)
		}
	}
}
