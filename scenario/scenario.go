// Package scenario holds what the scenario files of every game pack share:
// finding them, reading them (YAML or JSON), telling which game they are
// for, and reporting a run's result as a readable diff.
//
// A scenario file is a designer's test of a game file: inputs (players,
// seed, scripted dice, choices, commands) and expectations (final state,
// the ordered trace of trigger firings). Each pack defines its own fields;
// every file names its pack in the top-level field "game".
package scenario

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tabulagames/tabula/diag"
)

// Suffixes are the file name endings of scenario files.
var Suffixes = []string{".scenario.yaml", ".scenario.yml", ".scenario.json"}

// IsScenario reports whether a file name is a scenario file's.
func IsScenario(name string) bool {
	for _, s := range Suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// Find expands the paths given on a command line: files are taken as they
// are, folders are searched recursively for scenario files. The result is
// sorted within each folder so runs are reproducible.
func Find(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && IsScenario(d.Name()) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(found)
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no scenario files (*%s) in this folder", p, strings.Join(Suffixes, ", *"))
		}
		out = append(out, found...)
	}
	return out, nil
}

// Runner is a game pack that runs its scenario files.
type Runner interface {
	// RunScenario runs one scenario file (its path, for the files it
	// names, and its contents) and returns the result.
	RunScenario(path string, data []byte) *Result
}

// Options change how a run plays every scenario (the flags of tabula
// test).
type Options struct {
	// Compat is the compatibility mode (game.Setup.Compat) of the
	// scenarios whose own "compat" field names none: "original" runs them
	// as the original game played.
	Compat string
}

// OptionsRunner is a Runner that also runs scenarios with Options: a pack
// whose games have compatibility modes.
type OptionsRunner interface {
	Runner
	RunScenarioWith(path string, data []byte, o Options) *Result
}

// Head is what every scenario file may say whatever its pack: the pack
// ("game") and the compatibility mode to play in ("compat", empty for the
// game's own rules).
type Head struct {
	Game   string `yaml:"game"`
	Compat string `yaml:"compat"`
}

// ReadHead reads a scenario file's head.
func ReadHead(data []byte) (Head, error) {
	var h Head
	err := yaml.Unmarshal(data, &h)
	return h, err
}

// Game returns the value of a scenario file's "game" field.
func Game(data []byte) (string, error) {
	h, err := ReadHead(data)
	return h.Game, err
}

// Open starts running a scenario file: it decodes data into sc (Decode)
// and returns the scenario's result, named after its "name" (or the file's
// name). If the file does not decode, ok is false and the result says why.
func Open(path string, data []byte, sc any) (r *Result, ok bool) {
	r = &Result{File: path, Name: filepath.Base(path)}
	if err := Decode(data, sc); err != nil {
		r.Failf("cannot read the scenario: %v", err)
		return r, false
	}
	var head struct {
		Name string `yaml:"name"`
	}
	if yaml.Unmarshal(data, &head) == nil && head.Name != "" {
		r.Name = head.Name
	}
	return r, true
}

// Resolve returns the path of a file a scenario names (its game file):
// ${VAR} and $VAR are read from the environment (${TABULA_SHARED}/…), and
// a relative path is relative to dir, the scenario file's folder.
func Resolve(dir, file string) string {
	file = os.ExpandEnv(file)
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, file)
}

// Decode reads a scenario file (YAML, or JSON, which is YAML too) into v.
// Unknown fields are errors, so that a misspelt expectation is not silently
// ignored.
func Decode(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return err
	}
	return nil
}

// Result is the outcome of running one scenario.
type Result struct {
	File     string
	Name     string
	Failures []string
	// Notes say what passed but is worth knowing, such as lines still
	// written in an earlier version's words.
	Notes []string
}

// Failf records a failed expectation.
func (r *Result) Failf(format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
}

// Passed reports whether every expectation held.
func (r *Result) Passed() bool { return len(r.Failures) == 0 }

// String renders the result: "PASS name (file)" or "FAIL name (file)" with
// one indented line per failure.
func (r *Result) String() string {
	var b strings.Builder
	status := "PASS"
	if !r.Passed() {
		status = "FAIL"
	}
	fmt.Fprintf(&b, "%s %s (%s)\n", status, r.Name, r.File)
	for _, f := range r.Failures {
		for _, line := range strings.Split(strings.TrimRight(f, "\n"), "\n") {
			fmt.Fprintf(&b, "    %s\n", line)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "    note: %s\n", n)
	}
	return b.String()
}

// Expect compares a value with its expectation and records a failure
// "what: got X, want Y" if they differ.
func (r *Result) Expect(what string, got, want any) {
	if fmt.Sprint(got) != fmt.Sprint(want) {
		r.Failf("%s: got %v, want %v", what, got, want)
	}
}

// ExpectSet is Expect for an optional expectation: it checks only when
// want is set.
func ExpectSet[T any](r *Result, what string, got T, want *T) {
	if want != nil {
		r.Expect(what, got, *want)
	}
}

// Each checks expectations keyed by name (a player, a drone, a tile), in
// sorted order (Go maps have none): check gets each name with what is
// expected of it. A name that is not among names fails as
// `what: no NOUN "name"`, with the closest name there is.
func Each[V any](r *Result, what, noun string, want map[string]V, names []string, check func(name string, want V)) {
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if !slices.Contains(names, name) {
			r.Failf("%s: no %s %q%s", what, noun, name, diag.DidYouMean(name, names))
			continue
		}
		check(name, want[name])
	}
}

// maxShown is how many lines of a log a failure shows.
const maxShown = 40

// Lines are the lines of a log or a trace that expectations are looked
// for in: Now as the game words them today, and, for a line an earlier
// version worded otherwise, Before[i] as that version did ("" where the
// wording did not change; Before may be shorter than Now). A scenario
// written before the wording changed keeps passing: each expected line
// may name its line in either wording. Failures show the lines as they
// are now.
type Lines struct {
	Now, Before []string
}

// Add appends a line and its earlier wording ("" for none).
func (l *Lines) Add(now, before string) {
	if before != "" && before != now {
		for len(l.Before) < len(l.Now) {
			l.Before = append(l.Before, "")
		}
		l.Before = append(l.Before, before)
	}
	l.Now = append(l.Now, now)
}

// before is line i's earlier wording, "" if it has none.
func (l *Lines) before(i int) string {
	if i < len(l.Before) {
		return l.Before[i]
	}
	return ""
}

// match says whether want names line i: "now" in today's words, "before"
// in the earlier ones, "" not at all.
func (l *Lines) match(i int, want string) string {
	switch want {
	case l.Now[i]:
		return "now"
	case l.before(i):
		return "before"
	}
	return ""
}

// Reword returns what rewrites a line in an earlier version's words: each
// name players read now (a key of names) becomes what that version
// printed in its place (its value: an id, an older label), the longest
// name first, so that "Red 10" is not read as "Red 1" and a 0.
func Reword(names map[string]string) func(string) string {
	var keys []string
	for now, before := range names {
		if now != "" && now != before {
			keys = append(keys, now)
		}
	}
	if len(keys) == 0 {
		return func(line string) string { return line }
	}
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		pairs = append(pairs, k, names[k])
	}
	return strings.NewReplacer(pairs...).Replace
}

// ExpectInOrder checks that the lines of want appear in got in this order,
// other lines allowed between them (such as the lines of a log that
// matter). A failure names the first line missing and shows got from where
// that line was looked for.
func (r *Result) ExpectInOrder(what string, got, want []string) {
	r.ExpectInOrderOf(what, Lines{Now: got}, want)
}

// ExpectInOrderOf is ExpectInOrder on lines that may have an earlier
// wording: an expected line in the earlier words matches too, and the
// result notes it.
func (r *Result) ExpectInOrderOf(what string, got Lines, want []string) {
	at := 0
	var old []int
	for i, line := range want {
		j := at
		for ; j < len(got.Now); j++ {
			if m := got.match(j, line); m != "" {
				if m == "before" {
					old = append(old, j)
				}
				break
			}
		}
		if j < len(got.Now) {
			at = j + 1
			continue
		}
		rest := got.Now[at:]
		where := fmt.Sprintf("; the %s is:", what)
		if i > 0 {
			where = fmt.Sprintf(" after %q; from there the %s is:", want[i-1], what)
		}
		switch {
		case len(rest) == 0:
			rest = []string{"(nothing more)"}
		case len(rest) > maxShown:
			rest = append(slices.Clone(rest[:maxShown]), fmt.Sprintf("… (%d lines more)", len(rest)-maxShown))
		}
		r.Failf("%s: no line %q%s\n%s", what, line, where, strings.Join(rest, "\n"))
		return
	}
	r.noteBefore(what, got, old)
}

// ExpectLines compares two lists of lines (such as trigger traces) and
// records a failure with a line diff if they differ.
func (r *Result) ExpectLines(what string, got, want []string) {
	r.ExpectLinesOf(what, Lines{Now: got}, want)
}

// ExpectLinesOf is ExpectLines on lines that may have an earlier wording:
// each expected line may name its line in either wording.
func (r *Result) ExpectLinesOf(what string, got Lines, want []string) {
	var old []int
	same := len(got.Now) == len(want)
	for i := 0; same && i < len(want); i++ {
		switch got.match(i, want[i]) {
		case "":
			same = false
		case "before":
			old = append(old, i)
		}
	}
	if !same {
		r.Failf("%s differs (- want, + got):\n%s", what, Diff(want, got.Now))
		return
	}
	r.noteBefore(what, got, old)
}

// noteBefore notes the expected lines that named lines in their earlier
// words, with the first of them as the game words it now, so that the
// designer knows what to write from now on.
func (r *Result) noteBefore(what string, got Lines, old []int) {
	if len(old) == 0 {
		return
	}
	first := old[0]
	lines := "1 line is"
	if len(old) > 1 {
		lines = fmt.Sprintf("%d lines are", len(old))
	}
	r.Notes = append(r.Notes, fmt.Sprintf("%s: %s written in an earlier version's words, which still match; %q now reads %q",
		what, lines, got.before(first), got.Now[first]))
}

// Diff returns a line diff of two lists: unchanged lines indented by two
// spaces, lines only in a prefixed "- ", lines only in b prefixed "+ ".
func Diff(a, b []string) string {
	// Longest common subsequence, fine for traces of a few hundred lines.
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			fmt.Fprintf(&out, "  %s\n", a[i])
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&out, "+ %s\n", b[j])
			j++
		default:
			fmt.Fprintf(&out, "- %s\n", a[i])
			i++
		}
	}
	return out.String()
}
