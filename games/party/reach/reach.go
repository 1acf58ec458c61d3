// Package reach finds where players can get stuck on a board: the places
// they can reach from the start from which no way leads to a finish (a loop
// with no way out, a dead end, a finish cut off from the start). It knows
// nothing of any game: party boards and rule books describe their boards to
// it as a Graph, and tell the traps it finds in their own words. It takes
// time linear in the board.
package reach

import (
	"fmt"
	"slices"
	"strings"
)

// Graph is a board as reach sees it: places 0 to len(Next)-1 and the ways
// between them. Each game makes it generous (a way that may be taken is a
// way), so that what reach finds truly traps players.
type Graph struct {
	// Next are the places a player may go to from each place.
	Next [][]int
	// Starts are where players may start; Finishes where the game may end
	// (a place that wins, or that finishes the player who gets there).
	Starts, Finishes []int
	// Anywhere are places a player may be sent to from any place (a
	// teleport that a condition sets off, a card).
	Anywhere []int
	// Escapes are places from which a player may be sent to any place
	// another player may stand on (a swap, a move back along the path
	// taken).
	Escapes []int
}

// Trap is a region of places that players can reach and from which no way
// leads to a finish.
type Trap struct {
	// Entry is where players first get into it: a start, or a place a way
	// leads to from outside the region.
	Entry int
	// Places are the region's places, Entry among them, in order.
	Places []int
}

// Traps returns the traps of a board, in the order of their entries; none
// when every place players can reach leads to a finish, or when the board
// has no finish (nothing to reach).
func Traps(g Graph) []Trap {
	n := len(g.Next)
	if len(g.Finishes) == 0 || len(g.Starts) == 0 || n == 0 {
		return nil
	}
	// The ways back, in one array: prev[j] is from[at[j]:at[j+1]].
	at := make([]int, n+1)
	for _, ways := range g.Next {
		for _, j := range ways {
			at[j+1]++
		}
	}
	for j := range n {
		at[j+1] += at[j]
	}
	from := make([]int, at[n])
	fill := slices.Clone(at[:n])
	for i, ways := range g.Next {
		for _, j := range ways {
			from[fill[j]] = i
			fill[j]++
		}
	}
	prev := func(j int) []int { return from[at[j]:at[j+1]] }
	// The places players can reach.
	reached := make([]bool, n)
	var todo []int
	visit := func(seen []bool, i int) {
		if !seen[i] {
			seen[i] = true
			todo = append(todo, i)
		}
	}
	for _, i := range g.Starts {
		visit(reached, i)
	}
	for _, i := range g.Anywhere {
		visit(reached, i)
	}
	for len(todo) > 0 {
		i := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, j := range g.Next[i] {
			visit(reached, j)
		}
	}
	// The places from which a way leads to a finish: back from the
	// finishes. Once a place players reach leads to one, an escape does
	// too (its player may be sent there).
	leads := make([]bool, n)
	for _, i := range g.Finishes {
		visit(leads, i)
	}
	for escaped := false; ; escaped = true {
		for len(todo) > 0 {
			i := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, j := range prev(i) {
				visit(leads, j)
			}
		}
		if escaped || !anyBoth(reached, leads) {
			break
		}
		for _, i := range g.Escapes {
			visit(leads, i)
		}
	}
	if slices.ContainsFunc(g.Anywhere, func(i int) bool { return leads[i] }) {
		return nil // from any place, a player may be sent where a way leads on
	}
	entry := make([]bool, n) // where players may get in from outside a region
	for _, list := range [][]int{g.Starts, g.Anywhere} {
		for _, i := range list {
			entry[i] = true
		}
	}
	trapped := func(i int) bool { return reached[i] && !leads[i] }
	// The regions: trapped places joined by ways, either way.
	region := make([]int, n)
	for i := range region {
		region[i] = -1
	}
	var traps []Trap
	for i := range n {
		if !trapped(i) || region[i] >= 0 {
			continue
		}
		t := Trap{Entry: -1}
		region[i] = len(traps)
		todo = append(todo[:0], i)
		for len(todo) > 0 {
			k := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			t.Places = append(t.Places, k)
			for _, ways := range [2][]int{g.Next[k], prev(k)} {
				for _, j := range ways {
					if trapped(j) && region[j] < 0 {
						region[j] = len(traps)
						todo = append(todo, j)
					}
				}
			}
		}
		slices.Sort(t.Places)
		for _, k := range t.Places {
			if entry[k] || slices.ContainsFunc(prev(k), func(j int) bool { return reached[j] && !trapped(j) }) {
				t.Entry = k
				break
			}
		}
		if t.Entry < 0 {
			t.Entry = t.Places[0] // reached through a region that is not a trap: cannot happen
		}
		traps = append(traps, t)
	}
	slices.SortStableFunc(traps, func(a, b Trap) int { return a.Entry - b.Entry })
	return traps
}

// anyBoth reports whether some place is in both sets.
func anyBoth(a, b []bool) bool {
	for i := range a {
		if a[i] && b[i] {
			return true
		}
	}
	return false
}

// Text tells a trap for a warning, naming places as the game does: "from
// Crossroads, no way leads to a finish: Loop A, Loop B" (the first few of
// many).
func (t Trap) Text(name func(place int) string) string {
	const most = 8
	var others []string
	for _, i := range t.Places {
		if i != t.Entry {
			others = append(others, name(i))
		}
	}
	text := "from " + name(t.Entry) + ", no way leads to a finish"
	switch {
	case len(others) > most:
		return text + ": " + strings.Join(others[:most], ", ") + fmt.Sprintf(" and %d more", len(others)-most)
	case len(others) > 0:
		return text + ": " + strings.Join(others, ", ")
	}
	return text
}
