package pieces

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/diag"
)

// part is one JSON file of a game (the whole v3 file, or one file of a
// bundle) and the diagnostics found in it.
type part struct {
	rep  *diag.Reporter
	root any
}

func newPart(ctx context.Context, file string, data []byte) *part {
	return &part{rep: diag.NewReporter(file, data).WithContext(ctx)}
}

// decode reads the part's JSON (numbers kept exact); a syntax error is
// reported where it is.
func (pt *part) decode(data []byte) (map[string]any, bool) {
	v, ok := pt.rep.DecodeJSON(data)
	if !ok {
		return nil, false
	}
	pt.root = v
	// Lengths are the schema's to bound; the characters a player would
	// read on someone else's screen are checked here.
	diag.CheckStrings(pt.rep, v, diag.StringLimits{Key: math.MaxInt, Default: math.MaxInt})
	m, ok := v.(map[string]any)
	if !ok {
		pt.errorf("", "the file must hold a JSON object, not %s", diag.JSONKind(v))
	}
	return m, ok
}

func (pt *part) errorf(ptr, format string, args ...any) { pt.rep.Errorf(ptr, format, args...) }
func (pt *part) warnf(ptr, format string, args ...any)  { pt.rep.Warnf(ptr, format, args...) }

// Member accessors: each reads one member of an object. A missing member
// (or null) gives ok == false silently; a member of the wrong kind gives
// ok == false and an error at its pointer.

func (pt *part) str(m map[string]any, ptr, key string) (string, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be a string, not %s", diag.JSONKind(v))
	}
	return s, ok
}

func (pt *part) obj(m map[string]any, ptr, key string) (map[string]any, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, false
	}
	o, ok := v.(map[string]any)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be an object, not %s", diag.JSONKind(v))
	}
	return o, ok
}

func (pt *part) arr(m map[string]any, ptr, key string) ([]any, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, false
	}
	a, ok := v.([]any)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be an array, not %s", diag.JSONKind(v))
	}
	return a, ok
}

func (pt *part) boolean(m map[string]any, ptr, key string) (bool, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be true or false, not %s", diag.JSONKind(v))
	}
	return b, ok
}

func (pt *part) num(m map[string]any, ptr, key string) (float64, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false
	}
	n, isNum := v.(json.Number)
	f, err := n.Float64()
	if !isNum || err != nil {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be a number, not %s", diag.JSONKind(v))
		return 0, false
	}
	return f, true
}

// whole reads a whole number between lo and hi.
func (pt *part) whole(m map[string]any, ptr, key string, lo, hi int) (int, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false
	}
	n, ok := wholeNumber(v)
	if !ok {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be a whole number, not %s", diag.Describe(v))
		return 0, false
	}
	if n < lo || n > hi {
		pt.errorf(ptr+"/"+diag.Escape(key), "must be between %d and %d, not %d", lo, hi, n)
		return 0, false
	}
	return n, true
}

// wholes reads an array of whole numbers between lo and hi.
func (pt *part) wholes(m map[string]any, ptr, key string, lo, hi int) ([]int, bool) {
	a, ok := pt.arr(m, ptr, key)
	if !ok {
		return nil, false
	}
	out := []int{}
	good := true
	for i, v := range a {
		n, ok := wholeNumber(v)
		if !ok || n < lo || n > hi {
			pt.errorf(fmt.Sprintf("%s/%s/%d", ptr, diag.Escape(key), i), "must be a whole number from %d to %d, not %s", lo, hi, diag.Describe(v))
			good = false
			continue
		}
		out = append(out, n)
	}
	return out, good
}

// wholeNumber reads a JSON number without a fraction (1 and 1.0 alike).
func wholeNumber(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	if i, err := n.Int64(); err == nil && i >= -1<<31 && i < 1<<31 {
		return int(i), true
	}
	f, err := n.Float64()
	if err != nil || f != float64(int32(f)) {
		return 0, false
	}
	return int(f), true
}

// spaceID reads a space id: a string, or a whole number compared as a
// string (the original's board looks spaces up by String(id)).
func (pt *part) spaceID(v any, ptr string) (string, bool) {
	switch v := v.(type) {
	case string:
		if strings.TrimSpace(v) == "" {
			pt.errorf(ptr, "a space id cannot be empty")
			return "", false
		}
		return v, true
	case json.Number:
		if n, ok := wholeNumber(v); ok {
			return strconv.Itoa(n), true
		}
	}
	pt.errorf(ptr, "a space id must be a string or a whole number, not %s", diag.JSONKind(v))
	return "", false
}

// ref is a space id written somewhere, checked once every space is known.
type ref struct {
	pt  *part
	ptr string
	id  string
}

// refs reads an array of space ids.
func (pt *part) refs(m map[string]any, ptr, key string) ([]ref, bool) {
	a, ok := pt.arr(m, ptr, key)
	if !ok {
		return nil, false
	}
	out := []ref{}
	for i, v := range a {
		iptr := fmt.Sprintf("%s/%s/%d", ptr, diag.Escape(key), i)
		if id, ok := pt.spaceID(v, iptr); ok {
			out = append(out, ref{pt: pt, ptr: iptr, id: id})
		}
	}
	return out, true
}

// checkKeys warns about members an object does not have, which are
// ignored, suggesting the closest known member.
func (pt *part) checkKeys(m map[string]any, ptr, what string, known []string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if slices.Contains(known, k) {
			continue
		}
		pt.warnf(ptr+"/"+diag.Escape(k), "%s has no member %q; it is ignored%s", what, k, pt.rep.DidYouMean(k, known))
	}
}
