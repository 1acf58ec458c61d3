package rulebook

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Every number of a preset or an action has its range, which both the
// JSON Schema and the rule book's own check know: a value out of it is an
// error at its pointer, saying the range, before any match can break on it.
func TestNumbersOutOfRange(t *testing.T) {
	const head = `{"game": "rulebook", "board": {"tiles": [{"id": "a", "next": ["b"]}, {"id": "b"}]}, "rules": [{"preset": "Turn"}, {"preset": "FiniteBoardWin"}, `
	for _, c := range []struct{ rule, ptr, want string }{
		{`{"preset": "DieMove", "numberOfDice": 0}`, "/rules/2/numberOfDice", "numberOfDice must be from 1 to 100 (how many dice), not 0"},
		{`{"preset": "DieMove", "numberOfDice": 500}`, "/rules/2/numberOfDice", "numberOfDice must be from 1 to 100 (how many dice), not 500"},
		{`{"preset": "DieMove", "sides": 0}`, "/rules/2/sides", "sides must be from 1 to 1000 (the sides of each die), not 0"},
		{`{"preset": "LastStandingWin", "numWinPlayer": 0}`, "/rules/2/numWinPlayer", "must be from 1 to 16"},
		{`{"preset": "TurnLimit", "rounds": 0}`, "/rules/2/rounds", "must be from 1 to 100000"},
		{`{"preset": "RemovePlayer", "scoreMinBound": -2000000000}`, "/rules/2/scoreMinBound", "must be from -1000000000 to 1000000000"},
		{`{"preset": "ScoreTile", "rent": -1}`, "/rules/2/rent", "rent must be from 0 to 1000000000"},
		{`{"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE", "dice": 0}]}`, "/rules/2/then/0/dice", "dice must be from 1 to 100 (how many dice), not 0"},
		{`{"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE", "sides": 5000}]}`, "/rules/2/then/0/sides", "sides must be from 1 to 1000 (the sides of each die), not 5000"},
		{`{"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE"}, {"action": "MOVE", "steps": 20000}]}`, "/rules/2/then/1/steps", "must be from -10000 to 10000"},
		{`{"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE"}, {"action": "MOVE_TO_NEXT", "colour": "card.colour", "times": 0}]}`, "/rules/2/then/1/times", "must be from 1 to 10000"},
		{`{"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE"}, {"action": "PAY", "amount": -5, "to": "bank"}]}`, "/rules/2/then/1/amount", "amount must be from 0 to 1000000000"},
		{`{"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE"}, {"action": "CHANGE_SCORE", "amount": 3000000000}]}`, "/rules/2/then/1/amount", "must be from -1000000000 to 1000000000"},
		{`{"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE", "priority": -1001}]}`, "/rules/2/then/0/priority", "priority must be from -1000 to 1000"},
		{`{"when": {"event": "START_TURN"}, "then": [{"action": "ROLL_DIE", "priority": 5000}]}`, "/rules/2/then/0/priority", "priority must be from -1000 to 1000"},
	} {
		src := head + c.rule + `]}`
		def, list := pack.Parse("g.json", []byte(src))
		if def != nil || !has(list, c.ptr, c.want) {
			t.Errorf("%s: want an error at %s saying %q, got:\n%s", c.rule, c.ptr, c.want, lines(list))
		}
		rep := diag.NewReporter("g.json", []byte(src))
		root, _ := rep.DecodeJSON([]byte(src))
		if schema := schemaDiagnostics("g.json", []byte(src), root); !has(schema, c.ptr, "") {
			t.Errorf("%s: the JSON Schema has nothing at %s:\n%s", c.rule, c.ptr, lines(schema))
		}
	}
}

// has reports whether a list has an error at ptr whose message holds msg.
func has(l diag.List, ptr, msg string) bool {
	for _, d := range l {
		if d.Severity == diag.Error && d.Pointer == ptr && strings.Contains(d.Message, msg) {
			return true
		}
	}
	return false
}

// extremes are the lowest and the highest values a field may take, for a
// small game of the test below: a number at the ends of its range, the
// first and the last of its choices, a name of the game.
func extremes(t *testing.T, f Field) [2]any {
	switch f.Type {
	case TypeInt, TypeCount:
		if f.Min == nil || f.Max == nil {
			t.Errorf("%s: a number without a range", f.Name)
			return [2]any{0, 1}
		}
		return [2]any{*f.Min, *f.Max}
	case TypeChoice:
		return [2]any{f.Values[0], f.Values[len(f.Values)-1]}
	case TypeTile:
		return [2]any{"a1", "finish"}
	case TypeColour:
		return [2]any{"red", "blue"}
	case TypeKind:
		return [2]any{"property", "square"}
	case TypeCondition:
		return [2]any{"true", "false"}
	case TypeDeck:
		return [2]any{"cards", "cards"}
	case TypeEvent:
		return [2]any{"BONUS", "BONUS"}
	case TypeProp:
		return [2]any{"stuck", "stuck"}
	case TypeCard:
		return [2]any{"Red", "Go"}
	}
	return [2]any{"Hello", "Goodbye"}
}

// Every action and every preset of the catalog, with each of its fields at
// the lowest and at the highest value it may take, validates in a small
// game, and bots play that game to its end or to the round limit without
// the match breaking: what validates plays.
func TestEveryCatalogEntryPlaysAtItsExtremes(t *testing.T) {
	file := func(rules ...any) []byte {
		data, err := json.Marshal(map[string]any{
			"game": "rulebook", "name": "Extremes",
			"players": map[string]any{"min": 2, "max": 4, "start": map[string]any{"tile": "start", "score": 500, "props": map[string]int{"stuck": 0}}},
			"board": map[string]any{"tiles": []map[string]any{
				{"id": "start", "kind": "start", "next": []string{"a1"}},
				{"id": "a1", "name": "Red Lane", "kind": "property", "price": 100, "rent": 10, "colour": "red", "next": []string{"a2"}},
				{"id": "a2", "kind": "square", "colour": "blue", "next": []string{"a3"}},
				{"id": "a3", "name": "Red Row", "kind": "property", "price": 200, "rent": 20, "colour": "red", "next": []string{"a4"}},
				{"id": "a4", "kind": "square", "colour": "blue", "next": []string{"finish"}},
				{"id": "finish", "name": "Finish", "kind": "finish"},
			}},
			"decks":  []any{map[string]any{"name": "cards", "cards": []any{map[string]any{"name": "Red", "colour": "red", "count": 2}, map[string]any{"name": "Go", "tile": "a3"}}}},
			"events": []any{map[string]any{"name": "BONUS"}},
			"rules":  rules,
		})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	base := []string{"Turn", "DieMove", "FiniteBoardWin"}
	play := func(name string, data []byte) {
		t.Run(name, func(t *testing.T) {
			def, list := pack.Parse(name+".json", data)
			if def == nil {
				t.Fatalf("does not validate:\n%s\n%s", lines(list), data)
			}
			for seed := range uint64(3) {
				m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: seed, MaxRounds: 30}, nil)
				if err == nil {
					err = m.PlayBots(rng.New(seed).Stream("bots"), 100_000)
				}
				if err != nil {
					t.Fatalf("seed %d: the match breaks: %v", seed, err)
				}
				if !m.Over() {
					t.Fatalf("seed %d: the match is not over", seed)
				}
			}
		})
	}
	c := Catalog()
	for _, a := range c.Actions {
		// The fields at their lowest and highest, the action queued first;
		// then at their lowest, queued last (after the end of the turn).
		for _, v := range []struct {
			which          string
			field, urgency int
		}{{"lowest", 0, 0}, {"highest", 1, 0}, {"latest", 0, 1}} {
			action := map[string]any{"action": a.Name, "priority": extremes(t, priorityField)[v.urgency]}
			for _, f := range a.Fields {
				action[f.Name] = extremes(t, f)[v.field]
			}
			which := v.which
			var rules []any
			for _, p := range base {
				rules = append(rules, map[string]any{"preset": p})
			}
			rules = append(rules, map[string]any{"name": "Under test", "when": map[string]any{"event": "START_TURN"}, "then": []any{action}})
			play(a.Name+"/"+which, file(rules...))
		}
	}
	for _, p := range c.Presets {
		for end, which := range []string{"lowest", "highest"} {
			preset := map[string]any{"preset": p.Name}
			for _, f := range p.Params {
				preset[f.Name] = extremes(t, f)[end]
			}
			var rules []any
			for _, b := range base {
				if b != p.Name {
					rules = append(rules, map[string]any{"preset": b})
				}
			}
			play(p.Name+"/"+which, file(append(rules, preset)...))
		}
	}
}

// Priorities run the way the catalog says: of two actions of one rule,
// queued in the other order, the one the catalog's order puts first runs
// first.
func TestPriorityRunsAsTheCatalogSays(t *testing.T) {
	c := Catalog()
	low, high := 1, 3 // both before the first turn begins (at 5)
	first := map[string]string{"lowest-first": "low", "highest-first": "high"}[c.PriorityOrder]
	if first == "" {
		t.Fatalf("the catalog's priority order is %q", c.PriorityOrder)
	}
	src := `{"game": "rulebook", "board": {"tiles": [{"id": "a", "next": ["b"]}, {"id": "b"}]}, "rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"},
 {"when": {"event": "START_GAME"}, "then": [{"action": "SAY", "text": "high", "priority": ` + strconv.Itoa(high) + `}, {"action": "SAY", "text": "low", "priority": ` + strconv.Itoa(low) + `}]}]}`
	def, list := pack.Parse("g.json", []byte(src))
	if def == nil {
		t.Fatal(lines(list))
	}
	m := start(t, def, game.Setup{Players: []string{"Ann", "Bob"}})
	var said []string
	for _, e := range m.Log(game.Spectator, 0) {
		if e.Kind == "note" {
			said = append(said, e.Text)
		}
	}
	if len(said) != 2 || said[0] != first {
		t.Errorf("the catalog says %s, but the notes come %v", c.PriorityOrder, said)
	}
	if !strings.Contains(c.PriorityDoc, "lowest") || !strings.Contains(priorityField.Doc, "lower numbers run first") {
		t.Errorf("the catalog's words: %q, %q", c.PriorityDoc, priorityField.Doc)
	}
}

// A game that ends on tiles warns about the tiles where players get
// stuck: from a tile they can reach, no way leads to a finish. Jumps,
// teleports and walking back are ways; a teleport to a computed tile may
// lead anywhere, which leaves nothing to warn about.
func TestTraps(t *testing.T) {
	tiles := func(loopB string) string {
		return `"board": {"tiles": [{"id": "s", "name": "Start", "next": ["f"]}, {"id": "f", "name": "Fork", "next": ["end", "x"]},
 {"id": "x", "name": "Crossroads", "next": ["a"]}, {"id": "a", "name": "Loop A", "next": ["b"]}, ` + loopB + `, {"id": "end", "name": "Finish"}]}`
	}
	const loop = `{"id": "b", "name": "Loop B", "next": ["a"]}`
	const base = `{"preset": "Turn"}, {"preset": "DieMove"}`
	for _, c := range []struct{ name, src, want string }{
		{"a loop with no way out", tiles(loop) + `, "rules": [` + base + `, {"preset": "FiniteBoardWin"}]`,
			"/board/tiles/2: from Crossroads, no way leads to a finish: Loop A, Loop B"},
		{"a dead end beside the winning tile", tiles(loop) + `, "rules": [` + base + `, {"preset": "FiniteBoardWin", "tile": "b"}]`,
			"/board/tiles/5: from Finish, no way leads to a finish"},
		{"a winning tile the start cannot reach", `"board": {"tiles": [{"id": "s", "name": "Start", "next": ["t"]}, {"id": "t", "name": "Turn", "next": ["s"]}, {"id": "w", "name": "Goal"}]}, "rules": [` + base + `, {"preset": "FiniteBoardWin"}]`,
			"/board/tiles/0: from Start, no way leads to a finish: Turn"},
		{"a rule of its own that wins", tiles(loop) + `, "rules": [` + base + `, {"when": {"event": "TILE_LANDED", "tile": "end"}, "then": [{"action": "WIN"}]}]`,
			"/board/tiles/2: from Crossroads, no way leads to a finish: Loop A, Loop B"},
		{"a jump out of the loop", tiles(`{"id": "b", "name": "Loop B", "next": ["a"], "jump": "f"}`) + `, "rules": [` + base + `, {"preset": "Jump"}, {"preset": "FiniteBoardWin"}]`, ""},
		{"a teleport out of the loop", tiles(loop) + `, "rules": [` + base + `, {"preset": "FiniteBoardWin"}, {"when": {"event": "TILE_LANDED", "tile": "b"}, "then": [{"action": "MOVE_TO", "to": "f"}]}]`, ""},
		{"walking back out of the loop", tiles(loop) + `, "rules": [` + base + `, {"preset": "FiniteBoardWin"}, {"when": {"event": "DICE_ROLLED"}, "if": "roll == 1", "then": [{"action": "MOVE", "steps": -3}]}]`, ""},
		{"a teleport to a computed tile", tiles(loop) + `, "rules": [` + base + `, {"preset": "FiniteBoardWin"}, {"when": {"event": "TILE_LANDED", "tile": "b"}, "then": [{"action": "MOVE_TO", "to": "player.tile"}]}]`, ""},
		{"a game that does not end on tiles", tiles(loop) + `, "rules": [` + base + `, {"preset": "TurnLimit", "rounds": 10}]`, ""},
	} {
		_, list := pack.Parse("g.json", []byte(`{"game": "rulebook", `+c.src+`}`))
		var got []string
		for _, d := range list {
			if strings.Contains(d.Message, "no way leads") {
				got = append(got, d.Pointer+": "+d.Message)
			}
			if d.Severity == diag.Error {
				t.Errorf("%s: %s", c.name, d)
			}
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), c.want)
		}
	}
}
