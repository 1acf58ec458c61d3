package diag

import (
	"context"
	"fmt"
	"slices"
	"strconv"
)

// MaxDiagnostics is how many diagnostics a Reporter keeps unless its Limit
// says otherwise. Past it, a file's further problems are only counted, in
// one last diagnostic ("and 5 more problems…"): nobody reads ten thousand
// messages, and a file from anyone could otherwise make thousands of
// messages cost time and memory.
const MaxDiagnostics = 1000

// Reporter builds the diagnostics of one file, locating each JSON pointer
// in the file's bytes.
//
// It keeps the first Limit diagnostics in List, then counts the rest in one
// diagnostic whose More says how many were left out; once it is full
// (Full), reporting costs no more than counting, and its Suggest and
// DidYouMean suggest nothing. Given a context (WithContext), it stops
// keeping diagnostics when the context ends and adds an error saying the
// file was not fully checked, so that a check that runs too long neither
// runs on for nothing nor passes. Count and ErrorCount count every problem
// reported, kept or not: a check that wants to know whether it found
// problems compares those, not the length of List.
type Reporter struct {
	File string
	// List holds the diagnostics kept, in the order they were reported.
	List List
	// Limit is how many diagnostics List keeps: MaxDiagnostics if 0, all
	// of them if negative. Set it before reporting.
	Limit int

	loc         *Locator
	ctx         context.Context
	stopped     bool
	count, errs int // every problem reported
	kept        int // problems in List
	more        int // problems left out
	moreAt      int // index in List of the diagnostic counting them, or -1
	suggestWork int // work spent by Suggest
}

// NewReporter returns a reporter for a file with the given contents (nil if
// the contents are not JSON, e.g. a folder; positions are then omitted).
func NewReporter(file string, data []byte) *Reporter {
	r := &Reporter{File: file, moreAt: -1}
	if data != nil {
		r.loc = NewLocator(data)
	}
	return r
}

// WithContext makes the reporter stop when ctx ends (Stopped), and returns
// it. A server passes the request's context, so that checking a file stops
// when the request is given up.
func (r *Reporter) WithContext(ctx context.Context) *Reporter {
	r.ctx = ctx
	return r
}

// readsStored reports whether the reporter reads a game back from a
// store (Stored).
func (r *Reporter) readsStored() bool {
	return r.ctx != nil && r.ctx.Value(storedKey{}) != nil
}

// Stopped reports whether the reporter's context has ended. The first time
// it sees so, it adds an error saying the file was not fully checked. A
// check that loops over a file's parts asks it between parts and returns
// early.
func (r *Reporter) Stopped() bool {
	if r.stopped {
		return true
	}
	if r.ctx == nil || r.ctx.Err() == nil {
		return false
	}
	r.stopped = true
	r.List = append(r.List, Diagnostic{File: r.File, Severity: Error,
		Message: fmt.Sprintf("the checks stopped before the end (%v): the file may have more problems", r.ctx.Err())})
	return true
}

// Full reports whether the reporter keeps no more diagnostics: it has
// stopped or holds Limit of them. A check may skip building costly
// messages then.
func (r *Reporter) Full() bool {
	return r.Stopped() || (r.Limit >= 0 && r.kept >= r.limit())
}

func (r *Reporter) limit() int {
	if r.Limit == 0 {
		return MaxDiagnostics
	}
	return r.Limit
}

// Count returns how many problems were reported, kept in List or not.
func (r *Reporter) Count() int { return r.count }

// ErrorCount returns how many errors were reported, kept in List or not.
func (r *Reporter) ErrorCount() int { return r.errs }

// keep counts a problem and reports whether List keeps it.
func (r *Reporter) keep(sev Severity) bool {
	r.count++
	if sev == Error {
		r.errs++
	}
	if r.Stopped() {
		return false
	}
	if r.Limit < 0 || r.kept < r.limit() {
		r.kept++
		return true
	}
	r.more++
	if r.moreAt < 0 || r.moreAt >= len(r.List) || r.List[r.moreAt].More == 0 {
		// Not yet added, or moved by a Sort.
		r.moreAt = slices.IndexFunc(r.List, func(d Diagnostic) bool { return d.More > 0 })
		if r.moreAt < 0 {
			r.moreAt = len(r.List)
			r.List = append(r.List, Diagnostic{File: r.File, Severity: Warning,
				Message: "only the first " + strconv.Itoa(r.limit()) + " are shown"})
		}
	}
	// Counting allocates nothing: String words the count.
	d := &r.List[r.moreAt]
	d.More++
	if sev == Error {
		d.Severity = Error
	}
	return false
}

// Errorf adds an error at the value the pointer names.
func (r *Reporter) Errorf(pointer, format string, args ...any) {
	if r.keep(Error) {
		r.locate(Error, pointer, fmt.Sprintf(format, args...))
	}
}

// Warnf adds a warning at the value the pointer names.
func (r *Reporter) Warnf(pointer, format string, args ...any) {
	if r.keep(Warning) {
		r.locate(Warning, pointer, fmt.Sprintf(format, args...))
	}
}

// At adds a diagnostic at an explicit line and column (for problems found
// inside a value, such as a token in an expression).
func (r *Reporter) At(sev Severity, pointer string, line, col int, msg string) {
	if r.keep(sev) {
		r.append(sev, pointer, line, col, msg)
	}
}

// AtString adds a diagnostic at a character inside the JSON string the
// pointer names (Locator.InString), such as the token of an expression
// that does not compile; at the value itself if it is not a string.
func (r *Reporter) AtString(sev Severity, pointer string, chars int, msg string) {
	if !r.keep(sev) {
		return
	}
	if r.loc != nil {
		if line, col, ok := r.loc.InString(pointer, chars); ok {
			r.append(sev, pointer, line, col, msg)
			return
		}
	}
	r.locate(sev, pointer, msg)
}

func (r *Reporter) append(sev Severity, pointer string, line, col int, msg string) {
	r.List = append(r.List, Diagnostic{File: r.File, Line: line, Col: col, Pointer: pointer, Severity: sev, Message: msg})
}

func (r *Reporter) locate(sev Severity, pointer, msg string) {
	line, col := r.Position(pointer)
	r.append(sev, pointer, line, col, msg)
}

// Position returns the line and column of the value a pointer names.
func (r *Reporter) Position(pointer string) (line, col int) {
	if r.loc == nil {
		return 0, 0
	}
	return r.loc.Find(pointer)
}

// Suggest is Suggest within the file's budget: it suggests nothing once
// the reporter is full or its suggestions for the file have done
// ReporterSuggestWork.
func (r *Reporter) Suggest(word string, candidates []string) string {
	if r.suggestWork >= ReporterSuggestWork || r.Full() {
		return ""
	}
	s, work := suggest(word, candidates, min(SuggestWork, ReporterSuggestWork-r.suggestWork))
	r.suggestWork += work
	return s
}

// DidYouMean returns " (did you mean X?)" or "", as DidYouMean does within
// the file's budget (Reporter.Suggest).
func (r *Reporter) DidYouMean(word string, candidates []string) string {
	return didYouMean(word, r.Suggest(word, candidates))
}
