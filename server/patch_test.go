package server

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// applyPatch applies a patch as the page does (web/static/delta.js), to a
// decoded document: the reference the differ's patches are checked with.
func applyPatch(t testing.TB, doc any, patch []byte) any {
	t.Helper()
	var ops [][]json.RawMessage
	if err := json.Unmarshal(patch, &ops); err != nil {
		t.Fatalf("the patch is not JSON: %v\n%s", err, patch)
	}
	root := map[string]any{"doc": doc}
	for _, op := range ops {
		var ptr string
		if err := json.Unmarshal(op[0], &ptr); err != nil {
			t.Fatal(err)
		}
		keys := strings.Split(ptr, "/")[1:]
		for i, k := range keys {
			keys[i] = strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~")
		}
		keys = append([]string{"doc"}, keys...)
		node := lookup(root, keys[:len(keys)-1])
		last := keys[len(keys)-1]
		set := func(v any) {}
		switch n := node.(type) {
		case map[string]any:
			if len(op) == 1 {
				delete(n, last)
				continue
			}
			set = func(v any) { n[last] = v }
		case []any:
			i, _ := strconv.Atoi(last)
			if len(op) == 1 {
				if i != len(n)-1 {
					t.Fatalf("%s removes element %d of %d: not the last", ptr, i, len(n))
				}
				// The array is its parent's member: shorten it there.
				shorten(root, keys[:len(keys)-1], n[:i])
				continue
			}
			if i == len(n) {
				shorten(root, keys[:len(keys)-1], append(n, nil))
				node = lookup(root, keys[:len(keys)-1])
				n = node.([]any)
			}
			set = func(v any) { n[i] = v }
		default:
			t.Fatalf("%s: no container at its parent", ptr)
		}
		var v any
		if err := json.Unmarshal(op[1], &v); err != nil {
			t.Fatal(err)
		}
		set(v)
	}
	return root["doc"]
}

func lookup(root any, keys []string) any {
	node := root
	for _, k := range keys {
		switch n := node.(type) {
		case map[string]any:
			node = n[k]
		case []any:
			i, _ := strconv.Atoi(k)
			node = n[i]
		}
	}
	return node
}

func shorten(root any, keys []string, v []any) {
	parent := lookup(root, keys[:len(keys)-1])
	k := keys[len(keys)-1]
	switch n := parent.(type) {
	case map[string]any:
		n[k] = v
	case []any:
		i, _ := strconv.Atoi(k)
		n[i] = v
	}
}

// checkPatch checks that the patch from a to b turns a into b.
func checkPatch(t *testing.T, d *differ, a, b string) []byte {
	t.Helper()
	ops := d.diff(nil, "", []byte(a), []byte(b))
	patch := append(append([]byte{'['}, ops...), ']')
	var doc, want any
	json.Unmarshal([]byte(a), &doc)
	json.Unmarshal([]byte(b), &want)
	if got := applyPatch(t, doc, patch); !reflect.DeepEqual(got, want) {
		t.Fatalf("patching\n%s\nwith\n%s\ngives\n%v\nnot\n%s", a, patch, got, b)
	}
	return patch
}

// A patch turns the value before into the value after, and tells only
// what changed.
func TestPatchTurnsBeforeIntoAfter(t *testing.T) {
	var d differ
	for _, c := range []struct{ a, b, want string }{
		{`{"a":1,"b":[1,2,3],"c":"x"}`, `{"a":1,"b":[1,2,3],"c":"x"}`, `[]`},
		{`{"a":1,"b":2}`, `{"a":1,"b":3}`, `[["/b",3]]`},
		{`{"a":1,"b":2}`, `{"b":2,"c":4}`, `[["/c",4],["/a"]]`},
		{`{"a":{"x":[1,2],"y":"s"},"n":null}`, `{"a":{"x":[1,5],"y":"s"},"n":null}`, `[["/a/x/1",5]]`},
		{`{"l":["aaaa","bbbb","cccc","dddd"]}`, `{"l":["aaaa","bbbb"]}`, `[["/l/3"],["/l/2"]]`},
		{`{"l":["aaaaaaaa"]}`, `{"l":["aaaaaaaa","b","c"]}`, `[["/l/1","b"],["/l/2","c"]]`},
		{`{"l":[1,2,3,4]}`, `{"l":[1,2]}`, `[["/l",[1,2]]]`},
		{`{"a/b":1,"t~":2}`, `{"a/b":2,"t~":3}`, `[["/a~1b",2],["/t~0",3]]`},
		{`{"q\"k":1}`, `{"q\"k":2}`, `[["/q\"k",2]]`},
		{`{"s":"a\"b"}`, `{"s":"a\"c"}`, `[["/s","a\"c"]]`},
		{`{"o":{"x":1}}`, `{"o":[1]}`, `[["/o",[1]]]`},
		{`{"o":{"x":1,"y":2,"z":3}}`, `{"o":{"p":4,"q":5,"r":6}}`, `[["/o",{"p":4,"q":5,"r":6}]]`},
		{`[{"a":1},{"a":2}]`, `[{"a":1},{"a":3}]`, `[["/1/a",3]]`},
	} {
		if got := checkPatch(t, &d, c.a, c.b); string(got) != c.want {
			t.Errorf("patch from %s to %s: %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

// Random documents, changed at random, are patched right.
func TestPatchRandomChanges(t *testing.T) {
	var d differ
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 6000 {
		d.small = []int{0, smallValue}[i%2]
		a := randomValue(r, 3)
		b := mutate(r, a, 3)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		checkPatch(t, &d, string(ja), string(jb))
	}
}

func randomValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(8); {
	case depth > 0 && k < 2:
		m := map[string]any{}
		for i := range r.IntN(5) {
			m[[]string{"a", "b/c", "d~", "é", `q"`, "x"}[(i+r.IntN(3))%6]] = randomValue(r, depth-1)
		}
		return m
	case depth > 0 && k < 4:
		l := make([]any, r.IntN(5))
		for i := range l {
			l[i] = randomValue(r, depth-1)
		}
		return l
	case k < 5:
		return fmt.Sprintf("s%d\\\"%d", r.IntN(3), r.IntN(2))
	case k < 6:
		return r.IntN(3)
	case k < 7:
		return r.IntN(2) == 0
	}
	return nil
}

func mutate(r *rand.Rand, v any, depth int) any {
	if r.IntN(6) == 0 {
		return randomValue(r, depth)
	}
	switch v := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, x := range v {
			if r.IntN(8) > 0 {
				m[k] = mutate(r, x, depth-1)
			}
		}
		if r.IntN(4) == 0 {
			m["new"] = randomValue(r, depth-1)
		}
		return m
	case []any:
		var l []any
		for _, x := range v {
			l = append(l, mutate(r, x, depth-1))
		}
		switch r.IntN(4) {
		case 0:
			l = append(l, randomValue(r, depth-1))
		case 1:
			if len(l) > 0 {
				l = l[:r.IntN(len(l))]
			}
		}
		if l == nil {
			l = []any{}
		}
		return l
	}
	return v
}

// A summary is written as encoding/json writes it.
func TestSummaryJSON(t *testing.T) {
	at := time.Date(2026, 11, 28, 14, 5, 6, 123456789, time.UTC)
	cases := []Summary{
		{ID: "m1", Game: "party", Board: "default", BoardName: "Default <board>", Status: "lobby", Seats: []SeatView{{}, {Name: "Ann"}},
			Created: at, Updated: at.Add(time.Second)},
		{ID: "m2", Game: "lanes", Board: "g-1", BoardName: "é", Status: "finished", MaxRounds: 9, Public: true, TurnLimit: 1.5,
			Result: "Ann won", Error: "x\ny", Commands: 12, Created: at, Updated: at.In(time.FixedZone("x", 3600)), Rematch: "m1", Next: "m3", Compat: "original",
			SpectatorChat: true, Seats: []SeatView{{Name: "Ann", Bot: true, Level: "mcts", Online: true, Human: true, Handed: "left", Muted: true},
				{Name: "Bob \"B\"", Online: true, Handed: "owner"}}},
		{ID: "m3"},
	}
	for _, s := range cases {
		want, _ := json.Marshal(s)
		if got := s.appendJSON(nil); string(got) != string(want) {
			t.Errorf("summary\n%s\nwant\n%s", got, want)
		}
	}
	// The second summary sets every field, its first seat every field of
	// a seat: a field added to either must be written by appendJSON too.
	full := reflect.ValueOf(cases[1])
	for i := range full.NumField() {
		if full.Field(i).IsZero() {
			t.Errorf("Summary.%s is left out of this test", full.Type().Field(i).Name)
		}
	}
	seat := full.FieldByName("Seats").Index(0)
	for i := range seat.NumField() {
		if seat.Field(i).IsZero() {
			t.Errorf("SeatView.%s is left out of this test", seat.Type().Field(i).Name)
		}
	}
}
