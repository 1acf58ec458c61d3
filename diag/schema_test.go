package diag

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

const testSchemaURL = "https://tabula.invalid/test.schema.json"

// testSchema has a member of each kind the wording covers.
var testSchema = []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["name"],
  "additionalProperties": false,
  "properties": {
    "name": {"type": "string", "minLength": 1},
    "count": {"type": "integer", "minimum": 1, "maximum": 9},
    "colour": {"enum": ["red", "green", "blue"]},
    "version": {"const": 1},
    "tags": {"type": "array", "minItems": 1, "items": {"type": "string"}},
    "code": {"type": "string", "pattern": "^[A-Z]+$"},
    "use": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/use"}]},
    "duration": {"anyOf": [{"enum": ["permanent"]}, {"$ref": "#/$defs/use"}]},
    "inline": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"n": {"type": "integer"}}}]}
  },
  "$defs": {
    "use": {
      "type": "object",
      "required": ["rounds"],
      "additionalProperties": false,
      "properties": {"rounds": {"type": "integer"}, "save": {"type": "integer"}}
    }
  }
}`)

// TestSchemaCheck: each kind of failure is reported once, at the value it
// is about, in plain words that say how to fix it.
func TestSchemaCheck(t *testing.T) {
	s := MustCompileSchema(testSchemaURL, testSchema)
	for _, c := range []struct {
		name, doc string
		want      []string // FILE:LINE:COL: /pointer: message
	}{
		{"valid", `{"name": "x", "use": {"rounds": 2}, "duration": "permanent"}`, nil},
		{"required", `{}`, []string{`f.json:1:1: /name: "name" is required here`}},
		{"unknown member", `{"name": "x", "colur": "red"}`, []string{`f.json:1:24: /colur: unknown member "colur" (did you mean colour?)`}},
		{"unknown member of a definition", `{"name": "x", "use": {"rounds": 1, "sav": 2}}`, []string{
			`f.json:1:43: /use/sav: unknown member "sav" (did you mean save?)`}},
		{"type", `{"name": 3}`, []string{`f.json:1:10: /name: must be a string, not a number`}},
		{"empty", `{"name": ""}`, []string{`f.json:1:10: /name: must not be empty`}},
		{"bounds", `{"name": "x", "count": 0}`, []string{`f.json:1:24: /count: must be at least 1`}},
		{"upper bound", `{"name": "x", "count": 10}`, []string{`f.json:1:24: /count: must be at most 9`}},
		{"enum", `{"name": "x", "colour": "gren"}`, []string{`f.json:1:25: /colour: must be one of red, green, blue, not "gren" (did you mean green?)`}},
		{"const", `{"name": "x", "version": 2}`, []string{`f.json:1:26: /version: must be 1, not 2`}},
		{"no items", `{"name": "x", "tags": []}`, []string{`f.json:1:23: /tags: must not be empty`}},
		{"pattern", `{"name": "x", "code": "ab"}`, []string{`f.json:1:23: /code: 'ab' does not match pattern '^[A-Z]+$'`}},
		{"a branch says more", `{"name": "x", "use": {"round": 2}}`, []string{
			`f.json:1:22: /use/rounds: "rounds" is required here`,
			`f.json:1:32: /use/round: unknown member "round" (did you mean rounds?)`}},
		{"a member of a branch fails on type", `{"name": "x", "use": {"rounds": "2"}}`, []string{
			`f.json:1:33: /use/rounds: must be a whole number, not a string`}},
		{"a member of an inline branch fails on type", `{"name": "x", "inline": {"n": "2"}}`, []string{
			`f.json:1:31: /inline/n: must be a whole number, not a string`}},
		{"every branch fails on type", `{"name": "x", "use": 5}`, []string{`f.json:1:22: /use: must be a string or an object, not a number`}},
		{"an enum beside an object", `{"name": "x", "duration": "forever"}`, []string{
			`f.json:1:27: /duration: must be one of permanent, not "forever"`}},
		{"several at once", `{"count": "2", "colour": 1}`, []string{
			`f.json:1:1: /name: "name" is required here`,
			`f.json:1:11: /count: must be a whole number, not a string`,
			`f.json:1:26: /colour: must be one of red, green, blue, not 1`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewReporter("f.json", []byte(c.doc))
			doc, ok := r.DecodeJSON([]byte(c.doc))
			if !ok {
				t.Fatal(r.List)
			}
			if passed := s.Check(r, doc); passed != (c.want == nil) {
				t.Errorf("Check = %v", passed)
			}
			r.List.Sort()
			var got []string
			for _, d := range r.List {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestSchemaSpecial: a pack's own wording stands for a failure and all
// beneath it; definitions compile on their own and keep it.
func TestSchemaSpecial(t *testing.T) {
	s := MustCompileSchema(testSchemaURL, testSchema)
	s.Special = func(e *jsonschema.ValidationError) (string, bool) {
		if _, ok := e.ErrorKind.(*kind.AnyOf); ok {
			return "must be a name or {\"rounds\": n}", true
		}
		return "", false
	}
	r := NewReporter("f.json", nil)
	s.Check(r, map[string]any{"name": "x", "use": map[string]any{"round": 2}})
	if len(r.List) != 1 || r.List[0].String() != `f.json: /use: must be a name or {"rounds": n}` {
		t.Errorf("got %v", r.List)
	}
	use := s.MustDef("use")
	r = NewReporter("f.json", nil)
	if use.Check(r, map[string]any{"rounds": "2"}) || len(r.List) != 1 || r.List[0].Message != "must be a whole number, not a string" {
		t.Errorf("the definition: %v", r.List)
	}
}

// TestDecodeJSON: a file that is not one JSON value is reported at the
// character at fault.
func TestDecodeJSON(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"{\n  \"spaces\": [,]\n}", "f.json:2:14: /: invalid JSON: invalid character ',' looking for beginning of value"},
		{`{"spaces": [`, "f.json:1:13: /: invalid JSON: unexpected end of the file"},
		{"{\n  \"a\": 1,\n", "f.json:3:1: /: invalid JSON: unexpected end of the file"},
		{``, "f.json:1:1: /: invalid JSON: unexpected end of the file"},
		{`{"spaces": []}   x`, "f.json:1:18: /: invalid JSON: more data after the end of the document"},
		{`{"game": "rulebook"} {}`, "f.json:1:22: /: invalid JSON: more data after the end of the document"},
	} {
		r := NewReporter("f.json", []byte(c.doc))
		if _, ok := r.DecodeJSON([]byte(c.doc)); ok || len(r.List) != 1 || r.List[0].String() != c.want {
			t.Errorf("%q: got %v, want %s", c.doc, r.List, c.want)
		}
	}
	v, err := DecodeJSON([]byte(` {"n": 1.0} `))
	if err != nil || Describe(v.(map[string]any)["n"]) != "1.0" || JSONKind(v) != "an object" {
		t.Errorf("DecodeJSON = %v, %v", v, err)
	}
}

// TestJSONKind names values as messages say them.
func TestJSONKind(t *testing.T) {
	v, _ := DecodeJSON([]byte(`[null, true, 1, 1.5, "s", [], {}]`))
	want := []string{"null", "true or false", "a whole number", "a number", "a string", "an array", "an object"}
	for i, x := range v.([]any) {
		if got := JSONKind(x); got != want[i] {
			t.Errorf("JSONKind(%v) = %q, want %q", x, got, want[i])
		}
	}
	if got := Describe("a\"b"); got != `"a\"b"` {
		t.Errorf("Describe = %s", got)
	}
}

// TestAtString: a character inside a JSON string is found with escapes
// counted as the one character they stand for.
func TestAtString(t *testing.T) {
	doc := []byte("{\"a\": \"x + y\",\n \"b\": \"\\u00e9\\n\\ud83d\\ude00 z\", \"c\": 3}")
	for _, c := range []struct {
		ptr   string
		chars int
		want  string
	}{
		{"/a", 0, "f.json:1:8: /a: m"},
		{"/a", 4, "f.json:1:12: /a: m"},
		{"/b", 3, "f.json:2:28: /b: m"}, // past é, \n and the emoji's pair
		{"/b", 4, "f.json:2:29: /b: m"},
		{"/c", 1, "f.json:2:38: /c: m"},            // not a string: the value
		{"/missing", 1, "f.json:1:1: /missing: m"}, // nothing there: its parent
	} {
		r := NewReporter("f.json", doc)
		r.AtString(Error, c.ptr, c.chars, "m")
		if got := r.List[0].String(); got != c.want {
			t.Errorf("AtString(%s, %d) = %s, want %s", c.ptr, c.chars, got, c.want)
		}
	}
}
