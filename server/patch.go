package server

import (
	"bytes"
	"strconv"
)

// A delta tells a page what changed in what it holds of a match as a
// patch: a JSON array of operations, each on a member of the page's
// document named by a JSON Pointer (RFC 6901): ["/view/players/0/space",
// "s12"] sets (or adds) a value, ["/view/prompt"] removes a member, or an
// element of an array with everything after it (the patch removes the
// last elements first). Arrays are patched element by element and grow
// at their end; a container whose operations would be longer than its
// new value is set whole instead.
//
// differ makes patches from the JSON of a part before and after, as the
// server writes it (compact, members in a fixed order): it compares the
// two byte for byte, member by member, and goes down only where they
// differ. Its scratch is kept from patch to patch.
type differ struct {
	path    []byte   // the pointer of the value being compared
	members []member // the members of the objects being compared, a stack
	start   int      // where in ops the patch's first operation goes
	scratch []byte   // for values the patch's caller writes
}

// member is an object's member or an array's element: its key (the raw
// bytes of a member's name, without quotes; nil for an element) and
// value, and whether it was matched.
type member struct {
	key, val []byte
	matched  bool
}

// diff appends to ops (the operations of a patch so far from d.start on,
// without the brackets) those that turn a into b at the pointer path (a
// part of the document: "/view"). A nil value is an absent one.
func (d *differ) diff(ops []byte, path string, a, b []byte) []byte {
	d.path = append(d.path[:0], path...)
	return d.value(ops, a, b)
}

// value appends the operations turning a into b at d.path.
func (d *differ) value(ops, a, b []byte) []byte {
	switch {
	case bytes.Equal(a, b):
		return ops
	case b == nil:
		return d.remove(ops)
	case a == nil || a[0] != b[0] || (a[0] != '{' && a[0] != '['):
		return d.set(ops, b)
	}
	mark := len(ops)
	if a[0] == '{' {
		ops = d.object(ops, a, b)
	} else {
		ops = d.array(ops, a, b)
	}
	// A container that changed much is set whole: the patch is never
	// much longer than the value.
	if len(ops)-mark > len(b)+len(d.path)+8 {
		ops = d.set(ops[:mark], b)
	}
	return ops
}

// set appends the operation setting b at d.path.
func (d *differ) set(ops, b []byte) []byte {
	ops = d.op(ops)
	ops = append(ops, ',')
	ops = append(ops, b...)
	return append(ops, ']')
}

// remove appends the operation removing the value at d.path.
func (d *differ) remove(ops []byte) []byte {
	return append(d.op(ops), ']')
}

// op appends the start of an operation: its pointer (after a comma, but
// for the first).
func (d *differ) op(ops []byte) []byte {
	if len(ops) > d.start {
		ops = append(ops, ',')
	}
	ops = append(ops, `["`...)
	ops = append(ops, d.path...)
	return append(ops, '"')
}

// object appends the operations turning the object a into the object b:
// members of b that differ, members of a that b lacks.
func (d *differ) object(ops, a, b []byte) []byte {
	base := len(d.members)
	d.members = appendMembers(d.members, a, true)
	na := len(d.members) - base
	d.members = appendMembers(d.members, b, true)
	depth := len(d.path)
	next := 0 // where in a the next member of b is looked for first: members come in order
	for j := base + na; j < len(d.members); j++ {
		bm := d.members[j]
		var old []byte
		found := -1
		for k := range na {
			i := base + (next+k)%na
			if am := &d.members[i]; !am.matched && bytes.Equal(am.key, bm.key) {
				am.matched, old, found = true, am.val, i
				break
			}
		}
		if found >= 0 {
			next = found - base + 1
		}
		d.path = appendToken(d.path[:depth], bm.key)
		if old == nil {
			ops = d.set(ops, bm.val)
		} else {
			ops = d.value(ops, old, bm.val)
		}
	}
	for i := base; i < base+na; i++ {
		if am := d.members[i]; !am.matched {
			d.path = appendToken(d.path[:depth], am.key)
			ops = d.remove(ops)
		}
	}
	d.path = d.path[:depth]
	d.members = d.members[:base]
	return ops
}

// array appends the operations turning the array a into the array b:
// elements that differ, elements b adds at its end, and those it drops
// from the end, last first.
func (d *differ) array(ops, a, b []byte) []byte {
	base := len(d.members)
	d.members = appendMembers(d.members, a, false)
	na := len(d.members) - base
	d.members = appendMembers(d.members, b, false)
	nb := len(d.members) - base - na
	depth := len(d.path)
	for i := range nb {
		d.path = strconv.AppendInt(append(d.path[:depth], '/'), int64(i), 10)
		bv := d.members[base+na+i].val
		if i < na {
			ops = d.value(ops, d.members[base+i].val, bv)
		} else {
			ops = d.set(ops, bv)
		}
	}
	for i := na - 1; i >= nb; i-- {
		d.path = strconv.AppendInt(append(d.path[:depth], '/'), int64(i), 10)
		ops = d.remove(ops)
	}
	d.path = d.path[:depth]
	d.members = d.members[:base]
	return ops
}

// appendToken appends a member's name to a pointer: "/" and the name, with
// "~" written "~0" and "/" written "~1". The name is the member's raw JSON,
// escapes and all: the pointer is itself written in a JSON string.
func appendToken(path, key []byte) []byte {
	path = append(path, '/')
	if bytes.IndexByte(key, '~') < 0 && bytes.IndexByte(key, '/') < 0 {
		return append(path, key...)
	}
	for _, c := range key {
		switch c {
		case '~':
			path = append(path, '~', '0')
		case '/':
			path = append(path, '~', '1')
		default:
			path = append(path, c)
		}
	}
	return path
}

// appendMembers appends the members of the object (or the elements of
// the array) data.
func appendMembers(ms []member, data []byte, object bool) []member {
	i := skipSpace(data, 1)
	for i < len(data) && data[i] != '}' && data[i] != ']' {
		var key []byte
		if object {
			end := skipString(data, i)
			key = data[i+1 : end-1]
			i = skipSpace(data, end)
			i = skipSpace(data, i+1) // the colon
		}
		end := skipValue(data, i)
		ms = append(ms, member{key: key, val: data[i:end]})
		i = skipSpace(data, end)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return ms
}

// skipValue returns where the JSON value at data[i] ends.
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipString returns where the JSON string at data[i] ends, after its
// closing quote.
func skipString(data []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(data[i:], '"')
		if j < 0 {
			return len(data)
		}
		i += j
		escaped := false
		for k := i - 1; data[k] == '\\'; k-- {
			escaped = !escaped
		}
		i++
		if !escaped {
			return i
		}
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
