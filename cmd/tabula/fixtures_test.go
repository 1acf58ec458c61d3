package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixtureRoot is the folder of the original game's files: $TABULA_SHARED,
// else ../shared beside the repository; the test is skipped without it,
// or fails in CI, where it must be there.
func fixtureRoot(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TABULA_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	root := filepath.Join(dir, "fixtures", "customjack")
	if _, err := os.Stat(root); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared fixtures are missing: %v", err)
		}
		t.Skipf("skipping: the shared fixtures are not at %s (set TABULA_SHARED): %v", root, err)
	}
	return root
}

// fixtureEntries lists every file and bundle folder of the fixtures,
// relative to root: the files of each folder, and the bundle folders
// themselves (a folder holding board.json). Only NOTICE.md, which says
// where the files come from, is left out.
func fixtureEntries(t *testing.T, root string) []string {
	var out []string
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			if e.Name() != "NOTICE.md" {
				out = append(out, e.Name())
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(root, e.Name(), "board.json")); err == nil {
			out = append(out, e.Name())
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			out = append(out, e.Name()+"/"+f.Name())
		}
	}
	slices.Sort(out)
	return out
}

// TestFixtureSweep: every file and bundle of the original game either
// validates and plays to its end with bots in every seat, or is refused
// for a reason that kept the original from playing it too. A fixture not
// in the table fails the test, so that a new one is looked at.
func TestFixtureSweep(t *testing.T) {
	root := fixtureRoot(t)
	type want struct {
		// refused is what validate's first error says, for the files that
		// cannot be played; why is how the original fared with them.
		refused, why string
		// endless boards have nothing that ends them: play stops at the
		// round limit (validate warns about it).
		endless bool
	}
	table := map[string]want{
		"v1/branching-paths-board.json":      {},
		"v1/custom-engine-config-board.json": {},
		"v1/defaultBoard-actual.json":        {},
		"v1/defaultBoard.json":               {},
		"v1/simple-linear-board.json":        {},
		"v1/test-circular-board.json":        {endless: true},
		"v1/test-mini-board.json":            {endless: true},
		"v2/defaultBoard.json":               {},
		"v3/action-effect-testing.json": {refused: `SET_PLAYER_STATE needs "state"`,
			why: "the original stalls on a SET_PLAYER_STATE without a state: the action never completes, so the turn never ends"},
		// Its start and home zones and safe spaces name spaces its
		// seven-space board lacks; the original, which has no multi-piece
		// engine, plays it as a race that never ends, and so does Tabula
		// (TestOriginalMultiPieceExample).
		"v3/example-multi-piece-game.json": {endless: true},
		"v3/example-v3-game.json":          {},
		"v3/placeholder-showcase.json":     {},
		"v3/test-many-plugins.json":        {endless: true},
		"v3/trouble-classic.json":          {},
		"bundles/default-board.zip":        {},
		"bundle-default":                   {},
		"bundle-trouble":                   {},
		"samples/random_colors.json": {refused: "not a game file",
			why: "a list of colours for {{RANDOM_COLOR}}, not a board"},
		"samples/random_songs.json": {refused: "not a game file",
			why: "a list of songs for {{RANDOM_SONG}}, not a board"},
		"samples/random_words.json": {refused: "not a game file",
			why: "a list of words for {{RANDOM_WORD}}, not a board"},
	}
	seen := map[string]bool{}
	for _, f := range fixtureEntries(t, root) {
		seen[f] = true
		w, ok := table[f]
		t.Run(f, func(t *testing.T) {
			if !ok {
				t.Fatalf("a fixture the sweep does not know: add it to the table")
			}
			path := filepath.Join(root, filepath.FromSlash(f))
			code, out, errOut := tabula("validate", path)
			if w.refused != "" {
				first, _, _ := strings.Cut(out, "\n")
				if code != 1 || !strings.Contains(first, w.refused) {
					t.Fatalf("validate: exit %d, first problem %q; want it refused because %s (%s)", code, first, w.refused, w.why)
				}
				return
			}
			if code != 0 {
				t.Fatalf("validate: exit %d\n%s%s", code, out, errOut)
			}
			if w.endless != strings.Contains(out, "nothing ends this game") {
				t.Errorf("validate says %q; endless: %v", out, w.endless)
			}
			code, out, errOut = tabula("play", path, "--bots", "all", "--players", "Ann,Bob", "--max-rounds", "200", "--seed", "3")
			if code != 0 || !strings.Contains(out, "\nResult: ") {
				t.Fatalf("play: exit %d\n%s", code, errOut)
			}
			capped := strings.Contains(out, "Result: the round limit of 200 was reached")
			if capped != w.endless {
				result := out[strings.LastIndex(out, "\nResult: ")+1:]
				t.Errorf("play: %s(endless: %v)", result, w.endless)
			}
		})
	}
	for f := range table {
		if !seen[f] {
			t.Errorf("%s is in the table but not among the fixtures", f)
		}
	}
}

// A zipped bundle is a game file for every command: simulate plays it,
// and a scenario names it as its board.
func TestZippedBundleCommands(t *testing.T) {
	zipped := filepath.Join(fixtureRoot(t), "bundles", "default-board.zip")
	code, out, errOut := tabula("simulate", zipped, "--games", "20", "--players", "2", "--workers", "1")
	if code != 0 || !strings.Contains(out, "20 games of 2 players") || !strings.Contains(out, "failed                      0") {
		t.Fatalf("simulate: exit %d\n%s%s", code, out, errOut)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(zipped)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "default-board.zip"), data, 0o644))
	must(os.WriteFile(filepath.Join(dir, "zipped.scenario.yaml"), []byte(`game: party
name: "the zipped bundle plays to the end"
board: default-board.zip
players: [Ann, Bob]
seed: 7
expect:
  over: true
  reason: every player finished
`), 0o644))
	if code, out, errOut := tabula("test", dir); code != 0 || !strings.Contains(out, "zipped.scenario.yaml") {
		t.Fatalf("test: exit %d\n%s%s", code, out, errOut)
	}
}
