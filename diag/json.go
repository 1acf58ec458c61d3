package diag

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSONError is a file that is not one JSON value: what is wrong, and the
// byte offset of the character at fault.
type JSONError struct {
	Offset  int
	Problem string
}

// Error implements error: "invalid JSON: " and the problem.
func (e *JSONError) Error() string { return "invalid JSON: " + e.Problem }

// MaxDepth is how deeply arrays and objects may nest in a document that
// DecodeJSON accepts. Game files nest a dozen levels; a limit far below the
// decoder's own (10,000) keeps what every later step does with the depth
// (pointers of each level, recursive checks) small for a file from anyone.
const MaxDepth = 512

// MaxValues is the most values (objects, arrays, strings, numbers, true,
// false and null) a document DecodeJSON accepts may hold. A decoded value
// costs some fifty bytes however briefly it is written ({} is two bytes),
// and every later step (the schema, a pack's checks) pays for each again;
// the bundled games hold a few thousand.
const MaxValues = 1 << 18

// DecodeJSON decodes one JSON document, keeping numbers exact
// (json.Number), as JSON Schema validation wants. Anything but exactly one
// value (a syntax error, a file that ends too soon, more data after the
// value, arrays and objects nested deeper than MaxDepth, more than
// MaxValues values) is a *JSONError that says where. Its cost is linear
// in the size of data.
func DecodeJSON(data []byte) (any, error) {
	v, err := decode(data)
	if err != nil {
		return nil, err // not a nil *JSONError in an error
	}
	return v, nil
}

func decode(data []byte) (any, *JSONError) {
	if big := tooLarge(data); big != nil {
		// The first problem in the file is the one to report: a syntax
		// error before the place it grows too large, if any. Checking
		// the syntax builds no values.
		var raw json.RawMessage
		if err := decodeInto(data, &raw); err != nil && err.Offset < big.Offset {
			return nil, err
		}
		return nil, big
	}
	var v any
	if err := decodeInto(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// tooLarge finds the first place where the document nests deeper than
// MaxDepth or holds more than MaxValues values, without decoding it.
func tooLarge(data []byte) *JSONError {
	var arrays []bool // for each open bracket, whether it opens an array
	values := 0
	start := true // whether a value may start here: at the start, after '[', ':' and an array's ','
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if start && c != ']' {
			if values++; values > MaxValues {
				return &JSONError{Offset: i, Problem: "the document holds more than " + strconv.Itoa(MaxValues) + " values (objects, arrays, strings, numbers…)"}
			}
		}
		start = false
		switch c {
		case '"':
			end, ok := stringEnd(data, i)
			if !ok {
				return nil
			}
			i = end - 1
		case '[', '{':
			if len(arrays) == MaxDepth {
				return &JSONError{Offset: i, Problem: "arrays and objects nest more than " + strconv.Itoa(MaxDepth) + " levels deep"}
			}
			arrays = append(arrays, c == '[')
			start = c == '['
		case ']', '}':
			if len(arrays) > 0 {
				arrays = arrays[:len(arrays)-1]
			}
		case ',':
			start = len(arrays) > 0 && arrays[len(arrays)-1]
		case ':':
			start = true
		}
	}
	return nil
}

// decodeInto decodes the document into v (which keeps numbers exact, if
// it can hold them).
func decodeInto(data []byte, v any) *JSONError {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	err := dec.Decode(v)
	if err == nil {
		off := int(dec.InputOffset())
		if _, err := dec.Token(); err == io.EOF {
			return nil
		}
		// Point at the data itself, past the white space before it.
		for off < len(data) && strings.IndexByte(" \t\r\n", data[off]) >= 0 {
			off++
		}
		return &JSONError{Offset: off, Problem: "more data after the end of the document"}
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The offset is just past the character at fault.
		return &JSONError{Offset: max(int(se.Offset)-1, 0), Problem: strings.TrimPrefix(se.Error(), "json: ")}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &JSONError{Offset: len(data), Problem: "unexpected end of the file"}
	}
	return &JSONError{Offset: len(data), Problem: strings.TrimPrefix(err.Error(), "json: ")}
}

// DecodeJSON decodes the file's bytes (DecodeJSON). If they are not one
// JSON value, it reports the error at the character at fault and returns
// false.
func (r *Reporter) DecodeJSON(data []byte) (any, bool) {
	v, err := decode(data)
	if err == nil {
		return v, true
	}
	loc := r.loc
	if loc == nil {
		loc = NewLocator(data)
	}
	line, col := loc.Position(err.Offset)
	r.At(Error, "", line, col, err.Error())
	return nil, false
}

// JSONKind names the kind of a decoded JSON value with its article, as
// messages say it: "a string", "a whole number", "true or false", "null"…
func JSONKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "true or false"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "a whole number"
		}
		return "a number"
	case float64:
		if v == float64(int64(v)) {
			return "a whole number"
		}
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Describe shows a decoded JSON value in a message: a string quoted, a
// number as written, anything else by its kind (JSONKind).
func Describe(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case json.Number:
		return v.String()
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return JSONKind(v)
}

// InString returns the line and column of a character inside the JSON
// string the pointer names: chars counts the characters of the string's
// value before it, so escapes (\n, \u00e9, a surrogate pair) count as the
// one character they stand for. ok is false if the pointer names no
// string.
func (l *Locator) InString(pointer string, chars int) (line, col int, ok bool) {
	start, found := l.Offset(pointer)
	data := l.data
	if !found || start >= len(data) || data[start] != '"' {
		return 0, 0, false
	}
	i := start + 1
	for n := 0; n < chars && i < len(data) && data[i] != '"'; n++ {
		switch {
		case data[i] != '\\':
			_, size := utf8.DecodeRune(data[i:])
			i += size
		case i+1 < len(data) && data[i+1] == 'u':
			// A character outside the BMP is a pair of \u escapes.
			high := i+6 <= len(data) && isHighSurrogate(data[i+2:i+6])
			i += 6
			if high && i+1 < len(data) && data[i] == '\\' && data[i+1] == 'u' {
				i += 6
			}
		default:
			i += 2
		}
	}
	line, col = l.Position(min(i, len(data)))
	return line, col, true
}

// isHighSurrogate reports whether four hex digits are the first half of a
// surrogate pair.
func isHighSurrogate(hex []byte) bool {
	n, err := strconv.ParseUint(string(hex), 16, 32)
	return err == nil && n >= 0xD800 && n < 0xDC00
}
