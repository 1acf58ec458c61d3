package game

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// The encoders write exactly what encoding/json writes, so that a page
// reads the same messages whichever wrote them.
func TestAppendersWriteWhatEncodingJSONWrites(t *testing.T) {
	strs := []string{"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
		"<b>&amp;</b>", "é à ü 漢字 🎲", "\u2028\u2029", "bad \xff\xfe utf8", "\xe2\x82", "~/ pointer"}
	for _, s := range strs {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
	for _, f := range []float64{0, 1, -1, 0.5, 1.0 / 3, 1e-6, 1e-7, 123456789, 1e20, 1e21, 1.5e300, -2.5e-9, math.SmallestNonzeroFloat64, math.MaxFloat64} {
		want, _ := json.Marshal(f)
		if got := AppendFloat(nil, f); !bytes.Equal(got, want) {
			t.Errorf("AppendFloat(%v) = %s, want %s", f, got, want)
		}
	}
	entries := []Entry{
		{Seq: 0, Kind: "event", Seat: -1, Text: "The game starts"},
		{Seq: 12, Chain: 3, Depth: 2, Kind: "fired", Type: "ON_ENTER", Seat: 1, Text: "Ann <enters>", Detail: "d", At: "s1", Subject: "Ann",
			Target: "Bob", Amount: -3, Data: map[string]any{"roll": 6, "mods": []int{1, -1}, "why": "<x>"}},
		{Seq: 1, Kind: "note", Seat: 0, Data: json.RawMessage(`{"a": 1}`)},
	}
	for _, es := range [][]Entry{entries, entries[:1], {}} {
		want, _ := json.Marshal(es)
		got, err := AppendEntries(nil, es)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("AppendEntries = %s (%v), want %s", got, err, want)
		}
	}
	cmds := []Command{{Data: json.RawMessage(`{"kind":"roll"}`), Text: "Roll the dice"},
		{Data: json.RawMessage(`{ "kind": "go", "to": "<a>" }`), Text: "Go to <a> & b"}, {Data: json.RawMessage(`{"name":"é"}`), Text: "é"}}
	for _, cs := range [][]Command{cmds, {}} {
		want, _ := json.Marshal(cs)
		got, err := AppendCommands(nil, cs)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("AppendCommands = %s (%v), want %s", got, err, want)
		}
	}
	for _, ns := range [][]int{nil, {}, {1, -2, 30}} {
		want, _ := json.Marshal(ns)
		if got := AppendInts(nil, ns); !bytes.Equal(got, want) {
			t.Errorf("AppendInts(%v) = %s, want %s", ns, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("hello <world> \u2028 \xff")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
