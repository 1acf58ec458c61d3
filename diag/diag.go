// Package diag holds the diagnostics that validating a game file produces:
// errors and warnings that say where (file, line:column, JSON pointer) and
// how to fix the problem, printed one per line as
//
//	FILE:LINE:COL: /json/pointer: message
//
// It also finds the line and column of a JSON pointer in a file's bytes, so
// that every check, from the JSON Schema to a semantic check, can point at
// the value it complains about.
//
// Game files come from anyone (the server validates uploads), so what this
// package does with a file costs time and memory in proportion to its size,
// whatever its shape: DecodeJSON refuses nesting deeper than MaxDepth, the
// Locator indexes a file once in linear time and memory, a Reporter keeps
// at most MaxDiagnostics diagnostics and counts the rest, and "did you
// mean" (Suggest) works within a budget per call and, through a Reporter,
// per file. A check that loops over a file's parts builds its messages
// with the Reporter's DidYouMean, skips costly wording when the Reporter
// is Full, and returns early when it has Stopped: a server gives the
// Reporter the request's context (WithContext), so that a validation
// nobody waits for any more ends.
package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
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
	// More, if not 0, makes this diagnostic the count of the problems a
	// Reporter found past its limit and left out; String says "and 5 more
	// problems" before the message.
	More int `json:"more,omitempty"`
}

// String formats the diagnostic as FILE:LINE:COL: /pointer: message, with
// "warning: " before the message of a warning and "and 5 more problems; "
// before the message of a count of problems left out.
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
	if d.More > 0 {
		fmt.Fprintf(&b, "and %d more problem", d.More)
		if d.More > 1 {
			b.WriteString("s")
		}
		b.WriteString("; ")
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
// stable whatever order the checks ran in; the count of problems left out
// (Diagnostic.More) comes last.
func (l List) Sort() {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		if (a.More > 0) != (b.More > 0) {
			if a.More > 0 {
				return 1
			}
			return -1
		}
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

// Pointer joins JSON pointer tokens, escaping "~" and "/" as RFC 6901 says.
func Pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch t := t.(type) {
		case int:
			b.WriteString(strconv.Itoa(t))
		case string:
			b.WriteString(Escape(t))
		default:
			b.WriteString(Escape(fmt.Sprint(t)))
		}
	}
	return b.String()
}
