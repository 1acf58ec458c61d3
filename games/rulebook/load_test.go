package rulebook

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cel.dev/cel-go/cel"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/game"
	"github.com/tabulagames/tabula/game/gametest"
	"github.com/tabulagames/tabula/games/internal/celcost"
)

func lines(l diag.List) string {
	var b strings.Builder
	l.Print(&b)
	return b.String()
}

// validate loads a game file through the game interface and returns its
// problems.
func validate(t *testing.T, path string) diag.List {
	t.Helper()
	src, err := game.Open(path, game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !pack.Detect(src) {
		t.Fatalf("%s is not detected as a rule book", path)
	}
	def, list := pack.Load(src)
	if (def == nil) != list.HasErrors() {
		t.Errorf("%s: a definition %v with errors %v", path, def != nil, list.HasErrors())
	}
	return list
}

// TestValidateFiles: every problem of a file is reported at once, where it
// is, with the closest name when a name is unknown, CEL errors at their
// character and type errors from the JSON Schema.
func TestValidateFiles(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{
		{"testdata/invalid-rules.json", []string{
			`2:32: /players/start/tile: the starting tile names "strat", which is not the id of any tile (did you mean start?)`,
			`5:25: /board/tiles/1/next/0: an arrow names "finsh", which is not the id of any tile (did you mean finish?)`,
			`5:43: /board/tiles/1/jump: the jumps go round in a circle: a → b → a`,
			`9:15: /rules/0/preset: unknown preset "Turns" (did you mean Turn?); the presets are Turn, DieMove, CardMove, Jump, BuyTile, ScoreTile, FiniteBoardWin, LastStandingWin, RemovePlayer, TurnLimit`,
			`10:41: /rules/1/numberOfDie: the preset DieMove has no parameter "numberOfDie" (did you mean numberOfDice?)`,
			`11:4: /rules/2: the preset CardMove needs "deck" (the deck to draw from)`,
			`12:23: /rules/3/when/event: unknown event "TILE_LANDD" (did you mean TILE_LANDED?)`,
			`13:46: /rules/4/when/card: TILE_LANDED has no card to filter on; its filters are tile, kind, colour`,
			`13:63: /rules/4/if: condition: no such field: prise (did you mean price?)`,
			`13:96: /rules/4/then/0/action: unknown action "MOVE_TOO" (did you mean MOVE_TO?)`,
			`14:59: /rules/5/if: condition: Syntax error: the expression ends too soon`,
			`14:99: /rules/5/then/0/to: "finnish" is not the id of any tile (did you mean finish?) (write a CEL expression such as tile.jump for a computed tile)`,
			`14:173: /rules/5/then/1/to: must be one of owner, current, event, other, others, bank, not "ownr" (did you mean owner?)`,
			`15:75: /rules/6/then/0/event: DICE_ROLLED is announced by the game itself; EMIT may announce START_TURN, END_TURN`,
			`15:91: /rules/6/then/1: SAY needs "text" (the line)`,
			`15:116: /rules/6/then/1/txt: SAY has no field "txt" (did you mean text?)`,
			`15:161: /rules/6/then/2/amount: expression: this gives text; it must give a whole number`,
			`16:46: /rules/7/then: a rule needs "then": a list of at least one action, [{"action": …}]`,
			`16:57: /rules/7/els: a rule has no member "els"`,
		}},
		{"testdata/invalid-types.json", []string{
			`1:30: /nmae: unknown member "nmae" (did you mean name?)`,
			`2:21: /players/min: must be a whole number, not a string`,
			`2:47: /players/start/score: must be a whole number, not a number`,
			`3:39: /board/tiles/0/x: must be a number, not a string`,
			`3:55: /board/tiles/0/next: must be an array, not a string`,
			`3:90: /board/tiles/1/props/tax: must be a whole number, not a string`,
			`4:59: /decks/0/cards/0/count: a count cannot be negative`,
			`4:73: /decks/0/cards/0/colour: must be a string, not a number`,
			`5:22: /events/0/name: an event name is written in capitals, digits and _ (like BONUS_ROUND), not "bonus"`,
			`8:42: /rules/1/numberOfDice: must be a whole number, not a string`,
			`9:47: /rules/2/when/colour: must be a string, not a number`,
			`9:57: /rules/2/if: must be a string, not true or false`,
			`9:100: /rules/2/then/0/steps: must be a whole number or a CEL expression giving one, not an array`,
			`9:117: /rules/2/then/0/priority: must be a whole number, not a string`,
			`9:135: /rules/2/then/0/player: unknown player "curent" (did you mean current?); whose queue: current, event, other, owner, each, others`,
			`10:13: /rules/3/when: a rule needs "when": {"event": …}`,
			`10:35: /rules/3/then: a rule needs "then": a list of at least one action, [{"action": …}]`,
			`11:23: /rules/4/when/event: unknown event "BONUS"`,
		}},
	} {
		got := lines(validate(t, c.file))
		want := ""
		for _, l := range c.want {
			want += c.file + ":" + l + "\n"
		}
		if got != want {
			t.Errorf("%s:\ngot\n%swant\n%s", c.file, got, want)
		}
	}
}

// TestValidateSnippets: one problem at a time, in small files.
func TestValidateSnippets(t *testing.T) {
	const tiles = `"board": {"tiles": [{"id": "a", "next": ["b"]}, {"id": "b"}]}`
	for _, c := range []struct{ name, src, want string }{
		{"not JSON", `{"game": "rulebook", "board": {"tiles": [{"id": "a",}]}}`,
			`1:53: /: invalid JSON: invalid character '}' looking for beginning of object key string`},
		{"not an object", `["rulebook"]`, `1:1: /: a rule book must be a JSON object, not an array`},
		{"trailing data", `{"game": "rulebook"} {}`, `1:22: /: invalid JSON: more data after the end of the document`},
		{"no tiles", `{"game": "rulebook", "board": {"tiles": []}, "rules": [{"preset": "Turn"}]}`,
			`1:41: /board/tiles: the board needs at least one tile`},
		{"no rules", `{"game": "rulebook", ` + tiles + `, "rules": []}`,
			`1:94: /rules: a game needs rules: start with {"preset": "Turn"}`},
		{"duplicate tile", `{"game": "rulebook", "board": {"tiles": [{"id": "a"}, {"id": "a"}]}, "rules": [{"preset": "Turn"}]}`,
			`1:62: /board/tiles/1/id: two tiles have the id "a"`},
		{"unknown variable", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"},
 {"when": {"event": "TILE_LANDED"}, "if": "tile.colour == red", "then": [{"action": "WIN"}]}]}`,
			`2:59: /rules/2/if: condition: unknown name "red"; the variables are event, player, current, players, tile, card, game, roll (text is written in quotes: 'red')`},
		{"not a condition", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"},
 {"when": {"event": "TILE_LANDED"}, "if": "tile.price + 1", "then": [{"action": "WIN"}]}]}`,
			`2:44: /rules/2/if: condition: this gives a whole number; it must give true or false`},
		{"expression after an escape", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"},
 {"when": {"event": "TILE_LANDED"}, "if": "tile.name == \"\u00e9\" && tile.nope", "then": [{"action": "WIN"}]}]}`,
			`2:75: /rules/2/if: condition: no such field: nope (did you mean type?)`},
		{"unknown deck", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "CardMove", "deck": "cards"}, {"preset": "FiniteBoardWin"}]}`,
			`1:146: /rules/1/deck: there is no deck "cards": the game has no decks`},
		{"preset if", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove", "if": "player.props['stuk'] == 0"}, {"preset": "FiniteBoardWin"}]}`,
			`1:143: /rules/1/if: warning: no player, tile or card has the property "stuk"; reading it stops the game (declare player properties in players.start.props)`},
		{"filter on nothing", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"},
 {"when": {"event": "TILE_LANDED", "kind": "chute"}, "then": [{"action": "WIN"}]}]}`,
			`2:44: /rules/3/when/kind: warning: no tile's kind is "chute", so this rule never fires`},
		{"built-in event declared", `{"game": "rulebook", "events": [{"name": "START_TURN"}], ` + tiles + `, "rules": [{"preset": "Turn"}]}`,
			`1:42: /events/0/name: START_TURN is a built-in event; declare only your own`},
		{"max below min", `{"game": "rulebook", "players": {"min": 4, "max": 3}, ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"}]}`,
			`1:51: /players/max: max (3) is below min (4)`},
		// What the rules as a whole cannot do.
		{"nothing starts", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "DieMove"}, {"preset": "FiniteBoardWin"}]}`,
			`1:94: /rules: nothing starts the game: no rule reacts to START_GAME; add {"preset": "Turn"}, whose first rule starts the first turn`},
		{"a turn never ends", `{"game": "rulebook", ` + tiles + `, "rules": [{"when": {"event": "START_GAME"}, "then": [{"action": "EMIT", "event": "START_TURN"}]}, {"preset": "DieMove"}]}`,
			`1:94: /rules: warning: nothing ends this game: no rule that can run WINs, ENDs the game or removes players; play stops only at a round limit
1:183: /rules/1: a turn can never end: nothing START_TURN sets off leads to END_TURN, to the next START_TURN or to the end of the game; add the Turn preset, or a rule on START_TURN that EMITs END_TURN`},
		{"a turn ends only with the game", `{"game": "rulebook", ` + tiles + `, "rules": [{"when": {"event": "START_GAME"}, "then": [{"action": "EMIT", "event": "START_TURN"}]}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"}]}`,
			`1:183: /rules/1: warning: a turn ends only when the game ends: nothing START_TURN sets off leads to END_TURN or to the next START_TURN`},
		{"no next turn", `{"game": "rulebook", ` + tiles + `, "rules": [{"when": {"event": "START_GAME"}, "then": [{"action": "EMIT", "event": "START_TURN"}]},
 {"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE"}, {"action": "MOVE"}, {"action": "EMIT", "event": "END_TURN"}]}, {"preset": "FiniteBoardWin"}]}`,
			`1:94: /rules: nothing starts the next turn: nothing END_TURN sets off leads to START_TURN or to the end of the game; add the Turn preset, or a rule on END_TURN that EMITs START_TURN`},
		{"turns that never ask", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "FiniteBoardWin"}]}`,
			`1:94: /rules: warning: nothing ends this game: no rule that can run WINs, ENDs the game or removes players; play stops only at a round limit
1:95: /rules/0: these rules go round forever without asking anyone anything or ending the game: Turn: end of turn (START_TURN → END_TURN) → Turn: next turn (END_TURN → START_TURN); add a rule that asks a player (ROLL_DIE, DRAW_CARD) on one of these events, or a condition that stops them`},
		{"a loop of own events", `{"game": "rulebook", "events": [{"name": "PING"}, {"name": "PONG"}], ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"},
 {"name": "Ping", "when": {"event": "DICE_ROLLED"}, "then": [{"action": "EMIT", "event": "PING"}]},
 {"name": "Pong", "when": {"event": "PING"}, "then": [{"action": "EMIT", "event": "PONG"}]},
 {"name": "Back", "when": {"event": "PONG"}, "then": [{"action": "SAY", "text": "x"}, {"action": "EMIT", "event": "PING", "priority": 7}]}]}`,
			`3:2: /rules/4: these rules go round forever without asking anyone anything or ending the game: Pong (PING → PONG) → Back (PONG → PING); add a rule that asks a player (ROLL_DIE, DRAW_CARD) on one of these events, or a condition that stops them`},
		{"a teleport onto a teleport", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"},
 {"name": "Back to a", "when": {"event": "TILE_LANDED"}, "then": [{"action": "MOVE_TO", "to": "a", "priority": 2}]}]}`,
			`1:94: /rules: warning: nothing ends this game: no rule that can run WINs, ENDs the game or removes players; play stops only at a round limit
2:2: /rules/2: these rules go round forever without asking anyone anything or ending the game: Back to a (TILE_LANDED → TILE_LANDED); add a rule that asks a player (ROLL_DIE, DRAW_CARD) on one of these events, or a condition that stops them`},
		{"an action after the end of the turn", `{"game": "rulebook", ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"},
 {"when": {"event": "TILE_LANDED"}, "then": [{"action": "SAY", "text": "late", "priority": 11}]}]}`,
			`2:92: /rules/3/then/0/priority: warning: priority 11 comes after the end of the turn (10): the next turn's actions always come first, so this never runs`},
		{"a loop a condition may stop", `{"game": "rulebook", "events": [{"name": "PING"}], ` + tiles + `, "rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"},
 {"name": "Ping", "when": {"event": "PING"}, "if": "roll < 3", "then": [{"action": "EMIT", "event": "PING"}]}]}`, ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, list := pack.Parse("g.json", []byte(c.src))
			want := ""
			for _, l := range strings.Split(c.want, "\n") {
				if l != "" {
					want += "g.json:" + l + "\n"
				}
			}
			if got := lines(list); got != want {
				t.Errorf("got\n%swant\n%s", got, want)
			}
		})
	}
}

// TestExamplesValid: the shipped games are valid, without a warning, and
// Compile (for files held in memory, as an editor does) agrees.
func TestExamplesValid(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(examples, "*.json"))
	if len(files) < 3 {
		t.Fatalf("examples: %v", files)
	}
	for _, path := range files {
		if list := validate(t, path); len(list) > 0 {
			t.Errorf("%s:\n%s", path, lines(list))
		}
		data, _ := os.ReadFile(path)
		f, _ := Decode(data)
		if def, list := pack.Compile(f); def == nil || len(list) > 0 {
			t.Errorf("Compile %s:\n%s", path, lines(list))
		}
	}
}

// TestCompileWithoutPositions: problems of a file held in memory have
// pointers and no positions.
func TestCompileWithoutPositions(t *testing.T) {
	f := &File{Game: "rulebook", Board: Board{Tiles: []Tile{{ID: "a"}}}, Rules: []Rule{{Preset: "Trun"}}}
	_, list := pack.Compile(f)
	want := `: /rules/0/preset: unknown preset "Trun" (did you mean Turn?); the presets are Turn, DieMove, CardMove, Jump, BuyTile, ScoreTile, FiniteBoardWin, LastStandingWin, RemovePlayer, TurnLimit` + "\n"
	if got := lines(list); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		data string
		want bool
	}{
		{`{"game": "rulebook"}`, true},
		{`{"game": "rulebook", "board": {`, true},
		{`{"game": "party"}`, false},
		{`{"spaces": []}`, false},
		{`not json`, false},
	} {
		src, err := game.FromBytes("x.json", []byte(c.data), game.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := pack.Detect(src); got != c.want {
			t.Errorf("Detect(%s) = %v", c.data, got)
		}
	}
	folder, err := game.Open(t.TempDir(), game.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if pack.Detect(folder) {
		t.Error("a folder is not a rule book")
	}
}

// TestSchemaBoundsStrings: the schema bounds every string as the loader
// does.
func TestSchemaBoundsStrings(t *testing.T) {
	gametest.CheckSchemaStrings(t, Schema(), stringLimits)
}

// TestStringLimits: a string longer than its member's limit is one error
// at its place that says the limit; the longest strings allowed load.
func TestStringLimits(t *testing.T) {
	name, text := strings.Repeat("é", maxName), strings.Repeat("x", maxText)
	for _, c := range []struct {
		name, extra, tile, want string
	}{
		{"longest", fmt.Sprintf(`"description": %q,`, text), fmt.Sprintf(`{"id": %q, "name": %q, "props": {%q: 1}}`, name, name, name), ""},
		{"id", "", fmt.Sprintf(`{"id": %q}`, name+"é"), "/board/tiles/3/id: must be at most 100 characters long, not 101"},
		{"description", fmt.Sprintf(`"description": %q,`, text+"x"), `{"id": "x"}`, "/description: must be at most 2000 characters long, not 2001"},
		{"property", "", fmt.Sprintf(`{"id": "x", "props": {%q: 1}}`, name+"é"), "/board/tiles/3/props: a member name must be at most 100 characters long, not 101"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(gameJSON(3, c.extra, `{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"}`),
				`]}, "rules"`, ", "+c.tile+`]}, "rules"`, 1)
			def, list := pack.Parse("game.json", []byte(src))
			if c.want == "" {
				if def == nil {
					t.Fatal(list.String())
				}
				return
			}
			if def != nil || len(list.Errors()) != 1 || !strings.Contains(list.Errors()[0].String(), c.want) {
				t.Errorf("got\n%s\nwant one error: %s", list.String(), c.want)
			}
		})
	}
}

// costliest are conditions the loader accepts whose estimated cost is near
// the limit, one for each way a condition costs: strings built and joined,
// a replace, loops over players and their properties, a regular
// expression as complex as allowed.
var costliest = []string{
	`players.map(p, p.name + p.name + p.name + p.name).join(tile.name).size() > 0`,
	`tile.name.replace('a', '` + strings.Repeat("b", 85) + `').size() > 0`,
	`players.all(p, players.all(q, p.name != q.name || p.tile == q.tile))`,
	`players.all(p, p.props.all(k, p.props[k] < tile.name.size()))`,
	`players.all(p, p.name.matches('^((a|aa)*(a+)+[a-z0-9]{1,70}){1,3}$') && p.tile.matches('^((a|aa)*(a+)+[a-z0-9]{1,70}){1,3}$'))`,
	`tile.name.split('').all(c, c < tile.kind)`,
}

// costliestMatch is a match of a game whose names are as long as the
// loader accepts, with as many players and properties as it accepts, and
// the costliest conditions as rules.
func costliestMatch(tb testing.TB) *Match {
	long := func(tail string) string { return strings.Repeat("a", maxName-len(tail)) + tail }
	var props, players []string
	for i := range maxProps {
		props = append(props, fmt.Sprintf("%q: %d", long(strconv.Itoa(i)), i))
	}
	for i := range maxPlayers {
		players = append(players, long(strconv.Itoa(i)))
	}
	var rules []string
	for _, src := range costliest {
		rules = append(rules, fmt.Sprintf(`{"when": {"event": "START_GAME"}, "if": %q, "then": [{"action": "SAY", "text": "x"}]}`, src))
	}
	file := fmt.Sprintf(`{"game": "rulebook", "players": {"max": %d, "start": {"props": {%s}}},
		"board": {"tiles": [{"id": %q, "name": %q, "kind": %q, "colour": %q, "props": {%s}, "next": ["end"]}, {"id": "end"}]},
		"rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"}, %s]}`,
		maxPlayers, strings.Join(props, ", "), long("0"), long(""), long("1"), long("2"), strings.Join(props, ", "), strings.Join(rules, ", "))
	def, list := pack.Parse("game.json", []byte(file))
	if def == nil {
		tb.Fatal(list.String())
	}
	m, err := def.NewMatch(game.Setup{Players: players, Seed: 1}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestCostliestConditions: the costliest conditions the loader accepts,
// run on the longest strings it accepts, cost no more than the limit when
// they run and allocate little; and one of them run on strings longer than
// the loader accepts is stopped at the limit.
func TestCostliestConditions(t *testing.T) {
	m := costliestMatch(t)
	celcost.CheckCostliest(t, celEnv, sizes, maxCost, maxCost/8, costliest, func(src string) cel.Program {
		e, probs := compileExpr(src, cel.BoolType)
		if probs != nil {
			t.Fatalf("%s: %v", src, probs)
		}
		return e.prg
	}, newScope(m.State(), nil))
	// Longer names than the loader accepts: the limit stops the condition.
	st := m.State()
	for i := range st.Players {
		st.Players[i].Name = strings.Repeat("a", 100*maxName)
	}
	e, _ := compileExpr(costliest[0], cel.BoolType)
	if _, err := e.bool(newScope(st, nil)); err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Errorf("a condition on names 100 times too long: %v, want the cost limit", err)
	}
}

// BenchmarkCostliestConditions measures the costliest conditions the
// loader accepts, run on the longest strings it accepts.
func BenchmarkCostliestConditions(b *testing.B) {
	st := costliestMatch(b).State()
	for i, src := range costliest {
		b.Run(strconv.Itoa(i), func(b *testing.B) {
			e, _ := compileExpr(src, cel.BoolType)
			b.ReportAllocs()
			for b.Loop() {
				e.bool(newScope(st, nil))
			}
		})
	}
}

// TestPresetPastTheLimit: a preset's bad parameter is refused, and the
// preset not expanded with it, even when the file has more problems than
// are shown: each problem is counted once.
func TestPresetPastTheLimit(t *testing.T) {
	var bad []string
	for i := range diag.MaxDiagnostics + 1 {
		bad = append(bad, fmt.Sprintf(`{"id": "b%d", "jump": "nowhere"}`, i))
	}
	src := strings.Replace(gameJSON(3, "", `{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "ScoreTile", "if": "player.scor > 1"}`),
		`]}, "rules"`, ", "+strings.Join(bad, ", ")+`]}, "rules"`, 1)
	def, list := pack.Parse("game.json", []byte(src))
	if def != nil {
		t.Fatal("a game with errors loads")
	}
	more := list[len(list)-1]
	if more.More != 2 {
		t.Errorf("the last diagnostic is %s; want 2 more problems (a tile, and the condition of the preset, once)", more)
	}
}
