package rulebook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

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
	root, ok := decodeJSON(rep, data)
	if !ok {
		return nil, rep.List
	}
	if _, isObj := root.(map[string]any); !isObj {
		rep.Errorf("", "a rule book must be a JSON object, not %s", jsonKind(root))
		return nil, rep.List
	}
	f, _ := Decode(data)
	c := newChecker(rep, data, f)
	def := c.check()
	all := append(rep.List, covered(rep.List, schemaDiagnostics(rep, root))...)
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
	def := newChecker(rep, nil, f).check()
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

// decodeJSON reads a document, reporting a syntax error where it is.
func decodeJSON(rep *diag.Reporter, data []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	off := dec.InputOffset()
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			return v, true
		}
		err = errors.New("more data after the end of the document")
		for off < int64(len(data)) && strings.IndexByte(" \t\r\n", data[off]) >= 0 {
			off++
		}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 {
		off = max(se.Offset-1, 0) // the offset is just past the offending byte
	} else if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = errors.New("unexpected end of the file")
	}
	line, col := diag.NewLocator(data).Position(int(off))
	rep.At(diag.Error, "", line, col, "invalid JSON: "+strings.TrimPrefix(err.Error(), "json: "))
	return nil, false
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

// jsonKind names the kind of a decoded JSON value, with its article.
func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "true or false"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "a whole number"
		}
		return "a number"
	case float64:
		if v == float64(int64(v)) {
			return "a whole number"
		}
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// stringPosition returns the line and column of the character at offset
// (counted in characters of the decoded text) inside the JSON string the
// pointer names, escapes included.
func stringPosition(loc *diag.Locator, data []byte, ptr string, offset int) (int, int, bool) {
	start, ok := loc.Offset(ptr)
	if !ok || start >= len(data) || data[start] != '"' {
		return 0, 0, false
	}
	i := start + 1
	for n := 0; n < offset && i < len(data) && data[i] != '"'; n++ {
		if data[i] != '\\' {
			_, size := utf8.DecodeRune(data[i:])
			i += size
			continue
		}
		if i+1 < len(data) && data[i+1] == 'u' {
			// A character outside the BMP is a pair of \u escapes.
			if r, err := strconv.ParseUint(string(data[i+2:min(i+6, len(data))]), 16, 32); err == nil && r >= 0xD800 && r < 0xDC00 &&
				i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
				i += 6
			}
			i += 6
			continue
		}
		i += 2
	}
	line, col := loc.Position(i)
	return line, col, true
}
