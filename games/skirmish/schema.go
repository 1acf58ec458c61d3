package skirmish

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/tabulagames/tabula/diag"
)

// Schema is the published JSON Schema of skirmish files (also in
// docs/schema/skirmish-1.schema.json).
//
//go:embed schema/skirmish-1.schema.json
var Schema []byte

// SchemaURL is the schema's $id.
const SchemaURL = "https://tabula.games/schema/skirmish-1.schema.json"

var (
	compiled  *jsonschema.Schema
	schemaDoc any // the schema as a document, to look up property names
	printer   = message.NewPrinter(language.English)
)

func init() {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		panic("skirmish: the embedded schema is not JSON: " + err.Error())
	}
	schemaDoc = doc
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaURL, doc); err != nil {
		panic("skirmish: " + err.Error())
	}
	if compiled, err = c.Compile(SchemaURL); err != nil {
		panic("skirmish: the embedded schema does not compile: " + err.Error())
	}
}

// checkSchema validates a file against the schema and reports every
// problem at its position. It reports whether the file passed.
func checkSchema(r *diag.Reporter, data []byte) bool {
	var syntax any
	if err := json.Unmarshal(data, &syntax); err != nil {
		var se *json.SyntaxError
		line, col := 1, 1
		if errors.As(err, &se) {
			line, col = diag.NewLocator(data).Position(int(se.Offset))
		}
		r.At(diag.Error, "", line, col, "not valid JSON: "+err.Error())
		return false
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		r.Errorf("", "not valid JSON: %v", err)
		return false
	}
	err = compiled.Validate(inst)
	if err == nil {
		return true
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		r.Errorf("", "%v", err)
		return false
	}
	for _, leaf := range leaves(ve) {
		report(r, leaf)
	}
	return false
}

// leaves returns the errors at the bottom of a validation error's tree.
// Of the branches of an anyOf (a condition given as a name or as an
// object), the ones that only fail on the value's type are left out when
// another branch says more.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	causes := e.Causes
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		var kept []*jsonschema.ValidationError
		for _, c := range causes {
			if _, isType := c.ErrorKind.(*kind.Type); !isType || len(c.Causes) > 0 {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			return []*jsonschema.ValidationError{e}
		}
		causes = kept
	}
	var out []*jsonschema.ValidationError
	for _, c := range causes {
		out = append(out, leaves(c)...)
	}
	return out
}

func report(r *diag.Reporter, e *jsonschema.ValidationError) {
	ptr := diag.Pointer(anySlice(e.InstanceLocation)...)
	if len(e.InstanceLocation) == 0 {
		ptr = ""
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		allowed := schemaProperties(e.SchemaURL)
		for _, p := range k.Properties {
			r.Errorf(ptr+diag.Pointer(p), "unknown field %q%s", p, diag.DidYouMean(p, allowed))
		}
	case *kind.Required:
		for _, p := range k.Missing {
			r.Errorf(ptr, "missing field %q", p)
		}
	case *kind.Enum:
		got := fmt.Sprint(k.Got)
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		r.Errorf(ptr, "%q is not one of %s%s", got, strings.Join(want, ", "), diag.DidYouMean(got, want))
	case *kind.Const:
		r.Errorf(ptr, "%v must be %q", k.Got, fmt.Sprint(k.Want))
	case *kind.AnyOf:
		r.Errorf(ptr, "must be a condition's name or an object like {\"name\": \"blinded\", \"rounds\": 2}")
	default:
		r.Errorf(ptr, "%s", e.ErrorKind.LocalizedString(printer))
	}
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// schemaProperties returns the property names the schema object at a
// schema location allows, sorted.
func schemaProperties(loc string) []string {
	_, frag, _ := strings.Cut(loc, "#")
	node := schemaDoc
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		switch n := node.(type) {
		case map[string]any:
			node = n[strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil
			}
			node = n[i]
		}
	}
	m, _ := node.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	var names []string
	for n := range props {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
