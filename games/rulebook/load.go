package rulebook

import (
	"strings"

	"github.com/tabulagames/tabula/diag"
)

// Parse checks and compiles a game file from its bytes, and returns every
// problem found, sorted by position: JSON syntax, the JSON Schema
// (docs/schema/rulebook-1.schema.json), unknown events, actions, presets,
// tiles and decks (with the closest names), CEL conditions and expressions
// that do not compile (at their character), and rule sets that can never
// end a turn or loop forever. The definition is nil when there are errors;
// file names the file in diagnostics.
func (p *Pack) Parse(file string, data []byte) (*Definition, diag.List) {
	rep := diag.NewReporter(file, data)
	root, ok := rep.DecodeJSON(data)
	if !ok {
		return nil, rep.List
	}
	if _, isObj := root.(map[string]any); !isObj {
		rep.Errorf("", "a rule book must be a JSON object, not %s", diag.JSONKind(root))
		return nil, rep.List
	}
	f, _ := Decode(data)
	c := newChecker(p, rep, f)
	def := c.check()
	all := append(rep.List, covered(rep.List, schemaDiagnostics(file, data, root))...)
	all.Sort()
	if all.HasErrors() {
		return nil, all
	}
	return def, all
}

// Compile checks and compiles a game file held in memory, such as one an
// editor changed. Diagnostics have JSON pointers but no line and column;
// Format and Parse the file for those.
func (p *Pack) Compile(f *File) (*Definition, diag.List) {
	rep := diag.NewReporter("", nil)
	def := newChecker(p, rep, f).check()
	rep.List.Sort()
	if rep.List.HasErrors() {
		return nil, rep.List
	}
	return def, rep.List
}

// covered drops the schema's findings that the checker reported better: at
// the same pointer, or inside a value the checker rejected.
func covered(mine, schema diag.List) diag.List {
	var out diag.List
	for _, d := range schema {
		dup := false
		for _, m := range mine {
			if m.Severity == diag.Error && (m.Pointer == d.Pointer || strings.HasPrefix(d.Pointer, m.Pointer+"/") ||
				strings.HasPrefix(m.Pointer, d.Pointer+"/")) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, d)
		}
	}
	return out
}
