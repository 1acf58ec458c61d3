package party

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
)

var update = flag.Bool("update", false, "rewrite the golden files of the fixture tests")

// sharedDir returns the folder of the original game's fixtures: $TABULA_SHARED,
// else ../shared beside the repository. Without it the test is skipped, or
// fails in CI, where it must be there.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("TABULA_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "fixtures", "customjack")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared fixtures are missing (%v); CI must provide them through TABULA_SHARED", err)
		}
		t.Skipf("skipping: the shared fixtures are not at %s (set TABULA_SHARED): %v", dir, err)
	}
	return filepath.Join(dir, "fixtures", "customjack")
}

// fixtureFiles lists every board fixture: each v1, v2 and v3 file, the
// zipped bundle and the bundle folder, relative to the fixtures folder.
func fixtureFiles(t *testing.T, root string) []string {
	var files []string
	for _, pattern := range []string{"v1/*.json", "v2/*.json", "v3/*.json", "bundles/*.zip"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			files = append(files, filepath.ToSlash(rel))
		}
	}
	return append(files, "bundle-default")
}

// fixtureResult summarises a validation as the fixture table of
// docs/boards.md writes it.
func fixtureResult(l diag.List) string {
	e, w := len(l.Errors()), len(l.Warnings())
	plural := func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	}
	switch {
	case e > 0 && w > 0:
		return "invalid: " + plural(e, "error") + ", " + plural(w, "warning")
	case e > 0:
		return "invalid: " + plural(e, "error")
	case w > 0:
		return "valid: " + plural(w, "warning")
	}
	return "valid"
}

// TestFixtures validates every board of the original game and compares the
// exact output with testdata/fixtures.golden, and each file's result with
// the fixture table of docs/boards.md.
func TestFixtures(t *testing.T) {
	root := sharedDir(t)
	var out strings.Builder
	results := map[string]string{}
	for _, f := range fixtureFiles(t, root) {
		_, l := Load(filepath.Join(root, filepath.FromSlash(f)))
		results[f] = fixtureResult(l)
		fmt.Fprintf(&out, "# %s: %s\n", f, results[f])
		for _, d := range l {
			rel, err := filepath.Rel(root, d.File)
			if err == nil {
				d.File = filepath.ToSlash(rel)
			}
			out.WriteString(d.String() + "\n")
		}
	}
	golden := filepath.Join("testdata", "fixtures.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("validation output differs from %s (run go test -update to accept):\n%s", golden, out.String())
	}

	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "boards.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| ([^|]+?) \\|")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = m[2]
	}
	for f, got := range results {
		if documented[f] != got {
			t.Errorf("docs/boards.md says %s is %q; it is %q", f, documented[f], got)
		}
	}
}

// TestFixturesLoad checks what the fixtures load into.
func TestFixturesLoad(t *testing.T) {
	root := sharedDir(t)
	for _, c := range []struct {
		file           string
		spaces, events int
		rules          GameRules
	}{
		{"v1/defaultBoard.json", 11, 14, GameRules{MinPlayers: 2, MaxPlayers: 8, RecommendedMin: 3, RecommendedMax: 6,
			Start: StartingPositions{Mode: "single", SpaceIDs: []string{"1"}, Distribution: "round-robin"}, Dice: Dice{1, 6}}},
		{"v1/defaultBoard-actual.json", 46, 52, defaultRules()},
		{"v1/custom-engine-config-board.json", 7, 8, GameRules{MaxTurns: 15, Start: defaultRules().Start, Dice: Dice{1, 6}}},
		{"v1/test-circular-board.json", 6, 4, GameRules{MinPlayers: 2, MaxPlayers: 12, RecommendedMin: 4, RecommendedMax: 8,
			Start: StartingPositions{Mode: "spread", SpaceIDs: []string{"start", "space2", "space4"}, Distribution: "round-robin"}, Dice: Dice{1, 6}}},
		{"v3/example-v3-game.json", 11, 9, GameRules{MinPlayers: 2, MaxPlayers: 8,
			Start: StartingPositions{Mode: "single", SpaceIDs: []string{"1"}, Distribution: "round-robin"}, Dice: Dice{1, 6},
			Win: []WinCondition{{Type: "reach-end", SpaceIDs: []string{"11"}}}}},
		{"v3/placeholder-showcase.json", 9, 10, GameRules{MinPlayers: 2, MaxPlayers: 8,
			Start: StartingPositions{Mode: "single", SpaceIDs: []string{"1"}, Distribution: "round-robin"}, Dice: Dice{1, 6}}},
		{"bundle-default", 11, 14, GameRules{MinPlayers: 1, RecommendedMin: 3, RecommendedMax: 6,
			Start: StartingPositions{Mode: "single", SpaceIDs: []string{"1"}, Distribution: "round-robin"}, Dice: Dice{1, 6}}},
	} {
		b, l := Load(filepath.Join(root, c.file))
		if b == nil {
			t.Errorf("%s: %q", c.file, lines(l))
			continue
		}
		events := 0
		for _, s := range b.Spaces {
			events += len(s.Events)
		}
		if len(b.Spaces) != c.spaces || events != c.events {
			t.Errorf("%s: %d spaces, %d events; want %d, %d", c.file, len(b.Spaces), events, c.spaces, c.events)
		}
		if fmt.Sprint(b.Rules) != fmt.Sprint(c.rules) {
			t.Errorf("%s: rules %+v, want %+v", c.file, b.Rules, c.rules)
		}
	}
	// The skip of the default board and the effect of the config form.
	b, _ := Load(filepath.Join(root, "v1/defaultBoard.json"))
	if got := b.Spaces[3].Events[1].Action.Args; got != (EffectArgs{PlayerEffect{"SkipTurnEffect", SkipTurns, "SkipTurnEffect_1", 1}}) {
		t.Errorf("defaultBoard space 4: %+v", got)
	}
	b, _ = Load(filepath.Join(root, "v3/example-v3-game.json"))
	if got := b.Spaces[5].Events[1].Action.Args; got != (EffectArgs{PlayerEffect{"SkipTurnEffect", SkipTurns, "risky_skip", 1}}) {
		t.Errorf("example-v3-game space 6: %+v", got)
	}
	// The bundle's teleport names space 10 by an integer.
	b, _ = Load(filepath.Join(root, "bundle-default"))
	if got := b.Spaces[4].Events[1].Action.Args; got != (TeleportArgs{SpaceID: "10"}) {
		t.Errorf("bundle space 5: %+v", got)
	}
}

// BenchmarkLoad measures loading (decoding, schema, checks) of the largest
// playable fixture.
func BenchmarkLoad(b *testing.B) {
	path := filepath.Join(sharedDir(b), "v1", "defaultBoard-actual.json")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if board, _ := Parse(path, data); board == nil {
			b.Fatal("invalid")
		}
	}
}

// TestPublishedSchema: the published schema, as an editor uses it (the
// whole document, which picks v1, v2 or v3 itself), accepts the original's
// boards that need no warning, and rejects a board the loader rejects.
func TestPublishedSchema(t *testing.T) {
	schemaDiagnostics := func(pt *part, def string) diag.List {
		rep := diag.NewReporter(pt.file, pt.data)
		compiledSchemas()[def].Check(rep, pt.root)
		return rep.List
	}
	root := sharedDir(t)
	for _, f := range []string{"v1/defaultBoard.json", "v1/defaultBoard-actual.json", "v2/defaultBoard.json", "v3/placeholder-showcase.json"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		pt := (&parser{}).newPart(f, data)
		if _, ok := pt.decode(); !ok {
			t.Fatalf("%s: not JSON", f)
		}
		if l := schemaDiagnostics(pt, ""); len(l) != 0 {
			t.Errorf("%s: %q", f, lines(l))
		}
	}
	pt := (&parser{}).newPart("b.json", []byte(`{"spaces": [{"id": 1, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {}}}]}]}`))
	pt.decode()
	want := []string{`b.json:1:117: /spaces/0/events/0/action/payload/state: "state" is required here`}
	if got := lines(schemaDiagnostics(pt, "")); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
