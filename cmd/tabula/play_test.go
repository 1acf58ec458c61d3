package main

import (
	"strings"
	"testing"
)

const nimFile = "../../game/gametest/testdata/twenty-one.json" // played with the test packs

func TestPlayNimWithBots(t *testing.T) {
	code, out, errOut := tabula("play", nimFile, "--players", "Ann,Bob", "--bots", "all", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Twenty-one — 21 counters; Ann, Bob", "Ann takes", "took the last counter", "state hash: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A person at the terminal picks commands by number; a bad number is
// asked again; a command out of the rules is refused with the reason.
func TestPlayNimAtTheTerminal(t *testing.T) {
	input := strings.Repeat("9\n{\"take\":7}\n1\n", 30)
	code, out, errOut := tabulaIn(input, "play", nimFile, "--players", "Ann,Bot", "--bots", "Bot")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{"Ann, your move:", "1) Take 1", "Type a number from 1 to 3.", "take 1 to 3 counters, not 7", "Result:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPlayRefusesTheWrongNumberOfPlayers(t *testing.T) {
	code, _, errOut := tabula("play", nimFile, "--players", "Ann,Bob,Cy,Di,Ed", "--bots", "all")
	if code != 2 || !strings.Contains(errOut, "is for 2 to 4 players, not 5") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// Bots are chosen by level wherever they appear; an unknown level is a
// usage error with a suggestion.
func TestBotLevels(t *testing.T) {
	code, out, errOut := tabula("play", "../../examples/rulebook/chutes-and-ladders.json", "--players", "Ann,Bob", "--bots", "Ann=mcts,Bob=random", "--max-rounds", "3")
	if code != 0 || !strings.Contains(out, "Result:") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if code, _, errOut := tabula("play", nimFile, "--bots", "all=mtcs"); code != 2 || !strings.Contains(errOut, "did you mean mcts") {
		t.Errorf("an unknown level: %d %s", code, errOut)
	}
	code, out, errOut = tabula("simulate", "../../examples/rulebook/chutes-and-ladders.json", "--games", "10", "--bots", "greedy,random")
	if code != 0 || !strings.Contains(out, "Wins") {
		t.Errorf("simulate with levels: %d %s%s", code, out, errOut)
	}
	if code, _, errOut := tabula("simulate", nimFile, "--games", "10", "--players", "3", "--bots", "greedy,random"); code != 2 || !strings.Contains(errOut, "one level for every player") {
		t.Errorf("simulate with a level too few: %d %s", code, errOut)
	}
}

// --bots naming nobody at the table is refused, with the player it may
// have meant; it was once silently ignored, leaving a seat to a person who
// was not there.
func TestPlayRefusesBotsNamingNobody(t *testing.T) {
	code, _, errOut := tabula("play", nimFile, "--players", "Ann,Bob", "--bots", "Bobb")
	if code != 2 || !strings.Contains(errOut, `nobody at the table is called "Bobb" (did you mean Bob?); the players are Ann, Bob`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, out, errOut := tabula("play", nimFile, "--players", "Ann,Bob", "--bots", "Ann, Bob", "--seed", "3"); code != 0 || !strings.Contains(out, "Result:") {
		t.Errorf("--bots with spaces: exit %d: %s%s", code, out, errOut)
	}
}

// At the end the terminal ranks the players with the figures the game
// counts, as the page's end screen does.
func TestPlayPrintsTheStandings(t *testing.T) {
	code, out, errOut := tabula("play", "../../examples/rulebook/monopoly.json", "--players", "Ann,Bob,Cid", "--bots", "all", "--seed", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Result: Ann won.\n", "       player  money  tiles owned  on\n", "  1st  Ann     27     10           West Station\n",
		"  2nd  Bob     -44    0            Super Tax          out\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out[max(0, len(out)-600):])
		}
	}
}

// Each choice is asked once: a game's board says where everybody stands
// and whom the match waits for, and the terminal lists what the seat may
// play; states are said in words.
func TestPlayAsksEachChoiceOnce(t *testing.T) {
	for _, c := range []struct {
		file, players, bots string
		asked               []string // lines that must appear once per question
		never               []string
	}{
		{"../../examples/party/default.json", "Ann,Bob", "Bob", []string{"1) Go to Shortcut"}, []string{"which way", "PLAYING", "COMPLETED_GAME", "(1)", "press Enter"}},
		{"../../examples/rulebook/monopoly.json", "Ann,Bob", "Bob", []string{"1) Buy Euston Walk for 100"}, []string{"(chance)", "press Enter"}},
		{"../../examples/pieces/trouble.json", "Ann,Bob", "Bob", []string{"1) Roll the die"}, []string{"chooses a piece", "p0-home", "@t"}},
		{"../../examples/skirmish/walk-away.encounter.json", "heroes,goblins", "goblins", []string{"7) Move 5 ft north, next to Goblin"}, []string{"(2,2)", "let it go (no)?"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			_, out, _ := tabulaIn(strings.Repeat("1\n", 12), "play", c.file, "--players", c.players, "--bots", c.bots, "--seed", "1")
			questions := strings.Count(out, "your move:")
			if questions == 0 {
				t.Fatalf("nothing asked:\n%s", out)
			}
			for _, line := range c.asked {
				if n := strings.Count(out, line); n == 0 || n > questions {
					t.Errorf("%q appears %d times for %d questions:\n%s", line, n, questions, out)
				}
			}
			for _, s := range c.never {
				if strings.Contains(out, s) {
					t.Errorf("the terminal shows %q:\n%s", s, out)
				}
			}
		})
	}
}
