package party

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// TestLoadV2 reads the flat boards of late 2025: integer and string ids,
// integer teleport targets on a board of string ids, flat and nested
// gameRules, and boards without gameRules or gameEngine.
func TestLoadV2(t *testing.T) {
	space := func(id, target, triggers string) string {
		return fmt.Sprintf(`{"id": %s, "name": "S", "type": "action", "position": {"x": 1, "y": 2}, "visual": {"size": 40}, "connections": [{"targetId": %s, "draw": true}], "triggers": [%s]}`, id, target, triggers)
	}
	done := `{"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}, "priority": "MID"}`
	teleport := func(to string) string {
		return `{"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_SPACE", "payload": {"spaceId": ` + to + `}}}`
	}
	for _, c := range []struct {
		name, doc string
		ids       []string
		rules     GameRules
		engine    map[string]any
		teleport  string // the teleport target of space 1, if any
	}{
		{"integer ids", `{"name": "Ints", "gameRules": {"minPlayers": 2, "maxPlayers": 8, "recommendedPlayers": {"min": 3, "max": 6}, "startingPositions": {"mode": "single", "spaceIds": [1]}},
			"spaces": [` + space("1", "2", "") + `, ` + space("2", "1", done) + `]}`,
			[]string{"1", "2"}, GameRules{MinPlayers: 2, MaxPlayers: 8, RecommendedMin: 3, RecommendedMax: 6,
				Start: StartingPositions{Mode: "single", SpaceIDs: []string{"1"}, Distribution: "round-robin"}, Dice: Dice{1, 6}}, nil, ""},
		{"string ids", `{"name": "Strings", "gameEngine": {"type": "turn-based", "config": {"turnManager": {"skipInactivePlayers": true, "maxTurns": 0}}},
			"gameRules": {"minPlayers": 1, "maxPlayers": 8, "startingPositions": {"mode": "spread", "spaceIds": ["start", "end"], "distribution": "round-robin"}},
			"spaces": [` + space(`"start"`, `"end"`, "") + `, ` + space(`"end"`, `"start"`, done) + `]}`,
			[]string{"start", "end"}, GameRules{MinPlayers: 1, MaxPlayers: 8,
				Start: StartingPositions{Mode: "spread", SpaceIDs: []string{"start", "end"}, Distribution: "round-robin"}, Dice: Dice{1, 6}},
			map[string]any{"turnManager": map[string]any{"skipInactivePlayers": true, "maxTurns": 0.0}}, ""},
		{"integer teleport on string ids", `{"version": "1.0.0", "tags": [],
			"spaces": [` + space(`"1"`, `"2"`, teleport("100")) + `, ` + space(`"2"`, `"100"`, "") + `, ` + space(`"100"`, `"1"`, done) + `]}`,
			[]string{"1", "2", "100"}, defaultRules(), nil, "100"},
		{"integer connection targets on string ids", `{"name": "Mixed",
			"spaces": [` + space(`"a1"`, "7", "") + `, ` + space(`"7"`, `"a1"`, done) + `]}`,
			[]string{"a1", "7"}, defaultRules(), nil, ""},
		{"no gameRules, no gameEngine", `{"name": "Bare", "spaces": [` + space("1", "2", "") + `, ` + space("2", "1", done) + `]}`,
			[]string{"1", "2"}, defaultRules(), nil, ""},
		{"only spaces in the v2 shape", `{"spaces": [` + space("1", "2", "") + `, ` + space("2", "1", done) + `]}`,
			[]string{"1", "2"}, defaultRules(), nil, ""},
		{"nested gameRules", `{"name": "Nested", "gameRules": {"players": {"min": 2, "max": 4}, "turns": {"maxTurns": 30}},
			"spaces": [` + space("1", "2", "") + `, ` + space("2", "1", done) + `]}`,
			[]string{"1", "2"}, GameRules{MinPlayers: 2, MaxPlayers: 4, MaxTurns: 30, Start: defaultRules().Start, Dice: Dice{1, 6}}, nil, ""},
		{"flat gameRules with turns and movement", `{"name": "Flat", "gameRules": {"minPlayers": 2, "turns": {"maxTurns": 12}, "movement": {"type": "dice", "rollRange": {"min": 1, "max": 4}}},
			"spaces": [` + space("1", "2", "") + `, ` + space("2", "1", done) + `]}`,
			[]string{"1", "2"}, GameRules{MinPlayers: 2, MaxTurns: 12, Start: defaultRules().Start, Dice: Dice{1, 4}}, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, l := Parse("b.json", []byte(c.doc))
			if b == nil || len(l) != 0 {
				t.Fatalf("%q", lines(l))
			}
			if b.Format != "v2" {
				t.Errorf("format %q, want v2", b.Format)
			}
			var ids []string
			for _, s := range b.Spaces {
				ids = append(ids, s.ID)
			}
			if !reflect.DeepEqual(ids, c.ids) {
				t.Errorf("ids %q, want %q", ids, c.ids)
			}
			if fmt.Sprint(b.Rules) != fmt.Sprint(c.rules) {
				t.Errorf("rules %+v, want %+v", b.Rules, c.rules)
			}
			if !reflect.DeepEqual(b.EngineConfig, c.engine) {
				t.Errorf("engine config %v, want %v", b.EngineConfig, c.engine)
			}
			if got := b.Spaces[0].Visual; got.X != 1 || got.Y != 2 || got.Size != 40 {
				t.Errorf("visual %+v", got)
			}
			if c.teleport != "" {
				if got := b.Spaces[0].Events[0].Action.Args; got != (TeleportArgs{SpaceID: c.teleport}) {
					t.Errorf("teleport %+v, want %s", got, c.teleport)
				}
			}
			def := compileBoard(t, b)
			gametest.PlayOut(t, def, game.Setup{Players: []string{"A", "B"}, Seed: 3, MaxRounds: 60}, 5000)
		})
	}
}

// TestDiagnosticsV2: a v2 board's mistakes are reported where they are,
// with the same help as in v1 and v3.
func TestDiagnosticsV2(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"misspelt trigger", `{"name": "x",
 "spaces": [{"id": 1, "connections": [], "triggers": [{"when": {"type": "ON_LADN"}, "action": {"type": "FORCE_STOP"}}]}]}`, []string{
			`b.json:2:73: /spaces/0/triggers/0/when/type: unknown trigger "ON_LADN" (did you mean ON_LAND?); the triggers are ON_ENTER, ON_LAND, ON_EXIT, CODE`}},
		{"dangling integer target", `{"name": "x",
 "spaces": [{"id": 1, "connections": [{"targetId": 2}], "triggers": []}]}`, []string{
			`b.json:2:52: /spaces/0/connections/0/targetId: connection target "2" is not the id of any space`}},
		{"v1 member in a v2 space", `{"name": "x",
 "spaces": [{"id": 1, "connections": [], "events": []}]}`, []string{
			`b.json:2:12: /spaces: warning: nothing ends this game: no event sets the state COMPLETED_GAME, and there is no win condition or maxTurns; play stops only at a round limit`,
			`b.json:2:52: /spaces/0/events: warning: a space has no member "events"; it is ignored: this format calls it "triggers"`}},
		{"misspelt top-level member", `{"name": "x", "gameRulez": {},
 "spaces": [{"id": 1, "connections": [], "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`, []string{
			`b.json:1:28: /gameRulez: warning: a v2 board has no member "gameRulez"; it is ignored (did you mean gameRules?)`}},
		{"flat player counts", `{"name": "x", "gameRules": {"minPlayers": 5, "maxPlayers": 2},
 "spaces": [{"id": 1, "connections": [], "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`, []string{
			`b.json:1:43: /gameRules/minPlayers: at least 5 players but at most 2: no game can start`}},
		{"another engine", `{"name": "x", "gameEngine": {"type": "trouble"}, "spaces": [{"id": 1, "connections": [], "triggers": []}]}`, []string{
			`b.json:1:38: /gameEngine/type: the "trouble" engine is not supported yet: Tabula plays "turn-based" boards`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, l := Parse("b.json", []byte(c.doc))
			if got := lines(l); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

// TestFormatByStructure tells v1 and v2 apart by what the file holds, not
// as the original does (which reads every board without "type": "game"
// as v2, dropping a v1 board's events).
func TestFormatByStructure(t *testing.T) {
	for _, c := range []struct {
		doc, format string
		events      int
	}{
		{`{"metadata": {"name": "x"}, "spaces": [{"id": 1, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}}]}]}`, "v1", 1},
		{`{"spaces": [{"id": 1, "visualDetails": {"x": 1}, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}}]}]}`, "v1", 1},
		{`{"spaces": [{"id": 1}]}`, "v1", 0},
		{`{"gameRules": {"players": {"min": 1}}, "spaces": [{"id": 1}]}`, "v1", 0},
		{`{"spaces": [{"id": 1, "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}}]}]}`, "v2", 1},
		{`{"name": "x", "spaces": [{"id": 1}]}`, "v2", 0},
		{`{"gameRules": {"minPlayers": 1}, "spaces": [{"id": 1}]}`, "v2", 0},
		{`{"type": "game", "board": {"topology": {"spaces": [{"id": "1"}]}}}`, "v3", 0},
	} {
		b, l := Parse("b.json", []byte(c.doc))
		if b == nil {
			t.Errorf("%s: %q", c.doc, lines(l))
			continue
		}
		if b.Format != c.format || len(b.Spaces[0].Events) != c.events {
			t.Errorf("%s: read as %s with %d events; want %s with %d", c.doc, b.Format, len(b.Spaces[0].Events), c.format, c.events)
		}
		// The published schema tells the formats apart the same way: it
		// checks each file against its own format's definition.
		pt := (&parser{}).newPart("b.json", []byte(c.doc))
		pt.decode()
		rep := diag.NewReporter(pt.file, pt.data)
		compiledSchemas()[""].Check(rep, pt.root)
		if len(rep.List) != 0 {
			t.Errorf("%s: the schema says %q", c.doc, lines(rep.List))
		}
	}
	// The original's own v1 board keeps its events.
	root := sharedDir(t)
	b, l := Load(filepath.Join(root, "v1", "defaultBoard.json"))
	if b == nil || b.Format != "v1" {
		t.Fatalf("v1/defaultBoard.json: %v %q", b, lines(l))
	}
	events := 0
	for _, s := range b.Spaces {
		events += len(s.Events)
	}
	if events != 14 {
		t.Errorf("v1/defaultBoard.json read with %d events, want 14", events)
	}
}

// TestFixtureV2 loads the original's v2 board, which is the v1 default
// board rewritten, and plays it.
func TestFixtureV2(t *testing.T) {
	root := sharedDir(t)
	v2, l := Load(filepath.Join(root, "v2", "defaultBoard.json"))
	if v2 == nil {
		t.Fatalf("%q", lines(l))
	}
	v1, _ := Load(filepath.Join(root, "v1", "defaultBoard.json"))
	if v2.Format != "v2" || len(v2.Spaces) != 11 || fmt.Sprint(v2.Rules) != fmt.Sprint(v1.Rules) {
		t.Errorf("v2 board: format %s, %d spaces, rules %+v; want v2, 11, %+v", v2.Format, len(v2.Spaces), v2.Rules, v1.Rules)
	}
	for i := range v1.Spaces {
		for j := range v1.Spaces[i].Events {
			a, b := v1.Spaces[i].Events[j], v2.Spaces[i].Events[j]
			if a.Trigger != b.Trigger || !reflect.DeepEqual(a.Action, b.Action) || a.Priority != b.Priority {
				t.Errorf("space %d event %d: v1 %+v, v2 %+v", i, j, a, b)
			}
		}
	}
	def := compileFile(t, filepath.Join(root, "v2", "defaultBoard.json"))
	gametest.PlayOut(t, def, game.Setup{Players: []string{"A", "B", "C"}, Seed: 1, MaxRounds: 80}, 20000)
}
