package rulebook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cel.dev/cel-go/cel"
)

// TestCatalogIsComplete: every action is carried out, every preset
// expands to rules that compile, every field has a type and a doc, and the
// catalog is plain data an editor can read as JSON.
func TestCatalogIsComplete(t *testing.T) {
	c := Catalog()
	for _, a := range c.Actions {
		if _, ok := impls[a.Name]; !ok {
			t.Errorf("action %s has no implementation", a.Name)
		}
		if a.Doc == "" || a.Player == "" {
			t.Errorf("action %s lacks a doc or a default player", a.Name)
		}
		for _, f := range a.Fields {
			if f.Doc == "" || f.Type == "" || (f.Default == nil) == !f.Required {
				t.Errorf("action %s field %s: doc %q, type %q, default %v, required %v", a.Name, f.Name, f.Doc, f.Type, f.Default, f.Required)
			}
		}
		for _, e := range a.Emits {
			if !slices.ContainsFunc(c.Events, func(ev EventInfo) bool { return ev.Name == e }) {
				t.Errorf("action %s emits unknown event %s", a.Name, e)
			}
		}
	}
	if len(impls) != len(c.Actions) {
		t.Errorf("%d implementations for %d actions", len(impls), len(c.Actions))
	}
	for _, e := range c.Events {
		if e.Doc == "" || e.Fields == nil || e.Filters == nil {
			t.Errorf("event %s is not fully described", e.Name)
		}
	}
	js, err := json.Marshal(c)
	if err != nil || !bytes.Contains(js, []byte(`"name":"MOVE_TO_NEXT"`)) || !bytes.Contains(js, []byte(`"cel":"tile.kind == {kind}"`)) {
		t.Errorf("the catalog as JSON: %v\n%.300s", err, js)
	}
	// Changing the copy changes nothing.
	c.Actions[0].Name = "CHANGED"
	if Catalog().Actions[0].Name == "CHANGED" {
		t.Error("Catalog shares its data")
	}
}

// TestPresetsCompile: each preset, with its defaults (and the required
// parameters given), stands for rules that compile, in a game where they
// make sense.
func TestPresetsCompile(t *testing.T) {
	required := map[string]string{"deck": `"d"`, "rounds": "10"}
	for _, p := range Catalog().Presets {
		params := map[string]json.RawMessage{}
		for _, f := range p.Params {
			if f.Required {
				params[f.Name] = json.RawMessage(required[f.Name])
			}
		}
		rules, err := p.Expand(params)
		if err != nil || len(rules) == 0 {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		for _, r := range rules {
			if !strings.HasPrefix(r.Name, p.Name+": ") {
				t.Errorf("%s: rule named %q", p.Name, r.Name)
			}
		}
		preset, _ := json.Marshal(Rule{Preset: p.Name, Params: params})
		src := `{"game": "rulebook", "decks": [{"name": "d", "cards": [{"name": "c", "colour": "red"}]}],
 "board": {"tiles": [{"id": "a", "kind": "tile", "price": 1, "next": ["b"]}, {"id": "b", "colour": "red"}]},
 "rules": [{"preset": "Turn"}, {"preset": "DieMove"}, {"preset": "FiniteBoardWin"}, ` + string(preset) + `]}`
		if _, list := pack.Parse(p.Name+".json", []byte(src)); list.HasErrors() {
			t.Errorf("%s:\n%s", p.Name, lines(list))
		}
	}
	if _, err := presetInfo("CardMove").Expand(nil); err == nil || err.Error() != `preset CardMove needs "deck"` {
		t.Errorf("CardMove without a deck: %v", err)
	}
	if _, err := presetInfo("Turn").Expand(map[string]json.RawMessage{"x": json.RawMessage("1")}); err == nil {
		t.Error("Turn took an unknown parameter")
	}
}

// TestPredicates: each predicate, rendered with arguments, is a condition
// that compiles; it is offered for the events that carry what it reads.
func TestPredicates(t *testing.T) {
	args := map[FieldType]string{TypeKind: "chute", TypeTile: "a", TypeColour: "red", TypeCount: "3", TypeProp: "stuck", TypeCard: "Red"}
	for _, p := range Catalog().Predicates {
		in := map[string]string{}
		for _, f := range p.Params {
			in[f.Name] = args[f.Type]
		}
		src, err := p.Render(in)
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		if _, probs := compileExpr(src, cel.BoolType); probs != nil {
			t.Errorf("%s: %q: %v", p.Name, src, probs)
		}
	}
	if got, _ := predicateInfo("TileKind").Render(map[string]string{"kind": "it's"}); got != `tile.kind == 'it\'s'` {
		t.Errorf("quoting: %s", got)
	}
	if _, err := predicateInfo("ScoreBelow").Render(map[string]string{"amount": "x"}); err == nil {
		t.Error("ScoreBelow took a word for a number")
	}
	var names []string
	for _, p := range PredicatesFor(eventInfo(CardDrawn)) {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, "CardIs") || slices.Contains(names, "TileKind") || !slices.Contains(names, "PlayersAtMost") {
		t.Errorf("predicates for CARD_DRAWN: %v", names)
	}
}

func predicateInfo(name string) PredicateInfo {
	for _, p := range predicates {
		if p.Name == name {
			return p
		}
	}
	panic(name)
}

func eventInfo(name string) EventInfo {
	for _, e := range builtinEvents {
		if e.Name == name {
			return e
		}
	}
	panic(name)
}

// TestPublishedSchema: docs/schema/rulebook-1.schema.json is the schema the
// loader checks files against (go test -update rewrites it), and it knows
// every action and preset.
func TestPublishedSchema(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "schema", "rulebook-1.schema.json")
	if *update {
		if err := os.WriteFile(path, Schema(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	published, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(published, Schema()) {
		t.Errorf("%s is not the schema the loader uses (go test -update rewrites it)", path)
	}
	compiledSchema() // panics if the schema does not compile
	for _, name := range append(actionNames(), presetNames()...) {
		if !bytes.Contains(published, []byte(`"`+name+`"`)) {
			t.Errorf("the schema does not mention %s", name)
		}
	}
}
