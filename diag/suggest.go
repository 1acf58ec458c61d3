package diag

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// The work a "did you mean" may do. A file from anyone can hold thousands
// of dangling references against thousands of long ids; without a bound,
// suggesting a name for each costs references × ids × length².
const (
	// MaxSuggestLen is the longest word or candidate, in characters, that
	// Suggest considers: a longer one is not a typo worth suggesting.
	MaxSuggestLen = 64
	// SuggestWork is the most work one Suggest does, in characters read
	// and compared (about a millisecond): it stops there with the best
	// candidate found so far.
	SuggestWork = 1 << 20
	// ReporterSuggestWork is the most work a Reporter's suggestions do for
	// one file, together; past it the Reporter suggests nothing.
	ReporterSuggestWork = 1 << 25
)

// Suggest returns the candidate closest to word (by edit distance, ignoring
// case), or "" if none is close enough to be a likely typo. It is the "did
// you mean" of error messages.
//
// A candidate is close enough within a third of the word's length (at
// least 2 edits); failing that, a candidate of at least 4 letters that
// contains the word or that the word contains counts too (PROMPT →
// PROMPT_CURRENT_PLAYER, DRAW_CARDS → DRAW). The first of equally close
// candidates wins. Words and candidates longer than MaxSuggestLen are
// skipped, and the search stops after SuggestWork; a Reporter's Suggest
// also bounds the work of a whole file.
func Suggest(word string, candidates []string) string {
	s, _ := suggest(word, candidates, SuggestWork)
	return s
}

// DidYouMean returns " (did you mean X?)" or "" (Suggest).
func DidYouMean(word string, candidates []string) string {
	return didYouMean(word, Suggest(word, candidates))
}

func didYouMean(word, s string) string {
	if s != "" && s != word {
		return fmt.Sprintf(" (did you mean %s?)", s)
	}
	return ""
}

// suggest is Suggest within a budget of work; it returns the work done.
func suggest(word string, candidates []string, budget int) (best string, work int) {
	var wbuf, cbuf [MaxSuggestLen]rune
	work = 1 + min(len(word), 4*MaxSuggestLen)
	w, wlen, ok := upperRunes(word, wbuf[:0])
	if !ok || budget <= work {
		return "", work
	}
	limit := max(2, len(word)/3)
	bestDist := -1
	contains, within := "", "" // the first candidate containing the word, the first within it
	for _, c := range candidates {
		if work >= budget {
			break
		}
		work += 1 + min(len(c), 4*MaxSuggestLen)
		C, clen, ok := upperRunes(c, cbuf[:0])
		if !ok {
			continue
		}
		// Only a strictly closer candidate replaces the best.
		bound := limit
		if bestDist >= 0 {
			bound = bestDist - 1
		}
		if bound >= 0 && abs(len(C)-len(w)) <= bound {
			d, cells := distanceWithin(w, C, bound)
			work += cells
			if d <= bound {
				best, bestDist = c, d
			}
		}
		if contains == "" && wlen >= 4 && len(C) >= len(w) {
			found, n := containsRunes(C, w)
			work += n
			if found {
				contains = c
			}
		}
		if within == "" && clen >= 4 && len(w) >= len(C) {
			found, n := containsRunes(w, C)
			work += n
			if found {
				within = c
			}
		}
	}
	switch {
	case bestDist >= 0:
		return best, work
	case contains != "":
		return contains, work
	}
	return within, work
}

// upperRunes appends the characters of s in upper case to buf (as
// strings.ToUpper has them), with the length in bytes they take; ok is
// false if s has more than MaxSuggestLen characters.
func upperRunes(s string, buf []rune) (r []rune, size int, ok bool) {
	if len(s) > 4*MaxSuggestLen {
		return nil, 0, false
	}
	for _, c := range s {
		if len(buf) == MaxSuggestLen {
			return nil, 0, false
		}
		c = unicode.ToUpper(c)
		buf = append(buf, c)
		size += utf8.RuneLen(c)
	}
	return buf, size, true
}

// containsRunes reports whether needle occurs in hay, and how many
// characters it compared.
func containsRunes(hay, needle []rune) (bool, int) {
	n := 0
	for i := 0; i+len(needle) <= len(hay); i++ {
		j := 0
		for j < len(needle) && hay[i+j] == needle[j] {
			j++
		}
		n += j + 1
		if j == len(needle) {
			return true, n
		}
	}
	return false, n
}

// distanceWithin is the Levenshtein distance between a and b if it is at
// most k, or k+1 if it is more; it computes only the band of cells within
// k of the diagonal, and returns how many.
func distanceWithin(a, b []rune, k int) (d, cells int) {
	if abs(len(a)-len(b)) > k {
		return k + 1, 0
	}
	inf := k + 1
	var prevBuf, curBuf [MaxSuggestLen + 1]int
	prev, cur := prevBuf[:len(b)+1], curBuf[:len(b)+1]
	for j := range prev {
		prev[j] = min(j, inf)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		cur[lo-1] = inf
		if lo == 1 {
			cur[0] = min(i, inf)
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, inf)
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		cells += hi - lo + 1
		if hi < len(b) {
			// The next row reads this cell, just past the band.
			cur[hi+1] = inf
		}
		if rowMin >= inf {
			return inf, cells
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], inf), cells
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
