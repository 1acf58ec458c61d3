package party

import (
	"archive/zip"
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// FuzzParse: no input makes loading panic or hang, and a board comes back
// exactly when there are no errors; a board that loads plays to the end
// with bots (or stops with an error the rules name, never a panic), and a
// replay of its commands gives the same hashes. The seeds are the bundled
// boards, the original game's v1, v2 and v3 boards (read from the shared
// fixtures when they are there) and a few small boards of our own.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"spaces": [{"id": 1, "connections": [{"targetId": 1}], "events": [{"trigger": {"type": "CODE", "payload": "turnNumber === 1"}, "action": {"type": "PROMPT", "payload": {"message": "{{RANDOM_COLOR({{RANDOM_WORD}})}}"}}}]}]}`))
	f.Add([]byte(`{"type": "game", "rules": {"winCondition": {"type": "reach-end", "config": {"endSpaceIds": ["a"]}}}, "board": {"topology": {"spaces": [{"id": "a", "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "APPLY_EFFECT", "payload": {"effect": {"type": "SkipTurnEffect", "config": {"id": "x", "duration": 1}}}}}]}]}}}`))
	f.Add([]byte(`{"spaces": [{"id": "a\u00e9", "events": [{"trigger": {"type": "on land"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "\ud83c\udf89 {{RANDOM_NUMBER(1,}}"}}}]}]}`))
	f.Add([]byte(`{"spaces": [{"id": 1, "connections": [{"targetId": 2}], "events": [{"trigger": {"type": "ON_ENTER"}, "action": {"type": "CHANGE_STAT", "payload": {"statId": "x", "delta": 1}}}]},
		{"id": 2, "connections": [{"targetId": 1}, {"targetId": 3}], "events": [{"trigger": {"type": "CODE", "payload": "player.getStat('x') > 2"}, "action": {"type": "SWAP_PLACES"}}]},
		{"id": 3, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`))
	patterns := []string{"../../examples/party/*.json"}
	if dir := fixtures(f); dir != "" {
		patterns = append(patterns, filepath.Join(dir, "v[123]", "*.json"))
	}
	for _, pattern := range patterns {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, list := Parse("f.json", data)
		if (b == nil) != list.HasErrors() {
			t.Fatalf("board %v, errors %v", b != nil, list.HasErrors())
		}
		if b == nil {
			return
		}
		for _, s := range b.Spaces {
			for _, e := range s.Events {
				if p, ok := e.Action.Args.(PromptArgs); ok {
					ExpandMessage(p.Message, "Ann", stream(1))
				}
			}
		}
		def, err := testPack.Compile(b)
		if err != nil {
			return // a board the game cannot be played on, said so
		}
		info := def.Info()
		n := max(info.MinPlayers, min(3, info.MaxPlayers))
		players := make([]string, n)
		for i := range players {
			players[i] = fmt.Sprintf("P%d", i+1)
		}
		gametest.PlayOut(t, def, game.Setup{Players: players, Seed: 1, MaxRounds: 10, AutoAck: true}, 5000)
	})
}

// fixtures is the folder of the original game's fixtures, or "" when they
// are not there (then the fuzz test does without them, unless in CI).
func fixtures(f *testing.F) string {
	dir := os.Getenv("TABULA_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	dir = filepath.Join(dir, "fixtures", "customjack")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			f.Fatalf("the shared fixtures are missing (%v); CI must provide them through TABULA_SHARED", err)
		}
		f.Logf("the shared fixtures are not at %s (set TABULA_SHARED): fuzzing without them", dir)
		return ""
	}
	return dir
}

// FuzzZippedBundle: no archive makes reading a zipped bundle panic, and a
// board comes back exactly when there are no errors. The seeds are the
// original's zipped bundle and the bundle folder zipped here.
func FuzzZippedBundle(f *testing.F) {
	if dir := fixtures(f); dir != "" {
		if data, err := os.ReadFile(filepath.Join(dir, "bundles", "default-board.zip")); err == nil {
			f.Add(data)
		}
	}
	f.Add(zipOfFiles(f, map[string]string{
		"board.json":    `{"schema_version": 2, "id": "x", "paths": {"topology": "t.json", "rules": "r.json"}}`,
		"t.json":        `{"spaces": [{"id": "1", "connections": [{"targetId": "1"}]}]}`,
		"r.json":        `{"minPlayers": 1}`,
		"preview.png":   "\x89PNG\r\n\x1a\n",
		"ignored/x.txt": "",
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := game.FromBytes("f.zip", data, game.Limits{File: 1 << 20, Total: 4 << 20})
		if err != nil || !src.IsDir() {
			return
		}
		b, list := readSource(src)
		if (b == nil) != list.HasErrors() {
			t.Fatalf("board %v, errors %v", b != nil, list.HasErrors())
		}
	})
}

// zipOfFiles archives files, deflated, in name order.
func zipOfFiles(tb testing.TB, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write([]byte(files[name]))
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
