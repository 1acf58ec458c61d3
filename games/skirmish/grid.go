package skirmish

import (
	"fmt"
	"strings"
)

// Cell is a square of the map, [x, y]: x counts columns from the left,
// y rows from the top, both from 0.
type Cell [2]int

// X returns the column.
func (c Cell) X() int { return c[0] }

// Y returns the row.
func (c Cell) Y() int { return c[1] }

// String renders the cell as (x,y).
func (c Cell) String() string { return fmt.Sprintf("(%d,%d)", c[0], c[1]) }

// SquareFeet is the side of a square: distances are counted in squares of
// five feet, diagonals included (a diagonal neighbour is 5 ft away).
const SquareFeet = 5

// Distance returns the distance between two cells in feet: the larger of
// the column and row differences, times five.
func Distance(a, b Cell) int {
	return max(abs(a[0]-b[0]), abs(a[1]-b[1])) * SquareFeet
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

// Grid is the encounter's map: rows of '.' (floor) and '#' (wall).
// It is immutable once loaded.
type Grid struct {
	Width, Height int
	walls         []bool // row-major
}

// NewGrid builds a grid from its rows; every row must have the same width.
func NewGrid(rows []string) (*Grid, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("the map has no rows")
	}
	g := &Grid{Width: len(rows[0]), Height: len(rows)}
	for y, row := range rows {
		if len(row) != g.Width {
			return nil, fmt.Errorf("row %d is %d squares wide, the first is %d", y, len(row), g.Width)
		}
		for x, ch := range []byte(row) {
			switch ch {
			case '.':
				g.walls = append(g.walls, false)
			case '#':
				g.walls = append(g.walls, true)
			default:
				return nil, fmt.Errorf("row %d column %d: %q is not a square ('.' floor, '#' wall)", y, x, ch)
			}
		}
	}
	return g, nil
}

// In reports whether a cell is on the map.
func (g *Grid) In(c Cell) bool { return c[0] >= 0 && c[1] >= 0 && c[0] < g.Width && c[1] < g.Height }

// Wall reports whether a cell is a wall (cells off the map are walls).
func (g *Grid) Wall(c Cell) bool { return !g.In(c) || g.walls[c[1]*g.Width+c[0]] }

// neighbours are visited in this fixed order, so paths are deterministic.
var neighbours = [8]Cell{{0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}}

// Path returns a shortest path from one cell to another (excluding from,
// including to), moving one square at a time in any of eight directions
// through floor that blocked does not forbid, or nil if there is none.
// Ties between equally short paths are broken by a fixed neighbour order.
func (g *Grid) Path(from, to Cell, blocked func(Cell) bool) []Cell {
	if from == to || !g.In(to) || g.Wall(to) {
		return nil
	}
	t := g.search(from, -1, func(n Cell) bool { return n == to || blocked == nil || !blocked(n) }, to)
	return t.path(to)
}

// tree is a breadth-first search of the map from one square.
type tree struct {
	g    *Grid
	from Cell
	// prev holds, for every square, the index of the square it was
	// reached from (-1: not reached); steps how many steps away it is.
	prev, steps []int
	// order are the squares reached, nearest first, from excluded.
	order []Cell
}

// search explores the map breadth first from a square, one step at a time
// in the fixed neighbour order, entering the floor squares enter allows,
// at most limit steps away (any number if limit < 0), and stops once it
// reaches stop. Path and the squares a combatant can reach both come from
// it, so that a move to a square offered goes the way it was offered.
func (g *Grid) search(from Cell, limit int, enter func(Cell) bool, stop Cell) tree {
	t := tree{g: g, from: from, prev: make([]int, g.Width*g.Height), steps: make([]int, g.Width*g.Height)}
	for i := range t.prev {
		t.prev[i] = -1
	}
	idx := func(c Cell) int { return c[1]*g.Width + c[0] }
	t.prev[idx(from)] = idx(from)
	queue := []Cell{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == stop {
			break
		}
		if limit >= 0 && t.steps[idx(cur)] >= limit {
			continue
		}
		for _, d := range neighbours {
			n := Cell{cur[0] + d[0], cur[1] + d[1]}
			if g.Wall(n) || t.prev[idx(n)] >= 0 || !enter(n) {
				continue
			}
			t.prev[idx(n)], t.steps[idx(n)] = idx(cur), t.steps[idx(cur)]+1
			t.order = append(t.order, n)
			queue = append(queue, n)
		}
	}
	return t
}

// path returns the path the search found to a square (from excluded), or
// nil if it did not reach it.
func (t *tree) path(to Cell) []Cell {
	g := t.g
	if !g.In(to) || to == t.from || t.prev[to[1]*g.Width+to[0]] < 0 {
		return nil
	}
	path := make([]Cell, t.steps[to[1]*g.Width+to[0]])
	for c, i := to, len(path)-1; i >= 0; i-- {
		path[i] = c
		p := t.prev[c[1]*g.Width+c[0]]
		c = Cell{p % g.Width, p / g.Width}
	}
	return path
}

// Render draws the map with a letter per occupied square.
func (g *Grid) Render(mark func(Cell) byte) string {
	var b strings.Builder
	b.WriteString("   ")
	for x := range g.Width {
		b.WriteByte(byte('0' + x%10))
	}
	b.WriteByte('\n')
	for y := range g.Height {
		fmt.Fprintf(&b, "%2d ", y)
		for x := range g.Width {
			c := Cell{x, y}
			switch {
			case mark != nil && mark(c) != 0:
				b.WriteByte(mark(c))
			case g.Wall(c):
				b.WriteByte('#')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
