package sim

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Comparison is two versions of a game simulated with the same
// configuration, so the same seeds: each figure of both, with the
// difference, and whether the difference is beyond the noise.
type Comparison struct {
	// Files name the two versions (their files), when known.
	Files  []string `json:"files,omitempty"`
	Before *Report  `json:"before"`
	After  *Report  `json:"after"`
	// Changes are every figure of either report, in report order: win
	// rates, how games ended, game length, then the places' figures.
	Changes []Change `json:"changes"`
}

// Change is one figure of both versions.
type Change struct {
	// What is the figure's group: "wins", "games", "length" or "places".
	What string `json:"what"`
	// Kind and ID name a place (What "places").
	Kind string `json:"kind,omitempty"`
	ID   string `json:"id,omitempty"`
	// Name names the player, the place or the figure's subject.
	Name       string  `json:"name"`
	Figure     string  `json:"figure"`
	Before     float64 `json:"before"`
	After      float64 `json:"after"`
	Difference float64 `json:"difference"`
	// Beyond is set when the two 95% intervals do not overlap: the
	// change is more than the games' chance would make.
	Beyond bool `json:"beyond"`
	// BeforeLow, BeforeHigh, AfterLow and AfterHigh are the two
	// intervals, for a reader who wants to see how far apart they are.
	BeforeLow  float64 `json:"beforeLow"`
	BeforeHigh float64 `json:"beforeHigh"`
	AfterLow   float64 `json:"afterLow"`
	AfterHigh  float64 `json:"afterHigh"`
}

// CompareReports compares two reports of the same players and seed.
func CompareReports(before, after *Report) (*Comparison, error) {
	if before.Seed != after.Seed || strings.Join(before.Players, "\x00") != strings.Join(after.Players, "\x00") || before.Rotate != after.Rotate {
		return nil, errors.New("the two simulations were not played with the same players and seed")
	}
	c := &Comparison{Before: before, After: after, Changes: []Change{}}
	rate := func(what, name, figure string, kb, nb, ka, na int) {
		rb, lb, hb := Wilson(kb, nb)
		ra, la, ha := Wilson(ka, na)
		c.add(Change{What: what, Name: name, Figure: figure, Before: round(rb, 4), After: round(ra, 4),
			Beyond:    nb > 0 && na > 0 && (hb < la || ha < lb),
			BeforeLow: round(lb, 4), BeforeHigh: round(hb, 4), AfterLow: round(la, 4), AfterHigh: round(ha, 4)})
	}
	for i, s := range before.Seats {
		if i < len(after.Seats) {
			rate("wins", s.Name, "win rate", s.Wins, before.Decided, after.Seats[i].Wins, after.Decided)
		}
	}
	for i, s := range before.Positions {
		if i < len(after.Positions) {
			rate("wins", s.Name, "win rate", s.Wins, before.Decided, after.Positions[i].Wins, after.Decided)
		}
	}
	rate("games", "games", "without a winner", before.Draws, before.Games, after.Draws, after.Games)
	rate("games", "games", "hit the round limit", before.RoundLimit.Games, before.Games, after.RoundLimit.Games, after.Games)
	rate("games", "games", "failed", before.Failed.Games, before.Games, after.Failed.Games, after.Games)
	mean := func(figure string, b, a Distribution) {
		c.add(Change{What: "length", Name: "games", Figure: figure, Before: b.Mean, After: a.Mean,
			Beyond:    b.MeanHigh < a.MeanLow || a.MeanHigh < b.MeanLow,
			BeforeLow: b.MeanLow, BeforeHigh: b.MeanHigh, AfterLow: a.MeanLow, AfterHigh: a.MeanHigh})
	}
	mean("rounds (mean)", before.Length.Rounds, after.Length.Rounds)
	mean("commands (mean)", before.Length.Commands, after.Length.Commands)

	type key struct{ kind, id string }
	at := map[key]int{}
	for i, p := range after.Places {
		at[key{p.Kind, p.ID}] = i
	}
	seen := map[key]bool{}
	place := func(b, a *PlaceFigures) {
		p := b
		if p == nil {
			p = a
		}
		var names []string
		for _, f := range p.Figures {
			names = append(names, f.Name)
		}
		if b != nil && a != nil {
			for _, f := range a.Figures {
				if _, ok := b.Figure(f.Name); !ok {
					names = append(names, f.Name)
				}
			}
		}
		for _, name := range names {
			var fb, fa Figure
			if b != nil {
				fb, _ = b.Figure(name)
			}
			if a != nil {
				fa, _ = a.Figure(name)
			}
			if fb.PerGame == 0 && fa.PerGame == 0 {
				continue
			}
			c.add(Change{What: "places", Kind: p.Kind, ID: p.ID, Name: p.Name, Figure: name,
				Before: fb.PerGame, After: fa.PerGame, Beyond: fb.Beyond(fa),
				BeforeLow: fb.Low, BeforeHigh: fb.High, AfterLow: fa.Low, AfterHigh: fa.High})
		}
	}
	for i := range before.Places {
		b := &before.Places[i]
		k := key{b.Kind, b.ID}
		seen[k] = true
		if j, ok := at[k]; ok {
			place(b, &after.Places[j])
		} else {
			place(b, nil)
		}
	}
	for i := range after.Places {
		if a := &after.Places[i]; !seen[key{a.Kind, a.ID}] {
			place(nil, a)
		}
	}
	return c, nil
}

func (c *Comparison) add(ch Change) {
	ch.Difference = round(ch.After-ch.Before, 4)
	c.Changes = append(c.Changes, ch)
}

// Beyond counts the changes beyond the noise.
func (c *Comparison) Beyond() int {
	n := 0
	for _, ch := range c.Changes {
		if ch.Beyond {
			n++
		}
	}
	return n
}

// label names a change's subject and figure in a table.
func (ch Change) label() string {
	switch ch.What {
	case "places":
		return placeLabel(PlaceFigures{Kind: ch.Kind, ID: ch.ID, Name: ch.Name}) + ": " + ch.Figure + " per game"
	case "wins":
		return ch.Name + ": " + ch.Figure
	}
	return ch.Figure
}

// value writes a change's figure: a rate as a percentage.
func (ch Change) value(v float64) string {
	if ch.What == "wins" || ch.What == "games" {
		return percent(v)
	}
	return number(v, 3)
}

// difference writes the difference with its sign.
func (ch Change) difference() string {
	d := ch.Difference
	s := ""
	switch {
	case ch.What == "wins" || ch.What == "games":
		s = strconv.FormatFloat(100*d, 'f', 1, 64) + " pt"
	default:
		s = number(d, 3)
	}
	if d > 0 {
		s = "+" + s
	}
	return s
}

// sentence sums the comparison up.
func (c *Comparison) sentence() string {
	n := c.Beyond()
	switch n {
	case 0:
		return fmt.Sprintf("No figure of the %d moved beyond the noise: the two versions play alike, as far as %d games can tell.", len(c.Changes), c.Before.Games)
	case 1:
		return fmt.Sprintf("1 figure of the %d moved beyond the noise (marked *): their 95%% intervals do not overlap.", len(c.Changes))
	}
	return fmt.Sprintf("%d figures of the %d moved beyond the noise (marked *): their 95%% intervals do not overlap.", n, len(c.Changes))
}

// WriteText writes the comparison for a terminal: the two games, then a
// table of every figure of both, the difference, and a * where it is
// beyond the noise.
func (c *Comparison) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	before, after := c.Before.title(), c.After.title()
	if len(c.Files) == 2 {
		before, after = before+" ("+c.Files[0]+")", after+" ("+c.Files[1]+")"
	}
	p("before: %s\n", before)
	p("after:  %s\n", after)
	p("%s\n\n%s\n", c.Before.setup(), c.sentence())
	lw := len("figure")
	for _, ch := range c.Changes {
		lw = max(lw, min(56, utf8.RuneCountInString(ch.label())))
	}
	group := ""
	for _, ch := range c.Changes {
		if ch.What != group {
			group = ch.What
			p("\n  %s  %10s  %10s  %10s\n", pad(groupTitle(group), lw), "before", "after", "difference")
		}
		mark := ""
		if ch.Beyond {
			mark = " *"
		}
		p("  %s  %10s  %10s  %10s%s\n", pad(ch.label(), lw), ch.value(ch.Before), ch.value(ch.After), ch.difference(), mark)
	}
	return bw.Flush()
}

func groupTitle(what string) string {
	switch what {
	case "wins":
		return "Who wins"
	case "games":
		return "How games ended"
	case "length":
		return "How long games last"
	}
	return "Where things happen"
}

//go:embed compare.html.tmpl
var compareText string

var comparePage = template.Must(template.New("compare").Funcs(template.FuncMap{
	"title": groupTitle,
}).Parse(compareText))

// compareData is what the comparison page shows.
type compareData struct {
	C                     *Comparison
	Before, After, Setup  string
	Sentence              string
	Rows                  []compareRow
	Maps                  []mapPair
	BeforeGame, AfterGame string
}

type compareRow struct {
	Group, Label, Before, After, Difference string
	Beyond                                  bool
}

// mapPair draws a figure on both boards, on one scale.
type mapPair struct {
	Figure        string
	Before, After heatMap
}

// WriteHTML writes the comparison as one self-contained page: the table of
// every figure, the changes beyond the noise highlighted, and each figure's
// heat map of both versions side by side, on one colour scale.
func (c *Comparison) WriteHTML(w io.Writer) error {
	d := compareData{C: c, Before: c.Before.title(), After: c.After.title(), Setup: c.Before.setup(), Sentence: c.sentence()}
	for _, ch := range c.Changes {
		d.Rows = append(d.Rows, compareRow{Group: groupTitle(ch.What), Label: ch.label(), Before: ch.value(ch.Before),
			After: ch.value(ch.After), Difference: ch.difference(), Beyond: ch.Beyond})
	}
	if b, a := c.Before.Map, c.After.Map; b != nil && a != nil && b.Kind == a.Kind {
		for _, g := range c.Before.groups() {
			if g.Kind != b.Kind {
				continue
			}
			for _, f := range g.Figures {
				top := max(largest(c.Before.Places, b.Kind, f), largest(c.After.Places, b.Kind, f))
				hb, ok1 := drawHeat(b, c.Before.Places, f, top)
				ha, ok2 := drawHeat(a, c.After.Places, f, top)
				if ok1 && ok2 {
					d.Maps = append(d.Maps, mapPair{Figure: f, Before: hb, After: ha})
				}
			}
		}
	}
	return comparePage.Execute(w, d)
}

// largest is the largest per-game figure of the places of a kind.
func largest(places []PlaceFigures, kind, figure string) float64 {
	most := 0.0
	for _, p := range places {
		if p.Kind != kind {
			continue
		}
		if f, ok := p.Figure(figure); ok {
			most = max(most, f.PerGame)
		}
	}
	return most
}
