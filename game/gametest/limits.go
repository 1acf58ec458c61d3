package gametest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/tabulagames/tabula/diag"
)

// CheckSchemaStrings checks that a pack's JSON Schema bounds every string
// a file may hold as its loader does (diag.CheckStrings with limits): a
// string's maxLength is the limit of the member it is under, a map
// (additionalProperties or patternProperties) bounds the names of its
// members (propertyNames) by limits.Key and their values as any member's,
// no object takes members of any value (a type "object" without
// additionalProperties, unless it is made of others, or it is an "if"),
// and no value may be anything at all ({} or true). Strings with a fixed set of values (enum, const) need
// no bound.
func CheckSchemaStrings(t testing.TB, schema []byte, limits diag.StringLimits) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		t.Fatal(err)
	}
	w := &schemaWalk{root: doc, l: limits, seen: map[string]bool{}}
	w.visit(doc, "", "#")
	slices.Sort(w.problems)
	for _, p := range slices.Compact(w.problems) {
		t.Error(p)
	}
}

type schemaWalk struct {
	root     any
	l        diag.StringLimits
	seen     map[string]bool // $ref and member already followed
	problems []string
}

func (w *schemaWalk) problem(at, format string, args ...any) {
	w.problems = append(w.problems, at+": "+fmt.Sprintf(format, args...))
}

// visit checks the schema s of a value held by the member named member;
// at is where s is in the schema.
func (w *schemaWalk) visit(s any, member, at string) {
	if b, ok := s.(bool); ok && b {
		w.problem(at, "any value (true) holds strings without a bound")
		return
	}
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	if len(m) == 0 || (len(m) == 1 && m["description"] != nil) {
		w.problem(at, "any value ({}) holds strings without a bound")
		return
	}
	if ref, ok := m["$ref"].(string); ok {
		if key := ref + " " + member; !w.seen[key] {
			w.seen[key] = true
			w.visit(w.resolve(ref), member, ref)
		}
	}
	_, enum := m["enum"]
	_, konst := m["const"]
	if hasType(m, "string") && !enum && !konst {
		want := w.l.For(member)
		switch got, ok := m["maxLength"].(float64); {
		case !ok:
			w.problem(at, "a string of %q without maxLength; the loader's limit is %d", member, want)
		case int(got) != want:
			w.problem(at, "a string of %q has maxLength %d; the loader's limit is %d", member, int(got), want)
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for _, name := range sortedKeys(props) {
			w.visit(props[name], name, at+"/properties/"+name)
		}
	}
	// A map: members of any name, whose values the schema describes.
	ap, free := m["additionalProperties"].(map[string]any)
	pp, _ := m["patternProperties"].(map[string]any)
	_, closed := m["additionalProperties"]
	composed := m["allOf"] != nil || m["anyOf"] != nil || m["oneOf"] != nil || m["if"] != nil || m["$ref"] != nil
	if hasType(m, "object") && !closed && !composed && pp == nil && !strings.HasSuffix(at, "/if") {
		w.problem(at, "an object that takes members of any name and value: give it additionalProperties")
	}
	if free || pp != nil {
		pn, _ := m["propertyNames"].(map[string]any)
		if n, ok := pn["maxLength"].(float64); !ok || int(n) != w.l.Key {
			w.problem(at, "a map needs propertyNames {\"maxLength\": %d}", w.l.Key)
		}
	}
	if free {
		w.visit(ap, "", at+"/additionalProperties")
	}
	for _, k := range sortedKeys(pp) {
		w.visit(pp[k], "", at+"/patternProperties/"+k)
	}
	for _, k := range []string{"items", "contains", "if", "then", "else", "not"} {
		if sub, ok := m[k]; ok {
			w.visit(sub, member, at+"/"+k)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		list, _ := m[k].([]any)
		for i, sub := range list {
			w.visit(sub, member, fmt.Sprintf("%s/%s/%d", at, k, i))
		}
	}
}

// hasType reports whether a schema's type is or includes t.
func hasType(m map[string]any, t string) bool {
	switch v := m["type"].(type) {
	case string:
		return v == t
	case []any:
		return slices.Contains(v, any(t))
	}
	return false
}

// resolve returns the schema a local $ref ("#/$defs/x") names.
func (w *schemaWalk) resolve(ref string) any {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	node := w.root
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		obj, _ := node.(map[string]any)
		node = obj[tok]
	}
	return node
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
