package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLocateAwkwardKeys: a member is found by its name as JSON decodes it
// (whatever escapes the file wrote it with), in a pointer escaped as RFC
// 6901 says.
func TestLocateAwkwardKeys(t *testing.T) {
	for _, c := range []struct {
		name    string
		written string // the key as the file writes it, without quotes
		key     string // the key as JSON decodes it
		pointer string
	}{
		{"slash escaped", `a\/b`, "a/b", "/a~1b"},
		{"slash as \\u", `a\u002fb`, "a/b", "/a~1b"},
		{"slash as \\u upper case", `a\u002Fb`, "a/b", "/a~1b"},
		{"plain slash", `a/b`, "a/b", "/a~1b"},
		{"tilde", `a~b`, "a~b", "/a~0b"},
		{"tilde then one", `~1`, "~1", "/~01"},
		{"slash and tilde", `/~`, "/~", "/~1~0"},
		{"quote", `say \"hi\"`, `say "hi"`, `/say "hi"`},
		{"backslash", `a\\b`, `a\b`, `/a\b`},
		{"newline and tab", `a\nb\tc`, "a\nb\tc", "/a\nb\tc"},
		{"empty", ``, "", "/"},
		{"non-ASCII", `naïve é`, "naïve é", "/naïve é"},
		{"non-ASCII escaped", `na\u00efve`, "naïve", "/naïve"},
		{"surrogate pair", `\ud83d\ude00`, "😀", "/😀"},
		{"lone surrogate", `a\ud83db`, "a\uFFFDb", "/a\uFFFDb"},
		{"space", ` `, " ", "/ "},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := []byte("{\n  \"pad\": 0,\n  \"" + c.written + "\": [\"x\", {\"" + c.written + "\": true}]\n}")
			var decoded map[string]any
			if err := json.Unmarshal(doc, &decoded); err != nil {
				t.Fatal(err)
			}
			if _, ok := decoded[c.key]; !ok {
				t.Fatalf("the test is wrong: JSON decodes %q to something else: %v", c.written, decoded)
			}
			if got := Pointer(c.key); got != c.pointer {
				t.Errorf("Pointer(%q) = %q, want %q", c.key, got, c.pointer)
			}
			l := NewLocator(doc)
			col := 3 + utf8.RuneCountInString(c.written) + 4 // after `  "`, the key, `": `
			for _, q := range []struct {
				ptr       string
				line, col int
			}{
				{c.pointer, 3, col},
				{c.pointer + "/0", 3, col + 1},
				{c.pointer + "/1", 3, col + 6},
				{c.pointer + "/1" + c.pointer, 3, col + 6 + 1 + utf8.RuneCountInString(c.written) + 4},
				{c.pointer + "/2", 3, col}, // missing: the array
			} {
				if line, col := l.Find(q.ptr); line != q.line || col != q.col {
					t.Errorf("Find(%q) = %d:%d, want %d:%d", q.ptr, line, col, q.line, q.col)
				}
			}
		})
	}
}

// TestLocatePointers: what a pointer names, as RFC 6901 reads it.
func TestLocatePointers(t *testing.T) {
	doc := []byte(`{"a": [10, 11], "a~b": 1, "": {"": 2}, "0": 3, "01": 4}`)
	l := NewLocator(doc)
	for _, c := range []struct {
		ptr   string
		off   int
		exact bool
	}{
		{"", 0, true},
		{"/a", 6, true},
		{"/a/0", 7, true},
		{"/a/1", 11, true},
		{"/a/01", 6, false}, // no leading zeros
		{"/a/-", 6, false},
		{"/a/2", 6, false},
		{"/a/1/x", 11, false},
		{"/a~0b", 23, true},
		{"/a~b", 0, false}, // "~b" is no escape
		{"/a~2b", 0, false},
		{"/", 30, true},
		{"//", 35, true},
		{"/0", 44, true},
		{"/01", 53, true}, // a member's name, not an index
		{"a", 0, false},   // not a pointer
	} {
		off, ok := l.Offset(c.ptr)
		line, col := l.Find(c.ptr)
		if ok != c.exact || (ok && off != c.off) || line != 1 || col != c.off+1 {
			t.Errorf("%q: Offset = %d, %v; Find = %d:%d; want offset %d, %v", c.ptr, off, ok, line, col, c.off, c.exact)
		}
	}
}

// TestLocateBroken: a document cut short or not JSON keeps the positions of
// what came before the problem, and never more.
func TestLocateBroken(t *testing.T) {
	for _, c := range []struct {
		doc, ptr  string
		line, col int
	}{
		{``, "", 1, 1},
		{`   `, "/a", 1, 1},
		{`  x`, "", 1, 3},
		{`{"a": [1, 2`, "/a/1", 1, 11},
		{`{"a": [1, 2`, "/a/2", 1, 7},
		{"{\"a\": [1,\n ,2]}", "/a/1", 1, 7},
		{`{"a" 1, "b": 2}`, "/b", 1, 1},
		{strings.Repeat(`[`, 100000), strings.Repeat("/0", 100000), 1, MaxDepth + 1}, // no deeper than DecodeJSON reads
	} {
		if line, col := NewLocator([]byte(c.doc)).Find(c.ptr); line != c.line || col != c.col {
			t.Errorf("%.20q: Find(%.20q) = %d:%d, want %d:%d", c.doc, c.ptr, line, col, c.line, c.col)
		}
	}
}

// TestUnquote: keys decode as encoding/json decodes them.
func TestUnquote(t *testing.T) {
	for _, s := range []string{`a`, `\/`, `\u002f\u002F`, `\"\\\b\f\n\r\t`, `\ud83d\ude00`, `\ud83d`, `\ud83dx`, `\ude00\ud83d`,
		`\ud83d\u0041`, "\xff", "a\xe2\x82", `\u00e9`, "é"} {
		checkUnquote(t, []byte(s))
	}
}

func checkUnquote(t *testing.T, s []byte) {
	t.Helper()
	var want string
	if json.Unmarshal([]byte(`"`+string(s)+`"`), &want) != nil {
		return
	}
	if got := unquote(s); got != want {
		t.Errorf("unquote(%q) = %q, want %q", s, got, want)
	}
}

// FuzzUnquote: keys decode as encoding/json decodes them.
func FuzzUnquote(f *testing.F) {
	f.Add([]byte(`a\u002f\ud83d\ude00\ud83d`))
	f.Fuzz(checkUnquote)
}

// FuzzDecodeAndLocate: whatever a file holds, decoding it and locating any
// of its values never panics; every value the decoder reads is where the
// locator says, under its pointer; pointers escape and unescape back to
// their tokens; and indexing costs memory in proportion to the file.
func FuzzDecodeAndLocate(f *testing.F) {
	f.Add([]byte(`{"a": "x\u00e9\ud83d\ude00 \\", "b": [1, "\n"]}`), 3)
	f.Add([]byte(`{"a": "\ud83d`), 1)
	f.Add([]byte("{\"a\\/b\": {\"~\": [true, null, {}]},\n \"\": [[], \"é\"], \"\\u002f\": 1.5e3}"), 2)
	f.Add([]byte(`[[[[1]]], {"x": {"y": "\"z"}}] trailing`), 0)
	// A long key over many values: pointers built for every value would
	// cost key length × values.
	f.Add([]byte(`{"`+strings.Repeat("k", 4000)+`": [`+strings.Repeat("0,", 2000)+`0]}`), 0)
	f.Fuzz(func(t *testing.T, data []byte, chars int) {
		r := NewReporter("f.json", data)
		_, valid := r.DecodeJSON(data)
		for _, ptr := range []string{"", "/a", "/b/1", "/0"} {
			r.AtString(Error, ptr, chars, "m")
		}

		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		l := NewLocator(data)
		l.Position(0)
		runtime.ReadMemStats(&after)
		if bytes := after.TotalAlloc - before.TotalAlloc; bytes > uint64(locatorBytesPerByte*len(data)+locatorBytesFixed) {
			t.Errorf("indexing %d bytes allocated %d bytes", len(data), bytes)
		}

		if !valid {
			// The locator reads what it can of a broken file, past
			// where the decoder gives up: only a file the decoder reads
			// whole is a reference.
			return
		}
		vals, ok := values(data)
		for _, v := range vals {
			off, found := l.Offset(v.ptr)
			if !found || off != v.off {
				t.Fatalf("Offset(%q) = %d, %v; the decoder read it at %d", v.ptr, off, found, v.off)
			}
			wantLine, wantCol := lineCol(data, v.off)
			if line, col := l.Find(v.ptr); line != wantLine || col != wantCol {
				t.Fatalf("Find(%q) = %d:%d, want %d:%d", v.ptr, line, col, wantLine, wantCol)
			}
			for _, tok := range v.tokens {
				if back, ok := unescapeToken(Escape(tok)); !ok || back != tok {
					t.Fatalf("the token %q escapes to %q and back to %q", tok, Escape(tok), back)
				}
			}
		}
		if ok && len(vals) > 0 {
			// A member that is not there is placed at its object.
			for _, v := range vals {
				if data[v.off] == '{' {
					if off, found := l.Offset(v.ptr + "/\x00missing"); found {
						t.Fatalf("a missing member found at %d", off)
					}
					wantLine, wantCol := lineCol(data, v.off)
					if line, col := l.Find(v.ptr + "/\x00missing/0"); line != wantLine || col != wantCol {
						t.Fatalf("a missing member of %q at %d:%d, want %d:%d", v.ptr, line, col, wantLine, wantCol)
					}
				}
			}
		}
	})
}

// The memory a Locator may allocate: a few integers per byte of the
// document (a value can be as short as one byte), and a little for the
// smallest documents.
const (
	locatorBytesPerByte = 128
	locatorBytesFixed   = 16 << 10
)

// value is a value the decoder read: its pointer, the tokens of the
// pointer, and the offset of its first byte.
type value struct {
	ptr    string
	tokens []string
	off    int
}

// values lists the values of the first JSON value in data as
// encoding/json's token reader sees them, up to its first error; ok is
// false if no value's place can be trusted (a name repeated in an object,
// whose later value hides the earlier one).
func values(data []byte) (vals []value, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type open struct {
		object bool
		keys   map[string]bool
		key    string
		n      int
		tokens []string
	}
	var stack []*open
	start := func() int {
		off := int(dec.InputOffset())
		for off < len(data) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
			off++
		}
		return off
	}
	for {
		off := start()
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return vals, true
		}
		var tokens []string
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if d, isDelim := tok.(json.Delim); isDelim && (d == '}' || d == ']') {
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return vals, true
				}
				continue
			}
			if top.object {
				if top.n%2 == 0 {
					top.key = tok.(string)
					if top.keys[top.key] {
						return nil, false
					}
					top.keys[top.key] = true
					top.n++
					continue
				}
				top.n++
				tokens = append(append([]string(nil), top.tokens...), top.key)
			} else {
				tokens = append(append([]string(nil), top.tokens...), fmt.Sprint(top.n))
				top.n++
			}
		}
		vals = append(vals, value{ptr: Pointer(toAny(tokens)...), tokens: tokens, off: off})
		if d, isDelim := tok.(json.Delim); isDelim {
			stack = append(stack, &open{object: d == '{', keys: map[string]bool{}, tokens: tokens})
		} else if len(stack) == 0 {
			return vals, true
		}
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// lineCol is the line and column of a byte offset, counted the slow way.
func lineCol(data []byte, off int) (int, int) {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return bytes.Count(data[:off], []byte("\n")) + 1, utf8.RuneCount(data[start:off]) + 1
}
