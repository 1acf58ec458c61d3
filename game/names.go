package game

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Readable makes a name players can read out of an id, for whatever a game
// file names only by its id: "goblin-1" is "Goblin 1", "adaptive_armour"
// and "adaptiveArmour" are "Adaptive armour". Words in capitals (HP, AC)
// keep them.
func Readable(id string) string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	prev := rune(0)
	for _, r := range id {
		switch {
		case r == '-' || r == '_' || r == '.' || unicode.IsSpace(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			// camelCase: a new word, in lower case unless it is an
			// acronym (checked once the word is whole).
			flush()
			w.WriteRune(r)
		case unicode.IsDigit(r) != unicode.IsDigit(prev) && prev != 0 && w.Len() > 0 && unicode.IsLetter(prev):
			// "goblin1" reads "goblin 1".
			flush()
			w.WriteRune(r)
		default:
			w.WriteRune(r)
		}
		prev = r
	}
	flush()
	for i, word := range words {
		if isAcronym(word) {
			continue
		}
		lower := strings.ToLower(word)
		if i == 0 {
			r, n := utf8.DecodeRuneInString(lower)
			lower = string(unicode.ToUpper(r)) + lower[n:]
		}
		words[i] = lower
	}
	return strings.Join(words, " ")
}

// isAcronym reports whether a word is in capitals (two letters at least,
// with digits allowed): HP, AC, D20.
func isAcronym(word string) bool {
	letters := 0
	for _, r := range word {
		switch {
		case unicode.IsUpper(r):
			letters++
		case unicode.IsDigit(r):
		default:
			return false
		}
	}
	return letters >= 2
}

// WordKey reports whether a view's member of that name holds what players
// read, by the convention every pack's views keep: text, name, title,
// label, prompt, reason, description, options, howToPlay, and names
// ending in Text, Texts, Name, Title, Label, Reason or Words ("stateText",
// "deckName", "effectTexts"). The page shows those as they are; every other string of a
// view (an id, a kind, a state) is data, and shown only through words the
// view gives for it. Tests check that no internal id reaches these.
func WordKey(key string) bool {
	switch key {
	case "text", "name", "title", "label", "prompt", "reason", "description", "options", "howToPlay", "words":
		return true
	}
	for _, suffix := range []string{"Text", "Texts", "Name", "Title", "Label", "Reason", "Words"} {
		if strings.HasSuffix(key, suffix) && len(key) > len(suffix) {
			return true
		}
	}
	return false
}
