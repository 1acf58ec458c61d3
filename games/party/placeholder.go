package party

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tabulagames/tabula/diag"
	"github.com/tabulagames/tabula/engine/rng"
)

// Prompt messages may hold placeholders such as {{RANDOM_WORD}} or
// {{RANDOM_NUMBER(1, 6)}}, expanded each time the prompt is shown. Names are case-insensitive. A placeholder's arguments may hold
// placeholders themselves, expanded first ({{RANDOM_COLOR({{RANDOM_WORD}})}}),
// up to maxPlaceholderDepth levels. Unknown placeholders, and placeholders
// with wrong arguments, are shown as written; Validate reports them.

// The placeholders of prompt messages.
const (
	PlaceholderCurrentPlayerName = "CURRENT_PLAYER_NAME"
	PlaceholderRandomNumber      = "RANDOM_NUMBER"
	PlaceholderRandomWord        = "RANDOM_WORD"
	PlaceholderRandomColor       = "RANDOM_COLOR"
	PlaceholderRandomSong        = "RANDOM_SONG"
)

// Placeholders lists every placeholder name.
var Placeholders = []string{
	PlaceholderCurrentPlayerName, PlaceholderRandomNumber, PlaceholderRandomWord,
	PlaceholderRandomColor, PlaceholderRandomSong,
}

// MaxMessageLength is the length (in characters) at which a prompt message
// is cut; "..." is added after the cut.
const MaxMessageLength = 500

const (
	// maxPlaceholderDepth bounds the nesting of placeholders in arguments;
	// deeper text is shown as written.
	maxPlaceholderDepth = 10
	// maxPlaceholderPasses bounds how often a message is re-scanned for
	// placeholders left after a pass.
	maxPlaceholderPasses = 20
)

// The word and song lists of RANDOM_WORD and RANDOM_SONG, one entry a line.
var (
	//go:embed words.txt
	wordsText string
	//go:embed songs.txt
	songsText string

	randomWords = dataLines(wordsText)
	randomSongs = dataLines(songsText)
)

// dataLines returns the non-empty lines of an embedded list, skipping
// comment lines that start with #.
func dataLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// Segment is a piece of an expanded prompt message: plain text, or text to
// show in a colour (from {{RANDOM_COLOR(text)}}).
type Segment struct {
	Text string `json:"text"`
	// Color is "#rrggbb", or "" for plain text.
	Color string `json:"color,omitempty"`
}

// Private-use characters mark coloured text and protect the braces of
// generated text while a message is expanded; they are removed from the
// message first, so a board cannot forge them.
const (
	markColor     = '\uE000' // followed by "#rrggbb" and markText
	markText      = '\uE001'
	markEnd       = '\uE002'
	markOpenBrace = '\uE003'
	markCloseBrc  = '\uE004'
)

// ExpandMessage expands the placeholders of a prompt message for the
// current player, drawing every random value from r in left-to-right order
// (arguments before the placeholder that holds them), and cuts the result
// at MaxMessageLength characters. A bare {{RANDOM_COLOR}} is the text
// "#rrggbb"; {{RANDOM_COLOR(text)}} is a segment of that text in a random
// colour. Generated text, such as a player's name, is never expanded again.
func ExpandMessage(msg, currentPlayer string, r *rng.Stream) []Segment {
	x := &expander{player: currentPlayer, r: r}
	s := stripMarks(msg)
	for range maxPlaceholderPasses {
		var changed bool
		if s, changed = x.expand(s, 0); !changed {
			break
		}
	}
	return cutSegments(toSegments(s), MaxMessageLength)
}

// PlainText joins the segments' text, without colours.
func PlainText(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteString(s.Text)
	}
	return b.String()
}

type expander struct {
	player string
	r      *rng.Stream
}

// expand replaces every outermost {{…}} of s whose placeholder can be
// evaluated; it reports whether it replaced any.
func (x *expander) expand(s string, depth int) (string, bool) {
	if depth > maxPlaceholderDepth || !strings.Contains(s, "{{") {
		return s, false
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "{{")
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		start := i + j
		end := closingBraces(s, start)
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i:start])
		if out, ok := x.evaluate(s[start+2:end-2], depth); ok {
			b.WriteString(out)
			changed = true
		} else {
			b.WriteString(s[start:end])
		}
		i = end
	}
	return b.String(), changed
}

// evaluate computes one placeholder (the text between its braces).
func (x *expander) evaluate(inner string, depth int) (string, bool) {
	call, ok := parseCall(inner)
	if !ok {
		return "", false
	}
	switch call.name {
	case PlaceholderCurrentPlayerName:
		if call.hasArgs {
			return "", false
		}
		name := x.player
		if name == "" {
			name = "Unknown Player"
		}
		return protect(name), true
	case PlaceholderRandomNumber:
		args := call.args()
		if len(args) != 2 {
			return "", false
		}
		var bounds [2]int
		for k, a := range args {
			a, _ = x.expand(a, depth+1)
			n, ok := parseWhole(a)
			if !ok {
				return "", false
			}
			bounds[k] = n
		}
		return strconv.Itoa(x.r.Between(bounds[0], bounds[1])), true
	case PlaceholderRandomWord, PlaceholderRandomSong:
		if call.hasArgs {
			return "", false
		}
		list := randomWords
		if call.name == PlaceholderRandomSong {
			list = randomSongs
		}
		return protect(list[x.r.IntN(len(list))]), true
	case PlaceholderRandomColor:
		// The text is the whole argument, commas included.
		text, _ := x.expand(strings.TrimSpace(call.argText), depth+1)
		color := fmt.Sprintf("#%06x", x.r.IntN(1<<24))
		if text == "" {
			return color, true
		}
		return string(markColor) + color + string(markText) + text + string(markEnd), true
	}
	return "", false
}

// stripMarks removes the private-use runes the formatter marks with, so
// that no text from a board or a player can forge them.
func stripMarks(s string) string {
	if !strings.ContainsFunc(s, isMark) {
		return s
	}
	return strings.Map(func(c rune) rune {
		if isMark(c) {
			return -1
		}
		return c
	}, s)
}

// isMark reports whether a rune is one of the formatter's marks.
func isMark(c rune) bool { return c >= markColor && c <= markCloseBrc }

// protect makes generated text (a player's name, a random word) plain
// text: the formatter's marks are removed from it and its braces hidden
// from later passes; unprotect shows the braces again.
func protect(s string) string { return protector.Replace(stripMarks(s)) }

var (
	protector   = strings.NewReplacer("{", string(markOpenBrace), "}", string(markCloseBrc))
	unprotector = strings.NewReplacer(string(markOpenBrace), "{", string(markCloseBrc), "}")
)

// parseWhole reads a whole number, as RANDOM_NUMBER's bounds must be.
func parseWhole(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == float64(int(f)) {
		return int(f), true
	}
	return 0, false
}

// closingBraces returns the index just after the }} that closes the {{ at
// start, counting nested pairs, or -1 if it is never closed.
func closingBraces(s string, start int) int {
	depth := 0
	for i := start; i+1 < len(s); {
		switch {
		case s[i] == '{' && s[i+1] == '{':
			depth++
			i += 2
		case s[i] == '}' && s[i+1] == '}':
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return -1
}

// placeholderCall is a placeholder split into its name and argument text.
type placeholderCall struct {
	name    string // upper-case
	hasArgs bool   // written with a non-empty argument list
	argText string // between the first ( and the last )
	argAt   int    // byte offset of argText in the inner text
}

// parseCall splits NAME or NAME(args). It fails when a "(" is not closed
// by a final ")".
func parseCall(inner string) (placeholderCall, bool) {
	open := strings.IndexByte(inner, '(')
	if open < 0 {
		return placeholderCall{name: strings.ToUpper(strings.TrimSpace(inner))}, true
	}
	trimmed := strings.TrimRightFunc(inner, isSpace)
	if !strings.HasSuffix(trimmed, ")") {
		return placeholderCall{}, false
	}
	c := placeholderCall{
		name:    strings.ToUpper(strings.TrimSpace(inner[:open])),
		argText: trimmed[open+1 : len(trimmed)-1],
		argAt:   open + 1,
	}
	c.hasArgs = strings.TrimSpace(c.argText) != ""
	return c, true
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// args splits the argument text at the commas outside parentheses and
// braces, as the original does.
func (c placeholderCall) args() []string {
	if !c.hasArgs {
		return nil
	}
	var out []string
	paren, brace, last := 0, 0, 0
	for i := 0; i < len(c.argText); i++ {
		switch c.argText[i] {
		case '(':
			paren++
		case ')':
			paren--
		case '{':
			brace++
		case '}':
			brace--
		case ',':
			if paren == 0 && brace == 0 {
				out = append(out, c.argText[last:i])
				last = i + 1
			}
		}
	}
	return append(out, c.argText[last:])
}

// toSegments turns expanded text with colour marks into segments; in nested
// colours the innermost wins. Marks that do not pair up (which expansion
// never makes) are dropped rather than trusted.
func toSegments(s string) []Segment {
	s = unprotector.Replace(s)
	var segs []Segment
	var colors []string
	var b strings.Builder
	flush := func() {
		if b.Len() == 0 {
			return
		}
		color := ""
		if len(colors) > 0 {
			color = colors[len(colors)-1]
		}
		if n := len(segs); n > 0 && segs[n-1].Color == color {
			segs[n-1].Text += b.String()
		} else {
			segs = append(segs, Segment{Text: b.String(), Color: color})
		}
		b.Reset()
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case markColor:
			flush()
			rest := s[i+size:]
			k := strings.IndexRune(rest, markText)
			if k < 0 {
				break // a colour without its text: dropped
			}
			colors = append(colors, rest[:k])
			i += size + k + utf8.RuneLen(markText)
			continue
		case markEnd:
			flush()
			if len(colors) > 0 {
				colors = colors[:len(colors)-1]
			}
		case markText:
			// Only ever after a colour, which skips it.
		default:
			b.WriteRune(r)
		}
		i += size
	}
	flush()
	return segs
}

// cutSegments keeps the first max characters and adds "..." if it cut.
func cutSegments(segs []Segment, max int) []Segment {
	n := 0
	for i, s := range segs {
		l := utf8.RuneCountInString(s.Text)
		if n+l <= max {
			n += l
			continue
		}
		keep := []rune(s.Text)[:max-n]
		out := append(segs[:i:i], Segment{Text: string(keep), Color: s.Color})
		if len(keep) == 0 {
			out = out[:i]
		}
		if last := len(out) - 1; last >= 0 && out[last].Color == "" {
			out[last].Text += "..."
		} else {
			out = append(out, Segment{Text: "..."})
		}
		return out
	}
	return segs
}

// messageProblem is a problem with the placeholders of a prompt message,
// at a character offset in the message.
type messageProblem struct {
	Offset  int
	Message string
	Warning bool
}

// checkMessage finds the placeholders of a message that cannot be shown as
// meant: unknown names (warnings: they are shown as written), wrong
// arguments and malformed placeholders (errors: the original game stalls
// on them).
func checkMessage(msg string) []messageProblem {
	var probs []messageProblem
	if at := strings.IndexFunc(msg, isMark); at >= 0 {
		r, _ := utf8.DecodeRuneInString(msg[at:])
		probs = append(probs, messageProblem{Offset: at, Warning: true,
			Message: fmt.Sprintf("the message holds U+%04X, one of the private-use characters U+E000 to U+E004 that mark colours while a message is shown: they are removed; delete them", r)})
	}
	checkPlaceholders(msg, 0, 0, &probs)
	// Offsets were collected in bytes; report characters.
	for i := range probs {
		probs[i].Offset = utf8.RuneCountInString(msg[:probs[i].Offset])
	}
	return probs
}

// checkPlaceholders checks s, which starts at byte offset base of the
// message.
func checkPlaceholders(s string, base, depth int, probs *[]messageProblem) {
	if depth > maxPlaceholderDepth {
		*probs = append(*probs, messageProblem{Offset: base, Warning: true,
			Message: fmt.Sprintf("placeholders nested deeper than %d levels are shown as written", maxPlaceholderDepth)})
		return
	}
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "{{")
		if j < 0 {
			return
		}
		start := i + j
		end := closingBraces(s, start)
		if end < 0 {
			*probs = append(*probs, messageProblem{Offset: base + start, Warning: true,
				Message: `"{{" is never closed by "}}": it is shown as written`})
			return
		}
		checkPlaceholder(s[start+2:end-2], base+start+2, depth, probs)
		i = end
	}
}

// checkPlaceholder checks one placeholder's inner text, at byte offset at.
func checkPlaceholder(inner string, at, depth int, probs *[]messageProblem) {
	errorf := func(format string, args ...any) {
		*probs = append(*probs, messageProblem{Offset: at - 2, Message: fmt.Sprintf(format, args...)})
	}
	call, ok := parseCall(inner)
	if !ok {
		errorf("placeholder {{%s}} opens \"(\" but does not end with \")\"", inner)
		return
	}
	args := call.args()
	if call.name == PlaceholderRandomColor && call.hasArgs {
		args = []string{call.argText}
	}
	// Arguments are checked (and their placeholders too) before the name.
	offset := at + call.argAt
	for _, a := range args {
		checkPlaceholders(a, offset, depth+1, probs)
		offset += len(a) + 1
	}
	want := map[string]int{
		PlaceholderCurrentPlayerName: 0, PlaceholderRandomWord: 0, PlaceholderRandomSong: 0, PlaceholderRandomNumber: 2,
	}
	switch n, known := want[call.name]; {
	case call.name == PlaceholderRandomColor:
	case !known:
		*probs = append(*probs, messageProblem{Offset: at - 2, Warning: true,
			Message: fmt.Sprintf("unknown placeholder {{%s}} is shown as written%s; the placeholders are %s",
				strings.TrimSpace(inner), diag.DidYouMean(call.name, Placeholders), strings.Join(Placeholders, ", "))})
	case len(args) != n && n == 0:
		errorf("placeholder %s takes no arguments, but has %d", call.name, len(args))
	case len(args) != n:
		errorf("placeholder %s takes 2 arguments (min, max), but has %d", call.name, len(args))
	case call.name == PlaceholderRandomNumber:
		var bounds []int
		for _, a := range args {
			if strings.Contains(a, "{{") {
				return // known only when shown
			}
			v, ok := parseWhole(a)
			if !ok {
				errorf("placeholder RANDOM_NUMBER needs whole numbers, but has %q", strings.TrimSpace(a))
				return
			}
			bounds = append(bounds, v)
		}
		if bounds[0] > bounds[1] {
			*probs = append(*probs, messageProblem{Offset: at - 2, Warning: true,
				Message: fmt.Sprintf("RANDOM_NUMBER(%d, %d) has min above max; it is read as RANDOM_NUMBER(%d, %d)", bounds[0], bounds[1], bounds[1], bounds[0])})
		}
	}
}
