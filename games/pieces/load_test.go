package pieces_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/games/pieces"
)

// The original's multi-piece example names zones and safe spaces its
// board does not have: each is an error that names them, where they are
// written.
func TestMultiPieceExampleNamesMissingZones(t *testing.T) {
	path := filepath.Join(shared(t), "v3", "example-multi-piece-game.json")
	def, list := pieces.NewPack().LoadFile(path)
	if def != nil {
		t.Fatal("the example loads")
	}
	want := map[string]string{
		"/rules/startingPositions/startZones/player1":  `the start zone of player1 names spaces the board does not have: "start1a", "start1b", "start1c", "start1d" (the board's spaces are 1, 2, 3, 4, 5, 6, 7)`,
		"/rules/startingPositions/startZones/player4":  `"start4a", "start4b", "start4c", "start4d"`,
		"/rules/winCondition/config/homeZones/player2": `the home zone of player2 names spaces the board does not have: "home2a"`,
		"/engine/config/safeSpaces/2":                  `no space "9": a safe space names a space the board does not have`,
		"/rules/capture/safeSpaces/4":                  `no space "17"`,
	}
	for ptr, msg := range want {
		if !hasDiag(list, ptr, msg) {
			t.Errorf("no error at %s saying %q in:\n%s", ptr, msg, list)
		}
	}
	for _, d := range list.Errors() {
		if d.Line == 0 {
			t.Errorf("%s: no line", d)
		}
	}
}

func hasDiag(list diag.List, ptr, msg string) bool {
	for _, d := range list {
		if d.Pointer == ptr && strings.Contains(d.Message, msg) {
			return true
		}
	}
	return false
}

// edit returns the bundled Trouble (or Crossroads) file with members set:
// each key is a path of members ("engine.config.trackLength"), each value
// the new value (nil deletes it).
func edit(t *testing.T, file string, set map[string]any) []byte {
	t.Helper()
	data, err := os.ReadFile("../../examples/pieces/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for path, v := range set {
		keys := strings.Split(path, ".")
		m := doc
		for _, k := range keys[:len(keys)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		if v == nil {
			delete(m, keys[len(keys)-1])
		} else {
			m[keys[len(keys)-1]] = v
		}
	}
	out, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// spaceTriggers gives Crossroads' space r1 (the second) triggers.
func spaceTriggers(t *testing.T, triggers string) []byte {
	var doc map[string]any
	if err := json.Unmarshal(edit(t, "crossroads.json", nil), &doc); err != nil {
		t.Fatal(err)
	}
	var list any
	if err := json.Unmarshal([]byte(triggers), &list); err != nil {
		t.Fatal(err)
	}
	spaces := doc["board"].(map[string]any)["topology"].(map[string]any)["spaces"].([]any)
	spaces[1].(map[string]any)["triggers"] = list
	out, _ := json.MarshalIndent(doc, "", " ")
	return out
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		ptr  string
		msg  string
	}{
		{"a longer track than the board", edit(t, "trouble.json", map[string]any{"engine.config.trackLength": 32}),
			"/engine/config/trackLength", "the board lacks spaces the track (trackLength 32) needs: t28, t29, t30, t31"},
		{"longer lanes", edit(t, "trouble.json", map[string]any{"engine.config.finishLength": 5}),
			"/engine/config/finishLength", "needs: p0-f4, p1-f4, p2-f4, p3-f4"},
		{"more pieces than home spaces", edit(t, "trouble.json", map[string]any{"engine.config.piecesPerPlayer": 5, "engine.config.finishLength": 5}),
			"/engine/config/piecesPerPlayer", "the home spaces (piecesPerPlayer 5, 4 players) needs: p0-home-4, p1-home-4"},
		{"more pieces than a lane holds", edit(t, "trouble.json", map[string]any{"engine.config.piecesPerPlayer": 5}),
			"/engine/config/piecesPerPlayer", "5 pieces cannot all reach a lane of 4 spaces"},
		{"two players on one start", edit(t, "trouble.json", map[string]any{"engine.config.startOffsets": []int{0, 14, 0, 21}}),
			"/engine/config/startOffsets", "player1 and player3 would both start on t0"},
		{"a start off the track", edit(t, "trouble.json", map[string]any{"engine.config.startOffsets": []int{0, 30}}),
			"/engine/config/startOffsets", "start offset 30 (player2) is off a track of 28 spaces"},
		{"more players than starts", edit(t, "trouble.json", map[string]any{"engine.config.startOffsets": []int{0, 14}}),
			"/engine/config/startOffsets", "the game is for up to 4 players, but startOffsets has starts for 2: add 2 more start offsets, or lower maxPlayers"},
		{"a roll again that never comes", edit(t, "trouble.json", map[string]any{"rules.diceRolling.rollAgainOn": []int{7}}),
			"/rules/diceRolling/rollAgainOn", "a roll of 7 never comes up with one die of 6 sides"},
		{"an entry roll that never comes", edit(t, "trouble.json", map[string]any{"engine.config.enterOn": []int{7}}),
			"/engine/config/enterOn", "a roll of 7 never comes up with one die of 6 sides"},
		{"another engine", edit(t, "trouble.json", map[string]any{"engine.type": "turn-based"}),
			"/engine/type", `the "turn-based" engine is not a game of pieces`},
		{"more players than start zones", edit(t, "crossroads.json", map[string]any{"requirements.maxPlayers": 5}),
			"/rules/startingPositions/startZones", "the game is for up to 5 players, but the start zones are for 4: add start zones player5, or lower maxPlayers"},
		{"a multi-piece game without start zones", edit(t, "crossroads.json", map[string]any{"rules.startingPositions": nil}),
			"/engine/type", "a multi-piece game needs start zones"},
		{"a multi-piece game without home zones", edit(t, "crossroads.json", map[string]any{"rules.winCondition": nil}),
			"/engine/type", "a multi-piece game needs home zones"},
		{"another win condition", edit(t, "crossroads.json", map[string]any{"rules.winCondition.type": "reach-end"}),
			"/rules/winCondition/type", `unknown winCondition "reach-end"`},
		{"another capture action", edit(t, "crossroads.json", map[string]any{"rules.capture.captureAction": "swap"}),
			"/rules/capture/captureAction", `captureAction "swap" is not supported`},
		{"an action for a player's token", spaceTriggers(t, `[{"when": {"type": "ON_LAND"}, "action": {"type": "SWAP_PLACES", "payload": {"targetPlayerId": 1}}}]`),
			"/board/topology/spaces/1/triggers/0/action/type", "a game of pieces cannot run SWAP_PLACES"},
		{"stats", spaceTriggers(t, `[{"when": {"type": "ON_LAND"}, "action": {"type": "CHANGE_STAT", "payload": {"statId": "x", "delta": 1}}}]`),
			"/board/topology/spaces/1/triggers/0/action/type", "keeps no stats"},
		{"an unknown action", spaceTriggers(t, `[{"when": {"type": "ON_LAND"}, "action": {"type": "PROMT_ALL_PLAYERS", "payload": {"message": "x"}}}]`),
			"/board/topology/spaces/1/triggers/0/action/type", "did you mean PROMPT_ALL_PLAYERS?"},
		{"an unknown placeholder", spaceTriggers(t, `[{"when": {"type": "ON_LAND"}, "action": {"type": "PROMPT_ALL_PLAYERS", "payload": {"message": "hi {{RANDOM_WORD}}"}}}]`),
			"/board/topology/spaces/1/triggers/0/action/payload/message", "unknown placeholder {{RANDOM_WORD}}"},
		{"a CODE trigger", spaceTriggers(t, `[{"when": {"type": "CODE"}, "action": {"type": "FORCE_STOP"}}]`),
			"/board/topology/spaces/1/triggers/0/when/type", "CODE conditions belong to party boards"},
		{"a teleport nowhere", spaceTriggers(t, `[{"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_SPACE", "payload": {"spaceId": "r99"}}}]`),
			"/board/topology/spaces/1/triggers/0/action/payload/spaceId", `no space "r99"`},
		{"no steps", spaceTriggers(t, `[{"when": {"type": "ON_LAND"}, "action": {"type": "DISPLACE_PLAYER", "payload": {}}}]`),
			"/board/topology/spaces/1/triggers/0/action/payload/steps", "DISPLACE_PLAYER needs a payload with \"steps\""},
		{"a dangling connection", []byte(strings.Replace(string(edit(t, "crossroads.json", nil)), `"targetId": "r2"`, `"targetId": "r22"`, 1)),
			"/board/topology/spaces/1/connections/0/targetId", `no space "r22": a connection names a space the board does not have (did you mean r2?)`},
		{"broken JSON", []byte("{\n  \"engine\": {\"type\": \"trouble\",}\n}"), "", "invalid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := game.FromBytes("game.json", c.data, game.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			def, list := pieces.NewPack().LoadDefinition(src)
			if def != nil {
				t.Fatal("it loads")
			}
			if !hasDiag(list, c.ptr, c.msg) {
				t.Fatalf("no error at %q saying %q in:\n%s", c.ptr, c.msg, list)
			}
			for _, d := range list {
				if d.Line == 0 {
					t.Errorf("%s: no line", d)
				}
			}
		})
	}
}

func TestBundleErrors(t *testing.T) {
	fx := shared(t)
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(fx, "bundle-trouble", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	bundle := func(change map[string]string) string {
		dir := t.TempDir()
		for _, name := range []string{"board.json", "engine.json", "rules.json", "topology.json", "metadata.json", "dependencies.json", "settings.json", "ui.json"} {
			data, ok := change[name]
			if !ok {
				data = read(name)
			}
			if data == "" {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	cases := []struct {
		name      string
		change    map[string]string
		file, ptr string
		msg       string
	}{
		{"no engine file", map[string]string{"engine.json": ""}, "board.json", "/paths/engine", `cannot read "engine.json"`},
		{"a short track", map[string]string{"engine.json": `{"type": "trouble", "config": {"trackLength": 30}}`}, "engine.json", "/config/trackLength", "needs: t28, t29"},
		{"broken rules", map[string]string{"rules.json": "{\"diceRolling\": {\"diceSides\": 1}}"}, "rules.json", "/diceRolling/diceSides", "must be between 2 and 20"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := bundle(c.change)
			def, list := pieces.NewPack().LoadFile(dir)
			if def != nil {
				t.Fatal("it loads")
			}
			found := false
			for _, d := range list {
				if filepath.Base(d.File) == c.file && d.Pointer == c.ptr && strings.Contains(d.Message, c.msg) {
					found = true
				}
			}
			if !found {
				t.Fatalf("no error in %s at %s saying %q in:\n%s", c.file, c.ptr, c.msg, list)
			}
		})
	}
}

// The bundled games validate against the pack's published schema, and so
// does the original's Trouble.
func TestSchemaValidatesTheGames(t *testing.T) {
	s := diag.MustCompileSchema("pieces-1.schema.json", pieces.NewPack().Schemas()[0].Data)
	paths := []string{"../../examples/pieces/trouble.json", "../../examples/pieces/crossroads.json", filepath.Join(shared(t), "v3", "trouble-classic.json")}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := diag.DecodeJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		r := diag.NewReporter(path, data)
		if !s.Check(r, doc) {
			t.Errorf("%s:\n%s", path, r.List)
		}
	}
}

// The settings of the original's configuration and rules are honoured.
func TestSettingsAreHonoured(t *testing.T) {
	start := func(t *testing.T, data []byte, dice []int, setup pieces.SetupSpec) *pieces.Match {
		t.Helper()
		src, _ := game.FromBytes("game.json", data, game.Limits{})
		def, list := pieces.NewPack().LoadDefinition(src)
		if def == nil {
			t.Fatal(list)
		}
		m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: 1, Dice: dice})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.SetUp(setup); err != nil {
			t.Fatal(err)
		}
		return m
	}
	roll := func(t *testing.T, m *pieces.Match) {
		t.Helper()
		if err := m.Play(m.State().Turn, pieces.Command{Roll: true}); err != nil {
			t.Fatal(err)
		}
	}
	where := func(m *pieces.Match, seat int) string {
		v := m.View(seat).(pieces.View)
		var out []string
		for _, pc := range v.Players[seat].Pieces {
			out = append(out, pc.Space)
		}
		return strings.Join(out, " ")
	}
	t.Run("allowCapture false: an opponent blocks", func(t *testing.T) {
		m := start(t, edit(t, "trouble.json", map[string]any{"engine.config.allowCapture": false}), []int{4},
			pieces.SetupSpec{Pieces: map[string][]string{"Ann": {"t3"}, "Bob": {"t7"}}})
		roll(t, m)
		if got := where(m, 0); got != "t3 p0-home-1 p0-home-2 p0-home-3" {
			t.Fatalf("Ann's pieces: %s", got)
		}
	})
	t.Run("piecesPerPlayer", func(t *testing.T) {
		m := start(t, edit(t, "trouble.json", map[string]any{"engine.config.piecesPerPlayer": 2}), nil, pieces.SetupSpec{})
		if got := where(m, 1); got != "p1-home-0 p1-home-1" {
			t.Fatalf("Bob's pieces: %s", got)
		}
	})
	t.Run("two dice, a 7 rolls again, any roll comes out", func(t *testing.T) {
		m := start(t, edit(t, "trouble.json", map[string]any{"rules.diceRolling.diceCount": 2, "rules.diceRolling.rollAgainOn": []int{7},
			"engine.config.enterOn": []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}), []int{3, 4, 1, 1}, pieces.SetupSpec{})
		roll(t, m) // 3+4: a piece comes out on t0, and Ann rolls again
		if s := m.State(); s.Turn != 0 || s.Roll != 7 || !slices.Equal(s.Dice, []int{3, 4}) {
			t.Fatalf("turn %d, roll %d (%v)", s.Turn, s.Roll, s.Dice)
		}
		roll(t, m) // 1+1: piece 2 cannot come out onto piece 1, which goes on to t2
		if got := where(m, 0); got != "t2 p0-home-1 p0-home-2 p0-home-3" || m.State().Turn != 1 {
			t.Fatalf("Ann's pieces: %s; turn %d", got, m.State().Turn)
		}
	})
	t.Run("trackLength, finishLength and startOffsets", func(t *testing.T) {
		// A smaller ring, t0…t13, lanes of two: Bob starts on t7 and goes
		// into his lane after t6.
		data := edit(t, "trouble.json", map[string]any{"engine.config.trackLength": 14, "engine.config.finishLength": 2,
			"engine.config.piecesPerPlayer": 2, "engine.config.startOffsets": []int{0, 7}, "requirements.maxPlayers": 2})
		m := start(t, data, []int{6, 6, 3}, pieces.SetupSpec{Pieces: map[string][]string{"Bob": {"t4"}}, Turn: "Bob"})
		roll(t, m) // 6: t4 is 11 steps on, and 6 more pass the lane's end: piece 2 comes out on t7
		roll(t, m) // 6 again: piece 2 to t13
		roll(t, m) // 3: piece 1 into the lane, or piece 2 round to t2
		var got []string
		for _, mv := range m.View(1).(pieces.View).Moves {
			got = append(got, fmt.Sprintf("piece %d from %s to %s", mv.Piece, mv.From, mv.To))
		}
		if want := "piece 1 from t4 to p1-f0|piece 2 from t13 to t2"; strings.Join(got, "|") != want {
			t.Fatalf("moves %q, want %q", got, want)
		}
	})
}
