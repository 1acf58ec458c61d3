package diag

import (
	"bytes"
	"math"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Locator finds where values are in a JSON document: the line and column
// (1-based, columns counted in characters) of the value a JSON pointer
// names.
//
// A game file comes from anyone, so what the locator costs is bounded by
// the size of the document whatever its shape: on the first query it scans
// the document once and keeps, for every value, its offset (a few
// integers), for every object member its parent and decoded key, and a
// character count every 256 bytes; it never builds the pointers of values
// nobody asks about. A query then costs the length of its pointer (one
// map look-up per member), and a position a binary search over the lines
// and at most a few hundred bytes of counting.
//
// Documents of 2 GiB or more are not indexed: every pointer is then at the
// start of the document.
type Locator struct {
	data    []byte
	built   bool
	nodes   []node           // every value, in document order; the root first
	items   []int32          // the elements of the arrays: each array's are contiguous
	members map[member]int32 // object member → its value
	lines   []int            // byte offset of each line's start
	marks   []mark           // characters before a character boundary, every markEvery bytes; nil for ASCII
	text    string           // the document, holding the keys without escapes
}

// node is one value of the document.
type node struct {
	off   int32 // byte offset of the value's first byte
	first int32 // arrays: index in items of the first element
	n     int32 // arrays: number of elements
}

// member names the value of one member of an object.
type member struct {
	object int32  // the object's node
	key    string // the member's name, decoded
}

// mark counts the characters before a character boundary.
type mark struct{ off, chars int }

const markEvery = 256

// NewLocator returns a locator for a JSON document. It keeps data, which
// must not change while the locator is used.
func NewLocator(data []byte) *Locator { return &Locator{data: data} }

// Find returns the line and column of the value the pointer names. If the
// pointer names nothing (a missing member), it returns the position of the
// closest existing ancestor, which is where the missing value belongs; for
// a document that is not JSON it returns 1, 1.
func (l *Locator) Find(pointer string) (line, col int) {
	l.build()
	n, _ := l.lookup(pointer)
	if n < 0 {
		return 1, 1
	}
	return l.position(int(l.nodes[n].off))
}

// Offset returns the byte offset of the value the pointer names, and
// whether there is one.
func (l *Locator) Offset(pointer string) (int, bool) {
	l.build()
	n, exact := l.lookup(pointer)
	if n < 0 || !exact {
		return 0, false
	}
	return int(l.nodes[n].off), true
}

// Position turns a byte offset into a line and column.
func (l *Locator) Position(off int) (line, col int) {
	l.build()
	return l.position(off)
}

// lookup walks the pointer down from the root: it returns the node it
// names (exact) or the deepest existing ancestor (not exact), or -1 if the
// document has no value at all.
func (l *Locator) lookup(pointer string) (n int32, exact bool) {
	if len(l.nodes) == 0 {
		return -1, false
	}
	if pointer == "" {
		return 0, true
	}
	if pointer[0] != '/' {
		return 0, false
	}
	rest := pointer[1:]
	for {
		tok, more, found := strings.Cut(rest, "/")
		child := l.child(n, tok)
		if child < 0 {
			return n, false
		}
		n = child
		if !found {
			return n, true
		}
		rest = more
	}
}

// child returns the value one escaped pointer token names in a container,
// or -1.
func (l *Locator) child(n int32, tok string) int32 {
	nd := l.nodes[n]
	switch l.data[nd.off] {
	case '{':
		key, ok := unescapeToken(tok)
		if !ok {
			return -1
		}
		if c, found := l.members[member{n, key}]; found {
			return c
		}
	case '[':
		if i, ok := arrayIndex(tok); ok && i < int(nd.n) {
			return l.items[int(nd.first)+i]
		}
	}
	return -1
}

// unescapeToken undoes Escape: "~1" is "/" and "~0" is "~"; any other "~"
// makes the token name nothing.
func unescapeToken(tok string) (string, bool) {
	if !strings.Contains(tok, "~") {
		return tok, true
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c != '~' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(tok) || (tok[i+1] != '0' && tok[i+1] != '1') {
			return "", false
		}
		if tok[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), true
}

// arrayIndex reads an array index token: 0, or digits without a leading
// zero.
func arrayIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 10 || (len(tok) > 1 && tok[0] == '0') {
		return 0, false
	}
	i := 0
	for _, c := range []byte(tok) {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, i <= math.MaxInt32
}

func (l *Locator) position(off int) (int, int) {
	off = max(0, min(off, len(l.data)))
	// Binary search for the line containing off.
	lo, hi := 0, len(l.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	start := l.lines[lo]
	if l.marks == nil {
		return lo + 1, off - start + 1
	}
	return lo + 1, l.charsBefore(off) - l.charsBefore(start) + 1
}

// charsBefore counts the characters before a byte offset as
// utf8.RuneCount does from the start of the document, from the closest
// mark before it.
func (l *Locator) charsBefore(off int) int {
	k := off / markEvery
	if l.marks[k].off > off {
		k--
	}
	m := l.marks[k]
	return m.chars + utf8.RuneCount(l.data[m.off:off])
}

// build indexes the document, once.
func (l *Locator) build() {
	if l.built {
		return
	}
	l.built = true
	l.lines = []int{0}
	ascii := true
	for i, c := range l.data {
		if c == '\n' {
			l.lines = append(l.lines, i+1)
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if !ascii {
		l.marks = make([]mark, 0, len(l.data)/markEvery+1)
		chars := 0
		for i := 0; i < len(l.data); chars++ {
			for len(l.marks)*markEvery <= i {
				l.marks = append(l.marks, mark{i, chars})
			}
			_, size := utf8.DecodeRune(l.data[i:])
			i += size
		}
		for len(l.marks)*markEvery <= len(l.data) {
			l.marks = append(l.marks, mark{len(l.data), chars})
		}
	}
	if len(l.data) >= math.MaxInt32 {
		return
	}
	// Sized once from a count of the separators, so that growing the
	// index leaves no garbage behind.
	values, members := count(l.data)
	l.nodes = make([]node, 0, values)
	l.items = make([]int32, 0, values)
	l.members = make(map[member]int32, members)
	l.scan()
}

// count bounds how many values and object members the scanner will find:
// one value per comma or opening bracket of a container that is not
// empty, and one more; a member per colon; up to where arrays and objects
// nest deeper than it reads.
func count(data []byte) (values, members int) {
	values, depth := 1, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			end, ok := stringEnd(data, i)
			if !ok {
				return values, members
			}
			i = end - 1
		case '[', '{':
			if depth++; depth > MaxDepth {
				return values, members
			}
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if j == len(data) || (data[j] != ']' && data[j] != '}') {
				values++
			}
		case ']', '}':
			depth--
		case ',':
			values++
		case ':':
			members++
		}
	}
	return values, members
}

// frame is a container the scanner is inside.
type frame struct {
	node    int32
	pending int32 // where the container's elements start in the scanner's pending list
	object  bool
}

// scan records the offset of every value, walking the document with a
// stack of its own rather than calls. It stops quietly at the first syntax
// error (the decoder reports those), or at arrays and objects nested deeper
// than DecodeJSON accepts (MaxDepth), keeping what it found before.
func (l *Locator) scan() {
	data := l.data
	pos := 0
	ws := func() {
		for pos < len(data) {
			switch data[pos] {
			case ' ', '\t', '\n', '\r':
				pos++
			default:
				return
			}
		}
	}
	var stack []frame
	var pending []int32 // the elements found so far of the open arrays
	closeArray := func(f frame) {
		nd := &l.nodes[f.node]
		nd.first, nd.n = int32(len(l.items)), int32(len(pending))-f.pending
		l.items = append(l.items, pending[f.pending:]...)
		pending = pending[:f.pending]
	}
	defer func() {
		// A document cut short: its open arrays keep the elements found.
		for i := len(stack) - 1; i >= 0; i-- {
			if !stack[i].object {
				closeArray(stack[i])
			}
		}
	}()
	key := ""
	for {
		// A value.
		ws()
		if pos >= len(data) || (isDelimiter(data[pos]) && !opens(data[pos])) {
			return
		}
		id := int32(len(l.nodes))
		l.nodes = append(l.nodes, node{off: int32(pos)})
		if len(stack) > 0 {
			if top := stack[len(stack)-1]; top.object {
				l.members[member{top.node, key}] = id
			} else {
				pending = append(pending, id)
			}
		}
		switch data[pos] {
		case '{', '[':
			if len(stack) == MaxDepth {
				return // deeper than DecodeJSON accepts
			}
			f := frame{node: id, object: data[pos] == '{', pending: int32(len(pending))}
			stack = append(stack, f)
			pos++
			ws()
			if pos < len(data) && data[pos] == closer(f.object) {
				pos++
				stack = stack[:len(stack)-1]
				if !f.object {
					closeArray(f)
				}
				break
			}
			if f.object {
				var ok bool
				if key, ok = l.key(&pos, ws); !ok {
					return
				}
			}
			continue
		case '"':
			end, ok := stringEnd(data, pos)
			if !ok {
				return
			}
			pos = end
		default:
			for pos < len(data) && !isDelimiter(data[pos]) {
				pos++
			}
		}
		// After a value: the next member or element, or the end of
		// containers.
		for {
			if len(stack) == 0 {
				return
			}
			ws()
			if pos >= len(data) {
				return
			}
			top := stack[len(stack)-1]
			if data[pos] == ',' {
				pos++
				if top.object {
					var ok bool
					if key, ok = l.key(&pos, ws); !ok {
						return
					}
				}
				break
			}
			if data[pos] != closer(top.object) {
				return
			}
			pos++
			stack = stack[:len(stack)-1]
			if !top.object {
				closeArray(top)
			}
		}
	}
}

// key reads a member's name and the colon after it.
func (l *Locator) key(pos *int, ws func()) (string, bool) {
	ws()
	if *pos >= len(l.data) || l.data[*pos] != '"' {
		return "", false
	}
	end, ok := stringEnd(l.data, *pos)
	if !ok {
		return "", false
	}
	key := l.unquote(*pos+1, end-1)
	*pos = end
	ws()
	if *pos >= len(l.data) || l.data[*pos] != ':' {
		return "", false
	}
	*pos++
	return key, true
}

func closer(object bool) byte {
	if object {
		return '}'
	}
	return ']'
}

// opens reports whether a delimiter starts a value.
func opens(c byte) bool { return c == '{' || c == '[' || c == '"' }

// isDelimiter reports whether a byte ends a number or a literal.
func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ':', '{', '[', '"', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// stringEnd returns the offset just past the JSON string starting at
// start (a quote).
func stringEnd(data []byte, start int) (int, bool) {
	for i := start + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return 0, false
}

// unquote decodes the key between two offsets: a key without escapes is
// a piece of one copy of the document, which every such key shares.
func (l *Locator) unquote(start, end int) string {
	raw := l.data[start:end]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		if l.text == "" {
			l.text = string(l.data)
		}
		return l.text[start:end]
	}
	return unquote(raw)
}

// unquote decodes the inside of a JSON string as encoding/json does:
// escapes (\/ and \u002f alike), a surrogate pair as one character, a lone
// surrogate or a byte that is not UTF-8 as U+FFFD. The scanner has
// checked only where the string ends: an escape that is not JSON is kept
// as written.
func unquote(s []byte) string {
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return string(s)
	}
	b := make([]byte, 0, len(s)+utf8.UTFMax)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			switch e := s[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s[i+2:])
				if r < 0 {
					b = append(b, c, e)
					break
				}
				i += 4
				if utf16.IsSurrogate(r) {
					if len(s) >= i+4 && s[i+2] == '\\' && s[i+3] == 'u' {
						if dec := utf16.DecodeRune(r, hex4(s[i+4:])); dec != unicode.ReplacementChar {
							b = utf8.AppendRune(b, dec)
							i += 6
							break
						}
					}
					r = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, r)
			default:
				b = append(b, c, e)
			}
			i += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			b = utf8.AppendRune(b, r)
			i += size
		}
	}
	return string(b)
}

// hex4 reads four hex digits as a character, or -1.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// Escape escapes one JSON pointer token: "~" as "~0" and "/" as "~1"
// (RFC 6901).
func Escape(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}
