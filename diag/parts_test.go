package diag

import (
	"slices"
	"testing"
)

var partsSchema = []byte(`{"$id": "https://tabula.invalid/parts.json", "type": "object",
	"properties": {"list": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/item"}}},
	"$defs": {"item": {"type": "object", "required": ["id"], "additionalProperties": false,
		"properties": {"id": {"type": "string", "maxLength": 3}}}}}`)

// TestSplit: a schema split into parts finds what the whole schema finds,
// at the same places, and stops at the part where the reporter is full.
func TestSplit(t *testing.T) {
	whole := MustCompileSchema("https://tabula.invalid/parts.json", partsSchema)
	split := whole.Split(Part{Items: "/properties/list/items", Array: "/list", Def: "item"})
	data := []byte(`{"list": [{"id": 1}, {"idd": "x"}, {}, {"id": "abcd"}], "other": true}`)
	doc, _ := DecodeJSON(data)
	check := func(s *Schema, limit int) (List, int) {
		r := NewReporter("f.json", data)
		r.Limit = limit
		if s.Check(r, doc) {
			t.Error("a bad document passes")
		}
		r.List.Sort()
		return r.List, r.Count()
	}
	a, _ := check(whole, 0)
	b, _ := check(split, 0)
	if len(a) != 5 || !slices.Equal(a, b) {
		t.Errorf("whole:\n%s\nsplit:\n%s", a, b)
	}
	if _, n := check(split, 1); n != 1 {
		t.Errorf("with a limit of 1, %d problems counted; want 1 (the first part's, then no more parts checked)", n)
	}
}
