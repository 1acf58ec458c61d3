package rulebook

import (
	"context"
	"strings"

	"github.com/tabulagames/tabula/diag"
)

// The longest strings a rule book may hold, in characters. Names are what
// conditions see (ids, names, kinds, colours, properties, events), so
// their bound is also the cost estimate's (sizes); anything else
// (descriptions, lines, conditions and expressions) is text.
const (
	maxName = 100
	maxText = 2000
)

// stringLimits bound every string of a rule book, as the schema does too
// (maxLength, propertyNames).
var stringLimits = diag.StringLimits{Key: maxName, Default: maxText, Members: map[string]int{
	"id": maxName, "name": maxName, "kind": maxName, "colour": maxName, "next": maxName, "jump": maxName,
	"deck": maxName, "card": maxName, "event": maxName, "prop": maxName, "props": maxName, "tileType": maxName,
	"title": maxName, "propLabels": maxName,
}}

// Parse checks and compiles a game file from its bytes, and returns every
// problem found, sorted by position: JSON syntax, the JSON Schema
// (docs/schema/rulebook-1.schema.json), strings longer than their limits,
// unknown events, actions, presets, tiles and decks (with the closest
// names), CEL conditions and expressions that do not compile (at their
// character), and rule sets that can never end a turn or loop forever. The
// definition is nil when there are errors; file names the file in
// diagnostics.
func (p *Pack) Parse(file string, data []byte) (*Definition, diag.List) {
	return p.parse(context.Background(), file, data)
}

// parse is Parse, stopping early (with an error) when ctx ends.
func (p *Pack) parse(ctx context.Context, file string, data []byte) (*Definition, diag.List) {
	rep := diag.NewReporter(file, data).WithContext(ctx)
	root, ok := rep.DecodeJSON(data)
	if !ok {
		return nil, rep.List
	}
	obj, isObj := root.(map[string]any)
	if !isObj {
		rep.Errorf("", "a rule book must be a JSON object, not %s", diag.JSONKind(root))
		return nil, rep.List
	}
	diag.CheckStrings(rep, root, stringLimits)
	var def *Definition
	if counts(rep, obj) {
		f, _ := Decode(data)
		def = newChecker(p, rep, f).check()
	}
	// The schema's findings come last, except where the checker said
	// something about the same value already.
	compiledSchema().Check(newCovered(rep), root)
	return finish(def, rep)
}

// Compile checks and compiles a game file held in memory, such as one an
// editor changed. Diagnostics have JSON pointers but no line and column;
// Format and Parse the file for those.
func (p *Pack) Compile(f *File) (*Definition, diag.List) {
	rep := diag.NewReporter("", nil)
	if data, err := Format(f); err == nil {
		if doc, err := diag.DecodeJSON(data); err == nil {
			diag.CheckStrings(rep, doc, stringLimits)
			if obj, ok := doc.(map[string]any); ok && !counts(rep, obj) {
				return finish(nil, rep)
			}
		}
	}
	return finish(newChecker(p, rep, f).check(), rep)
}

// finish sorts the diagnostics and returns the definition if there is no
// error among them.
func finish(def *Definition, rep *diag.Reporter) (*Definition, diag.List) {
	rep.List.Sort()
	if rep.List.HasErrors() {
		return nil, rep.List
	}
	return def, rep.List
}

// covered passes the schema's findings on to the reporter, except those
// the checker reported better: at the same pointer, or inside a value the
// checker rejected, or about a value inside which it found an error. It
// looks each finding up by its pointer and the pointer's parents, so that
// its cost does not grow with the checker's diagnostics.
type covered struct {
	*diag.Reporter
	at, within map[string]bool // pointers of the checker's errors, and their parents
}

func newCovered(rep *diag.Reporter) *covered {
	c := &covered{Reporter: rep, at: map[string]bool{}, within: map[string]bool{}}
	for _, d := range rep.List {
		if d.Severity != diag.Error || d.More > 0 {
			continue
		}
		c.at[d.Pointer] = true
		for p := d.Pointer; p != ""; {
			p = p[:strings.LastIndexByte(p, '/')]
			c.within[p] = true
		}
	}
	return c
}

// Errorf reports a finding of the schema unless the checker covered it.
func (c *covered) Errorf(ptr, format string, args ...any) {
	if !c.within[ptr] && !c.Covers(ptr) {
		c.Reporter.Errorf(ptr, format, args...)
	}
}

// Covers reports whether the checker reported an error at the pointer or
// at one of its parents (diag.Coverer).
func (c *covered) Covers(ptr string) bool {
	for p := ptr; ; p = p[:strings.LastIndexByte(p, '/')] {
		if c.at[p] {
			return true
		}
		if p == "" {
			return false
		}
	}
}
