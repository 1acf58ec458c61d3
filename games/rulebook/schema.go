package rulebook

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"

	"github.com/tabulagames/tabula/diag"
)

// SchemaURL is the $id of the rule book schema, the address of its
// published copy docs/schema/rulebook-1.schema.json.
const SchemaURL = "https://raw.githubusercontent.com/tabulagames/tabula/main/docs/schema/rulebook-1.schema.json"

// obj is a JSON object being built.
type obj = map[string]any

// Schema returns the JSON Schema (draft 2020-12) of rule book files,
// version 1. It is made from the catalog, so that the events, actions,
// presets and their fields it lists are always those the loader knows; a
// test checks that the published copy is the same.
var Schema = sync.OnceValue(func() []byte {
	defs := obj{
		"props": obj{"type": "object", "description": "named whole numbers", "additionalProperties": obj{"type": "integer"},
			"maxProperties": maxProps},
		"players": obj{"type": "object", "additionalProperties": false, "description": "how many may play and how each starts",
			"properties": obj{
				"min":       obj{"type": "integer", "minimum": 1, "default": 2, "description": "the fewest players"},
				"max":       obj{"type": "integer", "minimum": 1, "maximum": maxPlayers, "default": 6, "description": "the most players"},
				"scoreName": obj{"type": "string", "minLength": 1, "maxLength": maxScoreName, "description": "what the game calls its players' score, such as money or points, in the log and on the page"},
				"propLabels": obj{"type": "object", "additionalProperties": obj{"type": "string", "minLength": 1}, "maxProperties": maxProps,
					"description": "what players call the players' properties, by name (\"stuck\": \"turns stuck\"); default: the name, in words"},
				"start": obj{"type": "object", "additionalProperties": false, "description": "every player's starting state", "properties": obj{
					"tile":  obj{"type": "string", "description": "the starting tile's id (default: the first tile)"},
					"score": obj{"type": "integer", "default": 0, "description": "the starting score (money)"},
					"props": obj{"$ref": "#/$defs/props", "description": "the players' properties and their starting values"},
				}},
			}},
		"board": obj{"type": "object", "required": []string{"tiles"}, "additionalProperties": false, "description": "a directed graph of tiles",
			"properties": obj{"tiles": obj{"type": "array", "minItems": 1, "maxItems": maxTiles, "items": obj{"$ref": "#/$defs/tile"}}}},
		"tile": obj{"type": "object", "required": []string{"id"}, "additionalProperties": false, "properties": obj{
			"id":     obj{"type": "string", "minLength": 1, "description": "the tile's id, unique"},
			"name":   obj{"type": "string"},
			"kind":   obj{"type": "string", "description": "what the tile is (start, property, chute…), for rules to filter on"},
			"x":      obj{"type": "number"},
			"y":      obj{"type": "number"},
			"next":   obj{"type": "array", "items": obj{"type": "string"}, "description": "the tiles a walk goes on to; the first is the main path; none: the board ends here"},
			"price":  obj{"type": "integer"},
			"rent":   obj{"type": "integer"},
			"colour": obj{"type": "string"},
			"jump":   obj{"type": "string", "description": "where a chute or a ladder leads"},
			"props":  obj{"$ref": "#/$defs/props"},
		}},
		"deck": obj{"type": "object", "required": []string{"name", "cards"}, "additionalProperties": false, "properties": obj{
			"name":  obj{"type": "string", "minLength": 1, "description": "the deck's name, as rules write it"},
			"title": obj{"type": "string", "minLength": 1, "description": "what players call the deck (\"Chance\"): \"Draw a Chance card\""},
			"cards": obj{"type": "array", "minItems": 1, "maxItems": maxCards, "items": obj{"$ref": "#/$defs/card"}},
		}},
		"card": obj{"type": "object", "required": []string{"name"}, "additionalProperties": false, "properties": obj{
			"name":   obj{"type": "string", "minLength": 1},
			"colour": obj{"type": "string"},
			"tile":   obj{"type": "string", "description": "the tile the card sends to"},
			"move":   obj{"type": "integer", "description": "the card's number (how many tiles of its colour); 0 counts as 1"},
			"count":  obj{"type": "integer", "minimum": 0, "description": "how many copies the deck holds; 0 counts as 1"},
			"props":  obj{"$ref": "#/$defs/props"},
		}},
		"event": obj{"type": "object", "required": []string{"name"}, "additionalProperties": false, "properties": obj{
			"name":        obj{"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
			"description": obj{"type": "string"},
		}},
		"rule": obj{"type": "object", "if": obj{"required": []string{"preset"}},
			"then": obj{"$ref": "#/$defs/presetRule"}, "else": obj{"$ref": "#/$defs/handRule"}},
		"handRule": obj{"type": "object", "required": []string{"when", "then"}, "additionalProperties": false, "properties": obj{
			"name":        obj{"type": "string"},
			"description": obj{"type": "string"},
			"when":        obj{"$ref": "#/$defs/when"},
			"if":          obj{"type": "string", "description": "a CEL condition, checked when the event happens"},
			"then":        obj{"type": "array", "minItems": 1, "items": obj{"$ref": "#/$defs/action"}},
		}},
		"when": obj{"type": "object", "required": []string{"event"}, "additionalProperties": false, "properties": obj{
			"event": obj{"anyOf": []any{obj{"enum": builtinNames()}, obj{"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"}},
				"description": "a built-in event or one the game declares"},
			"tile":   obj{"type": "string", "description": "only at this tile"},
			"kind":   obj{"type": "string", "description": "only at tiles of this kind"},
			"colour": obj{"type": "string", "description": "only at tiles of this colour"},
			"card":   obj{"type": "string", "description": "only for this card"},
			"deck":   obj{"type": "string", "description": "only for this deck"},
			"prop":   obj{"type": "string", "description": "only for this property"},
		}},
	}
	// A preset rule and an action are each one of several shapes, told
	// apart by one member ("preset", "action"): a definition per shape,
	// chosen by if/then so that errors speak of the right one.
	variants := func(key, prefix string, names []string, shape func(i int) (doc string, props obj, fields []Field)) obj {
		var branches []any
		for i, name := range names {
			doc, props, fields := shape(i)
			props[key] = obj{"const": name}
			var required []string
			for _, f := range fields {
				props[f.Name] = fieldSchema(f)
				if f.Required {
					required = append(required, f.Name)
				}
			}
			def := obj{"type": "object", "description": doc, "properties": props, "additionalProperties": false}
			if required != nil {
				def["required"] = required
			}
			defs[prefix+name] = def
			branches = append(branches, obj{"if": obj{"properties": obj{key: obj{"const": name}}}, "then": obj{"$ref": "#/$defs/" + prefix + name}})
		}
		return obj{"type": "object", "required": []string{key}, "properties": obj{key: obj{"enum": names}}, "allOf": branches}
	}
	defs["presetRule"] = variants("preset", "preset-", presetNames(), func(i int) (string, obj, []Field) {
		return presets[i].Doc, obj{"name": obj{"type": "string"}, "description": obj{"type": "string"}}, presets[i].Params
	})
	defs["action"] = variants("action", "action-", actionNames(), func(i int) (string, obj, []Field) {
		a := actions[i]
		props := obj{}
		for _, f := range commonActionFields[1:] {
			props[f.Name] = fieldSchema(f)
		}
		props["player"] = obj{"enum": selectorNames(), "default": a.Player, "description": "whose queue the action goes to"}
		return a.Doc, props, a.Fields
	})
	top := obj{
		"$schema":     obj{"type": "string"},
		"game":        obj{"const": "rulebook"},
		"name":        obj{"type": "string"},
		"description": obj{"type": "string", "description": "what the game is, for players choosing one in the lobby"},
		"howToPlay":   obj{"type": "string", "description": "how to play, for players: the goal, a turn, what ends it; the page shows it on demand and in the lobby"},
		"notes":       obj{"type": "string", "description": "a designer's notes: kept with the file, never shown to players"},
		"players":     obj{"$ref": "#/$defs/players"},
		"board":       obj{"$ref": "#/$defs/board"},
		"decks":       obj{"type": "array", "maxItems": maxCards, "items": obj{"$ref": "#/$defs/deck"}},
		"events":      obj{"type": "array", "maxItems": maxEvents, "items": obj{"$ref": "#/$defs/event"}},
		"rules":       obj{"type": "array", "maxItems": maxRules, "items": obj{"$ref": "#/$defs/rule"}},
	}
	bound(obj{"properties": top}, "")
	for _, d := range defs {
		bound(d, "")
	}
	// The top level in reading order; encoding/json sorts the rest.
	var m members
	m.add("$schema", "https://json-schema.org/draft/2020-12/schema")
	m.add("$id", SchemaURL)
	m.add("title", "Tabula rule book, version 1")
	m.add("description", "A game made of rules: a board of tiles, players, decks, and rules \"when EVENT, if CONDITION, then ACTIONS\". See docs/rulebook.md.")
	m.add("type", "object")
	m.add("required", []string{"game", "board", "rules"})
	m.add("additionalProperties", false)
	m.add("properties", top)
	m.add("$defs", defs)
	var b bytes.Buffer
	if err := json.Indent(&b, m.done(), "", "  "); err != nil {
		panic("rulebook: encoding the schema: " + err.Error())
	}
	b.WriteByte('\n')
	return b.Bytes()
})

// bound gives every string of a schema the limit the loader has for it
// (stringLimits): its member's, or the names' for the names of a map's
// members. member names the member whose value s describes ("" for none).
func bound(s any, member string) {
	switch s := s.(type) {
	case obj:
		_, enum := s["enum"]
		_, konst := s["const"]
		if t := s["type"]; (t == "string" || slices.Contains(asStrings(t), "string")) && !enum && !konst {
			s["maxLength"] = stringLimits.For(member)
		}
		if props, ok := s["properties"].(obj); ok {
			for name, sub := range props {
				bound(sub, name)
			}
		}
		if ap, ok := s["additionalProperties"].(obj); ok {
			s["propertyNames"] = obj{"maxLength": stringLimits.Key}
			bound(ap, "")
		}
		for _, k := range []string{"items", "if", "then", "else"} {
			bound(s[k], member)
		}
		for _, k := range []string{"anyOf", "allOf", "oneOf"} {
			bound(s[k], member)
		}
	case []any:
		for _, sub := range s {
			bound(sub, member)
		}
	}
}

func asStrings(v any) []string {
	out, _ := v.([]string)
	return out
}

func builtinNames() []string {
	var out []string
	for _, e := range builtinEvents {
		out = append(out, e.Name)
	}
	return out
}

// fieldSchema is the schema of a field's value.
func fieldSchema(f Field) obj {
	var s obj
	switch f.Type {
	case TypeInt:
		s = obj{"type": []string{"integer", "string"}}
	case TypeCount:
		s = obj{"type": "integer"}
	case TypeChoice:
		s = obj{"enum": f.Values}
	default:
		s = obj{"type": "string"}
	}
	if f.Min != nil {
		s["minimum"] = *f.Min
	}
	if f.Max != nil {
		s["maximum"] = *f.Max
	}
	s["description"] = f.Doc
	if f.Default != nil {
		s["default"] = f.Default
	}
	return s
}

// compiledSchema is the schema, compiled once. It is built from the
// catalog, so failing to compile it is a defect of the program, not of a
// file: it panics (and the tests catch it).
var compiledSchema = sync.OnceValue(func() *diag.Schema {
	// Tiles, decks, events and rules are checked one at a time: a file of
	// thousands of bad ones would otherwise cost the validator hundreds
	// of bytes per byte of the file.
	return diag.MustCompileSchema(SchemaURL, Schema()).Split(
		diag.Part{Items: "/$defs/board/properties/tiles/items", Array: "/board/tiles", Def: "tile"},
		diag.Part{Items: "/properties/decks/items", Array: "/decks", Def: "deck"},
		diag.Part{Items: "/properties/events/items", Array: "/events", Def: "event"},
		diag.Part{Items: "/properties/rules/items", Array: "/rules", Def: "rule"},
	)
})

// schemaDiagnostics validates a document (data decoded) against the
// schema and turns each failure into a diagnostic at its pointer.
func schemaDiagnostics(file string, data []byte, root any) diag.List {
	rep := diag.NewReporter(file, data)
	compiledSchema().Check(rep, root)
	return rep.List
}
