package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
)

// tabula runs the command line and returns its exit status and output.
func tabula(args ...string) (int, string, string) { return tabulaIn("", args...) }

// tabulaIn runs the command line with the given input.
func tabulaIn(stdin string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const goodBoard = `{"spaces": [{"id": 1, "connections": [{"targetId": 2}]},
 {"id": 2, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`

func TestValidateBoards(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.json", goodBoard)
	warn := writeFile(t, dir, "warn.json", `{"spaces": [{"id": 1, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "PROMPT", "payload": {"message": "hi"}}}]}]}`)
	bad := writeFile(t, dir, "bad.json", `{"spaces": [{"id": 1, "connections": [{"targetId": 3}]}]}`)
	broken := writeFile(t, dir, "broken.json", "{\"spaces\": [\n  {\"id\": 1,,}\n]}")
	v3 := writeFile(t, dir, "game.json", `{"type": "game", "board": {"topology": {"spaces": [{"id": "a"}]}}, "engine": {"type": "trouble"}}`)
	writeFile(t, dir, "bundle/board.json", `{"schema_version": 2, "id": "b", "paths": {"topology": "topology.json"}}`)
	writeFile(t, dir, "bundle/topology.json", `{"spaces": [{"id": "1", "connections": [{"targetId": "2"}]},
 {"id": "2", "triggers": [{"when": {"type": "ON_LADN"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`)
	bundle := filepath.Join(dir, "bundle")

	for _, c := range []struct {
		name string
		args []string
		code int
		out  []string
	}{
		{"valid", []string{"validate", good}, 0, nil},
		{"warnings only", []string{"validate", warn}, 0, []string{
			warn + `:1:86: /spaces/0/events/0/action/type: warning: "PROMPT" is read as PROMPT_CURRENT_PLAYER: write that (the original game has no PROMPT action and stalls on it)`,
			warn + `:1:12: /spaces: warning: nothing ends this game: no event sets the state COMPLETED_GAME, and there is no win condition or maxTurns; play stops only at a round limit`}},
		{"several files", []string{"validate", good, bad, broken, v3, bundle}, 1, []string{
			bad + `:1:52: /spaces/0/connections/0/targetId: connection target "3" is not the id of any space`,
			broken + `:2:12: /: invalid JSON: invalid character ',' looking for beginning of object key string`,
			v3 + `:1:87: /engine/type: the "trouble" engine is not supported yet: Tabula plays "turn-based" boards`,
			filepath.Join(bundle, "topology.json") + `:2:45: /spaces/1/triggers/0/when/type: unknown trigger "ON_LADN" (did you mean ON_LAND?); the triggers are ON_ENTER, ON_LAND, ON_EXIT, CODE`}},
		{"not a game file", []string{"validate", filepath.Join(dir, "missing.json")}, 1, []string{
			filepath.Join(dir, "missing.json") + ": /: stat " + filepath.Join(dir, "missing.json") + ": no such file or directory"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := tabula(c.args...)
			if code != c.code {
				t.Errorf("exit status %d, want %d (stderr %q)", code, c.code, errOut)
			}
			var want string
			for _, l := range c.out {
				want += l + "\n"
			}
			// Each file's lines are sorted by position.
			if sortLines(out) != sortLines(want) {
				t.Errorf("output:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

func sortLines(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slicesSort(lines)
	return strings.Join(lines, "\n")
}

func slicesSort(l []string) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j] < l[j-1]; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

func TestValidateJSON(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.json", `{"spaces": [{"id": 1, "connections": [{"targetId": 3}]}]}`)
	code, out, _ := tabula("validate", "--json", bad)
	if code != 1 {
		t.Errorf("exit status %d", code)
	}
	var list []diag.Diagnostic
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	want := diag.Diagnostic{File: bad, Line: 1, Col: 52, Pointer: "/spaces/0/connections/0/targetId", Severity: diag.Error,
		Message: `connection target "3" is not the id of any space`}
	if len(list) != 1 || list[0] != want {
		t.Errorf("got %+v", list)
	}
	good := writeFile(t, dir, "good.json", goodBoard)
	if code, out, _ := tabula("validate", "--json", good); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("valid board: %d %q", code, out)
	}
}

func TestValidateUsage(t *testing.T) {
	if code, _, errOut := tabula("validate"); code != 2 || !strings.Contains(errOut, "give at least one game file") {
		t.Errorf("no files: %d %q", code, errOut)
	}
	if code, _, _ := tabula("validate", "--nope", "x.json"); code != 2 {
		t.Errorf("bad flag: %d", code)
	}
}

// TestSchemaBoard: `tabula schema board` prints the published schema.
func TestSchemaBoard(t *testing.T) {
	code, out, _ := tabula("schema", "board")
	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "schema", "board-1.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || out != string(want) {
		t.Errorf("exit %d; output differs from docs/schema/board-1.schema.json", code)
	}
}

// TestValidateFixtures runs `tabula validate` on every fixture of the
// original game (docs/boards.md lists each result).
func TestValidateFixtures(t *testing.T) {
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
	for _, c := range []struct {
		file string
		code int
	}{
		{"v1/defaultBoard.json", 0}, {"v1/branching-paths-board.json", 0}, {"bundle-default", 0},
		{"bundle-default/board.json", 0}, {"v3/placeholder-showcase.json", 0},
		{"v3/action-effect-testing.json", 1}, {"v3/trouble-classic.json", 1},
	} {
		if code, out, errOut := tabula("validate", filepath.Join(root, c.file)); code != c.code {
			t.Errorf("%s: exit status %d, want %d\n%s%s", c.file, code, c.code, out, errOut)
		}
	}
}
