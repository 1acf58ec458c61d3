package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `tabula convert` writes a party board as v3 or as a zipped bundle, which
// validate and play; what cannot be converted is a usage error.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	board := "../../examples/party/grand-tour.json"
	v3 := filepath.Join(dir, "grand-tour.v3.json")
	bundle := filepath.Join(dir, "grand-tour.zip")
	for _, c := range []struct{ to, out string }{{"v3", v3}, {"bundle", bundle}} {
		if code, out, errOut := tabula("convert", board, "--to", c.to, "-o", c.out); code != 0 {
			t.Fatalf("convert --to %s: exit %d\n%s%s", c.to, code, out, errOut)
		}
		if code, out, errOut := tabula("validate", c.out); code != 0 {
			t.Fatalf("the converted %s: exit %d\n%s%s", c.to, code, out, errOut)
		}
		if code, out, errOut := tabula("play", c.out, "--bots", "all", "--players", "Ann,Bob", "--max-rounds", "30"); code != 0 {
			t.Fatalf("playing the converted %s: exit %d\n%s%s", c.to, code, out, errOut)
		}
	}
	// Without -o, v3 goes to the standard output.
	code, out, _ := tabula("convert", board, "--to", "v3")
	written, _ := os.ReadFile(v3)
	if code != 0 || out != string(written) {
		t.Errorf("convert to the standard output: exit %d, %d bytes (the file has %d)", code, len(out), len(written))
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"convert", board}, 2, "--to"},
		{[]string{"convert", board, "--to", "v1"}, 2, `party boards convert to v3 or bundle, not "v1"`},
		{[]string{"convert", "../../examples/lanes/drone-lanes.json", "--to", "v3"}, 2, "lanes games have no other format"},
		{[]string{"convert", "no-such-file.json", "--to", "v3"}, 2, "no-such-file.json"},
		{[]string{"convert", "../../examples/skirmish/goblin.json", "--to", "v3"}, 1, "combatant"},
	} {
		code, _, errOut := tabula(c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d %s; want %d saying %q", c.args, code, errOut, c.code, c.want)
		}
	}
}
