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

// DecodeJSON decodes one JSON document, keeping numbers exact
// (json.Number), as JSON Schema validation wants. Anything but exactly one
// value (a syntax error, a file that ends too soon, more data after the
// value, arrays and objects nested deeper than MaxDepth) is a *JSONError
// that says where. Its cost is linear in the size of data.
func DecodeJSON(data []byte) (any, error) {
	v, err := decode(data)
	if err != nil {
		return nil, err // not a nil *JSONError in an error
	}
	return v, nil
}

func decode(data []byte) (any, *JSONError) {
	v, err := decodeValue(data)
	// The first problem in the file is the one to report: the nesting is
	// checked up to where the decoder found one.
	end := len(data)
	if err != nil {
		end = min(err.Offset, end)
	}
	if off, deep := tooDeep(data[:end]); deep {
		return nil, &JSONError{Offset: off, Problem: "arrays and objects nest more than " + strconv.Itoa(MaxDepth) + " levels deep"}
	}
	return v, err
}

// tooDeep returns the offset of the first bracket nested deeper than
// MaxDepth, if any.
func tooDeep(data []byte) (int, bool) {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			end, ok := stringEnd(data, i)
			if !ok {
				return 0, false
			}
			i = end - 1
		case '[', '{':
			if depth++; depth > MaxDepth {
				return i, true
			}
		case ']', '}':
			depth--
		}
	}
	return 0, false
}

func decodeValue(data []byte) (any, *JSONError) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		off := int(dec.InputOffset())
		if _, err := dec.Token(); err == io.EOF {
			return v, nil
		}
		// Point at the data itself, past the white space before it.
		for off < len(data) && strings.IndexByte(" \t\r\n", data[off]) >= 0 {
			off++
		}
		return nil, &JSONError{Offset: off, Problem: "more data after the end of the document"}
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The offset is just past the character at fault.
		return nil, &JSONError{Offset: max(int(se.Offset)-1, 0), Problem: strings.TrimPrefix(se.Error(), "json: ")}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &JSONError{Offset: len(data), Problem: "unexpected end of the file"}
	}
	return nil, &JSONError{Offset: len(data), Problem: strings.TrimPrefix(err.Error(), "json: ")}
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
