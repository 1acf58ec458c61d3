package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every pack is validated, played (by bots, and by a person typing at
// the terminal), tested and simulated through the same commands.
var bundled = []struct {
	pack, file string
	players    string
	want       string // a line of the bots' game
	typed      string // a command in the game's own words, played first
}{
	{"party", "examples/party/default.json", "Ann,Bob", "Ann rolls", "roll"},
	{"rulebook", "examples/rulebook/chutes-and-ladders.json", "Ann,Bob", "Ann rolls", "1"},
	{"lanes", "examples/lanes/drone-lanes.json", "Ann,Bob", "deploys", "pass"},
	{"skirmish", "examples/skirmish/duel.encounter.json", "Ann,Bob", "Goblin hits Fighter", "end"},
}

func TestEveryPackThroughTheSameCommands(t *testing.T) {
	for _, c := range bundled {
		t.Run(c.pack, func(t *testing.T) {
			file := filepath.Join("..", "..", c.file)
			if code, out, errOut := tabula("validate", file); code != 0 {
				t.Fatalf("validate: exit %d\n%s%s", code, out, errOut)
			}
			args := []string{"play", file, "--players", c.players, "--bots", "all", "--seed", "5"}
			code, out, errOut := tabula(args...)
			if code != 0 {
				t.Fatalf("play: exit %d: %s", code, errOut)
			}
			for _, want := range []string{c.want, "Result:", "state hash: "} {
				if !strings.Contains(out, want) {
					t.Errorf("play lacks %q:\n%.3000s", want, out)
				}
			}
			if _, again, _ := tabula(args...); again != out {
				t.Error("the same seed played another game")
			}
			// A person who types the game's own words, then quits.
			code, out, errOut = tabulaIn(c.typed+"\nq\n", "play", file, "--players", c.players, "--bots", strings.Split(c.players, ",")[1])
			if code != 0 || !strings.Contains(out, "your move") {
				t.Errorf("play at the terminal: exit %d\n%s\n%s", code, out, errOut)
			}
			code, out, errOut = tabula("simulate", file, "--games", "20", "--players", c.players, "--max-rounds", "30")
			if code != 0 || !strings.Contains(out, "Wins") {
				t.Errorf("simulate: exit %d\n%s\n%s", code, out, errOut)
			}
		})
	}
}

func TestScenariosOfEveryPackPass(t *testing.T) {
	code, out, errOut := tabula("test", "../../examples/")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, p := range []string{"party", "rulebook", "lanes", "skirmish", "pieces"} {
		if !strings.Contains(out, "examples/"+p+"/") {
			t.Errorf("no scenario of %s ran", p)
		}
	}
}

func TestSchemasOfEveryPack(t *testing.T) {
	for _, name := range []string{"board", "rulebook", "lanes", "skirmish", "pieces"} {
		code, out, _ := tabula("schema", name)
		if code != 0 || !strings.Contains(out, `"$schema"`) {
			t.Errorf("schema %s: exit %d", name, code)
		}
	}
	if code, _, errOut := tabula("schema", "nope"); code != 2 || !strings.Contains(errOut, "board, lanes, pieces, rulebook, skirmish") {
		t.Errorf("an unknown schema: %d %s", code, errOut)
	}
}

// A combatant file validates on its own, though it is not a game.
func TestValidateAnyFileOfAPack(t *testing.T) {
	if code, out, errOut := tabula("validate", "../../examples/skirmish/goblin.json"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut := tabula("play", "../../examples/skirmish/goblin.json", "--bots", "all")
	if code != 1 || !strings.Contains(errOut, "combatant") {
		t.Errorf("playing a combatant file: exit %d %s", code, errOut)
	}
}

// TestValidateFixtures runs `tabula validate` on fixtures of the original
// game (docs/boards.md lists each result).
func TestValidateFixtures(t *testing.T) {
	root := fixtureRoot(t)
	for _, c := range []struct {
		file string
		code int
	}{
		{"v1/defaultBoard.json", 0}, {"v1/branching-paths-board.json", 0}, {"bundle-default", 0},
		{"bundle-default/board.json", 0}, {"v3/placeholder-showcase.json", 0},
		{"v3/action-effect-testing.json", 1}, {"v3/trouble-classic.json", 0}, {"bundle-trouble", 0},
	} {
		if code, out, errOut := tabula("validate", filepath.Join(root, c.file)); code != c.code {
			t.Errorf("%s: exit status %d, want %d\n%s%s", c.file, code, c.code, out, errOut)
		}
	}
}
