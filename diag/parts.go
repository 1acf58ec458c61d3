package diag

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Part is an array of the documents a schema checks whose elements Split
// has the schema check one at a time.
type Part struct {
	// Items is the JSON pointer, in the schema, of the array's "items".
	Items string
	// Array is the JSON pointer of the array in the documents.
	Array string
	// Def is the definition ("$defs") its elements are checked against.
	Def string
}

// Split returns a schema that checks what s checks (the whole schema or one
// of its definitions), the elements of the given arrays one at a time.
//
// The validator builds every failure of a document before Check words
// any, and cannot be stopped: a file of thousands of bad parts costs
// hundreds of bytes of failures per byte of the file. Checked element by
// element, a document costs what its largest element's failures cost, and
// the check stops at the element where the Errorer becomes full (its
// further problems are not counted). Like MustDef, Split panics if the
// schema does not compile, and is meant for setting up.
func (s *Schema) Split(parts ...Part) *Schema {
	var doc any
	b, err := json.Marshal(s.doc)
	if err == nil {
		doc, err = jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	}
	if err != nil {
		panic("diag: copying the schema " + s.url + ": " + err.Error())
	}
	out := &Schema{Special: s.Special, url: s.url, loc: s.loc, doc: doc, compiler: jsonschema.NewCompiler()}
	for _, p := range parts {
		parent, last := locate(doc, p.Items)
		obj, ok := parent.(map[string]any)
		if !ok || obj[last] == nil {
			panic("diag: the schema " + s.url + " has no " + p.Items)
		}
		obj[last] = true // any element: checked on its own
		out.parts = append(out.parts, part{array: p.Array, def: s.MustDef(p.Def)})
	}
	if err := out.compiler.AddResource(s.url, doc); err != nil {
		panic("diag: adding the schema " + s.url + ": " + err.Error())
	}
	out.compiled = out.mustCompile(s.loc)
	return out
}

// Coverer is an Errorer that drops every problem at or below some
// pointers, where a pack reported better problems of its own: Check does
// not check the elements of a part it would drop all the problems of.
type Coverer interface {
	Covers(pointer string) bool
}

// part is an array checked element by element.
type part struct {
	array string
	def   *Schema
}

// checkParts checks the elements of the schema's parts in doc, stopping
// when r is full. It reports whether they passed.
func (s *Schema) checkParts(r Errorer, doc any) bool {
	ok := true
	for _, p := range s.parts {
		parent, last := locate(doc, p.array)
		var list []any
		switch v := parent.(type) {
		case map[string]any:
			list, _ = v[last].([]any)
		case []any:
			if i, err := strconv.Atoi(last); err == nil && i >= 0 && i < len(v) {
				list, _ = v[i].([]any)
			}
		}
		cov, _ := r.(Coverer)
		for i, el := range list {
			if f, full := r.(fuller); full && f.Full() {
				return false
			}
			ptr := p.array + "/" + strconv.Itoa(i)
			if cov != nil && cov.Covers(ptr) {
				continue
			}
			if !p.def.Check(&within{r: r, prefix: ptr}, el) {
				ok = false
			}
		}
	}
	return ok
}

// locate returns the value holding the one a JSON pointer names, and the
// pointer's last token (unescaped); nil if there is none.
func locate(doc any, pointer string) (parent any, last string) {
	tokens := strings.Split(pointer, "/")[1:]
	node := doc
	for i, tok := range tokens {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if i == len(tokens)-1 {
			return node, tok
		}
		switch v := node.(type) {
		case map[string]any:
			node = v[tok]
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(v) {
				return nil, ""
			}
			node = v[n]
		default:
			return nil, ""
		}
	}
	return nil, ""
}

// within reports the problems of a part of a document at their pointers
// in the whole, passing on its Errorer's suggestions and fullness.
type within struct {
	r      Errorer
	prefix string
}

func (w *within) Errorf(pointer, format string, args ...any) {
	if pointer == "" && format == "" {
		w.r.Errorf("", "") // counted, not kept
		return
	}
	w.r.Errorf(w.prefix+pointer, format, args...)
}

func (w *within) DidYouMean(word string, candidates []string) string {
	if s, ok := w.r.(Suggester); ok {
		return s.DidYouMean(word, candidates)
	}
	return DidYouMean(word, candidates)
}

func (w *within) Full() bool {
	f, ok := w.r.(fuller)
	return ok && f.Full()
}
