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
	small   int      // containers shorter than this are set whole
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

// smallValue is the size under which a container that changed is set
// whole rather than compared (differ.small): its operations would be
// about as long, and comparing it costs more than sending it.
const smallValue = 96

// value appends the operations turning a into b at d.path.
func (d *differ) value(ops, a, b []byte) []byte {
	switch {
	case bytes.Equal(a, b):
		return ops
	case b == nil:
		return d.remove(ops)
	case a == nil || a[0] != b[0] || (a[0] != '{' && a[0] != '[') || len(b) < d.small:
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
// members of b that differ, members of a that b lacks. Members in the same
// order in both (as the server writes them) are compared in step, and a
// value equal in both is scanned in b only; past the first member out of
// step, the rest of each is listed and matched by name.
func (d *differ) object(ops, a, b []byte) []byte {
	depth := len(d.path)
	ia, ib := skipSpace(a, 1), skipSpace(b, 1)
	for ib < len(b) && b[ib] != '}' && ia < len(a) && a[ia] != '}' {
		kb, ka := skipString(b, ib), skipString(a, ia)
		if !bytes.Equal(a[ia:ka], b[ib:kb]) {
			break // out of step
		}
		vb, va := skipSpace(b, skipSpace(b, kb)+1), skipSpace(a, skipSpace(a, ka)+1)
		eb := skipValue(b, vb)
		ea := va + (eb - vb)
		if !(ea <= len(a) && bytes.Equal(a[va:ea], b[vb:eb]) && (ea == len(a) || special[a[ea]] == ',' || special[a[ea]] == '}')) {
			ea = skipValue(a, va)
			d.path = appendToken(d.path[:depth], b[ib+1:kb-1])
			ops = d.value(ops, a[va:ea], b[vb:eb])
		}
		ia, ib = nextMember(a, ea), nextMember(b, eb)
	}
	if (ib >= len(b) || b[ib] == '}') && (ia >= len(a) || a[ia] == '}') {
		d.path = d.path[:depth]
		return ops
	}
	base := len(d.members)
	d.members = appendMembers(d.members, a, ia, true)
	na := len(d.members) - base
	d.members = appendMembers(d.members, b, ib, true)
	next := base // where in a the next member of b is looked for first: members come in order
	for j := base + na; j < len(d.members); j++ {
		bm := d.members[j]
		found := -1
		if next < base+na && !d.members[next].matched && bytes.Equal(d.members[next].key, bm.key) {
			found = next
		} else {
			for i := base; i < base+na; i++ {
				if am := &d.members[i]; !am.matched && bytes.Equal(am.key, bm.key) {
					found = i
					break
				}
			}
		}
		var old []byte
		if found >= 0 {
			d.members[found].matched = true
			old, next = d.members[found].val, found+1
			if bytes.Equal(old, bm.val) {
				continue
			}
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
// from the end, last first. An element equal in both is scanned in b
// only.
func (d *differ) array(ops, a, b []byte) []byte {
	depth := len(d.path)
	ia, ib := skipSpace(a, 1), skipSpace(b, 1)
	n := 0
	for ; ib < len(b) && b[ib] != ']'; n++ {
		eb := skipValue(b, ib)
		if ia >= len(a) || a[ia] == ']' {
			d.path = strconv.AppendInt(append(d.path[:depth], '/'), int64(n), 10)
			ops = d.set(ops, b[ib:eb]) // added at the end
			ib = nextMember(b, eb)
			continue
		}
		ea := ia + (eb - ib)
		if !(ea <= len(a) && bytes.Equal(a[ia:ea], b[ib:eb]) && (ea == len(a) || special[a[ea]] == ',' || special[a[ea]] == '}')) {
			ea = skipValue(a, ia)
			d.path = strconv.AppendInt(append(d.path[:depth], '/'), int64(n), 10)
			ops = d.value(ops, a[ia:ea], b[ib:eb])
		}
		ia, ib = nextMember(a, ea), nextMember(b, eb)
	}
	// What a has beyond b's end goes, last first.
	na := n
	for ia < len(a) && a[ia] != ']' {
		ia = nextMember(a, skipValue(a, ia))
		na++
	}
	for i := na - 1; i >= n; i-- {
		d.path = strconv.AppendInt(append(d.path[:depth], '/'), int64(i), 10)
		ops = d.remove(ops)
	}
	d.path = d.path[:depth]
	return ops
}

// nextMember returns where the member (or element) after the value that
// ends at i begins, or where the container closes.
func nextMember(data []byte, i int) int {
	i = skipSpace(data, i)
	if i < len(data) && data[i] == ',' {
		i = skipSpace(data, i+1)
	}
	return i
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
// the array) data from its byte i on.
func appendMembers(ms []member, data []byte, i int, object bool) []member {
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

// skipValue returns where the JSON value at data[i] ends. Its loops are
// plain byte loops over a table of the bytes that matter: the strings of a
// page's document are short, too short for bytes.IndexByte to pay for its
// call.
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch special[data[i]] {
			case 0:
			case '"':
				i = skipString(data, i) - 1
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(data) && special[data[i]] == 0 {
		i++
	}
	return i
}

// special sorts the bytes that end or nest a JSON value: '"' for a quote,
// '{' for an opening bracket, '}' for a closing one, ',' for a comma or a
// space; any of them ends a number or a literal.
var special = func() (t [256]byte) {
	t['"'] = '"'
	t['{'], t['['] = '{', '{'
	t['}'], t[']'] = '}', '}'
	for _, c := range ",}] \t\n\r" {
		if t[c] == 0 {
			t[c] = ','
		}
	}
	return t
}()

// skipString returns where the JSON string at data[i] ends, after its
// closing quote.
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	return len(data)
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
