package server

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/examples"
	"github.com/tabulagames/tabula/games/party"
	"github.com/tabulagames/tabula/games/rulebook"
)

func TestRulebookCatalog(t *testing.T) {
	ts := newTestServer(t, "")
	var c RulebookCatalog
	if code := ts.call("GET", "/api/catalog/rulebook", nil, &c); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if len(c.Events) == 0 || len(c.Actions) == 0 || len(c.Presets) == 0 || len(c.Predicates) == 0 || c.DefaultPriority == 0 {
		t.Fatalf("an empty catalog: %d events, %d actions, %d presets, %d predicates", len(c.Events), len(c.Actions), len(c.Presets), len(c.Predicates))
	}
	landed := c.PredicatesFor["TILE_LANDED"]
	if !slices.Contains(landed, "TileKind") || slices.Contains(landed, "CardIs") {
		t.Errorf("predicates for TILE_LANDED: %v", landed)
	}
	if drawn := c.PredicatesFor["CARD_DRAWN"]; !slices.Contains(drawn, "CardIs") || slices.Contains(drawn, "TileKind") {
		t.Errorf("predicates for CARD_DRAWN: %v", drawn)
	}
	i := slices.IndexFunc(c.Actions, func(a rulebook.ActionInfo) bool { return a.Name == "PAY" })
	if i < 0 || len(c.Actions[i].Fields) != 2 || c.Actions[i].Fields[0].Name != "amount" {
		t.Errorf("PAY: %+v", c.Actions)
	}
}

func TestRenderPredicate(t *testing.T) {
	ts := newTestServer(t, "")
	for _, c := range []struct {
		name string
		args map[string]string
		code int
		want string
	}{
		{"TileKind", map[string]string{"kind": "ladder"}, http.StatusOK, "tile.kind == 'ladder'"},
		{"TileKind", map[string]string{"kind": "it's"}, http.StatusOK, `tile.kind == 'it\'s'`},
		{"PropAtLeast", map[string]string{"prop": "stuck", "amount": "2"}, http.StatusOK, "player.props['stuck'] >= 2"},
		{"PropAtLeast", map[string]string{"prop": "stuck", "amount": "two"}, http.StatusBadRequest, "must be a whole number"},
		{"TileKind", map[string]string{}, http.StatusBadRequest, `needs "kind"`},
		{"TileKnd", map[string]string{}, http.StatusNotFound, "did you mean TileKind?"},
	} {
		var out struct {
			CEL   string `json:"cel"`
			Error string `json:"error"`
		}
		code := ts.call("POST", "/api/catalog/rulebook/predicates/"+c.name, c.args, &out)
		if code != c.code || !strings.Contains(out.CEL+out.Error, c.want) {
			t.Errorf("%s %v: %d %+v, want %d %q", c.name, c.args, code, out, c.code, c.want)
		}
	}
}

// TestPartyCatalogMatchesTheLoader builds, for every action the party
// catalog offers, an event whose payload the editor's form would write,
// and checks that the board loads without a problem.
func TestPartyCatalogMatchesTheLoader(t *testing.T) {
	ts := newTestServer(t, "")
	var c PartyCatalog
	ts.call("GET", "/api/catalog/party", nil, &c)
	var names []string
	for _, a := range c.Actions {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, party.ActionTypes) {
		t.Errorf("the catalog's actions are %v, the loader's %v", names, party.ActionTypes)
	}
	var triggers []string
	for _, tr := range c.Triggers {
		triggers = append(triggers, tr.Value)
	}
	if !slices.Equal(triggers, party.TriggerTypes) {
		t.Errorf("the catalog's triggers are %v, the loader's %v", triggers, party.TriggerTypes)
	}
	var events []string
	for _, a := range c.Actions {
		payload := map[string]any{}
		for _, f := range a.Fields {
			switch f.Type {
			case "text":
				payload[f.Name] = "Drink!"
			case "number", "int":
				payload[f.Name] = 2
			case "choice":
				payload[f.Name] = f.Values[len(f.Values)-1]
			case "space":
				payload[f.Name] = "b"
			case "effect":
				payload[f.Name] = map[string]any{"type": f.Values[0], "args": []any{"nap", 1}}
			default:
				t.Errorf("%s.%s: a field of type %q that the page does not know", a.Name, f.Name, f.Type)
			}
		}
		ev, _ := json.Marshal(map[string]any{"trigger": map[string]any{"type": "ON_LAND"}, "action": map[string]any{"type": a.Name, "payload": payload}, "priority": c.DefaultPriority})
		events = append(events, string(ev))
	}
	board := `{"metadata": {"name": "Every action"}, "spaces": [
	  {"id": "a", "name": "A", "connections": [{"targetId": "b"}], "events": [` + strings.Join(events, ",") + `]},
	  {"id": "b", "name": "B", "events": [{"trigger": {"type": "ON_LAND"}, "action": {"type": "SET_PLAYER_STATE", "payload": {"state": "COMPLETED_GAME"}}}]}]}`
	var v Validation
	ts.call("POST", "/api/validate?name=every.json", board, &v)
	if !v.Valid || len(v.Diagnostics) > 0 || v.Game != "party" {
		t.Errorf("a board made from the catalog: %+v", v)
	}
}

func TestGameSource(t *testing.T) {
	ts := newTestServer(t, "")
	want, err := fs.ReadFile(examples.Rulebook, "rulebook/monopoly.json")
	if err != nil {
		t.Fatal(err)
	}
	var src GameSource
	if code := ts.call("GET", "/api/games/monopoly", nil, &src); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if src.Source != string(want) || src.File != "monopoly.json" || src.Board.Game != "rulebook" || src.Board.Spaces != 40 {
		t.Errorf("monopoly: %+v (source of %d bytes, want %d)", src.Board, len(src.Source), len(want))
	}
	ts.call("GET", "/api/games/default", nil, &src)
	if src.Board.Game != "party" || !strings.Contains(src.Source, `"spaces"`) {
		t.Errorf("the default board: %+v", src.Board)
	}
	var e apiError
	if code := ts.call("GET", "/api/games/nope", nil, &e); code != http.StatusNotFound || !strings.Contains(e.Error, "nope") {
		t.Errorf("an unknown game: %d %+v", code, e)
	}
}

func TestValidate(t *testing.T) {
	ts := newTestServer(t, "")
	var boards []BoardInfo
	ts.call("GET", "/api/boards", nil, &boards)

	var src GameSource
	ts.call("GET", "/api/games/chutes-and-ladders", nil, &src)
	var ok Validation
	if code := ts.call("POST", "/api/validate?name=cl.json", src.Source, &ok); code != http.StatusOK || !ok.Valid || ok.Game != "rulebook" || ok.Board == nil || ok.Board.Spaces != 101 {
		t.Fatalf("chutes and ladders: %d %+v", code, ok)
	}
	i := slices.IndexFunc(ok.Events, func(e EventPredicates) bool { return e.Name == "TILE_LANDED" })
	if i < 0 || !slices.Contains(ok.Events[i].Predicates, "TileHasJump") {
		t.Errorf("events of a valid rule book: %+v", ok.Events)
	}

	bad := `{"game": "rulebook", "name": "Broken",
  "events": [{"name": "BONUS"}],
  "board": {"tiles": [{"id": "a", "next": ["b"]}, {"id": "b"}]},
  "rules": [
    {"preset": "Turn"},
    {"name": "Pay up", "when": {"event": "TILE_LANDED"}, "then": [{"action": "CHANGE_SCOR", "amount": 3}]},
    {"name": "Odd", "when": {"event": "TILE_LANDED"}, "if": "tile.kind == 'x' &&", "then": [{"action": "SAY", "text": "hi"}]}
  ]}`
	var v Validation
	if code := ts.call("POST", "/api/validate?name=broken.json", bad, &v); code != http.StatusOK || v.Valid || v.Game != "rulebook" {
		t.Fatalf("a broken rule book: %d %+v", code, v)
	}
	text := diagText(v.Diagnostics)
	for _, want := range []string{
		"broken.json:6:", "/rules/1/then/0/action: unknown action \"CHANGE_SCOR\" (did you mean CHANGE_SCORE?)",
		"broken.json:7:", "/rules/2/if: condition:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, text)
		}
	}
	if !slices.ContainsFunc(v.Events, func(e EventPredicates) bool { return e.Name == "BONUS" && e.Custom }) {
		t.Errorf("the declared event is not offered: %+v", v.Events)
	}

	for _, c := range []struct{ body, want string }{
		{`{"spaces": [{"id": 1, "connections": [{"targetId": 2}]}]}`, "/spaces/0/connections/0/targetId"},
		{`{"hello": 1}`, "not a game file Tabula knows"},
		{`{"game": "rulebook",`, "invalid JSON"},
	} {
		var v Validation
		ts.call("POST", "/api/validate", c.body, &v)
		if v.Valid || !strings.Contains(diagText(v.Diagnostics), c.want) {
			t.Errorf("%s: %+v, want %q", c.body, v, c.want)
		}
	}

	var after []BoardInfo
	ts.call("GET", "/api/boards", nil, &after)
	if len(after) != len(boards) {
		t.Errorf("validating changed the library: %d games, then %d", len(boards), len(after))
	}
}

func diagText(list []diag.Diagnostic) string {
	var lines []string
	for _, d := range list {
		lines = append(lines, d.String())
	}
	return strings.Join(lines, "\n")
}

func TestRulebooksInTheLibrary(t *testing.T) {
	ts := newTestServer(t, "")
	var boards []BoardInfo
	ts.call("GET", "/api/boards", nil, &boards)
	games := map[string]string{}
	for _, b := range boards {
		games[b.ID] = b.Game
	}
	for id, want := range map[string]string{"default": "party", "everything": "party", "chutes-and-ladders": "rulebook", "candy-land": "rulebook", "monopoly": "rulebook"} {
		if games[id] != want {
			t.Errorf("%s: game %q, want %q (library: %v)", id, games[id], want, games)
		}
	}
	var d TileBoard
	if code := ts.call("GET", "/api/boards/monopoly", nil, &d); code != http.StatusOK || len(d.Tiles) != 40 || d.Tiles[1].Price == 0 {
		t.Errorf("monopoly's drawing: %d %+v", code, d.Info)
	}
	var src GameSource
	ts.call("GET", "/api/games/candy-land", nil, &src)
	mine := strings.Replace(src.Source, `"name": "Candy Land"`, `"name": "My Candy Land"`, 1)
	var up struct {
		Board       BoardInfo
		Diagnostics []diag.Diagnostic
	}
	if code := ts.call("POST", "/api/boards?name=mine.json", mine, &up); code != http.StatusCreated || up.Board.Game != "rulebook" || up.Board.Name != "My Candy Land" {
		t.Fatalf("upload of a rule book: %d %+v", code, up)
	}
	var e apiError
	if code := ts.call("POST", "/api/matches", map[string]any{"board": up.Board.ID, "seats": 7}, &e); code != http.StatusBadRequest || !strings.Contains(e.Error, "2 to 4 players") {
		t.Errorf("too many seats for the game: %d %+v", code, e)
	}
	var m created
	if code := ts.call("POST", "/api/matches", map[string]any{"board": up.Board.ID}, &m); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	var sum Summary
	ts.call("GET", "/api/matches/"+m.ID, nil, &sum)
	if sum.Game != "rulebook" || sum.MaxRounds != 1000 || len(sum.Seats) != 2 || sum.BoardName != "My Candy Land" {
		t.Errorf("the match: %+v", sum)
	}
}
