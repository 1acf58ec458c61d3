package diag

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// StringLimits bound the strings of a game file, in characters, by the
// member that holds them. A file comes from anyone, and what a game does
// with a string (compare it, show it, hand it to a CEL condition) costs
// in proportion to its length: each pack states the longest string each
// of its members may hold, the same in its JSON Schema (maxLength) and in
// its loader (CheckStrings), and bounds the cost of its conditions with
// those figures.
type StringLimits struct {
	// Key bounds the names of object members (the keys of free-form
	// maps, such as properties).
	Key int
	// Members bound the strings a member holds, directly or in the arrays
	// it holds, by the member's name.
	Members map[string]int
	// Default bounds the strings of every other member.
	Default int
}

// For returns the limit of the strings a member holds.
func (l StringLimits) For(member string) int {
	if n, ok := l.Members[member]; ok {
		return n
	}
	return l.Default
}

// TooLong is the message of a string longer than its limit, as both
// CheckStrings and Schema.Check word it.
func TooLong(limit, chars int) string {
	return "must be at most " + strconv.Itoa(limit) + " characters long, not " + strconv.Itoa(chars)
}

// CheckStrings reports every string of a decoded document longer than
// its limit or holding a character that changes how other text shows
// (HiddenRune), at its pointer, and every member name longer than l.Key, at
// its object (the value of a member whose name is too long is not looked
// into). It reports whether every string fits. Its cost is linear in the
// size of the document; once r is full, it only counts.
func CheckStrings(r Errorer, doc any, l StringLimits) bool {
	c := &stringCheck{r: r, l: l, ok: true}
	c.full, _ = r.(fuller)
	c.walk(doc, "")
	return c.ok
}

type stringCheck struct {
	r    Errorer
	full fuller
	l    StringLimits
	path []any // the tokens of the value being looked at
	ok   bool
}

func (c *stringCheck) report(format string, args ...any) {
	c.ok = false
	if c.full != nil && c.full.Full() {
		c.r.Errorf("", "") // counted, not kept: build no pointer
		return
	}
	c.r.Errorf(Pointer(c.path...), format, args...)
}

// walk looks at a value held by the member named member. Nesting is
// bounded by DecodeJSON (MaxDepth), so recursion is.
func (c *stringCheck) walk(v any, member string) {
	switch v := v.(type) {
	case string:
		if limit := c.l.For(member); len(v) > limit {
			if n := utf8.RuneCountInString(v); n > limit {
				c.report("%s", TooLong(limit, n))
				return
			}
		}
		if msg := HiddenRune(v); msg != "" {
			if w, ok := c.r.(storedReader); ok && w.readsStored() {
				// A game kept from before such text was refused loads
				// as it was.
				w.Warnf(Pointer(c.path...), "%s (kept: the game was stored before such characters were refused)", msg)
				return
			}
			c.report("%s", msg)
		}
	case []any:
		for i, x := range v {
			c.path = append(c.path, i)
			c.walk(x, member)
			c.path = c.path[:len(c.path)-1]
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if len(k) > c.l.Key {
				if n := utf8.RuneCountInString(k); n > c.l.Key {
					c.report("a member name %s", TooLong(c.l.Key, n))
					continue
				}
			}
			c.path = append(c.path, k)
			c.walk(v[k], k)
			c.path = c.path[:len(c.path)-1]
		}
	}
}

// storedKey marks a context under which games are read back from a store.
type storedKey struct{}

// Stored returns a context under which loaders read a game written before
// its text was checked for hidden characters (HiddenRune): such a
// character is kept, with a warning, instead of refused. A server reads
// the games of its stored matches and library so, so that what it kept
// still loads as it was; files sent to it are read as strictly as ever.
func Stored(ctx context.Context) context.Context {
	return context.WithValue(ctx, storedKey{}, true)
}

// storedReader is a reporter that may read a stored game (Stored).
type storedReader interface {
	readsStored() bool
	Warnf(pointer, format string, args ...any)
}

// MaxListed is how many names JoinNames lists before it counts the rest.
const MaxListed = 20

// JoinNames joins names for a message ("a, b, c"): at most MaxListed of
// them, then how many more there are ("…, t and 980 more"). A file from
// anyone may declare thousands of names, and a message listing all of
// them for each of thousands of problems would cost the square of the
// file's size.
func JoinNames(names []string) string {
	if len(names) <= MaxListed {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:MaxListed], ", ") + " and " + strconv.Itoa(len(names)-MaxListed) + " more"
}

// HiddenRune describes the first character of s that has no place in the
// text of a game file, which players read on each other's screens: a
// control character other than a tab or a line break (nothing to see, or
// a line cut), or a bidirectional embedding or override (U+202A to
// U+202E), which reorders the text shown after it, names and all. It
// returns "" when s holds none. Isolates (U+2066 to U+2069) and the
// direction marks stay: they keep right-to-left text in its place
// without reaching beyond it.
func HiddenRune(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return hiddenRune(s[i:], utf8.RuneCountInString(s[:i]))
		}
	}
	return ""
}

func hiddenRune(s string, at int) string {
	for _, r := range s {
		at++
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20 || r >= 0x7f && r < 0xa0:
			return fmt.Sprintf("holds a control character (U+%04X) at character %d, which shows as nothing or cuts the line: remove it", r, at)
		case r >= 0x202a && r <= 0x202e:
			return fmt.Sprintf("holds a bidirectional %s (U+%04X) at character %d, which reorders the text shown after it: remove it (for right-to-left text, an isolate U+2066 to U+2069 keeps it in its place)", bidiKind(r), r, at)
		}
	}
	return ""
}

func bidiKind(r rune) string {
	switch r {
	case 0x202c:
		return "formatting pop"
	case 0x202d, 0x202e:
		return "override"
	}
	return "embedding"
}
