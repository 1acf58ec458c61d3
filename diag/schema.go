package diag

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Errorer receives errors at JSON pointers: a *Reporter, or a filter a
// pack puts in front of one.
type Errorer interface {
	Errorf(pointer, format string, args ...any)
}

// Schema is a compiled JSON Schema that game files are checked against.
// Check turns its failures into diagnostics that say where and how to fix
// the problem, in the words the packs' loaders use for their own checks.
type Schema struct {
	// Special, if set, words the failures a pack knows better than the
	// schema can say (a name that is built in or declared elsewhere in the
	// file, a value of several forms). It is asked about every failure,
	// outermost first; when it answers, its message stands for the failure
	// and everything beneath it.
	Special func(e *jsonschema.ValidationError) (message string, ok bool)

	compiled *jsonschema.Schema
	compiler *jsonschema.Compiler
	url      string
	loc      string // where in the document the schema is (url, or url#/$defs/name)
	doc      any    // the schema document, read for the members an object allows
	parts    []part // arrays checked element by element (Split)
}

// MustCompileSchema compiles the JSON Schema document data, whose $id is
// url. Schemas ship with the program, so failing to compile one is a
// defect of the program, not of a game file: it panics (and the tests
// catch it).
func MustCompileSchema(url string, data []byte) *Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		panic("diag: the schema " + url + " is not JSON: " + err.Error())
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		panic("diag: adding the schema " + url + ": " + err.Error())
	}
	s := &Schema{compiler: c, url: url, loc: url, doc: doc}
	s.compiled = s.mustCompile(url)
	return s
}

// MustDef compiles one definition of the schema ("#/$defs/name"), to
// check a part of a file on its own. Like MustCompileSchema, it panics if
// the definition does not compile. The definition shares the schema's
// Special. Compile definitions while setting up, before files are checked:
// MustDef changes the compiler the schema shares with them.
func (s *Schema) MustDef(name string) *Schema {
	d := *s
	d.loc = s.url + "#/$defs/" + name
	d.compiled = s.mustCompile(d.loc)
	return &d
}

func (s *Schema) mustCompile(loc string) *jsonschema.Schema {
	compiled, err := s.compiler.Compile(loc)
	if err != nil {
		panic("diag: compiling the schema " + loc + ": " + err.Error())
	}
	return compiled
}

// Check validates a decoded document (with numbers as json.Number, as
// DecodeJSON gives them) and reports each failure to r, once: the
// innermost failures of the error tree, at the value they are about. It
// reports whether the document passed.
//
//   - Of the branches of an anyOf or oneOf, those that fail only on the
//     value's type are left out when another says more; when all do,
//     they make one message ("must be a string or an object, not …").
//   - A required member and an unknown one are reported at the member's
//     pointer; an unknown one with the closest name the object allows.
//   - Types, enums, consts, bounds and sizes are worded as the loaders
//     word them ("must be a whole number, not a string", "must be one of
//     …"); anything else in the validator's own words.
func (s *Schema) Check(r Errorer, doc any) bool {
	if f, ok := r.(fuller); ok && f.Full() {
		// Stopped or full: a validator cannot be interrupted, so do not
		// start one for messages nobody keeps.
		return false
	}
	whole := s.check(r, doc)
	return s.checkParts(r, doc) && whole
}

// check checks the document, the elements of its parts aside.
func (s *Schema) check(r Errorer, doc any) bool {
	err := s.compiled.Validate(doc)
	if err == nil {
		return true
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		r.Errorf("", "JSON Schema: %v", err)
		return false
	}
	c := &check{s: s, r: r, didYouMean: DidYouMean}
	if sg, ok := r.(Suggester); ok {
		c.didYouMean = sg.DidYouMean
	}
	c.full, _ = r.(fuller)
	c.problems(ve)
	return false
}

// Suggester words the "did you mean" of a message within a budget for the
// whole file: a *Reporter is one, and a filter a pack puts in front of one
// should pass its DidYouMean on. Schema.Check uses it when its Errorer is
// one, and the plain DidYouMean otherwise.
type Suggester interface {
	DidYouMean(word string, candidates []string) string
}

// fuller is an Errorer that can say it keeps no more diagnostics (a
// *Reporter).
type fuller interface{ Full() bool }

// check reports the failures of one validation.
type check struct {
	s          *Schema
	r          Errorer
	full       fuller
	seen       map[problem]bool
	didYouMean func(word string, candidates []string) string
}

// done reports whether the Errorer keeps no more diagnostics.
func (c *check) done() bool { return c.full != nil && c.full.Full() }

// problem is one failure, worded, at its pointer.
type problem struct{ pointer, message string }

// report reports a problem once: one value may fail several branches the
// same way.
func (c *check) report(p problem) {
	if c.done() {
		c.r.Errorf("", "")
		return
	}
	if !c.seen[p] {
		if c.seen == nil {
			c.seen = map[problem]bool{}
		}
		c.seen[p] = true
		c.r.Errorf(p.pointer, "%s", p.message)
	}
}

// problems reports the failures of an error tree, outermost first. Once
// the Errorer is full, the failures are only counted, not worded.
func (c *check) problems(e *jsonschema.ValidationError) {
	ptr := instancePointer(e.InstanceLocation)
	if c.s.Special != nil {
		if msg, ok := c.s.Special(e); ok {
			c.report(problem{ptr, msg})
			return
		}
	}
	causes := e.Causes
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		var kept []*jsonschema.ValidationError
		var types []*kind.Type
		for _, cause := range causes {
			if t := typeOnly(cause, len(e.InstanceLocation)); t != nil {
				types = append(types, t)
			} else {
				kept = append(kept, cause)
			}
		}
		if len(kept) == 0 && len(types) > 0 {
			merged := &kind.Type{Got: types[0].Got}
			for _, t := range types {
				for _, w := range t.Want {
					if !slices.Contains(merged.Want, w) {
						merged.Want = append(merged.Want, w)
					}
				}
			}
			if c.done() {
				c.report(problem{})
				return
			}
			c.report(problem{ptr, schemaMessage(merged, c.didYouMean)})
			return
		}
		causes = kept
	}
	if len(causes) == 0 {
		c.leaf(e, ptr)
		return
	}
	for _, cause := range causes {
		c.problems(cause)
	}
}

// typeOnly returns the type failure a branch of an anyOf or oneOf comes
// to, if that is all it says (through $refs and groups) and it is about the
// value at the given depth itself, not one of its members; or nil.
func typeOnly(branch *jsonschema.ValidationError, depth int) *kind.Type {
	e := branch
	for len(e.Causes) == 1 {
		e = e.Causes[0]
	}
	if t, ok := e.ErrorKind.(*kind.Type); ok && len(e.Causes) == 0 && len(e.InstanceLocation) == depth {
		return t
	}
	return nil
}

// OnlyTypesFail reports whether every branch of an anyOf or oneOf failure
// fails on the value's type alone: the value has none of the types the
// branches want.
func OnlyTypesFail(e *jsonschema.ValidationError) bool {
	for _, c := range e.Causes {
		if typeOnly(c, len(e.InstanceLocation)) == nil {
			return false
		}
	}
	return len(e.Causes) > 0
}

// leaf words one innermost failure.
func (c *check) leaf(e *jsonschema.ValidationError, ptr string) {
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			if c.done() {
				c.report(problem{})
				continue
			}
			c.report(problem{ptr + "/" + Escape(m), fmt.Sprintf("%q is required here", m)})
		}
		return
	case *kind.AdditionalProperties:
		allowed := c.s.properties(e.SchemaURL)
		for _, m := range k.Properties {
			if c.done() {
				c.report(problem{})
				continue
			}
			c.report(problem{ptr + "/" + Escape(m), fmt.Sprintf("unknown member %q%s", m, c.didYouMean(m, allowed))})
		}
		return
	}
	if c.done() {
		c.report(problem{})
		return
	}
	c.report(problem{ptr, schemaMessage(e.ErrorKind, c.didYouMean)})
}

// properties returns the member names the schema object at a location
// allows, sorted, for "did you mean".
func (s *Schema) properties(loc string) []string {
	_, frag, _ := strings.Cut(loc, "#")
	node := s.doc
	if frag != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
			if t, err := url.PathUnescape(tok); err == nil {
				tok = t
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch n := node.(type) {
			case map[string]any:
				node = n[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(n) {
					return nil
				}
				node = n[i]
			default:
				return nil
			}
		}
	}
	obj, _ := node.(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	return slices.Sorted(maps.Keys(props))
}

var printer = message.NewPrinter(language.English)

// SchemaMessage words one failure of a JSON Schema as a message about the
// value that failed: "must be a whole number, not a string", "must be one
// of a, b, not "c" (did you mean a?)", "must be at least 1", "must not be
// empty"; anything else in the validator's own words. (Check reports
// required and unknown members at each member instead.)
func SchemaMessage(k jsonschema.ErrorKind) string {
	return schemaMessage(k, DidYouMean)
}

func schemaMessage(k jsonschema.ErrorKind, didYouMean func(string, []string) string) string {
	switch k := k.(type) {
	case *kind.Type:
		var want []string
		for _, w := range k.Want {
			want = append(want, typeWord(w))
		}
		return fmt.Sprintf("must be %s, not %s", strings.Join(want, " or "), typeWord(k.Got))
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		hint := ""
		if got, ok := k.Got.(string); ok {
			hint = didYouMean(got, want)
		}
		return fmt.Sprintf("must be one of %s, not %s%s", strings.Join(want, ", "), Describe(k.Got), hint)
	case *kind.Const:
		return fmt.Sprintf("must be %s, not %s", jsonText(k.Want), Describe(k.Got))
	case *kind.Required:
		return fmt.Sprintf("needs %s", strings.Join(quoteAll(k.Missing), ", "))
	case *kind.AdditionalProperties:
		return fmt.Sprintf("has no member %s", strings.Join(quoteAll(k.Properties), ", "))
	case *kind.Minimum:
		want, _ := k.Want.Float64()
		return fmt.Sprintf("must be at least %v", want)
	case *kind.Maximum:
		want, _ := k.Want.Float64()
		return fmt.Sprintf("must be at most %v", want)
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
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("needs at least %d characters, not %d", k.Want, k.Got)
	case *kind.MaxLength:
		return TooLong(k.Want, k.Got)
	}
	return k.LocalizedString(printer)
}

// typeWord names a JSON Schema type as JSONKind names a value's kind.
func typeWord(t string) string {
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

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}

// instancePointer is the JSON pointer of a value the validator names by
// its path.
func instancePointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(Escape(t))
	}
	return b.String()
}
