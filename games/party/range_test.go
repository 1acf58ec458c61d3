package party

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine"
	"github.com/tabulagames/tabula/engine/rng"
	"github.com/tabulagames/tabula/game"
)

// Every number of a board's rules and of its actions has its range, which
// both the JSON Schema and the loader know: a value out of it is an error
// at its pointer, saying the range, before any match can break on it.
func TestNumbersOutOfRange(t *testing.T) {
	v3 := func(rules, payload string) string {
		return `{"type": "game", "rules": ` + rules + `, "board": {"topology": {"spaces": [
  {"id": "a", "connections": [{"targetId": "b"}], "triggers": [{"when": {"type": "ON_LAND"}, "action": ` + payload + `}]},
  {"id": "b", "triggers": [{"when": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}}}`
	}
	v1 := func(rules string) string {
		return `{"metadata": {"name": "x", "gameRules": ` + rules + `}, "spaces": [{"id": "a", "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`
	}
	const stop = `{"type": "FORCE_STOP"}`
	const at = "/board/topology/spaces/0/triggers/0/action/payload/"
	for _, c := range []struct{ schema, doc, ptr, want string }{
		{"v3", v3(`{"diceRolling": {"diceCount": 0}}`, stop), "/rules/diceRolling/diceCount", "diceCount must be from 1 to 10 (how many dice a roll has), not 0"},
		{"v3", v3(`{"diceRolling": {"diceCount": 500}}`, stop), "/rules/diceRolling/diceCount", "diceCount must be from 1 to 10 (how many dice a roll has), not 500"},
		{"v3", v3(`{"diceRolling": {"diceSides": 0}}`, stop), "/rules/diceRolling/diceSides", "diceSides must be from 1 to 100 (the sides of each die), not 0"},
		{"v3", v3(`{"diceRolling": {"diceSides": 1000}}`, stop), "/rules/diceRolling/diceSides", "from 1 to 100"},
		{"v3", v3(`{"maxPlayers": 100}`, stop), "/rules/maxPlayers", "maxPlayers must be from 1 to 64"},
		{"v3", v3(`{}`, `{"type": "DISPLACE_PLAYER", "payload": {"steps": 1000}}`), at + "steps", "steps must be from -100 to 100"},
		{"v3", v3(`{}`, `{"type": "DISPLACE_PLAYER", "payload": {"steps": -1000}}`), at + "steps", "steps must be from -100 to 100"},
		{"v3", v3(`{}`, `{"type": "APPLY_EFFECT", "payload": {"effect": {"type": "RepeatTurnsEffect", "args": ["again", 1000]}}}`), at + "effect/args/1", "from 0 to 100"},
		{"v3", v3(`{}`, `{"type": "SET_STAT", "payload": {"statId": "drinks", "value": 1e12}}`), at + "value", "value must be from -1000000000 to 1000000000"},
		{"v3", v3(`{}`, `{"type": "CHANGE_STAT", "payload": {"statId": "drinks", "delta": -1e12}}`), at + "delta", "delta must be from -1000000000 to 1000000000"},
		{"v3", v3(`{}`, `{"type": "SWAP_PLACES", "payload": {"targetPlayerId": 99}}`), at + "targetPlayerId", "from 0 to 63"},
		{"v1", v1(`{"movement": {"rollRange": {"min": 1, "max": 1000}}}`), "/metadata/gameRules/movement/rollRange/max", "max must be from 1 to 100"},
		{"v1", v1(`{"players": {"max": 100}}`), "/metadata/gameRules/players/max", "max must be from 1 to 64"},
	} {
		b, list := Parse("b.json", []byte(c.doc))
		if b != nil || !hasError(list, c.ptr, c.want) {
			t.Errorf("%s: want an error at %s saying %q, got:\n%s", c.doc, c.ptr, c.want, strings.Join(lines(list), "\n"))
		}
		rep := diag.NewReporter("b.json", []byte(c.doc))
		root, _ := rep.DecodeJSON([]byte(c.doc))
		compiledSchemas()[c.schema].Check(rep, root)
		if !hasError(rep.List, c.ptr, "") {
			t.Errorf("%s: the JSON Schema has nothing at %s:\n%s", c.doc, c.ptr, strings.Join(lines(rep.List), "\n"))
		}
	}
}

// hasError reports whether a list has an error at ptr whose message holds
// msg.
func hasError(l diag.List, ptr, msg string) bool {
	for _, d := range l {
		if d.Severity == diag.Error && d.Pointer == ptr && strings.Contains(d.Message, msg) {
			return true
		}
	}
	return false
}

// fieldExtremes are the lowest and the highest values a payload field may
// take, for the small board of the test below: a number at the ends of
// its range, the first and the last of its choices.
func fieldExtremes(t *testing.T, f FormField) [2]any {
	switch f.Type {
	case "int", "number":
		if f.Min == nil || f.Max == nil {
			t.Errorf("%s: a number without a range", f.Name)
			return [2]any{0, 1}
		}
		return [2]any{*f.Min, *f.Max}
	case "choice":
		return [2]any{f.Values[0], f.Values[len(f.Values)-1]}
	case "space":
		return [2]any{"a", "finish"}
	case "effect":
		if f.Min == nil || f.Max == nil {
			t.Errorf("%s: an effect without a range of turns", f.Name)
			return [2]any{nil, nil}
		}
		return [2]any{map[string]any{"type": f.Values[0], "args": []any{"low", *f.Min}},
			map[string]any{"type": f.Values[len(f.Values)-1], "args": []any{"high", *f.Max}}}
	case "bool":
		return [2]any{false, true}
	}
	return [2]any{"0", "Bob"}
}

// Every action of the catalog, with each of its payload's fields at the
// lowest and at the highest value it may take, on the event of a small
// board: the board validates, and bots play it to its end or to the round
// limit without the match breaking.
func TestEveryCatalogActionPlaysAtItsExtremes(t *testing.T) {
	c := testPack.Catalog().(Catalog)
	for _, a := range c.Actions {
		for end, which := range []string{"lowest", "highest"} {
			t.Run(a.Name+"/"+which, func(t *testing.T) {
				payload := map[string]any{}
				for _, f := range a.Fields {
					payload[f.Name] = fieldExtremes(t, f)[end]
				}
				event := map[string]any{"trigger": map[string]any{"type": OnEnter}, "action": map[string]any{"type": a.Name, "payload": payload},
					"priority": c.Priorities[end*(len(c.Priorities)-1)]}
				board, err := json.Marshal(map[string]any{"metadata": map[string]any{"name": "Extremes"}, "spaces": []any{
					map[string]any{"id": "a", "name": "Start", "connections": []any{map[string]any{"targetId": "b"}}},
					map[string]any{"id": "b", "name": "Trap", "connections": []any{map[string]any{"targetId": "c"}}, "events": []any{event}},
					map[string]any{"id": "c", "name": "Lane", "connections": []any{map[string]any{"targetId": "finish"}}},
					map[string]any{"id": "finish", "name": "Finish", "events": []any{map[string]any{"trigger": map[string]any{"type": OnLand},
						"action": map[string]any{"type": SetPlayerState, "payload": map[string]any{"state": CompletedGame}}}}},
				}})
				if err != nil {
					t.Fatal(err)
				}
				b, list := Parse("extremes.json", board)
				if b == nil {
					t.Fatalf("does not validate:\n%s\n%s", strings.Join(lines(list), "\n"), board)
				}
				def, err := testPack.Compile(b)
				if err != nil {
					t.Fatal(err)
				}
				for seed := range uint64(3) {
					m, err := def.NewMatch(game.Setup{Players: []string{"Ann", "Bob"}, Seed: seed, MaxRounds: 30}, Options{})
					if err != nil {
						t.Fatal(err)
					}
					bots := rng.New(seed).Stream("bots")
					for n := 0; !m.s.Over; n++ {
						if n == 10_000 {
							t.Fatalf("seed %d: 10000 commands and the match goes on", seed)
						}
						seat := m.Waiting()[0]
						cmd, _ := m.Bot(seat, bots)
						if err := m.Play(seat, cmd); err != nil {
							t.Fatalf("seed %d: the match breaks: %v", seed, err)
						}
					}
				}
			})
		}
	}
}

// A walk that never ends by itself — a loop whose spaces each add steps,
// on entering or on landing — stops after MaxWalk steps without anyone's
// input, where the player stands, and the turn ends; the match goes on.
func TestEndlessWalkStops(t *testing.T) {
	for _, trigger := range []string{OnEnter, OnLand} {
		g := newTestGame(t, []Space{
			sp("1", next("2")),
			sp("2", next("1"), ev(trigger, DisplacePlayer, DisplaceArgs{Steps: 2})),
		}, "Ann", "Bob")
		play(t, g, rollCmd(0, 1))
		if g.s.Phase != PhaseRoll || g.s.Current != 1 {
			t.Fatalf("%s: phase %s, current %d: want Bob to roll", trigger, g.s.Phase, g.s.Current)
		}
		if h := g.s.Players[0].History; len(h) != MaxHistory {
			t.Errorf("%s: Ann's history has %d moves", trigger, len(h))
		}
		if got := g.Log(game.Spectator, 0); !slices.ContainsFunc(got, func(e game.Entry) bool { return e.Text == "Ann stops" }) {
			t.Errorf("%s: the log does not say that Ann stops", trigger)
		}
	}
}

// Priorities run the way the catalog says: of two events that fire
// together, listed in the other order, the one the catalog's order puts
// first runs first.
func TestPriorityRunsAsTheCatalogSays(t *testing.T) {
	c := testPack.Catalog().(Catalog)
	low, high := c.Priorities[0], c.Priorities[len(c.Priorities)-1]
	first := map[string]string{"highest-first": high, "lowest-first": low}[c.PriorityOrder]
	if first == "" {
		t.Fatalf("the catalog's priority order is %q", c.PriorityOrder)
	}
	set := func(prio, value string) Event {
		p, _ := engine.ParsePriority(prio)
		e := ev(OnLand, SetStat, SetStatArgs{Stat: "last", Value: map[string]float64{low: 1, high: 2}[value]})
		e.Priority = p
		return e
	}
	g := newTestGame(t, []Space{sp("1", next("2")), sp("2", nil, set(low, low), set(high, high))}, "Ann")
	play(t, g, rollCmd(0, 1))
	ran := map[float64]string{1: low, 2: high}[g.s.Players[0].StatValue("last")]
	if ran == first {
		t.Errorf("the catalog says %s, but %s ran last", c.PriorityOrder, ran)
	}
	if !strings.Contains(c.PriorityDoc, "highest priority first") {
		t.Errorf("the catalog's words: %q", c.PriorityDoc)
	}
}
