package sim

import (
	_ "embed"
	"html/template"
	"io"
	"math"
	"strconv"
)

//go:embed page.html.tmpl
var pageText string

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"percent": percent,
	"games":   func(n int) string { return plural(n, "game") },
	"f2":      func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) },
	"f4":      func(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) },
	"n3":      func(v float64) string { return number(v, 3) },
	"label":   placeLabel,
	"title":   kindTitle,
}).Parse(pageText))

// WriteHTML writes the report as one self-contained page: inline CSS, a
// few lines of inline script to sort the piece table, nothing loaded from
// elsewhere, so that it opens in any browser, offline, or as an attachment.
// It shows the win rates as bars with their intervals, the distribution of
// game length and the piece table, and reads on a phone.
func (r *Report) WriteHTML(w io.Writer) error {
	return page.Execute(w, newPage(r))
}

// pageData is what the page template shows, with its drawings computed.
type pageData struct {
	R         *Report
	Title     string
	Setup     string
	Limit     string
	Failed    string
	Seats     winChart
	Positions winChart
	Commands  histChart
	Rounds    histChart
	// Heat draws the board once per figure of its places; Groups are the
	// tables of places, one per kind.
	Heat   []heatMap
	Groups []placeGroup
}

// winChart draws win rates as bars on a scale from 0 to Top.
type winChart struct {
	What string
	Top  string
	// Fair places the fair share's line.
	Fair template.CSS
	Rows []winRow
}

type winRow struct {
	W             Wins
	Bar, Interval template.CSS
}

// histChart draws a distribution as columns.
type histChart struct {
	Name   string
	D      *Distribution
	Bars   []histBar
	Most   int
	Median string
	P90    string
}

type histBar struct {
	Label  string
	Games  int
	Height template.CSS
	// Mark is "median" or "p90" for the column holding that value.
	Mark string
}

func newPage(r *Report) pageData {
	d := pageData{R: r, Title: r.title(), Setup: r.setup(), Limit: r.LimitSentence(),
		Seats:    newWinChart("player", r.Seats, r.FairShare),
		Commands: newHistChart("commands", &r.Length.Commands),
		Rounds:   newHistChart("rounds", &r.Length.Rounds),
		Heat:     r.heatMaps(), Groups: r.groups()}
	if r.Failed.Games > 0 {
		d.Failed = r.failedSentence()
	}
	if len(r.Positions) > 0 {
		d.Positions = newWinChart("seat", r.Positions, r.FairShare)
	}
	return d
}

// newWinChart scales the bars to the highest interval bound, rounded up to
// the next 10%, so that the rates of a four-player game do not crowd the
// left quarter of the page.
func newWinChart(what string, rows []Wins, fair float64) winChart {
	top := fair
	for _, w := range rows {
		top = max(top, w.High)
	}
	top = min(1, math.Ceil(top*10+1e-9)/10)
	pos := func(v float64) string { return strconv.FormatFloat(100*v/top, 'f', 2, 64) + "%" }
	c := winChart{What: what, Top: percent(top), Fair: template.CSS("left:" + pos(fair))}
	for _, w := range rows {
		c.Rows = append(c.Rows, winRow{W: w,
			Bar:      template.CSS("width:" + pos(w.WinRate)),
			Interval: template.CSS("left:" + pos(w.Low) + ";width:" + pos(w.High-w.Low))})
	}
	return c
}

func newHistChart(name string, d *Distribution) histChart {
	c := histChart{Name: name, D: d, Median: strconv.Itoa(d.Median), P90: strconv.Itoa(d.P90)}
	for _, b := range d.Histogram {
		c.Most = max(c.Most, b.Games)
	}
	for _, b := range d.Histogram {
		bar := histBar{Label: b.label(), Games: b.Games}
		if c.Most > 0 {
			bar.Height = template.CSS("height:" + strconv.FormatFloat(100*float64(b.Games)/float64(c.Most), 'f', 2, 64) + "%")
		}
		switch {
		case d.Median >= b.From && d.Median <= b.To:
			bar.Mark = "median"
		case d.P90 >= b.From && d.P90 <= b.To:
			bar.Mark = "p90"
		}
		c.Bars = append(c.Bars, bar)
	}
	return c
}
