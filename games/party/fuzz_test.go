package party

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// FuzzParse: no input makes loading panic or hang, and a board comes back
// exactly when there are no errors; a board that loads plays to the end
// with bots (or stops with an error the rules name, never a panic), and a
// replay of its commands gives the same hashes. The seeds are the bundled
// boards, the original game's v1 and v3 boards (read from the shared
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
		patterns = append(patterns, filepath.Join(dir, "v[13]", "*.json"))
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
