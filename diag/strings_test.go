package diag

import (
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
