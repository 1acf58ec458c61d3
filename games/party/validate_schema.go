package party

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/docs/schema"
)

// schemaDefs are the definitions of the board schema that files are
// checked against: the whole-file formats and the parts of a bundle.
var schemaDefs = []string{
	"v1", "v3", "bundleManifest", "bundleMetadata", "bundleEngine", "bundleRules",
	"bundleUi", "bundleTopology", "bundleDependencies", "bundleSettings",
}

// compiledSchemas compiles each definition of the embedded board schema
// once. The schema ships with the binary, so failing to compile it is a
// defect of the build, not of a board: it panics (and the tests catch it).
var compiledSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Board))
	if err != nil {
		panic("party: the board schema is not JSON: " + err.Error())
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schema.BoardURL, doc); err != nil {
		panic("party: adding the board schema: " + err.Error())
	}
	out := map[string]*jsonschema.Schema{}
	for _, def := range append([]string{""}, schemaDefs...) {
		loc := schema.BoardURL
		if def != "" {
			loc += "#/$defs/" + def
		}
		s, err := c.Compile(loc)
		if err != nil {
			panic("party: compiling the board schema: " + err.Error())
		}
		out[def] = s
	}
	return out
})

var schemaPrinter = message.NewPrinter(language.English)

// schemaDiagnostics validates a part's JSON against a definition of the
// board schema and turns each failure into a diagnostic at its pointer.
func schemaDiagnostics(pt *part, def string) diag.List {
	s := compiledSchemas()[def]
	err := s.Validate(pt.root)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return diag.List{{File: pt.file, Severity: diag.Error, Message: "JSON Schema: " + err.Error()}}
	}
	rep := diag.NewReporter(pt.file, pt.data)
	for _, leaf := range schemaLeaves(ve, nil) {
		ptr := diag.Pointer(anySlice(leaf.InstanceLocation)...)
		if len(leaf.InstanceLocation) == 0 {
			ptr = ""
		}
		switch k := leaf.ErrorKind.(type) {
		case *kind.Required:
			for _, m := range k.Missing {
				rep.Errorf(ptr+"/"+esc(m), "%q is required here", m)
			}
		case *kind.AdditionalProperties:
			for _, m := range k.Properties {
				rep.Errorf(ptr+"/"+esc(m), "unknown member %q", m)
			}
		default:
			rep.Errorf(ptr, "%s", schemaMessage(leaf.ErrorKind))
		}
	}
	// One value may fail several branches the same way; say it once.
	return slices.CompactFunc(rep.List, func(a, b diag.Diagnostic) bool { return a == b })
}

// schemaLeaves returns the innermost failures of a validation error.
func schemaLeaves(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(out, e)
	}
	for _, c := range e.Causes {
		out = schemaLeaves(c, out)
	}
	return out
}

func anySlice(tokens []string) []any {
	out := make([]any, len(tokens))
	for i, t := range tokens {
		out[i] = t
	}
	return out
}

// schemaMessage words a schema failure the way the loader words its own.
func schemaMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		var want []string
		for _, w := range k.Want {
			want = append(want, schemaTypeName(w))
		}
		return fmt.Sprintf("must be %s, not %s", strings.Join(want, " or "), schemaTypeName(k.Got))
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		return fmt.Sprintf("must be one of %s, not %s", strings.Join(want, ", "), describe(k.Got))
	case *kind.Const:
		return fmt.Sprintf("must be %q, not %s", fmt.Sprint(k.Want), describe(k.Got))
	case *kind.Minimum:
		want, _ := k.Want.Float64()
		return fmt.Sprintf("must be at least %v", want)
	case *kind.MinItems:
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("needs at least %d items, not %d", k.Want, k.Got)
	case *kind.MaxItems:
		if k.Want == 0 {
			return "must be empty"
		}
		return fmt.Sprintf("takes at most %d items, not %d", k.Want, k.Got)
	case *kind.MinLength:
		return "must not be empty"
	}
	return k.LocalizedString(schemaPrinter)
}

func schemaTypeName(t string) string {
	switch t {
	case "integer":
		return "a whole number"
	case "number":
		return "a number"
	case "string":
		return "a string"
	case "boolean":
		return "true or false"
	case "object":
		return "an object"
	case "array":
		return "an array"
	}
	return t
}
