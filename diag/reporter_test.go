package diag

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestReporterLimit: past its limit a reporter keeps one diagnostic that
// counts the rest, an error if any of them is, and last after sorting.
func TestReporterLimit(t *testing.T) {
	doc := []byte(`{"a": [1, 2, 3, 4, 5, 6]}`)
	for _, c := range []struct {
		name   string
		limit  int
		report func(r *Reporter)
		want   []string
		count  int
		errors int
	}{
		{"under the limit", 3, func(r *Reporter) {
			r.Errorf("/a/1", "one")
			r.Warnf("/a/0", "two")
		}, []string{"f.json:1:8: /a/0: warning: two", "f.json:1:11: /a/1: one"}, 2, 1},
		{"warnings left out", 2, func(r *Reporter) {
			for i := range 4 {
				r.Warnf(Pointer("a", i), "w%d", i)
			}
		}, []string{"f.json:1:8: /a/0: warning: w0", "f.json:1:11: /a/1: warning: w1",
			"f.json: /: warning: and 2 more problems; only the first 2 are shown"}, 4, 0},
		{"an error left out", 1, func(r *Reporter) {
			r.Warnf("/a/5", "w")
			r.Errorf("/a/4", "e")
			r.At(Warning, "/a/3", 9, 9, "at")
			r.AtString(Warning, "/a/2", 0, "in")
		}, []string{"f.json:1:23: /a/5: warning: w",
			"f.json: /: and 3 more problems; only the first 1 are shown"}, 4, 1},
		{"one left out", 1, func(r *Reporter) {
			r.Errorf("/a/5", "e")
			r.Errorf("/a/4", "e")
		}, []string{"f.json:1:23: /a/5: e",
			"f.json: /: and 1 more problem; only the first 1 are shown"}, 2, 2},
		{"no limit", -1, func(r *Reporter) {
			for i := range 3 {
				r.Errorf(Pointer("a", 2-i), "e")
			}
		}, []string{"f.json:1:8: /a/0: e", "f.json:1:11: /a/1: e", "f.json:1:14: /a/2: e"}, 3, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewReporter("f.json", doc)
			r.Limit = c.limit
			c.report(r)
			r.List.Sort()
			if got := strings.TrimSpace(r.List.String()); got != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", got, strings.Join(c.want, "\n"))
			}
			if r.Count() != c.count || r.ErrorCount() != c.errors {
				t.Errorf("Count = %d, ErrorCount = %d, want %d, %d", r.Count(), r.ErrorCount(), c.count, c.errors)
			}
			if r.List.HasErrors() != (c.errors > 0) {
				t.Errorf("HasErrors = %v with %d errors", r.List.HasErrors(), c.errors)
			}
		})
	}
}

// TestReporterDefaultLimit: a reporter keeps MaxDiagnostics diagnostics,
// counts the rest, and suggests nothing once it is full.
func TestReporterDefaultLimit(t *testing.T) {
	r := NewReporter("f.json", []byte(`{}`))
	cands := []string{"PROMPT_ALL_PLAYERS"}
	for i := range MaxDiagnostics + 10 {
		if got := r.DidYouMean("PROMT_ALL_PLAYERS", cands); (got != "") != (i < MaxDiagnostics) {
			t.Fatalf("diagnostic %d: DidYouMean = %q", i, got)
		}
		r.Errorf("", "e%d", i)
	}
	r.List.Sort() // the count stays last, and is still counted after a sort
	r.Errorf("", "one more")
	if len(r.List) != MaxDiagnostics+1 || r.List[MaxDiagnostics].More != 11 || !r.Full() {
		t.Fatalf("%d diagnostics, the last %v", len(r.List), r.List[len(r.List)-1])
	}
}

// TestReporterContext: a reporter whose context ends keeps nothing more
// and says once that the file was not fully checked.
func TestReporterContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := NewReporter("f.json", []byte(`{"name": 1}`)).WithContext(ctx)
	r.Warnf("", "before")
	if r.Stopped() || r.Full() {
		t.Fatal("stopped before the end of the context")
	}
	cancel()
	r.Errorf("/name", "after")
	r.Warnf("/name", "after")
	s := MustCompileSchema(testSchemaURL, testSchema)
	if s.Check(r, map[string]any{"name": 1.0}) {
		t.Error("a stopped check passed")
	}
	if !r.Stopped() || !r.Full() || r.Suggest("PROMT", []string{"PROMPT"}) != "" {
		t.Error("not stopped")
	}
	want := "f.json:1:1: /: warning: before\nf.json: /: the checks stopped before the end (context canceled): the file may have more problems\n"
	if got := r.List.String(); got != want || !r.List.HasErrors() {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestSchemaCheckFull: a schema check stops reporting, and suggesting,
// when the reporter is full.
func TestSchemaCheckFull(t *testing.T) {
	s := MustCompileSchema(testSchemaURL, testSchema)
	var b strings.Builder
	b.WriteString(`{"name": "x"`)
	for i := range 5000 {
		fmt.Fprintf(&b, `, "colur%d": 1`, i)
	}
	b.WriteString("}")
	r := NewReporter("f.json", []byte(b.String()))
	r.Limit = 10
	doc, _ := r.DecodeJSON([]byte(b.String()))
	s.Check(r, doc)
	if len(r.List) != 11 || r.List[10].More != 4990 || r.suggestWork > 10*SuggestWork {
		t.Errorf("%d diagnostics, the last %v; %d suggestion work", len(r.List), r.List[len(r.List)-1], r.suggestWork)
	}
}

// TestDecodeDepth: arrays and objects nest at most MaxDepth deep; deeper
// is an error at the bracket that goes too deep, unless the file has a
// problem before it.
func TestDecodeDepth(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct{ doc, want string }{
		{deep(MaxDepth), ""},
		{`{"a": ` + deep(MaxDepth-1) + `}`, ""},
		{deep(MaxDepth + 1), fmt.Sprintf("f.json:1:%d: /: invalid JSON: arrays and objects nest more than %d levels deep", MaxDepth+1, MaxDepth)},
		{"{\"a\": \"[[[\",\n \"b\": " + deep(MaxDepth), fmt.Sprintf("f.json:2:%d: /: invalid JSON: arrays and objects nest more than %d levels deep", 6+MaxDepth, MaxDepth)},
		{strings.Repeat("[", 1<<20), fmt.Sprintf("f.json:1:%d: /: invalid JSON: arrays and objects nest more than %d levels deep", MaxDepth+1, MaxDepth)},
		{"[x" + deep(MaxDepth+1), "f.json:1:2: /: invalid JSON: invalid character 'x' looking for beginning of value"},
	} {
		r := NewReporter("f.json", []byte(c.doc))
		_, ok := r.DecodeJSON([]byte(c.doc))
		if got := strings.TrimSpace(r.List.String()); got != c.want || ok != (c.want == "") {
			t.Errorf("%.30s…: got %q, want %q", c.doc, got, c.want)
		}
	}
}
