package main

import (
	"os"
	"strings"
	"testing"
)

// --compat original plays a party board as the original game did, in
// every command that plays one; a game without that mode refuses it.
func TestCompatOriginal(t *testing.T) {
	const dir = "../../games/party/testdata/compat/"
	// A fixed-rules scenario fails as the original; the original's passes
	// either way, since it names its mode.
	if code, out, _ := tabula("test", "--compat", "original", dir+"exit-refires.scenario.yaml"); code != 1 || !strings.Contains(out, "+ 2 ON_EXIT PROMPT_CURRENT_PLAYER") {
		t.Errorf("test --compat original of a fixed-rules scenario: exit %d\n%s", code, out)
	}
	if code, out, _ := tabula("test", "--compat", "original", dir+"exit-refires.original.scenario.yaml", dir+"waiting.original.scenario.yaml"); code != 0 {
		t.Errorf("test --compat original: exit %d\n%s", code, out)
	}
	// One player on a board for two or more: the original lets them play.
	code, out, errOut := tabula("play", "../../examples/party/default.json", "--players", "Solo", "--bots", "all", "--compat", "original", "--max-rounds", "3")
	if code != 0 || !strings.Contains(out, "Result:") || !strings.Contains(out, "(original rules)") {
		t.Errorf("play --compat original: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := tabula("play", "../../examples/party/default.json", "--players", "Solo", "--bots", "all"); code != 2 || !strings.Contains(errOut, "for 2 to 8 players, not 1") {
		t.Errorf("play with the fixed rules: exit %d: %s", code, errOut)
	}
	code, out, errOut = tabula("simulate", "../../examples/party/default.json", "--games", "20", "--players", "1", "--compat", "original")
	if code != 0 || !strings.Contains(out, "Wins") {
		t.Errorf("simulate --compat original: exit %d\n%s%s", code, out, errOut)
	}
	lanes := t.TempDir() + "/a.scenario.yaml"
	if err := os.WriteFile(lanes, []byte("game: lanes\ncompat: original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"test", lanes}, "lanes games have no compatibility modes"},
		{[]string{"play", "../../examples/party/default.json", "--compat", "newest"}, `compat "newest"`},
		{[]string{"simulate", nimFile, "--compat", "original"}, "has no compatibility modes"},
		{[]string{"test", "--compat", "original", "../../examples/rulebook"}, "rulebook games have no compatibility modes"},
	} {
		code, out, errOut := tabula(c.args...)
		if code == 0 || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: exit %d, want an error saying %q\n%s%s", c.args, code, c.want, out, errOut)
		}
	}
}
