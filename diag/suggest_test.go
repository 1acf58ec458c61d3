package diag

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSuggestBudget: suggestions stay the same on human cases and cost a
// bounded amount of work on anything else.
func TestSuggestBudget(t *testing.T) {
	long := strings.Repeat("SET_PLAYER_STATE_", 4) // 68 characters
	cands := []string{"PROMPT_ALL_PLAYERS", long, "SET_PLAYER_STATE"}
	for _, c := range []struct{ word, want string }{
		{"set_player_stat", "SET_PLAYER_STATE"},
		{long + "X", ""},                // too long to be a typo
		{long[:33], "SET_PLAYER_STATE"}, // the long candidate, which contains it, is skipped
		{"", ""},
	} {
		if got := Suggest(c.word, cands); got != c.want {
			t.Errorf("Suggest(%.20q) = %q, want %q", c.word, got, c.want)
		}
	}
	// Many long candidates: the search stops within its budget, with the
	// best found so far.
	many := make([]string, 100000)
	for i := range many {
		many[i] = strings.Repeat("Q", 60)
	}
	many[0] = "PROMPT_ALL_PLAYERS"
	if s, work := suggest("PROMT_ALL_PLAYERS", many, SuggestWork); s != "PROMPT_ALL_PLAYERS" || work > SuggestWork+4*MaxSuggestLen+MaxSuggestLen*MaxSuggestLen {
		t.Errorf("suggest = %q after %d work", s, work)
	}
	many[len(many)-1] = "PROMPT_ALL_PLAYERS"
	many[0] = strings.Repeat("Q", 60)
	if s, _ := suggest("PROMT_ALL_PLAYERS", many, SuggestWork); s != "" {
		t.Errorf("found %q past the budget", s)
	}
	// A file's suggestions stop after ReporterSuggestWork.
	r := NewReporter("f.json", nil)
	r.Limit = -1
	n := 0
	for r.Suggest("QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQR", many) != "" {
		n++
	}
	if n == 0 || r.suggestWork < ReporterSuggestWork || r.suggestWork > ReporterSuggestWork+SuggestWork {
		t.Errorf("%d suggestions for %d work", n, r.suggestWork)
	}
}

// TestDistanceWithin: the banded distance is the Levenshtein distance up
// to its bound.
func TestDistanceWithin(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	word := func() []rune {
		w := make([]rune, rnd.IntN(12))
		for i := range w {
			w[i] = rune('a' + rnd.IntN(3))
		}
		return w
	}
	for range 20000 {
		a, b, k := word(), word(), rnd.IntN(6)
		want := min(levenshtein(a, b), k+1)
		if got, _ := distanceWithin(a, b, k); got != want {
			t.Fatalf("distanceWithin(%q, %q, %d) = %d, want %d", string(a), string(b), k, got, want)
		}
	}
}

// levenshtein is the plain edit distance, to check the banded one against.
func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
