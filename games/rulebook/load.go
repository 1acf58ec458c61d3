package rulebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/tabulagames/tabula/diag"
)

// Load reads, checks and compiles a game file. It returns every problem
// found; the definition is nil when there are errors.
func Load(path string) (*Definition, diag.List) {
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		var pe *fs.PathError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			msg = "no such file"
		case errors.As(err, &pe):
			msg = pe.Err.Error()
		}
		return nil, diag.List{{File: path, Severity: diag.Error, Message: "cannot read the game: " + msg}}
	}
	return Parse(path, data)
}

// Validate checks a game file and returns every problem found, sorted by
// position: JSON syntax, the JSON Schema (docs/schema/rulebook-1.schema.json),
// unknown events, actions, presets, tiles and decks (with the closest
// names), CEL conditions and expressions that do not compile (at their
// character), and rule sets that can never end a turn or loop forever.
func Validate(path string) diag.List {
	_, list := Load(path)
	return list
}

// Parse checks and compiles a game file from its bytes; file names it in
// diagnostics.
func Parse(file string, data []byte) (*Definition, diag.List) {
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
	c := newChecker(rep, f)
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
func Compile(f *File) (*Definition, diag.List) {
	rep := diag.NewReporter("", nil)
	def := newChecker(rep, f).check()
	rep.List.Sort()
	if rep.List.HasErrors() {
		return nil, rep.List
	}
	return def, rep.List
}

// Detect reports whether a file is a rule book: a JSON object whose "game"
// is "rulebook". A file too broken to decode counts if it says "rulebook",
// so that its syntax errors are reported.
func Detect(path string, data []byte) bool {
	if data == nil {
		return false
	}
	var head struct {
		Game any `json:"game"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		var se *json.SyntaxError
		return errors.As(err, &se) && bytes.Contains(data, []byte(`"rulebook"`))
	}
	return head.Game == "rulebook"
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
