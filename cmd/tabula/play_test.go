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
