// Package old is the diag package as it was before the adversarial-input work, kept only to measure it beside the new one.
// errors and warnings that say where (file, line:column, JSON pointer) and
// how to fix the problem, printed one per line as
//
//	FILE:LINE:COL: /json/pointer: message
//
// It also finds the line and column of a JSON pointer in a file's bytes, so
// that every check, from the JSON Schema to a semantic check, can point at
// the value it complains about.
package old

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Severity says whether a diagnostic makes a file invalid.
type Severity string

// The severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Diagnostic is one problem found in a game file.
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Pointer  string   `json:"pointer"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// String formats the diagnostic as FILE:LINE:COL: /pointer: message, with
// "warning: " before the message of a warning.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Col)
	}
	b.WriteString(": ")
	ptr := d.Pointer
	if ptr == "" {
		ptr = "/"
	}
	b.WriteString(ptr)
	b.WriteString(": ")
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// List collects the diagnostics of one or more files.
type List []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Severity == Error })
}

// Errors returns only the errors.
func (l List) Errors() List {
	return slices.DeleteFunc(slices.Clone(l), func(d Diagnostic) bool { return d.Severity != Error })
}

// Warnings returns only the warnings.
func (l List) Warnings() List {
	return slices.DeleteFunc(slices.Clone(l), func(d Diagnostic) bool { return d.Severity != Warning })
}

// Sort orders the list by file, line, column and message, so output is
// stable whatever order the checks ran in.
func (l List) Sort() {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// Print writes one line per diagnostic.
func (l List) Print(w io.Writer) {
	for _, d := range l {
		fmt.Fprintln(w, d.String())
	}
}

// String returns the list as Print writes it, one diagnostic a line.
func (l List) String() string {
	var b strings.Builder
	l.Print(&b)
	return b.String()
}

// PrintJSON writes the list as a JSON array (an empty list is []).
func (l List) PrintJSON(w io.Writer) error {
	if l == nil {
		l = List{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(l)
}

// Reporter builds the diagnostics of one file, locating each JSON pointer
// in the file's bytes.
type Reporter struct {
	File string
	loc  *Locator
	List List
}

// NewReporter returns a reporter for a file with the given contents (nil if
// the contents are not JSON, e.g. a folder; positions are then omitted).
func NewReporter(file string, data []byte) *Reporter {
	r := &Reporter{File: file}
	if data != nil {
		r.loc = NewLocator(data)
	}
	return r
}

// Errorf adds an error at the value the pointer names.
func (r *Reporter) Errorf(pointer, format string, args ...any) {
	r.add(Error, pointer, fmt.Sprintf(format, args...))
}

// Warnf adds a warning at the value the pointer names.
func (r *Reporter) Warnf(pointer, format string, args ...any) {
	r.add(Warning, pointer, fmt.Sprintf(format, args...))
}

// At adds a diagnostic at an explicit line and column (for problems found
// inside a value, such as a token in an expression).
func (r *Reporter) At(sev Severity, pointer string, line, col int, msg string) {
	r.List = append(r.List, Diagnostic{File: r.File, Line: line, Col: col, Pointer: pointer, Severity: sev, Message: msg})
}

func (r *Reporter) add(sev Severity, pointer, msg string) {
	line, col := 0, 0
	if r.loc != nil {
		line, col = r.loc.Find(pointer)
	}
	r.At(sev, pointer, line, col, msg)
}

// Position returns the line and column of the value a pointer names.
func (r *Reporter) Position(pointer string) (line, col int) {
	if r.loc == nil {
		return 0, 0
	}
	return r.loc.Find(pointer)
}

// Pointer joins JSON pointer tokens, escaping "~" and "/" as RFC 6901 says.
func Pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(Escape(fmt.Sprint(t)))
	}
	return b.String()
}

// Suggest returns the candidate closest to word (by edit distance, ignoring
// case), or "" if none is close enough to be a likely typo. It is the "did
// you mean" of error messages.
func Suggest(word string, candidates []string) string {
	best, bestDist := "", -1
	w := strings.ToUpper(word)
	for _, c := range candidates {
		d := distance(w, strings.ToUpper(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(2, len(word)/3)
	if bestDist < 0 || bestDist > limit {
		// Containment also counts, either way: PROMPT →
		// PROMPT_CURRENT_PLAYER, DRAW_CARDS → DRAW.
		for _, c := range candidates {
			if C := strings.ToUpper(c); len(w) >= 4 && strings.Contains(C, w) {
				return c
			}
		}
		for _, c := range candidates {
			if C := strings.ToUpper(c); len(C) >= 4 && strings.Contains(w, C) {
				return c
			}
		}
		return ""
	}
	return best
}

// DidYouMean returns " (did you mean X?)" or "".
func DidYouMean(word string, candidates []string) string {
	if s := Suggest(word, candidates); s != "" && s != word {
		return fmt.Sprintf(" (did you mean %s?)", s)
	}
	return ""
}

// distance is the Levenshtein distance between two strings.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
