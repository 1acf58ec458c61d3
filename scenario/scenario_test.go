package scenario

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpen: a scenario's result is named after its "name", or its file;
// a file that does not decode fails saying why.
func TestOpen(t *testing.T) {
	var sc struct {
		Game string `yaml:"game"`
		Name string `yaml:"name"`
	}
	r, ok := Open("dir/a.scenario.yaml", []byte("game: party\nname: the shortcut\n"), &sc)
	if !ok || r.Name != "the shortcut" || r.File != "dir/a.scenario.yaml" || sc.Game != "party" {
		t.Errorf("Open = %+v, %v", r, ok)
	}
	if r, _ := Open("dir/a.scenario.yaml", []byte("game: party\n"), &sc); r.Name != "a.scenario.yaml" {
		t.Errorf("unnamed scenario: %q", r.Name)
	}
	r, ok = Open("a.scenario.yaml", []byte("game: party\nbogus: 1\n"), &sc)
	if ok || r.Passed() || !strings.Contains(r.String(), "cannot read the scenario") || !strings.Contains(r.String(), "field bogus not found") {
		t.Errorf("a misspelt field: %v\n%s", ok, r)
	}
}

// TestResolve: game files are relative to the scenario's folder, with
// environment variables read.
func TestResolve(t *testing.T) {
	t.Setenv("TABULA_TEST_DIR", "/data")
	abs, _ := filepath.Abs("/games/x.json")
	for _, c := range []struct{ file, want string }{
		{"board.json", filepath.Join("examples", "party", "board.json")},
		{"../b.json", filepath.Join("examples", "b.json")},
		{"${TABULA_TEST_DIR}/v1/board.json", filepath.Join("/data", "v1", "board.json")},
		{abs, abs},
	} {
		if got := Resolve(filepath.Join("examples", "party"), c.file); got != c.want {
			t.Errorf("Resolve(%q) = %q, want %q", c.file, got, c.want)
		}
	}
}

// TestEach: expectations by name are checked in the order of the names;
// an unknown name fails with the closest known one.
func TestEach(t *testing.T) {
	r := &Result{}
	var seen []string
	Each(r, "positions", "player", map[string]int{"Bob": 2, "Ann": 1, "Anne": 3}, []string{"Ann", "Bob"}, func(name string, want int) {
		seen = append(seen, fmt.Sprint(name, want))
	})
	if strings.Join(seen, ",") != "Ann1,Bob2" {
		t.Errorf("checked %v", seen)
	}
	if len(r.Failures) != 1 || r.Failures[0] != `positions: no player "Anne" (did you mean Ann?)` {
		t.Errorf("failures %q", r.Failures)
	}
}

// TestExpectSet: an optional expectation is checked only when set.
func TestExpectSet(t *testing.T) {
	r := &Result{}
	two := 2
	ExpectSet(r, "hull", 3, nil)
	ExpectSet(r, "shields", 2, &two)
	if !r.Passed() {
		t.Fatal(r.Failures)
	}
	ExpectSet(r, "hull", 3, &two)
	if len(r.Failures) != 1 || r.Failures[0] != "hull: got 3, want 2" {
		t.Errorf("failures %q", r.Failures)
	}
}

// TestExpectInOrder: lines must come in order, others between them; a
// failure names the first line missing and shows where it was looked for.
func TestExpectInOrder(t *testing.T) {
	log := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		want []string
		fail string
	}{
		{nil, ""},
		{[]string{"a", "c"}, ""},
		{[]string{"b", "d"}, ""},
		{[]string{"x"}, "log: no line \"x\"; the log is:\na\nb\nc\nd"},
		{[]string{"b", "a"}, "log: no line \"a\" after \"b\"; from there the log is:\nc\nd"},
		{[]string{"a", "d", "d"}, "log: no line \"d\" after \"d\"; from there the log is:\n(nothing more)"},
	} {
		r := &Result{}
		r.ExpectInOrder("log", log, c.want)
		if got := strings.Join(r.Failures, "\n"); got != c.fail {
			t.Errorf("%q: got %q, want %q", c.want, got, c.fail)
		}
	}
	var long []string
	for i := range 50 {
		long = append(long, fmt.Sprint("line ", i))
	}
	r := &Result{}
	r.ExpectInOrder("trace", long, []string{"line 3", "nowhere"})
	if f := r.Failures[0]; !strings.Contains(f, "\nline 4\n") || !strings.HasSuffix(f, "\nline 43\n… (6 lines more)") {
		t.Errorf("a long trace is cut:\n%s", f)
	}
}

// TestReadHead: every scenario file's head names its pack and, if it has
// one, the compatibility mode it plays in, whatever else it holds.
func TestReadHead(t *testing.T) {
	for _, c := range []struct {
		data string
		want Head
	}{
		{"game: party\nname: x\n", Head{Game: "party"}},
		{"game: party\ncompat: original\nexpect: {over: true}\n", Head{Game: "party", Compat: "original"}},
		{`{"game": "lanes", "compat": ""}`, Head{Game: "lanes"}},
	} {
		if got, err := ReadHead([]byte(c.data)); err != nil || got != c.want {
			t.Errorf("ReadHead(%q) = %+v, %v; want %+v", c.data, got, err, c.want)
		}
	}
	if _, err := ReadHead([]byte("game: [")); err == nil {
		t.Error("a broken head has no error")
	}
}

// TestEarlierWording: an expected line may name a line as the game words
// it now or as an earlier version did; either way it matches, lines in
// the earlier words are noted with how they read now, and a failure shows
// the lines as they are now.
func TestEarlierWording(t *testing.T) {
	var got Lines
	got.Add("Ann rolls 4", "")
	got.Add("Ann's piece 1 moves 4 steps to Track 7", "Ann's piece 1 moves from t3 to t7")
	got.Add("Bob's turn", "Bob's turn")
	r := &Result{}
	r.ExpectInOrderOf("log", got, []string{"Ann rolls 4", "Ann's piece 1 moves from t3 to t7", "Bob's turn"})
	r.ExpectLinesOf("log", got, []string{"Ann rolls 4", "Ann's piece 1 moves 4 steps to Track 7", "Bob's turn"})
	if !r.Passed() || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], `"Ann's piece 1 moves from t3 to t7" now reads "Ann's piece 1 moves 4 steps to Track 7"`) {
		t.Errorf("failures %q, notes %q", r.Failures, r.Notes)
	}
	if s := r.String(); !strings.Contains(s, "\n    note: log: 1 line is written in an earlier version's words") {
		t.Errorf("the notes are not shown:\n%s", s)
	}
	r = &Result{}
	r.ExpectLinesOf("moves", got, []string{"Ann rolls 4", "Ann's piece 1 moves from t3 to t8", "Bob's turn"})
	if len(r.Failures) != 1 || !strings.Contains(r.Failures[0], "+ Ann's piece 1 moves 4 steps to Track 7") || len(r.Notes) != 0 {
		t.Errorf("failures %q, notes %q", r.Failures, r.Notes)
	}
}

// TestReword: names become what an earlier version printed, the longest
// first.
func TestReword(t *testing.T) {
	reword := Reword(map[string]string{"red 1": "1 (red)", "red 10": "10 (red)", "Start": "Start", "": "x"})
	if got := reword("Ann passes red 10 and red 1 from Start"); got != "Ann passes 10 (red) and 1 (red) from Start" {
		t.Errorf("got %q", got)
	}
	if got := Reword(nil)("as it is"); got != "as it is" {
		t.Errorf("got %q", got)
	}
}
