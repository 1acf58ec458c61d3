package sim

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tabulagames/tabula/games/party"
)

// WriteHTML writes the summary as one self-contained HTML page (inline CSS
// and SVG, nothing loaded from elsewhere): the board drawn from its
// coordinates as a heatmap of landings, the histograms of game length, the
// win rates with their intervals, and the tables. b is the board that was
// simulated.
func (s *Summary) WriteHTML(w io.Writer, b *party.Board) error {
	return reportPage.Execute(w, newReport(s, b))
}

// report is what the page template shows, with the drawings computed.
type report struct {
	S       *Summary
	Title   string
	Board   boardDrawing
	Entries boardDrawing
	Fired   boardDrawing
	Rounds  chart
	Turns   chart
	Wins    winChart
	Effects []string
}

type boardDrawing struct {
	ID, What      string
	ViewBox       string
	Width, Height float64
	Edges         []edge
	Spaces        []spaceDrawing
	Legend        []legendStop
	Gradient      string
	Arrow         float64
}

type edge struct {
	Path string
}

type spaceDrawing struct {
	X, Y, R   float64
	Fill, Ink string
	Stroke    string
	Lines     []textLine
	Heat      string
	HeatY     float64
	Size      float64
	Title     string
}

type textLine struct {
	Y    float64
	Text string
}

type legendStop struct {
	Offset string
	Value  string
}

type chart struct {
	Name                string
	Width, Height       float64
	Bars                []bar
	Ticks               []tick
	Median, P90         marker
	BaseY, PlotW, LeftX float64
	Empty               bool
	MedianText, P90Text string
	XLabel, MaxLabel    string
}

type bar struct {
	X, Y, W, H float64
	Title      string
}

type tick struct {
	X     float64
	Label string
}

type marker struct {
	X float64
}

type winChart struct {
	Width, Height float64
	Rows          []winRow
	FairX         float64
	FairLabel     string
	Ticks         []tick
	LeftX, PlotW  float64
}

type winRow struct {
	Y, BarW, LowX, HighX, MidY float64
	Label, Rate, Interval      string
}

func newReport(s *Summary, b *party.Board) report {
	title := s.Board.Name
	if title == "" {
		title = s.Board.File
	}
	var landings, entries, fired []float64
	for _, sp := range s.Spaces {
		landings = append(landings, sp.LandingsPerGame)
		entries = append(entries, sp.EntriesPerGame)
		fired = append(fired, sp.FiredPerGame)
	}
	r := report{S: s, Title: title,
		Board:   drawBoard(b, landings, "landings"),
		Entries: drawBoard(b, entries, "entries"),
		Fired:   drawBoard(b, fired, "event firings"),
		Rounds:  drawChart("rounds", &s.Length.Rounds), Turns: drawChart("turns", &s.Length.Turns),
		Wins: drawWins(s), Effects: s.effectNames()}
	return r
}

// heat returns the colour of a value in [0, 1] on a white–yellow–red
// scale, and the colour of text written on it.
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

// drawBoard draws the board with each space coloured by one figure per
// game (values, in board order).
func drawBoard(b *party.Board, values []float64, what string) boardDrawing {
	const pad = 50.0
	ps := layout(b)
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range ps {
		minX, minY = min(minX, p.x-p.r), min(minY, p.y-p.r)
		maxX, maxY = max(maxX, p.x+p.r), max(maxY, p.y+p.r)
	}
	minX, minY, maxX, maxY = minX-pad, minY-pad, maxX+pad, maxY+pad
	d := boardDrawing{ViewBox: fmt.Sprintf("%s %s %s %s", f1(minX), f1(minY), f1(maxX-minX), f1(maxY-minY)),
		Width: maxX - minX, Height: maxY - minY, Arrow: 12, What: what, ID: strings.ReplaceAll(what, " ", "-")}
	most := 0.0
	for _, v := range values {
		most = max(most, v)
	}
	// The colour follows the square root of the figure, so that one
	// space every player must land on does not wash out all the others.
	scale := func(v float64) float64 {
		if most <= 0 {
			return 0
		}
		return math.Sqrt(v / most)
	}
	gradient := "linear-gradient(to right"
	for k := range 5 {
		t := float64(k) / 4
		c, _ := heat(t)
		gradient += fmt.Sprintf(", %s %d%%", c, k*25)
		d.Legend = append(d.Legend, legendStop{Offset: fmt.Sprintf("%d%%", k*25), Value: number(most*t*t, 2)})
	}
	d.Gradient = gradient + ")"
	index := make(map[string]int, len(b.Spaces))
	for i, sp := range b.Spaces {
		index[sp.ID] = i
	}
	for i, sp := range b.Spaces {
		for _, c := range sp.Connections {
			j, ok := index[c.Target]
			if !ok || !c.Draw || i == j {
				continue
			}
			back := false
			for _, c2 := range b.Spaces[j].Connections {
				if c2.Target == sp.ID {
					back = true
				}
			}
			d.Edges = append(d.Edges, edge{Path: arrowPath(ps, i, j, back)})
		}
	}
	for i, sp := range b.Spaces {
		p := ps[i]
		v := 0.0
		if i < len(values) {
			v = values[i]
		}
		fill, ink := heat(scale(v))
		name := sp.Name
		if name == "" {
			name = sp.ID
		}
		lines := wrapWords(name, max(8, int(p.r/4.5)))
		longest := 1
		for _, l := range lines {
			longest = max(longest, len([]rune(l)))
		}
		size := min(12, 1.7*p.r/(0.58*float64(longest)))
		if len(lines) == 3 {
			size = min(size, 10) // three lines must stay inside the circle
		}
		top := p.y - 7 - float64(len(lines)-1)*size*1.1
		sd := spaceDrawing{X: p.x, Y: p.y, R: p.r, Fill: fill, Ink: ink, Stroke: "#3a3a3a",
			Heat: number(v, 2), HeatY: p.y + 16, Size: size,
			Title: fmt.Sprintf("%s: %s %s per game", spaceTitle(sp.ID, sp.Name), number(v, 2), what)}
		for k, l := range lines {
			sd.Lines = append(sd.Lines, textLine{Y: top + float64(k)*size*1.1, Text: l})
		}
		d.Spaces = append(d.Spaces, sd)
	}
	return d
}

type point struct{ x, y, r float64 }

// layout places every space: at its coordinates, or on a circle when the
// board has none. Radii leave room for the figures.
func layout(b *party.Board) []point {
	n := len(b.Spaces)
	ps := make([]point, n)
	placed := false
	for _, sp := range b.Spaces {
		if sp.Visual.X != 0 || sp.Visual.Y != 0 {
			placed = true
		}
	}
	for i, sp := range b.Spaces {
		r := max(sp.Visual.Size/2, 34)
		x, y := sp.Visual.X, sp.Visual.Y
		if !placed {
			a := 2 * math.Pi * float64(i) / float64(max(n, 1))
			x, y = 400+300*math.Cos(a), 400+300*math.Sin(a)
		}
		ps[i] = point{x, y, r}
	}
	return ps
}

// arrowPath is the path of the connection from space i to space j: a
// straight arrow, or a bent one when the two spaces connect both ways or
// when a straight one would cross another space.
func arrowPath(ps []point, i, j int, twoWay bool) string {
	a, b := ps[i], ps[j]
	dx, dy := b.x-a.x, b.y-a.y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return ""
	}
	ux, uy := dx/l, dy/l
	nx, ny := -uy, ux // the left of the arrow
	bend := 0.0
	if twoWay {
		bend = 40
	}
	for k, c := range ps {
		if k == i || k == j {
			continue
		}
		// c's distance from the segment, and on which side it is.
		t := ((c.x-a.x)*ux + (c.y-a.y)*uy)
		if t <= 0 || t >= l {
			continue
		}
		side := (c.x-a.x)*nx + (c.y-a.y)*ny
		if math.Abs(side) < c.r+8 {
			// Bend away from c: a quadratic curve's middle moves by half
			// its control point's offset.
			off := 2 * (c.r + 18 + math.Abs(side))
			if side > 0 {
				off = -off
			}
			if math.Abs(off) > math.Abs(bend) {
				bend = off
			}
		}
	}
	if bend == 0 {
		sx, sy := a.x+ux*a.r, a.y+uy*a.r
		ex, ey := b.x-ux*(b.r+3), b.y-uy*(b.r+3)
		return fmt.Sprintf("M%s,%s L%s,%s", f1(sx), f1(sy), f1(ex), f1(ey))
	}
	mx, my := (a.x+b.x)/2+nx*bend, (a.y+b.y)/2+ny*bend
	// Start and end on the circles, aimed at the control point.
	sx, sy := toward(a, mx, my, a.r)
	ex, ey := toward(b, mx, my, b.r+3)
	return fmt.Sprintf("M%s,%s Q%s,%s %s,%s", f1(sx), f1(sy), f1(mx), f1(my), f1(ex), f1(ey))
}

// toward returns the point at distance d from p's centre towards (x, y).
func toward(p point, x, y, d float64) (float64, float64) {
	dx, dy := x-p.x, y-p.y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return p.x, p.y
	}
	return p.x + dx/l*d, p.y + dy/l*d
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// wrapWords breaks text into at most three lines of about width
// characters.
func wrapWords(text string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range splitWords(text) {
		if cur != "" && len([]rune(cur))+1+len([]rune(w)) > width {
			lines = append(lines, cur)
			cur = w
		} else if cur == "" {
			cur = w
		} else {
			cur += " " + w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > 3 {
		lines = append(lines[:2], clip(strings.Join(lines[2:], " "), width))
	}
	return lines
}

func splitWords(s string) []string {
	var out []string
	word := []rune{}
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' {
			if len(word) > 0 {
				out = append(out, string(word))
				word = word[:0]
			}
			continue
		}
		word = append(word, r)
	}
	if len(word) > 0 {
		out = append(out, string(word))
	}
	return out
}

// drawChart draws a histogram as bars over the value axis.
func drawChart(name string, d *Distribution) chart {
	c := chart{Name: name, Width: 520, Height: 220, LeftX: 44, BaseY: 180, XLabel: name + " per game"}
	c.PlotW = c.Width - c.LeftX - 16
	if len(d.Histogram) == 0 {
		c.Empty = true
		return c
	}
	most := 0
	for _, b := range d.Histogram {
		most = max(most, b.Games)
	}
	c.MaxLabel = strconv.Itoa(most)
	plotH := c.BaseY - 20
	lo, hi := d.Histogram[0].From, d.Histogram[len(d.Histogram)-1].To+1
	span := float64(hi - lo)
	xOf := func(v float64) float64 { return c.LeftX + (v-float64(lo))/span*c.PlotW }
	for _, b := range d.Histogram {
		h := float64(b.Games) / float64(most) * plotH
		x0, x1 := xOf(float64(b.From)), xOf(float64(b.To+1))
		label := strconv.Itoa(b.From)
		if b.To != b.From {
			label += "–" + strconv.Itoa(b.To)
		}
		c.Bars = append(c.Bars, bar{X: x0 + 1, Y: c.BaseY - h, W: max(1, x1-x0-2), H: h,
			Title: fmt.Sprintf("%s %s: %d games", name, label, b.Games)})
	}
	step := max(1, (hi-lo+7)/8)
	for v := lo; v <= hi; v += step {
		c.Ticks = append(c.Ticks, tick{X: xOf(float64(v) + 0.5*float64(min(step, 1))), Label: strconv.Itoa(v)})
	}
	c.Median = marker{X: xOf(float64(d.Median) + 0.5)}
	c.P90 = marker{X: xOf(float64(d.P90) + 0.5)}
	c.MedianText = "median " + strconv.Itoa(d.Median)
	c.P90Text = "p90 " + strconv.Itoa(d.P90)
	return c
}

// drawWins draws each seat's win rate with its interval, against the fair
// share.
func drawWins(s *Summary) winChart {
	w := winChart{Width: 520, LeftX: 110}
	w.PlotW = w.Width - w.LeftX - 70
	top := 24.0
	row := 30.0
	w.Height = top + row*float64(len(s.Seats)) + 28
	hiRate := s.FairShare * 2
	for _, st := range s.Seats {
		hiRate = max(hiRate, st.High)
	}
	hiRate = math.Min(1, math.Ceil(hiRate*10)/10)
	xOf := func(v float64) float64 { return w.LeftX + v/hiRate*w.PlotW }
	for i, st := range s.Seats {
		y := top + float64(i)*row
		w.Rows = append(w.Rows, winRow{Y: y, MidY: y + 10, BarW: xOf(st.WinRate) - w.LeftX, LowX: xOf(st.Low), HighX: xOf(st.High),
			Label: fmt.Sprintf("%d · %s", st.Seat, clip(st.Name, 10)), Rate: percent(st.WinRate),
			Interval: fmt.Sprintf("seat %d (%s): %d wins, %s (95%% interval %s – %s)", st.Seat, st.Name, st.Wins, percent(st.WinRate), percent(st.Low), percent(st.High))})
	}
	w.FairX = xOf(s.FairShare)
	w.FairLabel = "fair share " + percent(s.FairShare)
	for k := 0; k <= 4; k++ {
		v := hiRate * float64(k) / 4
		w.Ticks = append(w.Ticks, tick{X: xOf(v), Label: percent(v)})
	}
	return w
}

var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"n2":      func(v float64) string { return number(v, 2) },
	"pct":     percent,
	"f1":      f1,
	"title":   spaceTitle,
	"effect":  effectPerGame,
	"sub":     func(a, b float64) float64 { return a - b },
	"add":     func(a, b float64) float64 { return a + b },
	"safeCSS": func(s string) template.CSS { return template.CSS(s) },
	"list":    func(cs ...chart) []chart { return cs },
	"perGame": func(n int64, games, failed int) string { return number(perGame(n, games-failed), 2) },
}).Parse(pageTemplate))

func effectPerGame(st Seat, name string) string {
	for _, e := range st.Effects {
		if e.Name == name {
			return number(e.PerGame, 2)
		}
	}
	return "0"
}

const pageTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>{{.Title}}: {{.S.Games}} simulated games</title>
<style>
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; background: #f4f2ee; margin: 0; }
main { max-width: 1120px; margin: 0 auto; padding: 24px 28px 40px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 10px; }
p.sub { margin: 0 0 16px; color: #555; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 8px 0 4px; }
.card { background: #fff; border-radius: 10px; padding: 10px 16px; box-shadow: 0 1px 2px rgba(0,0,0,.08); min-width: 120px; }
.card b { display: block; font-size: 24px; }
.card span { color: #666; font-size: 13px; }
.card.warn b { color: #b3261e; }
.panel { background: #fff; border-radius: 12px; padding: 16px 18px; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
@media (max-width: 900px) { .grid { grid-template-columns: 1fr; } }
svg { display: block; width: 100%; height: auto; }
svg.board { max-height: 640px; }
.space-name { font-weight: 600; }
.legend { position: relative; width: 320px; margin: 6px 0 0 8px; padding-bottom: 34px; font-size: 12px; color: #555; }
.legend .scale { height: 12px; border: 1px solid #999; border-radius: 3px; }
.legend .ticks span { position: absolute; top: 16px; transform: translateX(-50%); }
.legend .what { position: absolute; top: 32px; left: 0; }
.space-heat { font-size: 15px; font-weight: 700; }
.axis { font-size: 11px; fill: #555; }
.note { font-size: 13px; color: #666; margin: 8px 0 0; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { padding: 5px 8px; border-bottom: 1px solid #e6e3dd; text-align: right; }
th { font-weight: 600; color: #444; background: #faf9f6; }
td.l, th.l { text-align: left; }
td.swatch { width: 14px; padding: 0; }
td.swatch span { display: inline-block; width: 14px; height: 14px; border-radius: 50%; border: 1px solid #999; vertical-align: middle; }
.events { color: #666; font-size: 12px; text-align: left; }
footer { margin-top: 28px; color: #777; font-size: 13px; }
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
<p class="sub">{{.S.Board.File}} · {{.S.Games}} games of {{len .S.Players}} players ({{range $i, $p := .S.Players}}{{if $i}}, {{end}}{{$p}}{{end}}) · seed {{.S.Seed}} · round cap {{.S.MaxRounds}}{{if .S.Interrupted}} · interrupted after {{.S.Games}} of {{.S.Requested}} games{{end}}</p>
<div class="cards">
<div class="card"><b>{{.S.Finished}}</b><span>games finished</span></div>
<div class="card{{if .S.Capped}} warn{{end}}"><b>{{.S.Capped}}</b><span>stopped at the round cap</span></div>
{{if .S.Stalled}}<div class="card warn"><b>{{.S.Stalled}}</b><span>stalled (turn limit)</span></div>{{end}}
{{if .S.Failed}}<div class="card warn"><b>{{.S.Failed}}</b><span>failed: game {{.S.FirstFailure.Game}}: {{.S.FirstFailure.Message}}</span></div>{{end}}
{{if not .Rounds.Empty}}<div class="card"><b>{{.S.Length.Rounds.Median}}</b><span>rounds (median)</span></div>
<div class="card"><b>{{.S.Length.Turns.Median}}</b><span>turns (median)</span></div>
<div class="card"><b>{{.S.Length.Rounds.P90}}</b><span>rounds (90% of games end by)</span></div>{{end}}
</div>

<h2>Where players land</h2>
<div class="panel">
{{template "board" .Board}}
<p class="note">Each space shows how many times per game a move ends on it (a landing). Arrows are the board's connections; hover a space for its name and figure.</p>
</div>
<div class="grid">
<div class="panel">
<h2 style="margin-top:0">Entries per game</h2>
{{template "board" .Entries}}
<p class="note">Every arrival counts: each step onto the space, teleports and moves back included.</p>
</div>
<div class="panel">
<h2 style="margin-top:0">Event firings per game</h2>
{{template "board" .Fired}}
<p class="note">How often the space's events fired, all of them together: the spaces that set the pace of the evening.</p>
</div>
</div>

<div class="grid">
{{range $c := (list .Rounds .Turns)}}
<div class="panel">
<h2 style="margin-top:0">Game length in {{$c.Name}}</h2>
{{if $c.Empty}}<p class="note">No game finished.</p>{{else}}
<svg viewBox="0 0 {{$c.Width}} {{$c.Height}}" role="img" aria-label="Histogram of game length in {{$c.Name}}">
<line x1="{{$c.LeftX}}" y1="{{$c.BaseY}}" x2="{{add $c.LeftX $c.PlotW}}" y2="{{$c.BaseY}}" stroke="#999"/>
{{range $c.Bars}}<rect x="{{f1 .X}}" y="{{f1 .Y}}" width="{{f1 .W}}" height="{{f1 .H}}" fill="#4a7fb5"><title>{{.Title}}</title></rect>
{{end}}<line x1="{{f1 $c.Median.X}}" y1="14" x2="{{f1 $c.Median.X}}" y2="{{$c.BaseY}}" stroke="#d1495b" stroke-width="2" stroke-dasharray="5 3"/>
<text class="axis" x="{{f1 $c.Median.X}}" y="11" text-anchor="middle" fill="#d1495b">{{$c.MedianText}}</text>
<line x1="{{f1 $c.P90.X}}" y1="26" x2="{{f1 $c.P90.X}}" y2="{{$c.BaseY}}" stroke="#edae49" stroke-width="2" stroke-dasharray="5 3"/>
<text class="axis" x="{{f1 $c.P90.X}}" y="23" text-anchor="middle">{{$c.P90Text}}</text>
{{range $c.Ticks}}<text class="axis" x="{{f1 .X}}" y="{{add $c.BaseY 15}}" text-anchor="middle">{{.Label}}</text>
{{end}}<text class="axis" x="{{sub $c.LeftX 6}}" y="24" text-anchor="end">{{$c.MaxLabel}}</text>
<text class="axis" x="{{sub $c.LeftX 6}}" y="{{$c.BaseY}}" text-anchor="end">0</text>
<text class="axis" x="{{add $c.LeftX (sub $c.PlotW 0)}}" y="{{add $c.BaseY 32}}" text-anchor="end">{{$c.XLabel}} · bars: games</text>
</svg>{{end}}
</div>
{{end}}
</div>

<div class="grid">
<div class="panel">
<h2 style="margin-top:0">Does seat order matter?</h2>
{{if .S.Decided}}
<svg viewBox="0 0 {{.Wins.Width}} {{.Wins.Height}}" role="img" aria-label="Win rate by seat">
{{$w := .Wins}}{{range .Wins.Ticks}}<line x1="{{f1 .X}}" y1="16" x2="{{f1 .X}}" y2="{{sub $w.Height 22}}" stroke="#eee"/>
<text class="axis" x="{{f1 .X}}" y="{{sub $w.Height 8}}" text-anchor="middle">{{.Label}}</text>
{{end}}{{range .Wins.Rows}}<g><title>{{.Interval}}</title>
<text class="axis" x="{{sub $w.LeftX 8}}" y="{{f1 .MidY}}" text-anchor="end" dominant-baseline="middle" style="font-size:13px;fill:#222">{{.Label}}</text>
<rect x="{{$w.LeftX}}" y="{{f1 .Y}}" width="{{f1 .BarW}}" height="20" fill="#6c9a5b" rx="2"/>
<line x1="{{f1 .LowX}}" y1="{{f1 .MidY}}" x2="{{f1 .HighX}}" y2="{{f1 .MidY}}" stroke="#222" stroke-width="2"/>
<line x1="{{f1 .LowX}}" y1="{{sub .MidY 6}}" x2="{{f1 .LowX}}" y2="{{add .MidY 6}}" stroke="#222" stroke-width="2"/>
<line x1="{{f1 .HighX}}" y1="{{sub .MidY 6}}" x2="{{f1 .HighX}}" y2="{{add .MidY 6}}" stroke="#222" stroke-width="2"/>
<text class="axis" x="{{add .HighX 6}}" y="{{f1 .MidY}}" dominant-baseline="middle" style="font-size:13px;fill:#222">{{.Rate}}</text>
</g>
{{end}}<line x1="{{f1 .Wins.FairX}}" y1="12" x2="{{f1 .Wins.FairX}}" y2="{{sub .Wins.Height 22}}" stroke="#d1495b" stroke-width="2" stroke-dasharray="5 3"/>
<text class="axis" x="{{f1 .Wins.FairX}}" y="10" text-anchor="middle" fill="#d1495b">{{.Wins.FairLabel}}</text>
</svg>
<p class="note">Win rate of each seat over the {{.S.Decided}} games that had a winner, with its 95% Wilson interval. If the intervals all cross the dashed line, the simulation shows no advantage of one seat over another.</p>
{{else}}<p class="note">No game had a winner.</p>{{end}}
</div>
<div class="panel">
<h2 style="margin-top:0">Players (per game)</h2>
<table>
<tr><th class="l">seat</th><th>wins</th><th>prompts</th>{{range (index .S.Seats 0).Stats}}<th>{{.Name}} (mean / max)</th>{{end}}{{range .Effects}}<th>{{.}}</th>{{end}}</tr>
{{$fx := .Effects}}{{range .S.Seats}}<tr><td class="l">{{.Seat}} · {{.Name}}</td><td>{{.Wins}}</td><td>{{n2 .Prompts}}</td>{{range .Stats}}<td>{{n2 .Mean}} / {{n2 .Max}}</td>{{end}}{{$st := .}}{{range $fx}}<td>{{effect $st .}}</td>{{end}}</tr>
{{end}}</table>
<p class="note">Prompts are the messages a player had to acknowledge; stats are their values at the end of a game.</p>
</div>
</div>

<h2>Spaces (per game)</h2>
<div class="panel">
<table>
<tr><th></th><th class="l">space</th><th>landings</th><th>entries</th><th>events fired</th><th class="l">events (times fired in all games)</th></tr>
{{range $i, $sp := .S.Spaces}}<tr><td class="swatch"><span style="background:{{safeCSS (index $.Board.Spaces $i).Fill}}"></span></td><td class="l">{{title .ID .Name}}</td><td>{{n2 .LandingsPerGame}}</td><td>{{n2 .EntriesPerGame}}</td><td>{{n2 .FiredPerGame}}</td><td class="events">{{range $k, $e := .Events}}{{if $k}}; {{end}}{{$e.Trigger}} {{$e.Action}}: {{$e.Fired}}{{end}}</td></tr>
{{end}}</table>
</div>

<div class="grid">
<div class="panel">
<h2 style="margin-top:0">Board actions applied</h2>
<table>
<tr><th class="l">action</th><th>times</th><th>per game</th></tr>
{{$g := .S}}{{range .S.Actions}}<tr><td class="l">{{.Name}}</td><td>{{.Count}}</td><td>{{perGame .Count $g.Games $g.Failed}}</td></tr>
{{end}}</table>
</div>
<div class="panel">
<h2 style="margin-top:0">How to read this</h2>
<p class="note">Bots rolled the dice, took a random path at every fork and acknowledged every prompt at once. Game length counts finished games only; games stopped at the round cap are counted above. The same seed gives the same figures, whatever the number of workers.</p>
</div>
</div>
<footer>{{if .S.Timing}}{{.S.Games}} games in {{printf "%.2f" .S.Timing.Seconds}} s with {{.S.Timing.Workers}} workers · {{end}}Tabula simulate · seed {{.S.Seed}}</footer>
</main>
</body>
</html>
{{define "board"}}<svg class="board" viewBox="{{.ViewBox}}" role="img" aria-label="The board as a heatmap of {{.What}} per game">
<defs>
<marker id="arrow-{{.ID}}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="{{.Arrow}}" markerHeight="{{.Arrow}}" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker>
</defs>
{{$b := .}}{{range .Edges}}<path d="{{.Path}}" fill="none" stroke="#8a857c" stroke-width="3" marker-end="url(#arrow-{{$b.ID}})"/>
{{end}}{{range .Spaces}}<g><title>{{.Title}}</title>
<circle cx="{{f1 .X}}" cy="{{f1 .Y}}" r="{{f1 .R}}" fill="{{.Fill}}" stroke="{{.Stroke}}" stroke-width="2"/>
{{$s := .}}{{range .Lines}}<text class="space-name" x="{{f1 $s.X}}" y="{{f1 .Y}}" text-anchor="middle" dominant-baseline="middle" fill="{{$s.Ink}}" style="font-size:{{f1 $s.Size}}px">{{.Text}}</text>
{{end}}<text class="space-heat" x="{{f1 .X}}" y="{{f1 .HeatY}}" text-anchor="middle" dominant-baseline="middle" fill="{{.Ink}}">{{.Heat}}</text>
</g>
{{end}}</svg>
<div class="legend"><div class="scale" style="background:{{safeCSS .Gradient}}"></div><div class="ticks">{{range .Legend}}<span style="left:{{.Offset}}">{{.Value}}</span>{{end}}</div><div class="what">{{.What}} per game</div></div>
{{end}}`
