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
	prev := make([]int, g.Width*g.Height)
	for i := range prev {
		prev[i] = -1
	}
	idx := func(c Cell) int { return c[1]*g.Width + c[0] }
	start := idx(from)
	prev[start] = start
	queue := []Cell{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == to {
			var path []Cell
			for c := to; c != from; {
				path = append(path, c)
				p := prev[idx(c)]
				c = Cell{p % g.Width, p / g.Width}
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path
		}
		for _, d := range neighbours {
			n := Cell{cur[0] + d[0], cur[1] + d[1]}
			if g.Wall(n) || prev[idx(n)] >= 0 || (n != to && blocked != nil && blocked(n)) {
				continue
			}
			prev[idx(n)] = idx(cur)
			queue = append(queue, n)
		}
	}
	return nil
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
