package game

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// What the server sends its clients after every change, each seat's view,
// log and legal commands, is written as JSON without reflection where the
// game allows: the optional interfaces below let a match write it itself,
// and the functions after them write the game package's own types exactly
// as encoding/json would.

// ViewAppender is a Match that writes a seat's view (or a Spectator's) as
// JSON itself: the bytes encoding/json writes for View(seat), appended to
// b, without reflection and without building the view first.
type ViewAppender interface {
	AppendView(b []byte, seat int) []byte
}

// SharedLog is a Match whose readable log every viewer reads alike (it has
// no secrets: Log ignores its viewer): the server asks for it once for all
// of them.
type SharedLog interface {
	SharedLog() bool
}

// WaitingAppender is a Match that appends the seats Waiting returns to a
// slice of its caller's, so that asking allocates nothing.
type WaitingAppender interface {
	AppendWaiting(dst []int) []int
}

// AppendWaiting appends the seats m waits for to dst.
func AppendWaiting(dst []int, m Match) []int {
	if a, ok := m.(WaitingAppender); ok {
		return a.AppendWaiting(dst)
	}
	return append(dst, m.Waiting()...)
}

// AppendView appends the JSON of what the seat sees in m: AppendView's if
// m has it, else encoding/json's of View(seat).
func AppendView(b []byte, m Match, seat int) ([]byte, error) {
	if a, ok := m.(ViewAppender); ok {
		return a.AppendView(b, seat), nil
	}
	data, err := json.Marshal(m.View(seat))
	return append(b, data...), err
}

// IsSharedLog reports whether every viewer reads m's log alike.
func IsSharedLog(m Match) bool {
	s, ok := m.(SharedLog)
	return ok && s.SharedLog()
}

// AppendJSON appends the entry's JSON, as encoding/json writes it.
func (e *Entry) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"chain":`...)
	b = strconv.AppendInt(b, int64(e.Chain), 10)
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(e.Depth), 10)
	b = append(b, `,"kind":`...)
	b = AppendString(b, e.Kind)
	if e.Type != "" {
		b = append(b, `,"type":`...)
		b = AppendString(b, e.Type)
	}
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	b = append(b, `,"text":`...)
	b = AppendString(b, e.Text)
	for _, f := range [...]struct {
		name, value string
	}{{`,"detail":`, e.Detail}, {`,"at":`, e.At}, {`,"subject":`, e.Subject}, {`,"target":`, e.Target}} {
		if f.value != "" {
			b = append(b, f.name...)
			b = AppendString(b, f.value)
		}
	}
	if e.Amount != 0 {
		b = append(b, `,"amount":`...)
		b = strconv.AppendInt(b, int64(e.Amount), 10)
	}
	if e.Data != nil {
		data, err := json.Marshal(e.Data)
		if err != nil {
			return b, err
		}
		b = append(b, `,"data":`...)
		b = append(b, data...)
	}
	return append(b, '}'), nil
}

// AppendEntries appends a JSON array of the entries, as encoding/json
// writes it ([] for none).
func AppendEntries(b []byte, entries []Entry) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = entries[i].AppendJSON(b); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// AppendCommands appends a JSON array of the commands, as encoding/json
// writes it ([] for none).
func AppendCommands(b []byte, cmds []Command) ([]byte, error) {
	b = append(b, '[')
	for i, c := range cmds {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"data":`...)
		if plainJSON(c.Data) {
			b = append(b, c.Data...)
		} else {
			// encoding/json compacts a raw message and escapes it.
			data, err := json.Marshal(c.Data)
			if err != nil {
				return b, err
			}
			b = append(b, data...)
		}
		b = append(b, `,"text":`...)
		b = AppendString(b, c.Text)
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// plainJSON reports whether data is JSON that encoding/json writes as it
// is: not empty, with no space to compact and nothing to escape.
func plainJSON(data []byte) bool {
	if len(data) == 0 {
		return false
	}
	for _, c := range data {
		switch {
		case c <= ' ', c == '<', c == '>', c == '&', c >= utf8.RuneSelf:
			return false
		}
	}
	return true
}

// AppendString appends s as a JSON string, escaped as encoding/json
// escapes it: quotes, backslashes and control characters, the HTML
// characters <, > and &, U+2028 and U+2029, and invalid UTF-8 as U+FFFD.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendFloat appends f as encoding/json writes a float64. encoding/json
// refuses NaN and the infinities; AppendFloat writes null for them.
func AppendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendInts appends a JSON array of ints; nil is null, as encoding/json
// writes it.
func AppendInts(b []byte, ns []int) []byte {
	if ns == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}
