package diag

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestCheckStrings(t *testing.T) {
	limits := StringLimits{Key: 4, Default: 5, Members: map[string]int{"id": 2}}
	doc, err := DecodeJSON([]byte(`{"id": "ab", "ids": ["abcde", "abcdef"], "id2": {"id": ["abc", "éé"]},
		"name": "ééééé", "long": "éééééé", "keyy": 1, "map": {"kéé": "x", "kéééé": {"id": "abcdefgh"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewReporter("f.json", nil)
	if CheckStrings(r, doc, limits) {
		t.Error("CheckStrings reports that every string fits")
	}
	want := []string{
		"/id2/id/0: must be at most 2 characters long, not 3",
		"/ids/1: must be at most 5 characters long, not 6",
		"/long: must be at most 5 characters long, not 6",
		"/map: a member name must be at most 4 characters long, not 5",
	}
	var got []string
	for _, d := range r.List {
		got = append(got, d.Pointer+": "+d.Message)
	}
	slices.Sort(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHiddenRunes: text a player reads on someone else's screen may not
// hold a control character or a bidirectional override; tabs, line
// breaks, isolates, direction marks and emoji joiners are text.
func TestHiddenRunes(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Plain", ""},
		{"Two\nlines\tand a tab\r\n", ""},
		{"Café 👩‍👩‍👧", ""},
		{"\u2067عربي\u2069 text \u200f", ""},
		{"Eve\u202Elivo", "holds a bidirectional override (U+202E) at character 4, which reorders the text shown after it: remove it (for right-to-left text, an isolate U+2066 to U+2069 keeps it in its place)"},
		{"éé\u202Ax", "holds a bidirectional embedding (U+202A) at character 3, which reorders the text shown after it: remove it (for right-to-left text, an isolate U+2066 to U+2069 keeps it in its place)"},
		{"a\u202Cb", "holds a bidirectional formatting pop (U+202C) at character 2, which reorders the text shown after it: remove it (for right-to-left text, an isolate U+2066 to U+2069 keeps it in its place)"},
		{"bell\a", "holds a control character (U+0007) at character 5, which shows as nothing or cuts the line: remove it"},
		{"x\u0085y", "holds a control character (U+0085) at character 2, which shows as nothing or cuts the line: remove it"},
		{"\x00", "holds a control character (U+0000) at character 1, which shows as nothing or cuts the line: remove it"},
	} {
		if got := HiddenRune(c.text); got != c.want {
			t.Errorf("HiddenRune(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	doc, err := DecodeJSON([]byte(`{"spaces": [{"name": "Start"}, {"name": "Eve\u202Elivo"}], "long": "abcdef\u202E"}`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewReporter("f.json", nil)
	if CheckStrings(r, doc, StringLimits{Key: 10, Default: 20, Members: map[string]int{"long": 5}}) {
		t.Error("CheckStrings passes a name with an override")
	}
	var got []string
	for _, d := range r.List {
		got = append(got, d.Pointer+": "+d.Message)
	}
	slices.Sort(got)
	want := []string{"/long: must be at most 5 characters long, not 7",
		"/spaces/1/name: " + HiddenRune("Eve\u202Elivo")}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStoredTextIsKept: a game read back from a store (Stored) keeps a
// hidden character with a warning where a file sent now is refused; a
// string too long is refused either way.
func TestStoredTextIsKept(t *testing.T) {
	doc, err := DecodeJSON([]byte(`{"name": "Eve\u202Elivo", "long": "abcdef"}`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewReporter("f.json", nil).WithContext(Stored(context.Background()))
	if CheckStrings(r, doc, StringLimits{Key: 10, Default: 20, Members: map[string]int{"long": 5}}) {
		t.Error("CheckStrings passes a string too long, stored or not")
	}
	var got []string
	for _, d := range r.List {
		got = append(got, fmt.Sprintf("%s %s: %s", d.Severity, d.Pointer, d.Message))
	}
	slices.Sort(got)
	want := []string{"error /long: must be at most 5 characters long, not 6",
		"warning /name: " + HiddenRune("Eve\u202Elivo") + " (kept: the game was stored before such characters were refused)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckStringsFull: once the reporter is full, CheckStrings only
// counts.
func TestCheckStringsFull(t *testing.T) {
	doc, _ := DecodeJSON([]byte(`["abc", "abc", "abc"]`))
	r := NewReporter("f.json", nil)
	r.Limit = 1
	CheckStrings(r, doc, StringLimits{Key: 1, Default: 1})
	if r.Count() != 3 || len(r.List) != 2 || r.List[1].More != 2 {
		t.Errorf("%d problems, list:\n%s", r.Count(), r.List)
	}
}

func TestJoinNames(t *testing.T) {
	var names []string
	for i := range MaxListed + 5 {
		names = append(names, strings.Repeat("x", i+1))
	}
	if got := JoinNames(names[:2]); got != "x, xx" {
		t.Errorf("JoinNames of 2 = %q", got)
	}
	if got := JoinNames(names); !strings.HasSuffix(got, ", "+strings.Repeat("x", MaxListed)+" and 5 more") {
		t.Errorf("JoinNames of %d = %q", len(names), got)
	}
}

// TestDecodeValues: a document of MaxValues values decodes; one more is
// refused where it starts, unless a syntax error comes first.
func TestDecodeValues(t *testing.T) {
	zeros := func(n int) string { return "[" + strings.Repeat("0,", n-1) + "0]" }
	objects := func(n int) string { return "[" + strings.Repeat(`{"a":[]},`, n-1) + `{"a":[]}]` }
	for _, c := range []struct{ doc, want string }{
		{zeros(MaxValues - 1), ""},
		{objects((MaxValues - 1) / 2), ""},
		{zeros(MaxValues), fmt.Sprintf("f.json:1:%d: /: invalid JSON: the document holds more than %d values (objects, arrays, strings, numbers…)", 2*MaxValues, MaxValues)},
		{objects(MaxValues / 2), fmt.Sprintf("f.json:1:%d: /: invalid JSON: the document holds more than %d values (objects, arrays, strings, numbers…)", 1+9*(MaxValues/2-1)+5+1, MaxValues)},
		{"[x," + zeros(MaxValues), "f.json:1:2: /: invalid JSON: invalid character 'x' looking for beginning of value"},
		{"[[],[], " + zeros(MaxValues-4) + "]", ""},
	} {
		r := NewReporter("f.json", []byte(c.doc))
		_, ok := r.DecodeJSON([]byte(c.doc))
		if got := strings.TrimSpace(r.List.String()); got != c.want || ok != (c.want == "") {
			t.Errorf("%.30s…: got %q, want %q", c.doc, got, c.want)
		}
	}
}
