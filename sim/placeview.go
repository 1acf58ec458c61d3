package sim

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tabulagames/tabula/game"
)

// placeGroup is the places of one kind, in the game's order, with the
// figures the first of them has (every place of a kind has the same).
type placeGroup struct {
	Kind    string
	Figures []string
	Places  []PlaceFigures
	// Quiet is the number of places left out of the text because nothing
	// happened there (squares of a large map).
	Quiet int
}

// groups returns the places grouped by kind, kinds in the order first met.
func (r *Report) groups() []placeGroup {
	var out []placeGroup
	at := map[string]int{}
	for _, p := range r.Places {
		i, ok := at[p.Kind]
		if !ok {
			i = len(out)
			at[p.Kind] = i
			g := placeGroup{Kind: p.Kind}
			for _, f := range p.Figures {
				g.Figures = append(g.Figures, f.Name)
			}
			out = append(out, g)
		}
		out[i].Places = append(out[i].Places, p)
	}
	return out
}

// quiet reports whether nothing happened at a place.
func quiet(p PlaceFigures) bool {
	for _, f := range p.Figures {
		if f.Total != 0 {
			return false
		}
	}
	return true
}

// kindTitle is the heading of a kind's table: "Spaces", "Cards".
func kindTitle(kind string) string {
	if kind == "" {
		return "Places"
	}
	return strings.ToUpper(kind[:1]) + kind[1:] + "s"
}

// writePlaces writes where things happen as text: a table per kind, a
// column per figure (per game); the squares of a map where nothing
// happened are left out, and counted.
func (r *Report) writePlaces(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("\nWhere things happen (per game, over the %s played to their end)\n", plural(r.Played(), "game"))
	if len(r.Places) == 0 {
		p("  the game counts nothing per place\n")
		return
	}
	for _, g := range r.groups() {
		nw := utf8.RuneCountInString(g.Kind)
		for _, pl := range g.Places {
			nw = max(nw, min(44, utf8.RuneCountInString(placeLabel(pl))))
		}
		p("\n  %s", pad(g.Kind, nw))
		for _, f := range g.Figures {
			p("  %10s", f)
		}
		p("\n")
		left := 0
		for _, pl := range g.Places {
			if g.Kind == "square" && quiet(pl) {
				left++
				continue
			}
			p("  %s", pad(placeLabel(pl), nw))
			for _, f := range pl.Figures {
				p("  %10s", number(f.PerGame, 3))
			}
			p("\n")
		}
		if left > 0 {
			p("  (%d other %s: nothing happened there)\n", left, strings.ToLower(kindTitle(g.Kind)))
		}
	}
}

// placeLabel names a place in a table: its name, and its id when that
// differs and the name alone could be ambiguous.
func placeLabel(p PlaceFigures) string {
	switch {
	case p.Name == "":
		return p.ID
	case p.Name == p.ID || p.Kind == "card" || p.Kind == "drone" || p.Kind == "seat" || p.Kind == "action" || p.Kind == "square":
		return p.Name
	}
	return p.Name + " (" + p.ID + ")"
}

// number writes v with at most the given decimals, without trailing
// zeros.
func number(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// heatMap is one drawing of the map coloured by one figure.
type heatMap struct {
	Figure string
	SVG    template.HTML
	// Legend is the colour scale, as a CSS gradient, and its values.
	Gradient template.CSS
	Legend   []string
}

// heatMaps draws the map once per figure of its places' kind.
func (r *Report) heatMaps() []heatMap {
	if r.Map == nil || len(r.Map.Shapes) == 0 {
		return nil
	}
	var figures []string
	for _, g := range r.groups() {
		if g.Kind == r.Map.Kind {
			figures = g.Figures
		}
	}
	var out []heatMap
	for _, f := range figures {
		if h, ok := drawHeat(r.Map, r.Places, f, 0); ok {
			out = append(out, h)
		}
	}
	return out
}

// heat returns the colour of t in [0, 1] on a white–yellow–red scale, and
// the colour of text written on it.
func heat(t float64) (fill, ink string) {
	stops := [][3]float64{{255, 255, 240}, {255, 237, 160}, {254, 178, 76}, {240, 59, 32}, {150, 0, 30}}
	t = max(0, min(1, t))
	x := t * float64(len(stops)-1)
	i := min(int(x), len(stops)-2)
	f := x - float64(i)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(stops[i][k] + f*(stops[i+1][k]-stops[i][k])))
	}
	ink = "#222"
	if t > 0.62 {
		ink = "#fff"
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2]), ink
}

// drawHeat draws the map with each shape coloured by its place's figure
// per game; the colour follows the square root of the figure, so that a
// space every player must land on does not wash out all the others.
//
// The scale runs to the largest figure, or to top if that is larger (two
// maps compared share one scale); a figure that is 0 everywhere draws no
// map (false).
func drawHeat(m *game.PlaceMap, places []PlaceFigures, figure string, top float64) (heatMap, bool) {
	value := map[string]float64{}
	most := top
	for _, p := range places {
		if p.Kind != m.Kind {
			continue
		}
		if f, ok := p.Figure(figure); ok {
			value[p.ID] = f.PerGame
			most = max(most, f.PerGame)
		}
	}
	if most <= 0 {
		return heatMap{}, false
	}
	scale := func(v float64) float64 {
		if v <= 0 {
			return 0
		}
		return math.Sqrt(v / most)
	}
	const pad = 40.0
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	at := make(map[string]int, len(m.Shapes))
	for i, s := range m.Shapes {
		at[s.ID] = i
		minX, minY = min(minX, s.X-s.W/2), min(minY, s.Y-s.H/2)
		maxX, maxY = max(maxX, s.X+s.W/2), max(maxY, s.Y+s.H/2)
	}
	minX, minY, maxX, maxY = minX-pad, minY-pad, maxX+pad, maxY+pad
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="board" viewBox="%s %s %s %s" role="img" aria-label="%s">`, f1(minX), f1(minY), f1(maxX-minX), f1(maxY-minY), html.EscapeString(figure+" per game on the board"))
	for _, l := range m.Links {
		i, ok1 := at[l.From]
		j, ok2 := at[l.To]
		if !ok1 || !ok2 || i == j {
			continue
		}
		path, heads := linkPath(m.Shapes, i, j, l.Both)
		if path == "" {
			continue
		}
		fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="#555" stroke-width="2"/>`, path)
		for _, h := range heads {
			fmt.Fprintf(&b, `<path d="%s" fill="#555"/>`, h)
		}
	}
	for _, s := range m.Shapes {
		v := value[s.ID]
		fill, ink := heat(scale(v))
		name := s.Name
		if name == "" {
			name = s.ID
		}
		fmt.Fprintf(&b, `<g><title>%s</title>`, html.EscapeString(fmt.Sprintf("%s: %s %s per game", name, number(v, 2), figure)))
		if s.Round {
			fmt.Fprintf(&b, `<ellipse cx="%s" cy="%s" rx="%s" ry="%s" fill="%s" stroke="#3a3a3a" stroke-width="2"/>`, f1(s.X), f1(s.Y), f1(s.W/2), f1(s.H/2), fill)
		} else {
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#3a3a3a" stroke-width="1"/>`, f1(s.X-s.W/2), f1(s.Y-s.H/2), f1(s.W), f1(s.H), fill)
		}
		size := min(s.W, s.H)
		if size >= 50 {
			lines := wrapWords(name, max(8, int(size/9)))
			longest := 1
			for _, l := range lines {
				longest = max(longest, utf8.RuneCountInString(l))
			}
			fs := min(12, 0.85*size/(0.58*float64(longest)))
			top := s.Y - 7 - float64(len(lines)-1)*fs*1.1
			for k, l := range lines {
				fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" dominant-baseline="middle" fill="%s" style="font-size:%spx">%s</text>`,
					f1(s.X), f1(top+float64(k)*fs*1.1), ink, f1(fs), html.EscapeString(l))
			}
			fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" dominant-baseline="middle" fill="%s" font-weight="bold" style="font-size:13px">%s</text>`,
				f1(s.X), f1(s.Y+size/4), ink, number(v, 2))
		} else if v != 0 && size >= 14 {
			text := number(v, 1)
			if v < 1 {
				text = strings.TrimPrefix(number(v, 2), "0") // ".05"
			}
			fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" dominant-baseline="middle" fill="%s" style="font-size:%spx">%s</text>`,
				f1(s.X), f1(s.Y), ink, f1(min(11, size/3)), text)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	h := heatMap{Figure: figure, SVG: template.HTML(b.String())}
	g := "linear-gradient(to right"
	for k := range 5 {
		t := float64(k) / 4
		c, _ := heat(t)
		g += fmt.Sprintf(", %s %d%%", c, k*25)
		h.Legend = append(h.Legend, number(most*t*t, 2))
	}
	h.Gradient = template.CSS(g + ")")
	return h, true
}

// linkPath is the path of a link from shape i to shape j, and its
// arrowheads: a straight arrow, or a bent one when a straight one would
// cross another shape. Arrowheads are drawn as shapes of their own, so that
// the page refers to nothing (not even a marker).
func linkPath(shapes []game.Shape, i, j int, both bool) (string, []string) {
	radius := func(s game.Shape) float64 { return min(s.W, s.H) / 2 }
	a, b := shapes[i], shapes[j]
	ar, br := radius(a), radius(b)
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return "", nil
	}
	ux, uy := dx/l, dy/l
	nx, ny := -uy, ux // the left of the arrow
	bend := 0.0
	for k, c := range shapes {
		if k == i || k == j {
			continue
		}
		t := (c.X-a.X)*ux + (c.Y-a.Y)*uy
		if t <= 0 || t >= l {
			continue
		}
		side := (c.X-a.X)*nx + (c.Y-a.Y)*ny
		if cr := radius(c); math.Abs(side) < cr+8 {
			off := 2 * (cr + 18 + math.Abs(side))
			if side > 0 {
				off = -off
			}
			if math.Abs(off) > math.Abs(bend) {
				bend = off
			}
		}
	}
	// The control point: the middle, moved aside when the arrow bends.
	mx, my := (a.X+b.X)/2+nx*bend, (a.Y+b.Y)/2+ny*bend
	sx, sy := toward(a.X, a.Y, mx, my, ar+1)
	ex, ey := toward(b.X, b.Y, mx, my, br+1)
	heads := []string{head(ex, ey, mx, my)}
	if both {
		heads = append(heads, head(sx, sy, mx, my))
	}
	if bend == 0 {
		return fmt.Sprintf("M%s,%s L%s,%s", f1(sx), f1(sy), f1(ex), f1(ey)), heads
	}
	return fmt.Sprintf("M%s,%s Q%s,%s %s,%s", f1(sx), f1(sy), f1(mx), f1(my), f1(ex), f1(ey)), heads
}

// head is an arrowhead with its tip at (x, y), pointing away from (fx, fy).
func head(x, y, fx, fy float64) string {
	dx, dy := x-fx, y-fy
	l := math.Hypot(dx, dy)
	if l == 0 {
		return ""
	}
	ux, uy := dx/l, dy/l
	const length, half = 11.0, 5.0
	bx, by := x-ux*length, y-uy*length
	return fmt.Sprintf("M%s,%s L%s,%s L%s,%s z", f1(x), f1(y), f1(bx-uy*half), f1(by+ux*half), f1(bx+uy*half), f1(by-ux*half))
}

// toward returns the point at distance d from (px, py) towards (x, y).
func toward(px, py, x, y, d float64) (float64, float64) {
	dx, dy := x-px, y-py
	l := math.Hypot(dx, dy)
	if l == 0 {
		return px, py
	}
	return px + dx/l*d, py + dy/l*d
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// wrapWords breaks text into at most three lines of about width
// characters, the last cut short with an ellipsis if need be.
func wrapWords(text string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(text) {
		if cur != "" && utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > 3 {
		lines = append(lines[:2], lines[2]+"…")
	}
	return lines
}
