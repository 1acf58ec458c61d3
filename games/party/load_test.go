package party

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/docs/schema"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
)

// lines formats diagnostics one per line, as `tabula validate` prints them.
func lines(l diag.List) []string {
	var out []string
	for _, d := range l {
		out = append(out, d.String())
	}
	return out
}

func TestLoadV1Model(t *testing.T) {
	b, list := Parse("board.json", []byte(`{
  "metadata": {
    "name": "Pub Crawl", "author": "Ann", "version": "2.0.0", "tags": ["party"],
    "gameEngine": {"type": "turn-based", "config": {"turnManager": {"maxTurns": 12}}},
    "renderConfig": {"arrowSize": 12},
    "gameRules": {
      "players": {"min": 2, "max": 6, "recommended": {"min": 3, "max": 5},
        "startingPositions": {"mode": "spread", "spaceIds": [1, "2"], "distribution": "sequential"}},
      "movement": {"rollRange": {"min": 1, "max": 8}}
    }
  },
  "spaces": [
    {"id": 1, "name": "Start", "type": "start", "visualDetails": {"x": 10, "y": 20, "size": 60, "color": "#fff"},
     "connections": [{"targetId": 2}, {"targetId": "3", "drawConnection": false}]},
    {"id": "2", "name": "Bar", "events": [
      {"trigger": {"type": "ON_ENTER"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "{{CURRENT_PLAYER_NAME}} drinks"}}, "priority": {"name": "HIGH", "value": 4}},
      {"trigger": {"type": "ON_LAND"}, "action": {"type": "DISPLACE_PLAYER", "payload": {"steps": -2}}, "state": "INACTIVE"},
      {"trigger": {"type": "ON_LAND"}, "action": {"type": "APPLY_EFFECT", "payload": {"effect": {"type": "SkipTurnEffect", "args": [{"id": "skip"}, {"duration": 2}]}}}, "priority": "LOW"}
    ], "connections": [{"targetId": 3}]},
    {"id": 3, "name": "End", "events": [
      {"trigger": {"type": "CODE", "payload": "player.getStat('drinks') < 5"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}},
      {"trigger": {"type": "ON_EXIT"}, "action": {"type": "SET_PLAYER_SPACE", "payload": {"spaceId": 1}}},
      {"trigger": {"type": "ON_LAND"}, "action": {"type": "SWAP_PLACES"}},
      {"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP", "payload": {}}},
      {"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_STAT", "payload": {"statId": "drinks", "value": 0}}},
      {"trigger": {"type": "ON_LAND"}, "action": {"type": "CHANGE_STAT", "payload": {"statId": "drinks", "delta": 1.5, "mode": "display"}}}
    ]}
  ]
}`))
	if len(list) != 0 || b == nil {
		t.Fatalf("diagnostics: %q", lines(list))
	}
	if b.Format != "v1" || b.Name != "Pub Crawl" || b.Author != "Ann" || b.Version != "2.0.0" || b.EngineType != "turn-based" || b.SpacesFile != "board.json" {
		t.Errorf("board header: %+v", b)
	}
	if b.Render["arrowSize"] != 12.0 {
		t.Errorf("render: %v", b.Render)
	}
	wantRules := GameRules{MinPlayers: 2, MaxPlayers: 6, RecommendedMin: 3, RecommendedMax: 5,
		Start:    StartingPositions{Mode: "spread", SpaceIDs: []string{"1", "2"}, Distribution: "sequential"},
		MaxTurns: 12, Dice: Dice{Count: 1, Sides: 8}}
	if !reflect.DeepEqual(b.Rules, wantRules) {
		t.Errorf("rules = %+v, want %+v", b.Rules, wantRules)
	}
	if len(b.Spaces) != 3 || b.Spaces[0].ID != "1" || b.Spaces[2].ID != "3" || b.Spaces[1].Pointer != "/spaces/1" {
		t.Fatalf("spaces: %+v", b.Spaces)
	}
	if got := b.Spaces[0].Connections; !reflect.DeepEqual(got, []Connection{{Target: "2", Draw: true}, {Target: "3"}}) {
		t.Errorf("connections = %+v", got)
	}
	if v := b.Spaces[0].Visual; v.X != 10 || v.Y != 20 || v.Size != 60 || v.Color != "#fff" {
		t.Errorf("visual = %+v", v)
	}
	ev := b.Spaces[1].Events
	if ev[0].Trigger != OnEnter || ev[0].Priority != engine.High || ev[0].Action.Args != (PromptArgs{Message: "{{CURRENT_PLAYER_NAME}} drinks"}) {
		t.Errorf("event 0 = %+v", ev[0])
	}
	if !ev[1].Inactive || ev[1].Priority != engine.Mid || ev[1].Action.Args != (DisplaceArgs{Steps: -2}) || ev[1].Pointer != "/spaces/1/events/1" {
		t.Errorf("event 1 = %+v", ev[1])
	}
	want := EffectArgs{Effect: PlayerEffect{Type: "SkipTurnEffect", Kind: SkipTurns, ID: "skip", Turns: 2}}
	if ev[2].Priority != engine.Low || ev[2].Action.Args != want {
		t.Errorf("event 2 = %+v", ev[2])
	}
	end := b.Spaces[2].Events
	if end[0].Trigger != Code || end[0].Condition == nil || end[0].Code != "player.getStat('drinks') < 5" {
		t.Errorf("CODE event = %+v", end[0])
	}
	for i, want := range []any{
		StateArgs{State: CompletedGame}, TeleportArgs{SpaceID: "1"}, SwapArgs{}, ForceStopArgs{},
		SetStatArgs{Stat: "drinks", Value: 0, Mode: "both"}, ChangeStatArgs{Stat: "drinks", Delta: 1.5, Mode: "display"},
	} {
		if end[i].Action.Args != want {
			t.Errorf("end event %d args = %#v, want %#v", i, end[i].Action.Args, want)
		}
	}
}

func TestLoadV3Model(t *testing.T) {
	b, list := Parse("game.json", []byte(`{
  "type": "game", "version": "3.0.0",
  "metadata": {"name": "Race", "tags": ["a", "b"]},
  "requirements": {"plugins": [{"id": "core", "version": "^1.0.0", "source": "builtin"}], "minPlayers": 2, "maxPlayers": 4},
  "engine": {"type": "turn-based", "config": {"turnManager": {"maxTurns": 30}}},
  "rules": {"startingPositions": {"mode": "random", "spaceIds": ["a"]}, "recommendedPlayers": {"min": 2, "max": 3},
    "diceRolling": {"enabled": true, "diceCount": 2, "diceSides": 4}, "winCondition": {"type": "reach-end", "config": {"endSpaceIds": ["b"]}}},
  "board": {
    "topology": {"spaces": [
      {"id": "a", "name": "A", "type": "start", "position": {"x": 1, "y": 2}, "visual": {"size": 50, "color": "#000"},
       "connections": [{"targetId": "b", "draw": false}],
       "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "PROMPT_CURRENT_PLAYER", "payload": {"message": "hi"}}, "priority": "CRITICAL"}]},
      {"id": "b", "name": "B", "connections": [], "triggers": []}
    ]},
    "rendering": {"backgroundColor": "#fafafa"}
  }
}`))
	if len(list) != 0 || b == nil {
		t.Fatalf("diagnostics: %q", lines(list))
	}
	wantRules := GameRules{MinPlayers: 2, MaxPlayers: 4, RecommendedMin: 2, RecommendedMax: 3,
		Start: StartingPositions{Mode: "random", SpaceIDs: []string{"a"}, Distribution: "round-robin"}, MaxTurns: 30,
		Dice: Dice{Count: 2, Sides: 4}, Win: []WinCondition{{Type: "reach-end", SpaceIDs: []string{"b"}}}}
	if !reflect.DeepEqual(b.Rules, wantRules) {
		t.Errorf("rules = %+v, want %+v", b.Rules, wantRules)
	}
	if b.Format != "v3" || b.Name != "Race" || len(b.Tags) != 2 || b.Render["backgroundColor"] != "#fafafa" {
		t.Errorf("board header: %+v", b)
	}
	a := b.Spaces[0]
	if a.Visual.X != 1 || a.Visual.Y != 2 || a.Visual.Size != 50 || a.Connections[0] != (Connection{Target: "b"}) {
		t.Errorf("space a = %+v", a)
	}
	if e := a.Events[0]; e.Trigger != OnLand || e.Priority != engine.Critical || e.Pointer != "/board/topology/spaces/0/triggers/0" {
		t.Errorf("event = %+v", e)
	}
}

func TestLoadDefaults(t *testing.T) {
	// Missing connections, events and priorities default as in the
	// original; integer ids are strings.
	b, list := Parse("b.json", []byte(`{"spaces": [{"id": 7, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`))
	if b == nil || len(list) != 0 {
		t.Fatalf("diagnostics: %q", lines(list))
	}
	if b.Spaces[0].ID != "7" || b.Spaces[0].Connections != nil || b.Spaces[0].Events[0].Priority != engine.Mid {
		t.Errorf("space = %+v", b.Spaces[0])
	}
	if b.Rules.Dice != (Dice{1, 6}) || b.Rules.Start.Mode != "single" || b.Rules.MaxTurns != 0 {
		t.Errorf("rules = %+v", b.Rules)
	}
}

// TestLoadAliases: the action names of the original's example boards load
// as the actions they meant.
func TestLoadAliases(t *testing.T) {
	b, list := Parse("b.json", []byte(`{"spaces": [{"id": "s", "events": [
  {"trigger": {"type": "ON_LAND"}, "action": {"type": "PROMPT", "payload": {"message": "hi"}}},
  {"trigger": {"type": "ON_LAND"}, "action": {"type": "MODIFY_STAT", "payload": {"statName": "drinks", "delta": 3}}},
  {"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_STATE", "payload": {"state": "COMPLETED_GAME"}}}
]}]}`))
	if b == nil {
		t.Fatalf("diagnostics: %q", lines(list))
	}
	want := []Action{
		{Type: PromptCurrentPlayer, Args: PromptArgs{Message: "hi"}},
		{Type: ChangeStat, Args: ChangeStatArgs{Stat: "drinks", Delta: 3, Mode: "both"}},
		{Type: SetPlayerState, Args: StateArgs{State: CompletedGame}},
	}
	for i, w := range want {
		if got := b.Spaces[0].Events[i].Action; got != w {
			t.Errorf("action %d = %+v, want %+v", i, got, w)
		}
	}
	wantDiags := []string{
		`b.json:2:55: /spaces/0/events/0/action/type: warning: "PROMPT" is read as PROMPT_CURRENT_PLAYER: write that (the original game has no PROMPT action and stalls on it)`,
		`b.json:3:55: /spaces/0/events/1/action/type: warning: "MODIFY_STAT" is read as CHANGE_STAT: write that (the original game has no MODIFY_STAT action and stalls on it)`,
		`b.json:4:55: /spaces/0/events/2/action/type: warning: "SET_STATE" is read as SET_PLAYER_STATE: write that (the original game has no SET_STATE action and stalls on it)`,
	}
	if got := lines(list); !reflect.DeepEqual(got, wantDiags) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantDiags, "\n"))
	}
}

func TestLoadEffectArgs(t *testing.T) {
	for _, c := range []struct {
		effect string
		want   PlayerEffect
	}{
		{`{"type": "SkipTurnsEffect", "args": ["skip_test_1", 2, false, null, 0]}`, PlayerEffect{"SkipTurnsEffect", SkipTurns, "skip_test_1", 2}},
		{`{"type": "SkipTurnsEffect", "args": [{"id": "s"}, {"duration": 1}]}`, PlayerEffect{"SkipTurnsEffect", SkipTurns, "s", 1}},
		{`{"type": "SkipTurnEffect", "args": ["skip_single", 1, false, null]}`, PlayerEffect{"SkipTurnEffect", SkipTurns, "skip_single", 1}},
		{`{"type": "RepeatTurnsEffect", "args": ["r", 1, false, null, 0]}`, PlayerEffect{"RepeatTurnsEffect", RepeatTurns, "r", 1}},
		{`{"type": "DoubleTurnEffect", "args": ["d", 1, false, null, false]}`, PlayerEffect{"DoubleTurnEffect", DoubleTurn, "d", 1}},
		{`{"type": "ChangeDirectionEffect", "args": ["c", 3, false, null, false]}`, PlayerEffect{"ChangeDirectionEffect", ChangeDirection, "c", 3}},
		{`{"type": "SkipTurnEffect", "args": [null, 1]}`, PlayerEffect{"SkipTurnEffect", SkipTurns, "", 1}},
	} {
		doc := `{"spaces": [{"id": 1, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "APPLY_EFFECT", "payload": {"effect": ` + c.effect + `}}}]}]}`
		b, list := Parse("b.json", []byte(doc))
		if b == nil {
			t.Errorf("%s: %q", c.effect, lines(list))
			continue
		}
		if got := b.Spaces[0].Events[0].Action.Args.(EffectArgs).Effect; got != c.want {
			t.Errorf("%s: %+v, want %+v", c.effect, got, c.want)
		}
		if len(list.Errors()) != 0 {
			t.Errorf("%s: unexpected errors %q", c.effect, lines(list))
		}
	}
}

// TestDiagnostics checks the exact message, pointer and position of each
// validation problem.
func TestDiagnostics(t *testing.T) {
	// Each board is one space whose events are given; wrap places them.
	wrap := func(events string) string {
		return `{"spaces": [{"id": "a", "connections": [{"targetId": "a"}, {"targetId": "end"}], "events": [
` + events + `
]}, {"id": "end", "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`
	}
	ev := func(trigger, action string) string {
		return `{"trigger": ` + trigger + `, "action": ` + action + `}`
	}
	land := `{"type": "ON_LAND"}`
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"not JSON", "{\n  \"spaces\": [,]\n}", []string{
			"b.json:2:14: /: invalid JSON: invalid character ',' looking for beginning of value"}},
		{"truncated", `{"spaces": [`, []string{
			"b.json:1:13: /: invalid JSON: unexpected end of the file"}},
		{"trailing data", `{"spaces": []} x`, []string{
			"b.json:1:16: /: invalid JSON: more data after the end of the document"}},
		{"not an object", `[1]`, []string{
			"b.json:1:1: /: a board must be a JSON object, not an array"}},
		{"unknown shape", `{"board": 1}`, []string{
			"b.json:1:1: /: not a party board: a v1 or v2 board has \"spaces\", a v3 board has \"type\": \"game\" and \"board\": {\"topology\": …}"}},
		{"no spaces", `{"spaces": []}`, []string{
			"b.json:1:12: /spaces: a board needs at least one space"}},
		{"unknown trigger", wrap(ev(`{"type": "ON_LADN"}`, `{"type": "FORCE_STOP"}`)), []string{
			"b.json:2:22: /spaces/0/events/0/trigger/type: unknown trigger \"ON_LADN\" (did you mean ON_LAND?); the triggers are ON_ENTER, ON_LAND, ON_EXIT, CODE"}},
		{"normalised names", wrap(`{"trigger": {"type": "on enter"}, "action": {"type": "force stop"}, "priority": "very low"}`), []string{
			"b.json:2:22: /spaces/0/events/0/trigger/type: warning: trigger \"on enter\" is read as ON_ENTER; write ON_ENTER",
			"b.json:2:54: /spaces/0/events/0/action/type: warning: action \"force stop\" is read as FORCE_STOP; write FORCE_STOP",
			"b.json:2:81: /spaces/0/events/0/priority: warning: priority \"very low\" is read as VERY_LOW; write VERY_LOW"}},
		{"hyphen is not a space", wrap(ev(`{"type": "on-land"}`, `{"type": "FORCE_STOP"}`)), []string{
			"b.json:2:22: /spaces/0/events/0/trigger/type: unknown trigger \"on-land\" (did you mean ON_LAND?); the triggers are ON_ENTER, ON_LAND, ON_EXIT, CODE"}},
		{"unknown action", wrap(ev(land, `{"type": "TELEPORT", "payload": {"spaceId": "a"}}`)), []string{
			"b.json:2:53: /spaces/0/events/0/action/type: unknown action \"TELEPORT\"; the actions are PROMPT_ALL_PLAYERS, PROMPT_CURRENT_PLAYER, SET_PLAYER_STATE, DISPLACE_PLAYER, APPLY_EFFECT, SET_PLAYER_SPACE, FORCE_STOP, SWAP_PLACES, SET_STAT, CHANGE_STAT"}},
		{"custom action", wrap(ev(land, `{"type": "CUSTOM", "payload": {}}`)), []string{
			"b.json:2:53: /spaces/0/events/0/action/type: CUSTOM actions only write to the log and never finish, which stalls the game; use one of PROMPT_ALL_PLAYERS, PROMPT_CURRENT_PLAYER, SET_PLAYER_STATE, DISPLACE_PLAYER, APPLY_EFFECT, SET_PLAYER_SPACE, FORCE_STOP, SWAP_PLACES, SET_STAT, CHANGE_STAT"}},
		{"no payload", wrap(ev(land, `{"type": "DISPLACE_PLAYER"}`)), []string{
			"b.json:2:44: /spaces/0/events/0/action/payload: DISPLACE_PLAYER needs a payload with \"steps\": a whole number, negative to go back"}},
		{"missing state", wrap(ev(land, `{"type": "SET_PLAYER_STATE", "payload": {"active": false}}`)), []string{
			"b.json:2:84: /spaces/0/events/0/action/payload/state: SET_PLAYER_STATE needs \"state\": one of SPECTATING, PLAYING, COMPLETED_GAME, DISCONNECTED, SKIPPING_TURN, WAITING, ELIMINATED",
			"b.json:2:95: /spaces/0/events/0/action/payload/active: warning: the payload of SET_PLAYER_STATE has no member \"active\"; it is ignored"}},
		{"state case", wrap(ev(land, `{"type": "SET_PLAYER_STATE", "payload": {"state": "Completed_Game"}}`)), []string{
			"b.json:2:94: /spaces/0/events/0/action/payload/state: state \"Completed_Game\" is not a player state (did you mean COMPLETED_GAME?); the states are SPECTATING, PLAYING, COMPLETED_GAME, DISCONNECTED, SKIPPING_TURN, WAITING, ELIMINATED"}},
		{"ACTIVE is no state", wrap(ev(land, `{"type": "SET_PLAYER_STATE", "payload": {"state": "ACTIVE"}}`)), []string{
			"b.json:2:94: /spaces/0/events/0/action/payload/state: state \"ACTIVE\" is not a player state; the states are SPECTATING, PLAYING, COMPLETED_GAME, DISCONNECTED, SKIPPING_TURN, WAITING, ELIMINATED"}},
		{"steps mistyped", wrap(ev(land, `{"type": "DISPLACE_PLAYER", "payload": {"steps": "-2"}}`)), []string{
			"b.json:2:93: /spaces/0/events/0/action/payload/steps: steps must be a whole number (negative to go back), not \"-2\""}},
		{"zero steps", wrap(ev(land, `{"type": "DISPLACE_PLAYER", "payload": {"steps": 0}}`)), []string{
			"b.json:2:93: /spaces/0/events/0/action/payload/steps: warning: DISPLACE_PLAYER with 0 steps moves nobody"}},
		{"empty message", wrap(ev(land, `{"type": "PROMPT_ALL_PLAYERS", "payload": {"message": " "}}`)), []string{
			"b.json:2:98: /spaces/0/events/0/action/payload/message: a prompt's message must be a non-empty string, not \" \""}},
		{"message typo", wrap(ev(land, `{"type": "PROMPT_ALL_PLAYERS", "payload": {"mesage": "x"}}`)), []string{
			"b.json:2:86: /spaces/0/events/0/action/payload/message: PROMPT_ALL_PLAYERS needs \"message\": the text to show (placeholders such as {{RANDOM_WORD}} allowed) (is \"mesage\" a misspelling of \"message\"?)",
			"b.json:2:97: /spaces/0/events/0/action/payload/mesage: warning: the payload of PROMPT_ALL_PLAYERS has no member \"mesage\"; it is ignored (did you mean message?)"}},
		{"dangling teleport", wrap(ev(land, `{"type": "SET_PLAYER_SPACE", "payload": {"spaceId": "edn"}}`)), []string{
			"b.json:2:96: /spaces/0/events/0/action/payload/spaceId: teleport target \"edn\" is not the id of any space (did you mean end?)"}},
		{"stat mode", wrap(ev(land, `{"type": "SET_STAT", "payload": {"statId": "drinks", "value": 1, "mode": "all"}}`)), []string{
			"b.json:2:117: /spaces/0/events/0/action/payload/mode: mode must be one of both, true, display, not \"all\""}},
		{"swap target", wrap(ev(land, `{"type": "SWAP_PLACES", "payload": {"targetPlayerId": true}}`)), []string{
			"b.json:2:98: /spaces/0/events/0/action/payload/targetPlayerId: targetPlayerId must be a player's name or seat number, not true or false"}},
		{"unknown effect", wrap(ev(land, `{"type": "APPLY_EFFECT", "payload": {"effect": {"type": "SkipTurnEffects", "args": [1]}}}`)), []string{
			"b.json:2:100: /spaces/0/events/0/action/payload/effect/type: unknown effect \"SkipTurnEffects\" (did you mean SkipTurnEffect?); the effects are SkipTurnsEffect, SkipTurnEffect, RepeatTurnsEffect, DoubleTurnEffect, ChangeDirectionEffect"}},
		{"effect turns missing", wrap(ev(land, `{"type": "APPLY_EFFECT", "payload": {"effect": {"type": "SkipTurnsEffect", "args": ["x"]}}}`)), []string{
			"b.json:2:127: /spaces/0/events/0/action/payload/effect/args: SkipTurnsEffect needs argument 2 (turnsToSkip): how many turns, such as [\"skip\", 1]"}},
		{"effect too many args", wrap(ev(land, `{"type": "APPLY_EFFECT", "payload": {"effect": {"type": "SkipTurnEffect", "args": ["x", 1, false, null, 0]}}}`)), []string{
			"b.json:2:148: /spaces/0/events/0/action/payload/effect/args/4: SkipTurnEffect takes at most 4 arguments (id, duration, toRemove, playerIdToSkip), not 5"}},
		{"effect args misordered", wrap(ev(land, `{"type": "APPLY_EFFECT", "payload": {"effect": {"type": "SkipTurnsEffect", "args": [{"duration": 1}, {"id": "x"}]}}}`)), []string{
			"b.json:2:141: /spaces/0/events/0/action/payload/effect/args/0/duration: warning: argument 1 is named \"duration\", but arguments are read by position: argument 1 of SkipTurnsEffect is id",
			"b.json:2:152: /spaces/0/events/0/action/payload/effect/args/1/id: warning: argument 2 is named \"id\", but arguments are read by position: argument 2 of SkipTurnsEffect is turnsToSkip",
			"b.json:2:152: /spaces/0/events/0/action/payload/effect/args/1/id: argument 2 of SkipTurnsEffect (turnsToSkip) must be a whole number of turns, not \"x\""}},
		{"effect config form", wrap(ev(land, `{"type": "APPLY_EFFECT", "payload": {"effect": {"type": "SkipTurnEffect", "config": {"id": "r", "duration": 1}}}}`)), []string{
			"b.json:2:128: /spaces/0/events/0/action/payload/effect/config: warning: the original game ignores an effect's \"config\" (the effect does nothing there); it is read here as \"args\": [\"r\", 1]: write that instead"}},
		{"effect oddities", wrap(ev(land, `{"type": "APPLY_EFFECT", "payload": {"effect": {"type": "SkipTurnsEffect", "args": ["x", 0, true, "p1", 1]}}}`)), []string{
			"b.json:2:133: /spaces/0/events/0/action/payload/effect/args/1: warning: SkipTurnsEffect for 0 turns does nothing",
			"b.json:2:136: /spaces/0/events/0/action/payload/effect/args/2: warning: toRemove true removes the effect before it acts; leave it false",
			"b.json:2:142: /spaces/0/events/0/action/payload/effect/args/3: warning: argument 4 of SkipTurnsEffect (playerIdToSkip) is ignored: the effect is always on the player who lands",
			"b.json:2:148: /spaces/0/events/0/action/payload/effect/args/4: warning: argument 5 of SkipTurnsEffect (turnsSkipped) is ignored: the effect starts afresh"}},
		{"priority", wrap(`{"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}, "priority": "URGENT"},
{"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}, "priority": {"value": 3}},
{"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}, "priority": 3}`), []string{
			"b.json:2:80: /spaces/0/events/0/priority: unknown priority \"URGENT\"; the priorities are VERY_LOW, LOW, MID, HIGH, VERY_HIGH, CRITICAL",
			"b.json:3:80: /spaces/0/events/1/priority/name: a priority object needs a name: VERY_LOW, LOW, MID, HIGH, VERY_HIGH, CRITICAL",
			"b.json:4:80: /spaces/0/events/2/priority: a priority must be a name (VERY_LOW, LOW, MID, HIGH, VERY_HIGH, CRITICAL), not a whole number"}},
		{"event state", wrap(`{"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}, "state": "COMPLETED_ACTION"},
{"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}, "state": "inactive"}`), []string{
			"b.json:2:77: /spaces/0/events/0/state: state \"COMPLETED_ACTION\" is not READY or INACTIVE: an event starts READY, or INACTIVE to switch it off",
			"b.json:3:77: /spaces/0/events/1/state: state \"inactive\" is not READY or INACTIVE (did you mean INACTIVE?)"}},
		{"event shape", wrap(`{"action": {"type": "FORCE_STOP"}, "when": {"type": "ON_LAND"}}, 7, {"trigger": {"type": "ON_LAND"}}`), []string{
			"b.json:2:1: /spaces/0/events/0/trigger: an event needs \"trigger\": {\"type\": \"ON_LAND\"} (or ON_ENTER, ON_EXIT, CODE)",
			"b.json:2:44: /spaces/0/events/0/when: warning: an event has no member \"when\"; it is ignored: this format calls it \"trigger\"",
			"b.json:2:66: /spaces/0/events/1: an event must be an object with \"trigger\" and \"action\", not a whole number",
			"b.json:2:69: /spaces/0/events/2/action: an event needs an action, such as {\"type\": \"PROMPT_CURRENT_PLAYER\", \"payload\": {\"message\": \"Drink!\"}}"}},
		{"CODE", wrap(ev(`{"type": "CODE", "payload": "player.getStat('drinks') === 5 && foo(1)"}`, `{"type": "FORCE_STOP"}`) + ",\n" +
			ev(`{"type": "CODE"}`, `{"type": "FORCE_STOP"}`) + ",\n" +
			ev(`{"type": "CODE", "payload": "player.nickname == \"\u00e9\" && x"}`, `{"type": "FORCE_STOP"}`)), []string{
			"b.json:2:67: /spaces/0/events/0/trigger/payload: warning: CODE condition: === is JavaScript; conditions are CEL, where it is == (accepted)",
			"b.json:2:79: /spaces/0/events/0/trigger/payload: CODE condition: undeclared reference to 'foo'",
			"b.json:3:13: /spaces/0/events/1/trigger/payload: a CODE trigger needs a payload: a condition such as \"player.getStat('drinks') < 5\"",
			"b.json:4:75: /spaces/0/events/2/trigger/payload: CODE condition: undeclared reference to 'x'"}},
		{"placeholders", wrap(ev(land, `{"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "\u00e9 {{random_word(1)}} {{RANDOM_NUMBER(1)}} {{RANDOM_NUMBER(x, 2)}} {{RANDOM_NUMBER(6,1)}} {{NAME}} {{RANDOM_COLOR(a, b)}} {{RANDOM_NUMBER(1,2}} {{"}}`)), []string{
			"b.json:2:106: /spaces/0/events/0/action/payload/message: placeholder RANDOM_WORD takes no arguments, but has 1",
			"b.json:2:125: /spaces/0/events/0/action/payload/message: placeholder RANDOM_NUMBER takes 2 arguments (min, max), but has 1",
			"b.json:2:146: /spaces/0/events/0/action/payload/message: placeholder RANDOM_NUMBER needs whole numbers, but has \"x\"",
			"b.json:2:170: /spaces/0/events/0/action/payload/message: warning: RANDOM_NUMBER(6, 1) has min above max; it is read as RANDOM_NUMBER(1, 6)",
			"b.json:2:193: /spaces/0/events/0/action/payload/message: warning: unknown placeholder {{NAME}} is shown as written (did you mean CURRENT_PLAYER_NAME?); the placeholders are CURRENT_PLAYER_NAME, RANDOM_NUMBER, RANDOM_WORD, RANDOM_COLOR, RANDOM_SONG",
			"b.json:2:225: /spaces/0/events/0/action/payload/message: placeholder {{RANDOM_NUMBER(1,2}} opens \"(\" but does not end with \")\"",
			"b.json:2:247: /spaces/0/events/0/action/payload/message: warning: \"{{\" is never closed by \"}}\": it is shown as written"}},
		{"nested placeholders", wrap(ev(land, `{"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "{{RANDOM_COLOR({{RANDOM_WORD}})}} {{RANDOM_NUMBER({{RANDOM_NUMBER(1,3)}}, {{WORD}})}}"}}`)), []string{
			"b.json:2:173: /spaces/0/events/0/action/payload/message: warning: unknown placeholder {{WORD}} is shown as written (did you mean RANDOM_WORD?); the placeholders are CURRENT_PLAYER_NAME, RANDOM_NUMBER, RANDOM_WORD, RANDOM_COLOR, RANDOM_SONG"}},
		{"connections", `{"spaces": [{"id": 1, "connections": [{"targetId": 2, "bidirectional": true}, {"targetId": 9}, {"to": 1}, "2", {"targetId": 1, "condition": "x"}]},
{"id": 2, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`, []string{
			"b.json:1:72: /spaces/0/connections/0/bidirectional: warning: connections are one-way: bidirectional is ignored; add a connection back from \"2\"",
			"b.json:1:92: /spaces/0/connections/1/targetId: connection target \"9\" is not the id of any space",
			"b.json:1:96: /spaces/0/connections/2/targetId: a connection needs a targetId: the id of the space it leads to",
			"b.json:1:103: /spaces/0/connections/2/to: warning: a connection has no member \"to\"; it is ignored",
			"b.json:1:107: /spaces/0/connections/3: a connection must be an object such as {\"targetId\": \"2\"}, not a string",
			"b.json:1:141: /spaces/0/connections/4/condition: warning: connection conditions are never evaluated: every connection can always be taken"}},
		{"ids", `{"spaces": [{"id": 1}, {"id": "1"}, {"id": 1.5}, {"id": ""}, {"name": "x"}, {"id": true}]}`, []string{
			"b.json:1:31: /spaces/1/id: duplicate space id \"1\": /spaces/0 has it too; every space needs its own id",
			"b.json:1:44: /spaces/2/id: a space id must be a string or a whole number, not a number",
			"b.json:1:57: /spaces/3/id: a space id cannot be empty",
			"b.json:1:62: /spaces/4/id: a space needs an id (a string or a whole number)",
			"b.json:1:84: /spaces/5/id: a space id must be a string or a whole number, not true or false"}},
		{"schema types", `{"metadata": {"name": 1, "tags": "a", "renderConfig": [], "gameEngine": {"config": {"turnManager": {"maxTurns": -1}}}},
"spaces": [{"id": "a", "name": 2, "visualDetails": {"x": "1"}, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`, []string{
			"b.json:1:23: /metadata/name: must be a string, not a whole number",
			"b.json:1:34: /metadata/tags: must be an array, not a string",
			"b.json:1:55: /metadata/renderConfig: must be an object, not an array",
			"b.json:1:113: /metadata/gameEngine/config/turnManager/maxTurns: maxTurns must be a whole number of rounds (0: no limit), not -1",
			"b.json:2:32: /spaces/0/name: must be a string, not a whole number",
			"b.json:2:58: /spaces/0/visualDetails/x: must be a number, not a string"}},
		{"rules", `{"metadata": {"gameRules": {"players": {"min": 3, "max": 2, "recommended": {"min": 5, "max": 4},
  "startingPositions": {"mode": "spred", "spaceIds": ["strat"], "distribution": "zigzag"}},
  "movement": {"type": "cards", "rollRange": {"min": 2, "max": 8}}, "victory": {"conditions": [{"type": "LAST_STANDING"}, {"type": "REACH_SPACE", "spaceId": "start"}]}}},
 "gameRules": {}, "spaces": [{"id": "start"}]}`, []string{
			"b.json:1:48: /metadata/gameRules/players/min: at least 3 players but at most 2: no game can start",
			"b.json:1:84: /metadata/gameRules/players/recommended/min: warning: recommended from 5 to 4 players: min is above max",
			"b.json:2:33: /metadata/gameRules/players/startingPositions/mode: unknown starting mode \"spred\" (did you mean spread?); the modes are single, spread, random, custom",
			"b.json:2:55: /metadata/gameRules/players/startingPositions/spaceIds/0: starting space \"strat\" is not the id of any space (did you mean start?)",
			"b.json:2:81: /metadata/gameRules/players/startingPositions/distribution: unknown distribution \"zigzag\"; the distributions are round-robin, sequential",
			"b.json:3:24: /metadata/gameRules/movement/type: warning: movement type \"cards\" is not supported: players move by rolling dice",
			"b.json:3:54: /metadata/gameRules/movement/rollRange/min: warning: a roll starts at 1: the range is read as 1 to its max",
			"b.json:3:96: /metadata/gameRules/victory/conditions/0: warning: victory condition \"LAST_STANDING\" is not played: only REACH_SPACE is; end the game with SET_PLAYER_STATE COMPLETED_GAME",
			"b.json:4:15: /gameRules: warning: ignored: metadata.gameRules takes precedence over a top-level gameRules"}},
		{"never ends", `{"spaces": [{"id": 1, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}, "state": "INACTIVE"}]}]}`, []string{
			"b.json:1:12: /spaces: warning: nothing ends this game: no event sets the state COMPLETED_GAME, and there is no win condition or maxTurns; play stops only at a round limit"}},
		{"other engine", `{"metadata": {"gameEngine": {"type": "trouble"}}, "spaces": [{"id": 1, "nonsense": true}]}`, []string{
			"b.json:1:38: /metadata/gameEngine/type: the \"trouble\" engine is not supported yet: Tabula plays \"turn-based\" boards"}},
	} {
		t.Run(c.name, func(t *testing.T) { checkParse(t, c.doc, c.want) })
	}
}

// checkParse parses a board and checks its diagnostics, all of them, and
// that it loads exactly when there are no errors.
func checkParse(t *testing.T, doc string, want []string) {
	t.Helper()
	b, list := Parse("b.json", []byte(doc))
	if got := lines(list); !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if (b == nil) != list.HasErrors() {
		t.Errorf("board %v with errors %v", b != nil, list.HasErrors())
	}
}

func TestDiagnosticsV3(t *testing.T) {
	game := func(rules, spaces string) string {
		return `{"type": "game",
"rules": ` + rules + `,
"board": {"topology": {"spaces": ` + spaces + `}}}`
	}
	one := `[{"id": "a", "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]`
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"win conditions", game(`{"winCondition": {"type": "reach-end", "config": {"endSpaceIds": ["b"]}}}`, one), []string{
			"b.json:2:76: /rules/winCondition/config/endSpaceIds/0: winning space \"b\" is not the id of any space"}},
		{"win type", game(`{"winCondition": {"type": "reach-ned"}}`, one), []string{
			"b.json:2:36: /rules/winCondition/type: unknown winCondition \"reach-ned\" (did you mean reach-end?); the win conditions are reach-end, reach-space"}},
		{"win needs ids", game(`{"winCondition": {"type": "reach-space", "config": {}}}`, one), []string{
			"b.json:2:61: /rules/winCondition/config/spaceId: reach-space needs spaceId: the id of the space that wins"}},
		{"multi-piece rules", game(`{"winCondition": {"type": "all-pieces-home"}, "startingPositions": {"mode": "multiple", "startZones": {}}, "capture": {"enabled": true}}`, one), []string{
			"b.json:2:36: /rules/winCondition/type: winCondition \"all-pieces-home\" needs the \"multi-piece\" engine, which is not supported yet",
			"b.json:2:86: /rules/startingPositions/mode: starting mode \"multiple\" places several pieces per player, which needs the \"multi-piece\" engine: it is not supported yet",
			"b.json:2:128: /rules/capture: warning: capture is part of the multi-piece engine, which is not supported yet: it is ignored"}},
		{"dice", game(`{"diceRolling": {"enabled": false, "diceCount": 0, "diceSides": 6, "rollAgainOn": [6]}, "turnOrder": "random"}`, one), []string{
			"b.json:2:38: /rules/diceRolling/enabled: warning: players always roll dice: enabled false is ignored",
			"b.json:2:58: /rules/diceRolling/diceCount: diceCount must be from 1 to 10 (how many dice a roll has), not 0",
			"b.json:2:92: /rules/diceRolling/rollAgainOn: warning: rolling again is not supported yet: it is ignored",
			"b.json:2:111: /rules/turnOrder: warning: turn order \"random\" is not supported: players take turns in seat order (\"sequential\")"}},
		{"v3 space shape", game(`{}`, `[{"id": "a", "events": [], "position": {"x": "1"}, "triggers": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "FORCE_STOP"}}]}]`), []string{
			"b.json:3:57: /board/topology/spaces/0/events: warning: a space has no member \"events\"; it is ignored: this format calls it \"triggers\"",
			"b.json:3:79: /board/topology/spaces/0/position/x: must be a number, not a string",
			"b.json:3:98: /board/topology/spaces/0/triggers/0/when: an event needs \"when\": {\"type\": \"ON_LAND\"} (or ON_ENTER, ON_EXIT, CODE)",
			"b.json:3:110: /board/topology/spaces/0/triggers/0/trigger: warning: an event has no member \"trigger\"; it is ignored: this format calls it \"when\""}},
		{"no board", `{"type": "game"}`, []string{
			"b.json:1:1: /board: a v3 game needs \"board\": {\"topology\": {\"spaces\": […]}}"}},
		{"missing type", `{"board": {"topology": {"spaces": ` + one + `}}}`, []string{
			"b.json:1:1: /type: \"type\" is required here"}},
		{"topology connections", `{"type": "game", "board": {"topology": {"connections": [{"from": "a", "to": "a"}], "spaces": ` + one + `}}}`, []string{
			"b.json:1:56: /board/topology/connections: connections listed beside the spaces are not read: list each connection in its space's \"connections\""}},
		{"plugins", `{"type": "game", "requirements": {"plugins": [{"id": "core"}, {"id": "dice", "name": "Dice"}]}, "board": {"topology": {"spaces": ` + one + `}}}`, []string{
			"b.json:1:63: /requirements/plugins/1: warning: plugin \"dice\" (Dice) is not loaded: Tabula plays the board with its own rules, without plugins"}},
	} {
		t.Run(c.name, func(t *testing.T) { checkParse(t, c.doc, c.want) })
	}
}

// writeBundle writes a bundle folder with the given files.
func writeBundle(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bundle")
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadBundle(t *testing.T) {
	dir := writeBundle(t, map[string]string{
		"board.json":    `{"schema_version": 2, "id": "b", "paths": {"metadata": "meta.json", "engine": "engine.json", "rules": "rules.json", "topology": "parts/topology.json", "settings": "settings.json", "dependencies": "deps.json"}}`,
		"meta.json":     `{"name": "Bundled", "author": "Bo"}`,
		"engine.json":   `{"type": "turn-based", "config": {"turnManager": {"maxTurns": 9}}}`,
		"rules.json":    `{"startingPositions": {"mode": "single", "spaceIds": ["1"]}, "minPlayers": 1, "diceRolling": {"diceCount": 1, "diceSides": 4}}`,
		"deps.json":     `{"plugins": [{"id": "core"}], "maxPlayers": 5}`,
		"settings.json": `{"renderConfig": {"arrowSize": 3}}`,
		"parts/topology.json": `{"spaces": [{"id": "1", "connections": [{"targetId": "2"}]},
 {"id": "2", "triggers": [{"when": {"type": "ON_ENTER"}, "action": {"type": "SET_PLAYER_SPACE", "payload": {"spaceId": 1}}}]}]}`,
	})
	for _, path := range []string{dir, filepath.Join(dir, "board.json")} {
		b, list := Load(path)
		if b == nil || len(list) != 0 {
			t.Fatalf("Load(%s): %q", path, lines(list))
		}
		if b.Format != "bundle" || b.File != dir || b.Name != "Bundled" || b.SpacesFile != filepath.Join(dir, "parts", "topology.json") {
			t.Errorf("board header: %+v", b)
		}
		want := GameRules{MinPlayers: 1, MaxPlayers: 5, Start: StartingPositions{Mode: "single", SpaceIDs: []string{"1"}, Distribution: "round-robin"}, MaxTurns: 9, Dice: Dice{1, 4}}
		if !reflect.DeepEqual(b.Rules, want) {
			t.Errorf("rules = %+v, want %+v", b.Rules, want)
		}
		if b.Render["arrowSize"] != 3.0 || b.Spaces[1].Events[0].Action.Args != (TeleportArgs{SpaceID: "1"}) {
			t.Errorf("render %v, spaces %+v", b.Render, b.Spaces)
		}
	}
}

func TestBundleDiagnostics(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no manifest", map[string]string{"x.json": "{}"}, []string{
			"bundle/board.json: /: not a bundle: a bundle folder holds a board.json manifest (no such file or folder)"}},
		{"bad manifest", map[string]string{"board.json": `{"schema_version": 1, "paths": {"topology": "../t.json", "rules": "r.json", "extra": "x"}}`}, []string{
			"bundle/board.json:1:1: /id: a bundle manifest needs an \"id\" naming the board",
			"bundle/board.json:1:20: /schema_version: schema_version must be 2 or more, not 1",
			"bundle/board.json:1:45: /paths/topology: \"../t.json\" must be a path inside the bundle folder",
			"bundle/board.json:1:67: /paths/rules: cannot read \"r.json\": no such file or folder",
			"bundle/board.json:1:86: /paths/extra: warning: paths has no member \"extra\"; it is ignored"}},
		{"errors in parts", map[string]string{
			"board.json":    `{"schema_version": 2, "id": "b", "paths": {"topology": "topology.json", "rules": "rules.json"}}`,
			"rules.json":    `{"startingPositions": {"spaceIds": ["zz"]}}`,
			"topology.json": "{\"spaces\": [{\"id\": \"1\", \"triggers\": [{\"when\": {\"type\": \"ON_LAND\"}, \"action\": {\"type\": \"PROMPT\", \"payload\": {}}}]}]}",
		}, []string{
			"bundle/rules.json:1:37: /startingPositions/spaceIds/0: starting space \"zz\" is not the id of any space",
			"bundle/topology.json:1:87: /spaces/0/triggers/0/action/type: warning: \"PROMPT\" is read as PROMPT_CURRENT_PLAYER: write that (the original game has no PROMPT action and stalls on it)",
			"bundle/topology.json:1:108: /spaces/0/triggers/0/action/payload/message: PROMPT_CURRENT_PLAYER needs \"message\": the text to show (placeholders such as {{RANDOM_WORD}} allowed)"}},
		{"other engine", map[string]string{
			"board.json":    `{"schema_version": 2, "id": "b", "paths": {"topology": "topology.json", "engine": "engine.json"}}`,
			"engine.json":   `{"type": "trouble"}`,
			"topology.json": `{"spaces": []}`,
		}, []string{
			`bundle/engine.json:1:10: /type: the "trouble" engine is not supported yet: Tabula plays "turn-based" boards`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeBundle(t, c.files)
			b, list := Load(dir)
			var got []string
			for _, l := range lines(list) {
				got = append(got, strings.ReplaceAll(l, filepath.Dir(dir)+string(filepath.Separator), ""))
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if b != nil {
				t.Errorf("a board with errors")
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	b, list := Load(filepath.Join(t.TempDir(), "nope.json"))
	if b != nil || len(list) != 1 || !strings.HasSuffix(list[0].String(), "nope.json: /: cannot read the board: no such file or folder") {
		t.Errorf("got %v, %q", b, lines(list))
	}
}

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{
		"on land": "ON_LAND", "ON_LAND": "ON_LAND", "very  high": "VERY_HIGH", "on-land": "ONLAND",
		" on\tenter ": "_ON_ENTER_", "Prompt All Players!": "PROMPT_ALL_PLAYERS",
	} {
		if got := normalizeName(in); got != want {
			t.Errorf("normalizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzExpandMessage: any message with any player's name expands without
// panicking, within the length limit, and the name is shown as written:
// never read as the formatter's marks (a colour, its end).
func FuzzExpandMessage(f *testing.F) {
	for _, m := range []string{"{{RANDOM_COLOR({{RANDOM_WORD}})}}", "{{{{}}}}", "{{RANDOM_NUMBER({{RANDOM_NUMBER(1,3)}},9)}}", "\uE000x\uE001"} {
		f.Add(m, "{{Ann}}")
	}
	f.Add("Hi {{CURRENT_PLAYER_NAME}}!", "Eve\uE002")
	f.Add("{{RANDOM_COLOR({{CURRENT_PLAYER_NAME}})}}", "\uE000#ff0000")
	f.Add("{{CURRENT_PLAYER_NAME}}", "\uE000\uE001\uE002\uE003\uE004")
	f.Fuzz(func(t *testing.T, msg, player string) {
		segs := ExpandMessage(msg, player, stream(1))
		if n := len([]rune(PlainText(segs))); n > MaxMessageLength+3 {
			t.Errorf("%d characters", n)
		}
		for _, s := range segs {
			if strings.ContainsFunc(s.Text, isMark) {
				t.Errorf("a segment holds a formatter's mark: %q", s.Text)
			}
		}
		checkMessage(msg)
	})
}

// FuzzToSegments: the formatter reads any text, its marks paired or not,
// without panicking.
func FuzzToSegments(f *testing.F) {
	f.Add("a\uE000#123456\uE001b\uE002c")
	f.Add("\uE002\uE001\uE000")
	f.Add("\uE000#12")
	f.Fuzz(func(t *testing.T, s string) {
		toSegments(s)
	})
}

// TestMarksInABoardAreReported: a board's prompt holding the formatter's
// private-use marks loads with a warning naming them, and shows without
// them.
func TestMarksInABoardAreReported(t *testing.T) {
	doc := `{"spaces": [{"id": 1, "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "Hi \uE002 there"}}}]}]}`
	b, list := Parse("b.json", []byte(doc))
	if b == nil {
		t.Fatalf("the board does not load: %v", list)
	}
	found := false
	for _, d := range list {
		if strings.Contains(d.Message, "U+E002") && d.Severity == diag.Warning {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning names the mark: %v", lines(list))
	}
	if got := PlainText(ExpandMessage("Hi \uE002 there", "Ann", stream(1))); got != "Hi  there" {
		t.Errorf("shown as %q", got)
	}
}

// TestNamesAreNeverMarkup: a player's name holding the private-use runes
// the formatter marks colours with is shown as text: the prompt that
// names them neither panics nor colours anything.
func TestNamesAreNeverMarkup(t *testing.T) {
	for _, name := range []string{"Eve\uE002", "\uE000#ff0000\uE001Eve", "Eve\uE001", "{{RANDOM_WORD}}\uE003"} {
		segs := ExpandMessage("Hello {{CURRENT_PLAYER_NAME}}, {{RANDOM_COLOR(welcome)}}!", name, stream(1))
		if len(segs) != 3 || segs[1].Text != "welcome" || segs[0].Color != "" || segs[2].Color != "" {
			t.Errorf("name %q: segments %+v", name, segs)
		}
		want := "Hello " + strings.Map(func(r rune) rune {
			if isMark(r) {
				return -1
			}
			return r
		}, name) + ", "
		if segs[0].Text != want {
			t.Errorf("name %q is shown as %q, want %q", name, segs[0].Text, want)
		}
	}
}

// TestSchemaBoundsStrings: the board schema bounds every string as the
// loader does.
func TestSchemaBoundsStrings(t *testing.T) {
	gametest.CheckSchemaStrings(t, schema.Board, stringLimits)
}

// TestStringLimits: a string longer than its member's limit is one error
// at its place that says the limit; the longest strings allowed load, and
// a nickname longer than a name is refused.
func TestStringLimits(t *testing.T) {
	end := `{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}`
	for _, c := range []struct{ name, message, want string }{
		{strings.Repeat("é", maxName), strings.Repeat("x", maxText), ""},
		{strings.Repeat("é", maxName+1), "x", "/spaces/0/name: must be at most 100 characters long, not 101"},
		{"x", strings.Repeat("x", maxText+1), "/spaces/0/events/1/action/payload/message: must be at most 2000 characters long, not 2001"},
	} {
		data := fmt.Sprintf(`{"spaces": [{"id": 1, "name": %q, "events": [%s, {"trigger": {"type": "ON_ENTER"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": %q}}}]}]}`, c.name, end, c.message)
		b, list := Parse("b.json", []byte(data))
		if c.want == "" {
			if b == nil {
				t.Error(list.String())
			}
			continue
		}
		if b != nil || len(list.Errors()) != 1 || !strings.Contains(list.Errors()[0].String(), c.want) {
			t.Errorf("got\n%s\nwant one error: %s", list.String(), c.want)
		}
	}
	def, list := testPack.LoadFile("../../examples/party/default.json")
	if def == nil {
		t.Fatal(list.String())
	}
	if _, err := def.Start(game.Setup{Players: []string{"Ann", strings.Repeat("b", maxName+1)}, Seed: 1}); err == nil {
		t.Error("a nickname of 101 characters starts a match")
	}
}
