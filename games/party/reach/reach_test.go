package reach

import (
	"reflect"
	"testing"
)

func TestTraps(t *testing.T) {
	for _, c := range []struct {
		name string
		g    Graph
		want []Trap
	}{
		{"a straight way to the finish", Graph{Next: [][]int{{1}, {2}, nil}, Starts: []int{0}, Finishes: []int{2}}, nil},
		{"a loop with no way out", Graph{Next: [][]int{{1}, {2, 3}, nil, {4}, {3}}, Starts: []int{0}, Finishes: []int{2}},
			[]Trap{{Entry: 3, Places: []int{3, 4}}}},
		{"a finish cut off from the start", Graph{Next: [][]int{{1}, {0}, nil}, Starts: []int{0}, Finishes: []int{2}},
			[]Trap{{Entry: 0, Places: []int{0, 1}}}},
		{"a dead end beside the way", Graph{Next: [][]int{{1, 2}, nil, nil}, Starts: []int{0}, Finishes: []int{2}},
			[]Trap{{Entry: 1, Places: []int{1}}}},
		{"two traps, in the order of their entries", Graph{Next: [][]int{{3, 1, 4}, nil, nil, {5}, nil, {3}}, Starts: []int{0}, Finishes: []int{1}},
			[]Trap{{Entry: 3, Places: []int{3, 5}}, {Entry: 4, Places: []int{4}}}},
		{"a region entered twice", Graph{Next: [][]int{{1, 2, 3}, nil, {3}, {2}}, Starts: []int{0}, Finishes: []int{1}},
			[]Trap{{Entry: 2, Places: []int{2, 3}}}},
		{"an escape out of the loop", Graph{Next: [][]int{{1}, {2, 3}, nil, {4}, {3}}, Starts: []int{0}, Finishes: []int{2}, Escapes: []int{4}}, nil},
		{"an escape with nowhere to go", Graph{Next: [][]int{{1}, {0}, nil}, Starts: []int{0}, Finishes: []int{2}, Escapes: []int{1}},
			[]Trap{{Entry: 0, Places: []int{0, 1}}}},
		{"a teleport from anywhere to the way", Graph{Next: [][]int{{1}, {2, 3}, nil, {4}, {3}}, Starts: []int{0}, Finishes: []int{2}, Anywhere: []int{1}}, nil},
		{"a teleport from anywhere into a trap", Graph{Next: [][]int{{1}, nil, nil, {3}}, Starts: []int{0}, Finishes: []int{1}, Anywhere: []int{3}},
			[]Trap{{Entry: 3, Places: []int{3}}}},
		{"a space nobody reaches", Graph{Next: [][]int{{1}, nil, {2}}, Starts: []int{0}, Finishes: []int{1}}, nil},
		{"no finish", Graph{Next: [][]int{{1}, {0}}, Starts: []int{0}}, nil},
	} {
		if got := Traps(c.g); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// BenchmarkTraps looks for traps on a board of 100 000 places: a way to
// the finish with a loop beside every tenth place, half of them traps.
func BenchmarkTraps(b *testing.B) {
	const n = 100_000
	g := Graph{Next: make([][]int, n), Starts: []int{0}, Finishes: []int{n - 1}}
	for i := 0; i+1 < n; i++ {
		g.Next[i] = append(g.Next[i], i+1)
		if i%10 == 0 && i+5 < n {
			g.Next[i] = append(g.Next[i], i+5)
			if i%20 != 0 {
				g.Next[i+5] = append(g.Next[i+5], i) // a way back: no trap
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		Traps(g)
	}
}
