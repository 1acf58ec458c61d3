package old

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Locator finds where values are in a JSON document: the line and column
// (1-based, columns counted in characters) of the value a JSON pointer
// names. It scans the document once, on the first query.
type Locator struct {
	data    []byte
	offsets map[string]int // pointer → byte offset of the value
	lines   []int          // byte offset of each line start
}

// NewLocator returns a locator for a JSON document.
func NewLocator(data []byte) *Locator { return &Locator{data: data} }

// Find returns the line and column of the value the pointer names. If the
// pointer names nothing (a missing member), it returns the position of the
// closest existing ancestor, which is where the missing value belongs; for
// a document that is not JSON it returns 1, 1.
func (l *Locator) Find(pointer string) (line, col int) {
	if l.offsets == nil {
		l.scan()
	}
	for p := pointer; ; {
		if off, ok := l.offsets[p]; ok {
			return l.position(off)
		}
		if p == "" {
			return 1, 1
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return 1, 1
		}
		p = p[:i]
	}
}

// Offset returns the byte offset of the value the pointer names.
func (l *Locator) Offset(pointer string) (int, bool) {
	if l.offsets == nil {
		l.scan()
	}
	off, ok := l.offsets[pointer]
	return off, ok
}

// Position turns a byte offset into a line and column.
func (l *Locator) Position(off int) (line, col int) {
	if l.offsets == nil {
		l.scan()
	}
	return l.position(off)
}

func (l *Locator) position(off int) (int, int) {
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
	if off > len(l.data) {
		off = len(l.data)
	}
	return lo + 1, utf8.RuneCount(l.data[start:off]) + 1
}

func (l *Locator) scan() {
	l.offsets = make(map[string]int)
	l.lines = []int{0}
	for i, c := range l.data {
		if c == '\n' {
			l.lines = append(l.lines, i+1)
		}
	}
	s := scanner{data: l.data, out: l.offsets}
	s.value("", 0)
}

// scanner walks a JSON document recording the offset of every value. It
// stops quietly at the first syntax error: the decoder reports those.
type scanner struct {
	data []byte
	pos  int
	out  map[string]int
	bad  bool
}

const maxDepth = 512

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) value(ptr string, depth int) {
	s.ws()
	if s.pos >= len(s.data) || depth > maxDepth {
		s.bad = true
		return
	}
	s.out[ptr] = s.pos
	switch c := s.data[s.pos]; {
	case c == '{':
		s.pos++
		s.ws()
		if s.pos < len(s.data) && s.data[s.pos] == '}' {
			s.pos++
			return
		}
		for !s.bad {
			s.ws()
			key, ok := s.str()
			if !ok {
				s.bad = true
				return
			}
			s.ws()
			if s.pos >= len(s.data) || s.data[s.pos] != ':' {
				s.bad = true
				return
			}
			s.pos++
			s.value(ptr+"/"+Escape(key), depth+1)
			s.ws()
			if s.pos < len(s.data) && s.data[s.pos] == ',' {
				s.pos++
				continue
			}
			if s.pos < len(s.data) && s.data[s.pos] == '}' {
				s.pos++
				return
			}
			s.bad = true
		}
	case c == '[':
		s.pos++
		s.ws()
		if s.pos < len(s.data) && s.data[s.pos] == ']' {
			s.pos++
			return
		}
		for i := 0; !s.bad; i++ {
			s.value(ptr+"/"+strconv.Itoa(i), depth+1)
			s.ws()
			if s.pos < len(s.data) && s.data[s.pos] == ',' {
				s.pos++
				continue
			}
			if s.pos < len(s.data) && s.data[s.pos] == ']' {
				s.pos++
				return
			}
			s.bad = true
		}
	case c == '"':
		if _, ok := s.str(); !ok {
			s.bad = true
		}
	default:
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			s.pos++
		}
	}
}

// str reads a JSON string and returns its unescaped value.
func (s *scanner) str() (string, bool) {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return "", false
	}
	start := s.pos
	s.pos++
	escaped := false
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '\\':
			escaped = true
			s.pos += 2
			continue
		case '"':
			s.pos++
			raw := s.data[start:s.pos]
			if !escaped {
				return string(raw[1 : len(raw)-1]), true
			}
			v, err := strconv.Unquote(string(raw))
			if err != nil {
				return string(raw[1 : len(raw)-1]), true
			}
			return v, true
		}
		s.pos++
	}
	return "", false
}

// Escape escapes one JSON pointer token: "~" as "~0" and "/" as "~1"
// (RFC 6901).
func Escape(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}
