// Package usertext checks and normalises the text strangers type: the
// names players give themselves and the messages they write at a table.
//
// Every such text goes through it once, at the edge, before anything else
// stores or shows it. What it lets through holds no control, private-use,
// surrogate or unassigned rune, no bidirectional override (which reorders
// what a reader sees without changing what is stored), no invisible
// spacing that makes a name look blank or like another, and no pile of
// combining marks; it is in Unicode normal form, with its spaces
// collapsed. Names follow RFC 8266's nickname profile (PRECIS).
package usertext

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"
)

// MaxName is the longest name, in characters.
const MaxName = 24

// MaxMarks is the most combining marks one character may carry: enough
// for any written language, too few to draw over the lines around it.
const MaxMarks = 3

// maxInput bounds the bytes read before anything else is done, so that
// the cost of a check never depends on a stranger's patience.
const maxInput = 4096

// Error is text refused, with a reason a person can act on.
type Error struct {
	// What names the text ("a name", "a message").
	What string
	// Reason says what is wrong and how to mend it.
	Reason string
}

func (e *Error) Error() string { return e.What + " " + e.Reason }

// Name checks and normalises a player's name: invisible and
// direction-changing runes are dropped, widths and compatibility forms
// folded (NFKC), spaces collapsed and trimmed; control and private-use
// runes are refused, as are empty names and names longer than MaxName
// characters.
func Name(s string) (string, error) {
	if len(s) > maxInput {
		return "", &Error{"a name", fmt.Sprintf("has at most %d characters", MaxName)}
	}
	cleaned, err := clean("a name", s, false)
	if err != nil {
		return "", err
	}
	out, err := precis.Nickname.String(cleaned)
	switch {
	case err != nil && strings.TrimSpace(cleaned) == "":
		return "", &Error{"a name", "cannot be empty: choose one"}
	case err != nil:
		return "", &Error{"a name", "holds a character names cannot hold: use letters, digits, punctuation or emoji"}
	case out == "":
		return "", &Error{"a name", "cannot be empty: choose one"}
	case utf8.RuneCountInString(out) > MaxName:
		return "", &Error{"a name", fmt.Sprintf("has at most %d characters", MaxName)}
	}
	if err := checkMarks("a name", out); err != nil {
		return "", err
	}
	return out, nil
}

// Message checks and normalises a short message (table chat): it becomes
// one line in NFC, with invisible and direction-changing runes dropped
// (a zero-width joiner between two visible characters stays: it joins
// emoji), control characters and line breaks turned into spaces and
// spaces collapsed. Private-use runes are refused, as are empty messages
// and messages longer than max characters.
func Message(s string, max int) (string, error) {
	if len(s) > maxInput || utf8.RuneCountInString(s) > max*4 {
		return "", &Error{"a message", fmt.Sprintf("has at most %d characters", max)}
	}
	cleaned, err := clean("a message", s, true)
	if err != nil {
		return "", err
	}
	out := strings.Join(strings.Fields(norm.NFC.String(cleaned)), " ")
	switch {
	case out == "":
		return "", &Error{"a message", "is empty"}
	case utf8.RuneCountInString(out) > max:
		return "", &Error{"a message", fmt.Sprintf("has at most %d characters", max)}
	}
	if err := checkMarks("a message", out); err != nil {
		return "", err
	}
	return out, nil
}

// Skeleton is what a name looks like, for telling look-alikes apart: two
// names with the same skeleton (Unicode's confusables, UTS #39, after
// case folding) would read as one at a table. It is for comparing, never
// for showing.
func Skeleton(name string) string {
	folded, err := precis.Nickname.String(name)
	if err != nil {
		folded = name
	}
	return strings.ToLower(confusables.Skeleton(folded))
}

// LookAlike reports whether two names would read as the same at a table.
func LookAlike(a, b string) bool { return Skeleton(a) == Skeleton(b) }

// ErrInvalidUTF8 is text that is not UTF-8.
var ErrInvalidUTF8 = errors.New("is not valid UTF-8 text")

// clean drops the runes nobody sees (format characters: zero-width
// spaces, bidirectional controls, soft hyphens) and refuses the ones
// nobody should send (private-use, surrogates, unassigned). Control
// characters become spaces in messages and are refused in names. keepZWJ
// keeps a zero-width joiner between two visible characters.
func clean(what, s string, message bool) (string, error) {
	if !utf8.ValidString(s) {
		return "", &Error{what, ErrInvalidUTF8.Error()}
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := ' '
	for i, r := range s {
		switch {
		case r == '\u200d':
			next, _ := utf8.DecodeRuneInString(s[i+len("\u200d"):])
			if message && visible(prev) && visible(next) {
				b.WriteRune(r)
			}
			continue
		case unicode.Is(unicode.Cf, r):
			continue // invisible: bidi controls, zero-width spaces, soft hyphens, BOM
		case unicode.Is(unicode.Cc, r):
			if !message && r != '\t' && r != '\n' && r != '\r' {
				return "", &Error{what, "cannot hold control characters"}
			}
			r = ' '
		case unicode.Is(unicode.Co, r):
			return "", &Error{what, "cannot hold private-use characters"}
		case unicode.Is(unicode.Cs, r), r == utf8.RuneError:
			return "", &Error{what, ErrInvalidUTF8.Error()}
		case !assigned(r):
			return "", &Error{what, fmt.Sprintf("holds a character Unicode does not define (U+%04X)", r)}
		case unicode.IsSpace(r):
			r = ' '
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String(), nil
}

// visible reports whether a rune shows something on its own.
func visible(r rune) bool {
	return r != utf8.RuneError && !unicode.IsSpace(r) && !unicode.Is(unicode.C, r) && !unicode.Is(unicode.M, r)
}

// assigned reports whether Unicode defines the rune.
func assigned(r rune) bool {
	for _, t := range unicode.Categories {
		if unicode.Is(t, r) {
			return true
		}
	}
	return false
}

// checkMarks refuses more than MaxMarks combining marks on one character.
func checkMarks(what, s string) error {
	run := 0
	for _, r := range s {
		if unicode.Is(unicode.M, r) {
			if run++; run > MaxMarks {
				return &Error{what, fmt.Sprintf("stacks more than %d accents on one letter", MaxMarks)}
			}
			continue
		}
		run = 0
	}
	return nil
}
